// SPDX-License-Identifier: MIT
// The World: the mesh, its typed layers, unstructured Dict layers and a seeded random
// generator, all shared copy-on-write so that a copy is a snapshot (SPEC "World", seed 003).
#pragma once

#include "orbis/core/dict.hpp"
#include "orbis/core/layer.hpp"
#include "orbis/core/layer_hints.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/core/provenance.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace orbis {

class World;

/// Callbacks a module registers to keep its own layers right through mesh edits, for logic the
/// Interpolation and On_mesh_change modes cannot express (e.g. swapping a value between a
/// primal edge and its dual on a flip). Each runs with the mesh locked: it may read the mesh
/// and lock layers, but not edit the mesh. "before" callbacks run after the edit's check passed
/// and before anything changed; "after" callbacks after the mesh and every layer followed the
/// edit. Empty members are skipped.
struct Mesh_callbacks {
    /// Before flip(e) (e as the caller passed it).
    std::function<void(World&, Edge e)> before_flip;
    /// After flip(e).
    std::function<void(World&, Edge e)> after_flip;
    /// Before split(e, t).
    std::function<void(World&, Edge e, float t)> before_split;
    /// After split(e, t); `created` is the edge split returned (new vertex -> old dest).
    std::function<void(World&, Edge e, Edge created, float t)> after_split;
    /// Before collapse(e, t).
    std::function<void(World&, Edge e, float t)> before_collapse;
    /// After collapse(e, t); `survivor` is the merged vertex.
    std::function<void(World&, Vertex survivor, float t)> after_collapse;
};

/// Memory a World refers to, from the library's own accounting of chunks.
struct World_memory {
    std::size_t bytes = 0;         ///< mesh and layer chunks, shared or not
    std::size_t private_bytes = 0; ///< chunks no other World (snapshot) refers to
};

/// Write access to a World's mesh. Edits made through it update every layer (SPEC "Layers")
/// and bump the mesh's version; refused edits change nothing, not even versions. At most one
/// Mesh_lock per World at a time; it must not outlive the World.
class Mesh_lock {
public:
    Mesh_lock(Mesh_lock&& other) noexcept
        : world_(std::exchange(other.world_, nullptr)) {}
    Mesh_lock& operator=(Mesh_lock&&) = delete;
    /// Releases the lock.
    ~Mesh_lock();
    /// Releases the lock early; the lock is empty afterwards.
    void release();

    /// The mesh, for reading and for the check_* functions.
    const Mesh& operator*() const;
    /// The mesh, for reading and for the check_* functions.
    const Mesh* operator->() const { return &**this; }

