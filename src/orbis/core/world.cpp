// SPDX-License-Identifier: MIT
// The World's bookkeeping: snapshots, entries, locks, memory and equality. Mesh edits through
// the lock are in world_mesh_lock.cpp.
#include "orbis/core/world.hpp"

#include <algorithm>

namespace orbis {

World::World(std::uint64_t seed)
    : random_(std::make_shared<std::mt19937_64>(seed)) {}

World::World(const World& other)
    : mesh_(other.mesh_)
    , mesh_version_(other.mesh_version_)
    , entries_((other.require_unlocked("copy a World"), other.entries_))
    , random_(other.random_)
    , hints_(other.hints_)
    , provenance_(other.provenance_)
    , callbacks_(other.callbacks_)
    , next_callbacks_id_(other.next_callbacks_id_) {}

World& World::operator=(const World& other) {
    if (this == &other) return *this;
    require_unlocked("assign to a World");
    World copy(other);
    *this = std::move(copy);
    return *this;
}

World::~World() = default;

World World::deep_copy() const {
    World copy(*this);
    copy.mesh_ = std::make_shared<Mesh>(mesh_->deep_copy());
    for (auto& [name, e] : copy.entries_) {
        if (e.typed) e.typed = e.typed->deep_clone();
        if (e.dict) e.dict = std::make_shared<Dict>(*e.dict);
    }
    copy.random_ = std::make_shared<std::mt19937_64>(*random_);
    return copy;
}

void World::require_unlocked(const char* what) const {
    std::string held;
    if (mesh_locked_) held = "the mesh";
    if (random_locked_) held += held.empty() ? "the random generator" : ", the random generator";
    for (const auto& [name, e] : entries_)
        if (e.locked) held += (held.empty() ? "layer '" : ", layer '") + name + "'";
    if (!held.empty())
        throw Layer_error(std::string("cannot ") + what + " while " + held +
                          " is locked; release the locks first");
}

const World::Entry* World::find_entry(std::string_view name) const {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
}

World::Entry* World::find_entry(std::string_view name) {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
}

void World::check_distinct(std::initializer_list<std::string_view> names) {
    for (auto i = names.begin(); i != names.end(); ++i)
        for (auto j = names.begin(); j != i; ++j)
            if (*i == *j)
                throw Layer_error("layer '" + std::string(*i) +
                                  "' is named twice in one lock_layer call");
}

std::string World::mismatch(std::string_view name, const Layer_base& existing,
                            std::string_view value, Layer_type type) {
    return "layer '" + std::string(name) + "' is a " + std::string(existing.value_name()) + " " +
           std::string(layer_type_name(existing.type())) + " layer, not a " + std::string(value) +
           " " + std::string(layer_type_name(type)) + " layer";
}

Layer_base& World::writable(Entry& e) {
    if (e.typed.use_count() > 1) e.typed = e.typed->clone();
    return *e.typed;
}

Mesh& World::writable_mesh() {
    if (mesh_.use_count() > 1) mesh_ = std::make_shared<Mesh>(*mesh_);
    return *mesh_;
}

void World::release_layer(Layer_base& layer) {
    const auto it = entries_.find(layer.name());
    if (it == entries_.end()) return;
    it->second.locked = false;
    --locked_layers_;
    layer.touch_values();
    if (it->second.doomed) entries_.erase(it);
}

void World::apply(Entry& e, Layer_action action) {
    switch (action) {
    case Layer_action::none:
        break;
    case Layer_action::reset_all:
        e.typed->reset(*mesh_);
        break;
    case Layer_action::remove_layer:
        e.doomed = true; // erased by the caller (now, or when its lock is released)
        break;
    }
}

Mesh_lock World::lock_mesh() {
    if (mesh_locked_) throw Layer_error("the mesh is already locked");
    mesh_locked_ = true;
    return Mesh_lock(*this);
}

const Layer_base* World::find_layer(std::string_view name) const {
    const Entry* e = find_entry(name);
    return e && !e->doomed ? e->typed.get() : nullptr;
}

std::vector<std::string> World::layer_names() const {
    std::vector<std::string> names;
    for (const auto& [name, e] : entries_)
        if (!e.doomed) names.push_back(name);
    return names;
}

bool World::remove_layer(std::string_view name) {
    const auto it = entries_.find(name);
    if (it == entries_.end() || it->second.doomed) return false;
    if (it->second.locked)
        throw Layer_error("cannot remove layer '" + std::string(name) + "' while it is locked");
    entries_.erase(it);
    return true;
}

const Dict* World::layer(std::string_view name) const {
    const Entry* e = find_entry(name);
    if (!e || e->doomed) return nullptr;
    if (!e->dict)
        throw Layer_error(
            "layer '" + std::string(name) + "' is a " + std::string(e->typed->value_name()) + " " +
            std::string(layer_type_name(e->typed->type())) + " layer, not a Dict layer");
    return e->dict.get();
}

Dict_lock World::lock_layer(std::string_view name) {
    if (name.empty()) throw Layer_error("a layer needs a name");
    Entry* e = find_entry(name);
    if (e) {
        if (e->locked) throw Layer_error("layer '" + std::string(name) + "' is already locked");
        (void)layer(name); // must be a Dict
    } else {
        e = &entries_.emplace(std::string(name), Entry{nullptr, std::make_shared<Dict>()})
                 .first->second;
    }
    if (e->dict.use_count() > 1) e->dict = std::make_shared<Dict>(*e->dict);
    e->locked = true;
    ++locked_layers_;
    return Dict_lock(*this, e->dict.get());
}

Dict_lock::~Dict_lock() {
    if (!world_) return;
    for (auto& [name, e] : world_->entries_)
        if (e.dict.get() == dict_) {
            e.locked = false;
            e.dict_version = next_version();
            --world_->locked_layers_;
        }
}

Random_lock World::lock_random() {
    if (random_locked_) throw Layer_error("the random generator is already locked");
    if (random_.use_count() > 1) random_ = std::make_shared<std::mt19937_64>(*random_);
    random_locked_ = true;
    return Random_lock(*this, random_.get());
}

Random_lock::~Random_lock() {
    if (world_) world_->random_locked_ = false;
}

std::uint64_t World::add_mesh_callbacks(Mesh_callbacks callbacks) {
    const std::uint64_t id = next_callbacks_id_++;
    callbacks_.push_back({id, std::make_shared<const Mesh_callbacks>(std::move(callbacks))});
    return id;
}

bool World::remove_mesh_callbacks(std::uint64_t id) {
    const auto it = std::find_if(callbacks_.begin(), callbacks_.end(),
                                 [&](const Callbacks_entry& c) { return c.id == id; });
    if (it == callbacks_.end()) return false;
    callbacks_.erase(it);
    return true;
}

World_memory World::memory() const {
    World_memory m;
    m.bytes = mesh_->connectivity_bytes();
    if (mesh_.use_count() == 1) m.private_bytes = mesh_->private_connectivity_bytes();
    for (const auto& [name, e] : entries_) {
        if (!e.typed) continue;
        m.bytes += e.typed->bytes();
        if (e.typed.use_count() == 1) m.private_bytes += e.typed->private_bytes();
    }
    return m;
}

std::size_t World::bytes_not_shared_with(const World& other) const {
    std::size_t bytes = 0;
    if (mesh_ != other.mesh_) bytes += mesh_->connectivity_bytes_not_shared_with(*other.mesh_);
    for (const auto& [name, e] : entries_) {
        if (!e.typed) continue;
        const auto o = other.entries_.find(name);
        if (o == other.entries_.end() || !o->second.typed)
            bytes += e.typed->bytes();
        else if (e.typed != o->second.typed)
            bytes += e.typed->bytes_not_shared_with(*o->second.typed);
    }
    return bytes;
}

std::optional<std::uint64_t> World::version_of(std::string_view name) const {
    const Entry* e = find_entry(name);
    if (!e || e->doomed) return std::nullopt;
    return e->typed ? e->typed->values_version() : e->dict_version;
}

const Layer_hints* World::hints(std::string_view name) const {
    const auto it = hints_->find(name);
    return it == hints_->end() ? nullptr : &it->second;
}

void World::set_hints(std::string_view name, Layer_hints hints) {
    const Layer_hints* now = this->hints(name);
    if (now ? *now == hints : hints.empty()) return;
    auto copy = std::make_shared<std::map<std::string, Layer_hints, std::less<>>>(*hints_);
    if (hints.empty())
        copy->erase(copy->find(name));
    else
        (*copy)[std::string(name)] = std::move(hints);
    hints_ = std::move(copy);
}

void World::set_provenance(Provenance provenance) {
    provenance_ = std::make_shared<const Provenance>(std::move(provenance));
}

bool operator==(const World& a, const World& b) {
    if (a.mesh_ != b.mesh_ && !(*a.mesh_ == *b.mesh_)) return false;
    if (a.hints_ != b.hints_ && !(*a.hints_ == *b.hints_)) return false;
    if (a.provenance_ != b.provenance_ && !same_provenance(a, b)) return false;
    if (a.random_ != b.random_ && !(*a.random_ == *b.random_)) return false;
    if (a.entries_.size() != b.entries_.size()) return false;
    for (auto i = a.entries_.begin(), j = b.entries_.begin(); i != a.entries_.end(); ++i, ++j) {
        if (i->first != j->first || i->second.doomed != j->second.doomed) return false;
        const auto& x = i->second;
        const auto& y = j->second;
        if (x.typed) {
            if (!y.typed || (x.typed != y.typed && !x.typed->equals(*y.typed))) return false;
        } else {
            if (!y.dict || (x.dict != y.dict && !(*x.dict == *y.dict))) return false;
        }
    }
    return true;
}

#define ORBIS_LAYER_LOCK(T, Type)                                                                  \
    template class Layer_lock<T, Type>;                                                            \
    template const Layer<T, Type>* World::layer(const Layer_info<T, Type>&) const;                 \
    template std::tuple<Layer_lock<T, Type>> World::lock_layer(const Layer_info<T, Type>&);        \
    template Layer_lock<T, Type> World::lock_new_layer(const Layer_info<T, Type>&);
ORBIS_FOR_EACH_LAYER(ORBIS_LAYER_LOCK)
#undef ORBIS_LAYER_LOCK

} // namespace orbis