    /// Mesh::add_vertex; the new vertex has every vertex layer's initial value.
    Vertex add_vertex();
    /// Mesh::add_vertices; the new vertices have initial values.
    Vertex add_vertices(std::uint32_t n);
    /// Mesh::add_face; the new face and edges have initial values. \throws Edit_refused.
    Face add_face(Vertex a, Vertex b, Vertex c);
    /// add_face without the exception.
    std::optional<Refusal> try_add_face(Vertex a, Vertex b, Vertex c, Face* out = nullptr);
    /// Mesh::flip; face and edge layers follow On_mesh_change for the two faces and the
    /// flipped edge. \throws Edit_refused (nothing changed, no callback run).
    void flip(Edge e);
    /// flip without the exception. Checks once (or not at all right after an accepted
    /// `lock->check_flip(e)` on this thread: Mesh::check_flip).
    std::optional<Refusal> try_flip(Edge e);
    /// The flip of a plan made on this World's mesh (`lock->plan_flip(e)`), not checked again;
    /// a plan made before the mesh's last edit, or on another mesh, is refused as stale_plan
    /// with nothing changed and no callback run. \throws Edit_refused.
    void flip(const Flip_plan& plan);
    /// flip(plan) without the exception.
    std::optional<Refusal> try_flip(const Flip_plan& plan);
    /// Mesh::split; new elements are interpolated per SPEC. \throws Edit_refused.
    Edge split(Edge e, float t = 0.5f);
    /// split without the exception; the new edge in `out` if given.
    std::optional<Refusal> try_split(Edge e, float t = 0.5f, Edge* out = nullptr);
    /// The split of a plan made on this World's mesh (`lock->plan_split(e, t)`); stale plans
    /// are refused as for flip(plan). \throws Edit_refused.
    Edge split(const Split_plan& plan);
    /// split(plan) without the exception; the new edge in `out` if given.
    std::optional<Refusal> try_split(const Split_plan& plan, Edge* out = nullptr);
    /// Mesh::collapse; the survivor and the merged edges are interpolated, deleted and changed
    /// elements follow On_mesh_change. \throws Edit_refused.
    Vertex collapse(Edge e, float t = 0.5f);
    /// collapse without the exception. Checks once (or not at all right after an accepted
    /// `lock->check_collapse(e, t)` on this thread: Mesh::check_collapse).
    std::optional<Refusal> try_collapse(Edge e, float t = 0.5f);
    /// The collapse of a plan made on this World's mesh (`lock->plan_collapse(e, t)`), not
    /// checked again; stale plans are refused as for flip(plan). \throws Edit_refused.
    Vertex collapse(const Collapse_plan& plan);
    /// collapse(plan) without the exception.
    std::optional<Refusal> try_collapse(const Collapse_plan& plan);
    /// Replaces the whole mesh (for generators that build one in bulk); every layer is resized
    /// to it and reset to its initial value.
    void assign(Mesh mesh);
    /// Replaces the mesh by `mesh` with the same vertices but other faces and edges (e.g. the
    /// triangulation of the same points made afresh): vertex layers keep their values, face and
    /// edge layers are resized and reset to their initial values. \throws std::invalid_argument
    /// (nothing changed) when `mesh` has other vertex slots or other live vertices. O(vertices).
    void replace_connectivity(Mesh mesh);

private:
    friend class World;
    explicit Mesh_lock(World& world)
        : world_(&world) {}
    World* world_;
};

/// Write access to one typed layer of a World, from World::lock_layer. Releasing it (on
/// destruction or release()) stamps a new version and, when the layer validates its range,
/// checks the values written: if one is out of range, the layer's values go back to what they
/// were when it was locked (unless the mesh changed meanwhile) and Layer_error is thrown with
/// the layer, element and value. Must not outlive the World.
template <class T, Layer_type Type>
class Layer_lock {
public:
    /// The locked layer's type.
    using layer_type = Layer<T, Type>;
    /// The id type that indexes the layer.
    using key_type = Layer_key<Type>;

    Layer_lock(Layer_lock&& other) noexcept
        : world_(std::exchange(other.world_, nullptr))
        , layer_(other.layer_)
        , before_(std::move(other.before_))
        , mesh_version_(other.mesh_version_)
        , exceptions_(other.exceptions_)
        , fresh_(other.fresh_) {}
    Layer_lock& operator=(Layer_lock&&) = delete;
    /// Releases the lock; throws Layer_error only when no other exception is in flight.
    ~Layer_lock() noexcept(false) {
        if (world_) finish(std::uncaught_exceptions() == exceptions_);
    }
    /// Releases the lock now. \throws Layer_error when a written value is out of range.
    void release() {
        if (world_) finish(true);
    }

    /// The value of `k` for writing (copies its chunk first if a snapshot shares it).
    T& operator[](key_type k) { return layer_->values_.mut(layer_type::slot(k)); }
    /// The value of `k`.
    const T& get(key_type k) const { return (*layer_)[k]; }
    /// Sets the value of `k`.
    void set(key_type k, const T& value) { (*this)[k] = value; }
    /// The values of chunk `c` for writing in bulk (copied first if a snapshot shares it);
    /// see Layer::chunk.
    std::span<T> chunk(std::size_t c) {
        return {layer_->values_.mut_chunk(c), layer_->chunk(c).size()};
    }
    /// Sets every slot to `value`.
    void fill(const T& value) { layer_->values_ = Chunked_array<T>(layer_->values_.size(), value); }
    /// Number of slots.
    std::size_t size() const { return layer_->size(); }
    /// The layer, for reading.
    const layer_type& layer() const { return *layer_; }
    /// The layer, for reading.
    const layer_type* operator->() const { return layer_; }

private:
    friend class World;
    Layer_lock(World& world, layer_type* layer, std::shared_ptr<Layer_base> before,
               std::uint64_t mesh_version, bool fresh = false)
        : world_(&world)
        , layer_(layer)
        , before_(std::move(before))
        , mesh_version_(mesh_version)
        , exceptions_(std::uncaught_exceptions())
        , fresh_(fresh) {}
    void finish(bool may_throw);

    World* world_;
    layer_type* layer_;
    std::shared_ptr<Layer_base> before_; // the layer as locked, when it validates its range
    std::uint64_t mesh_version_;
    int exceptions_;
    bool fresh_ = false; // a new layer its caller fills (lock_new_layer): checked whole
};

/// Write access to a Dict layer of a World, from World::lock_layer(name).
class Dict_lock {
public:
    Dict_lock(Dict_lock&& other) noexcept
        : world_(std::exchange(other.world_, nullptr))
        , dict_(other.dict_) {}
    Dict_lock& operator=(Dict_lock&&) = delete;
    /// Releases the lock.
    ~Dict_lock();
    /// The dict.
    Dict& operator*() const { return *dict_; }
    /// The dict.
    Dict* operator->() const { return dict_; }

private:
    friend class World;
    Dict_lock(World& world, Dict* dict)
        : world_(&world)
        , dict_(dict) {}
    World* world_;
    Dict* dict_;
};

/// Write access to a World's random generator (std::mt19937_64, whose raw output is the same
/// on every platform): usable directly as a UniformRandomBitGenerator.
class Random_lock {
public:
    /// The engine's result type.
    using result_type = std::mt19937_64::result_type;
    Random_lock(Random_lock&& other) noexcept
        : world_(std::exchange(other.world_, nullptr))
        , engine_(other.engine_) {}
    Random_lock& operator=(Random_lock&&) = delete;
    /// Releases the lock.
    ~Random_lock();
    /// The engine.
    std::mt19937_64& operator*() const { return *engine_; }
    /// The engine.
    std::mt19937_64* operator->() const { return engine_; }
    /// The next raw number.
    result_type operator()() { return (*engine_)(); }
    /// Smallest raw number.
    static constexpr result_type min() { return std::mt19937_64::min(); }
    /// Largest raw number.
    static constexpr result_type max() { return std::mt19937_64::max(); }

private:
    friend class World;
    Random_lock(World& world, std::mt19937_64* engine)
        : world_(&world)
        , engine_(engine) {}
    World* world_;
    std::mt19937_64* engine_;
};

/// The mesh, its typed layers, Dict layers and a seeded random generator (SPEC "World").
///
/// Copying a World is a snapshot: O(number of layers), no element data copied. Mesh, layers,
/// dicts and generator are shared until one side writes; then only the chunks the write
/// touches are copied (4,096 values per layer chunk, 256 quad-edges per mesh chunk), so an
/// undo stack is a vector of Worlds. Reading is free; writing goes through locks, which keep
/// versions, run validation and keep layers in step with mesh edits. A World is not
/// thread-safe; distinct Worlds (snapshots included) may be used from distinct threads only
/// when no copy is being made from one of them at the time.
class World {
public:
    /// An empty world whose generator is seeded with `seed`.
    explicit World(std::uint64_t seed = 0);
    /// A snapshot of `other`. \throws Layer_error when `other` has a lock open.
    World(const World& other);
    /// Becomes a snapshot of `other`. \throws Layer_error when either has a lock open.
    World& operator=(const World& other);
    /// Takes over `other` (which must have no lock open).
    World(World&& other) noexcept = default;
    /// Takes over `other` (neither may have a lock open).
    World& operator=(World&& other) noexcept = default;
    ~World();

    /// \name The mesh
    ///@{
    /// The mesh, for reading.
    const Mesh& mesh() const { return *mesh_; }
    /// Stamp of the mesh's last modification.
    std::uint64_t mesh_version() const { return mesh_version_; }
    /// Write access to the mesh. \throws Layer_error if the mesh is already locked.
    Mesh_lock lock_mesh();
    ///@}

    /// \name Typed layers
    ///@{
    /// The layer named by `info`, or nullptr when there is none.
    /// \throws Layer_error when a layer of that name has another value type or element kind.
    template <class T, Layer_type Type>
    const Layer<T, Type>* layer(const Layer_info<T, Type>& info) const;
    /// Locks the layers named by `infos`, creating the missing ones (every value initial), for
    /// `auto [a, b] = world.lock_layer(ia, ib);`. All or nothing: nothing is created or locked
    /// when one info is refused. \throws Layer_error when a layer is already locked or named
    /// twice, has another value type or kind, or a new layer's interpolation mode does not
    /// suit its type or its initial value is outside a validated range.
    template <class... Infos>
    std::tuple<Layer_lock<typename Infos::value_type, Infos::type>...>
    lock_layer(const Infos&... infos);
    /// Creates the layer `info` names and locks it with its values unspecified: the caller
    /// must write every value through Layer_lock::chunk() before releasing the lock or
    /// reading the layer. How a loader writes a large layer's memory once (no initial fill,
    /// no copy for the range check); on release every value is checked when the info
    /// validates its range, and a refused layer is reset to its initial values. Only for
    /// trivially copyable values. \throws Layer_error as lock_layer does, and when a layer of
    /// that name exists. O(size / chunk size).
    template <class T, Layer_type Type>
    Layer_lock<T, Type> lock_new_layer(const Layer_info<T, Type>& info);
    /// The typed or Dict layer of that name, type-erased (nullptr for none or a Dict).
    const Layer_base* find_layer(std::string_view name) const;
    /// Names of all typed and Dict layers, sorted.
    std::vector<std::string> layer_names() const;
    /// Removes the typed or Dict layer `name`; false when there was none.
    /// \throws Layer_error when it is locked.
    bool remove_layer(std::string_view name);
    ///@}

    /// \name Dict layers
    ///@{
    /// The Dict layer `name`, or nullptr. \throws Layer_error when `name` is a typed layer.
    const Dict* layer(std::string_view name) const;
    /// Locks the Dict layer `name`, creating it empty when missing.
    /// \throws Layer_error when it is locked or `name` is a typed layer.
    Dict_lock lock_layer(std::string_view name);
    ///@}

    /// The values version of the typed or Dict layer `name` (Layer_base::values_version: writes
    /// through a lock, not values that follow mesh edits), or nothing when there is none.
    std::optional<std::uint64_t> version_of(std::string_view name) const;

    /// \name Display hints and provenance
    /// Plain data that travels with the World: snapshots share it, files save it, == compares
    /// it. Neither is a layer, so neither appears in layer_names().
    ///@{
    /// The display hints of layer `name`, or nullptr when none were set.
    const Layer_hints* hints(std::string_view name) const;
    /// Sets the display hints of layer `name` (the layer need not exist yet); empty hints
    /// remove them. O(layers with hints).
    void set_hints(std::string_view name, Layer_hints hints);
    /// Every layer's hints, by name.
    const std::map<std::string, Layer_hints, std::less<>>& all_hints() const { return *hints_; }
    /// The steps that made this World (see provenance.hpp).
    const Provenance& provenance() const { return *provenance_; }
    /// Replaces the record of the steps that made this World.
    void set_provenance(Provenance provenance);
    ///@}

    /// \name Random numbers
    ///@{
    /// The generator's state, for reading (file formats compare and save it).
    const std::mt19937_64& random() const { return *random_; }
    /// The generator, for writing (drawing numbers changes its state, which snapshots keep).
    /// \throws Layer_error when it is already locked.
    Random_lock lock_random();
    ///@}

    /// \name Callbacks
    ///@{
    /// Registers callbacks for mesh edits; they are copied into snapshots. Returns an id for
    /// remove_mesh_callbacks.
    std::uint64_t add_mesh_callbacks(Mesh_callbacks callbacks);
    /// Unregisters callbacks; false when the id is unknown.
    bool remove_mesh_callbacks(std::uint64_t id);
    ///@}

    /// A copy that shares no chunk with this World (for measuring what snapshots save; a plain
    /// copy is a snapshot). O(size). \throws Layer_error when a lock is open.
    World deep_copy() const;

    /// Memory referred to, and memory private to this World (not shared with any snapshot).
    /// O(number of chunks).
    World_memory memory() const;
    /// Bytes of mesh and layer chunks of this World that `other` does not share: what keeping
    /// both costs beyond keeping `other`, e.g. an undo step's snapshot after its neighbour.
    /// O(number of chunks).
    std::size_t bytes_not_shared_with(const World& other) const;

    /// Same mesh, same layers (names, types, settings, values) and dicts, same generator
    /// state, same hints and provenance. Versions and callbacks are not compared. Shared chunks are
    /// not read.
    friend bool operator==(const World& a, const World& b);

private:
    friend class Mesh_lock;
    template <class, Layer_type>
    friend class Layer_lock;
    friend class Dict_lock;
    friend class Random_lock;

    struct Entry {
        std::shared_ptr<Layer_base> typed; // one of typed and dict is set
        std::shared_ptr<Dict> dict;
        bool locked = false;
        bool doomed = false; // removed by a mesh edit while locked: erased on release
        std::uint64_t dict_version = next_version(); // a Dict layer's stamp (typed: unused)
    };
    struct Callbacks_entry {
        std::uint64_t id;
        std::shared_ptr<const Mesh_callbacks> callbacks;
    };
    using Entries = std::map<std::string, Entry, std::less<>>;

    void require_unlocked(const char* what) const;
    const Entry* find_entry(std::string_view name) const;
    Entry* find_entry(std::string_view name);
    template <class T, Layer_type Type>
    static const Layer<T, Type>* typed_layer(const Entry& e, std::string_view name);
    template <class T, Layer_type Type>
    void check_lockable(const Layer_info<T, Type>& info) const;
    template <class T, Layer_type Type>
    Layer_lock<T, Type> lock_one(const Layer_info<T, Type>& info);
    static void check_distinct(std::initializer_list<std::string_view> names);
    static std::string mismatch(std::string_view name, const Layer_base& existing,
                                std::string_view value, Layer_type type);
    Layer_base& writable(Entry& e); // the entry's layer, cloned first if a snapshot shares it
    Mesh& writable_mesh();
    void apply(Entry& e, Layer_action action);
    void release_layer(Layer_base& layer);
    template <class Needs, class Follow>
    void follow(Needs needs, Follow follow);
    template <class Call>
    void run_callbacks(Call call);

    std::shared_ptr<Mesh> mesh_ = std::make_shared<Mesh>();
    std::uint64_t mesh_version_ = next_version();
    Entries entries_;
    std::shared_ptr<std::mt19937_64> random_;
    std::shared_ptr<const std::map<std::string, Layer_hints, std::less<>>> hints_ =
        std::make_shared<const std::map<std::string, Layer_hints, std::less<>>>();
    std::shared_ptr<const Provenance> provenance_ = std::make_shared<const Provenance>();
    std::vector<Callbacks_entry> callbacks_;
    std::uint64_t next_callbacks_id_ = 1;
    bool mesh_locked_ = false;
    bool random_locked_ = false;
    int locked_layers_ = 0;
    std::vector<Edge> scratch_edges_; // collapse's moved edges and faces, reused
    std::vector<Face> scratch_faces_;
};

// ---- templates ----

template <class T, Layer_type Type>
const Layer<T, Type>* World::typed_layer(const Entry& e, std::string_view name) {
    auto* layer = dynamic_cast<const Layer<T, Type>*>(e.typed.get());
    if (!layer) throw Layer_error(mismatch(name, *e.typed, layer_value_name<T>(), Type));
    return layer;
}

template <class T, Layer_type Type>
const Layer<T, Type>* World::layer(const Layer_info<T, Type>& info) const {
    const Entry* e = find_entry(info.name());
    if (!e || e->doomed) return nullptr;
    if (!e->typed)
        throw Layer_error("layer '" + std::string(info.name()) + "' is a Dict layer, not a " +
                          std::string(layer_value_name<T>()) + " " +
                          std::string(layer_type_name(Type)) + " layer");
    return typed_layer<T, Type>(*e, info.name());
}

template <class T, Layer_type Type>
void World::check_lockable(const Layer_info<T, Type>& info) const {
    const std::string name(info.name());
    if (name.empty()) throw Layer_error("a layer needs a name");
    if (const Entry* e = find_entry(name)) {
        if (e->locked)
            throw Layer_error("layer '" + name + "' is already locked" +
                              (e->doomed ? " (and removed by a mesh edit)" : ""));
        (void)layer(info); // type and kind must match
        return;
    }
    const std::string what = "layer '" + name + "' (" + std::string(layer_value_name<T>()) + ", " +
                             std::string(layer_type_name(Type)) + ")";
    if (const auto why = why_not<T>(info.interpolation_mode()))
        throw Layer_error(what + ": interpolation " +
                          std::string(interpolation_name(info.interpolation_mode())) +
                          " refused: " + std::string(*why));
    if (info.validation() == Validation::range && !info.in_range(info.initial_value()))
        throw Layer_error(what + ": the initial value is outside the validated range, so "
                                 "every new or reset element would be invalid");
}

template <class T, Layer_type Type>
Layer_lock<T, Type> World::lock_one(const Layer_info<T, Type>& info) {
    Entry* e = find_entry(info.name());
    if (!e) {
        auto [it, inserted] =
            entries_.emplace(std::string(info.name()),
                             Entry{std::make_shared<Layer<T, Type>>(info, *mesh_), nullptr});
        e = &it->second;
    }
    auto& layer = static_cast<Layer<T, Type>&>(writable(*e));
    e->locked = true;
    ++locked_layers_;
    layer.touch();
    std::shared_ptr<Layer_base> before;
    if (layer.validates()) before = layer.clone();
    return Layer_lock<T, Type>(*this, &layer, std::move(before), mesh_version_);
}

template <class T, Layer_type Type>
Layer_lock<T, Type> World::lock_new_layer(const Layer_info<T, Type>& info) {
    static_assert(std::is_trivially_copyable_v<T>, "lock_new_layer: values written as bytes");
    check_lockable(info);
    if (find_entry(info.name()))
        throw Layer_error("layer '" + std::string(info.name()) + "' exists already");
    auto [it, inserted] = entries_.emplace(
        std::string(info.name()), Entry{std::shared_ptr<Layer<T, Type>>(new Layer<T, Type>(
                                            info, *mesh_, typename Layer<T, Type>::Unfilled{})),
                                        nullptr});
    auto& layer = static_cast<Layer<T, Type>&>(*it->second.typed);
    it->second.locked = true;
    ++locked_layers_;
    layer.touch();
    return Layer_lock<T, Type>(*this, &layer, nullptr, mesh_version_, true);
}

template <class... Infos>
std::tuple<Layer_lock<typename Infos::value_type, Infos::type>...>
World::lock_layer(const Infos&... infos) {
    check_distinct({infos.name()...});
    (check_lockable(infos), ...);
    // Braced initialisation runs left to right; nothing below can be refused any more.
    return std::tuple<Layer_lock<typename Infos::value_type, Infos::type>...>{lock_one(infos)...};
}

template <class T, Layer_type Type>
void Layer_lock<T, Type>::finish(bool may_throw) {
    World& world = *std::exchange(world_, nullptr);
    std::optional<std::string> problem;
    // A new layer released by an exception may be half filled: it goes back unread.
    if (fresh_ && !may_throw)
        problem = "";
    else if (before_ || (fresh_ && layer_->validates()))
        problem = layer_->check_range(before_.get());
    const bool restore = problem && world.mesh_version_ == mesh_version_;
    if (restore && before_) layer_->values_ = static_cast<const layer_type&>(*before_).values_;
    if (restore && !before_) // a new layer: what it held before its caller filled it
        layer_->values_ = Chunked_array<T>(layer_->size(), layer_->info_.initial_value());
    before_.reset();
    world.release_layer(*layer_);
    if (problem && may_throw)
        throw Layer_error(*problem + (restore ? "; the layer's values were restored"
                                              : "; the values stay (the mesh changed while "
                                                "the layer was locked)"));
}

// Each lock class is compiled once, in world.cpp (see layer.hpp's ORBIS_FOR_EACH_LAYER).
#define ORBIS_EXTERN_LAYER_LOCK(T, Type)                                                           \
    extern template class Layer_lock<T, Type>;                                                     \
    extern template const Layer<T, Type>* World::layer(const Layer_info<T, Type>&) const;          \
    extern template std::tuple<Layer_lock<T, Type>> World::lock_layer(const Layer_info<T, Type>&); \
    extern template Layer_lock<T, Type> World::lock_new_layer(const Layer_info<T, Type>&);
ORBIS_FOR_EACH_LAYER(ORBIS_EXTERN_LAYER_LOCK)
#undef ORBIS_EXTERN_LAYER_LOCK

} // namespace orbis
