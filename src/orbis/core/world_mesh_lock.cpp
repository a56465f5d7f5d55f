// SPDX-License-Identifier: MIT
// Mesh edits through the World's lock: the edit on the mesh, then every layer follows it
// (SPEC "Layers": split interpolates, collapse merges, On_mesh_change for deleted and changed
// elements), then versions and the modules' callbacks.
#include "orbis/core/world.hpp"

namespace orbis {

// Runs follow(layer) on every live typed layer that needs(layer), making it writable first,
// and carries out what the layers ask for (reset, removal).
template <class Needs, class Follow>
void World::follow(Needs needs, Follow follow) {
    bool removed = false;
    for (auto& [name, e] : entries_) {
        if (!e.typed || e.doomed || !needs(static_cast<const Layer_base&>(*e.typed))) continue;
        Layer_base& layer = writable(e);
        apply(e, follow(layer));
        layer.touch();
        removed = removed || e.doomed;
    }
    if (removed)
        std::erase_if(entries_,
                      [](const auto& kv) { return kv.second.doomed && !kv.second.locked; });
}

template <class Call>
void World::run_callbacks(Call call) {
    if (callbacks_.empty()) return;
    const auto list = callbacks_; // a callback may register or remove callbacks
    for (const auto& c : list)
        call(*c.callbacks);
}

namespace {

constexpr auto every_layer = [](const Layer_base&) { return true; };

// The ends, faces and surrounding edges of e = a -> b (seed 002's names), which split and
// collapse both record before the edit.
template <class Change>
void read_quad(const Mesh& m, Edge e, float t, Change& c) {
    c.t = t;
    c.e = e;
    c.a = e.origin(m);
    c.b = e.dest(m);
    c.left = e.left(m);
    c.right = e.right(m);
    if (c.left.valid()) {
        c.e1 = e.left_next(m);
        c.e2 = c.e1.left_next(m);
    }
    if (c.right.valid()) {
        c.e3 = e.sym().left_next(m);
        c.e4 = c.e3.left_next(m);
    }
}

} // namespace

Mesh_lock::~Mesh_lock() { release(); }

void Mesh_lock::release() {
    if (World* w = std::exchange(world_, nullptr)) w->mesh_locked_ = false;
}

const Mesh& Mesh_lock::operator*() const { return world_->mesh(); }

Vertex Mesh_lock::add_vertex() {
    World& w = *world_;
    const Vertex v = w.writable_mesh().add_vertex();
    Added_elements added;
    added.first_vertex = v;
    added.vertex_count = 1;
    w.follow(every_layer, [&](Layer_base& l) {
        l.on_added(*w.mesh_, added);
        return Layer_action::none;
    });
    w.mesh_version_ = next_version();
    return v;
}

Vertex Mesh_lock::add_vertices(std::uint32_t n) {
    World& w = *world_;
    const Vertex first = w.writable_mesh().add_vertices(n);
    Added_elements added;
    added.first_vertex = first;
    added.vertex_count = n;
    w.follow(every_layer, [&](Layer_base& l) {
        l.on_added(*w.mesh_, added);
        return Layer_action::none;
    });
    w.mesh_version_ = next_version();
    return first;
}

Face Mesh_lock::add_face(Vertex a, Vertex b, Vertex c) {
    Face f;
    if (auto r = try_add_face(a, b, c, &f)) throw Edit_refused(*r);
    return f;
}

std::optional<Refusal> Mesh_lock::try_add_face(Vertex a, Vertex b, Vertex c, Face* out) {
    World& w = *world_;
    if (auto r = w.mesh().check_add_face(a, b, c)) return r;
    const Vertex corners[3] = {a, b, c};
    bool existed[3];
    for (int i = 0; i < 3; ++i)
        existed[i] = w.mesh().find_edge(corners[i], corners[(i + 1) % 3]).valid();
    const Face f = w.writable_mesh().add_face(a, b, c);
    Added_elements added;
    added.face = f;
    for (int i = 0; i < 3; ++i)
        if (!existed[i])
            added.edges[added.edge_count++] =
                w.mesh().find_edge(corners[i], corners[(i + 1) % 3]).base();
    w.follow(every_layer, [&](Layer_base& l) {
        l.on_added(*w.mesh_, added);
        return Layer_action::none;
    });
    w.mesh_version_ = next_version();
    if (out) *out = f;
    return std::nullopt;
}

// Each edit by edge plans it on the current mesh (one check, or none when the mesh remembers an
// accepted check_*) and carries out the plan: the World's own steps never check twice.

void Mesh_lock::flip(Edge e) {
    if (auto r = try_flip(e)) throw Edit_refused(*r);
}

std::optional<Refusal> Mesh_lock::try_flip(Edge e) { return try_flip(world_->mesh().plan_flip(e)); }

void Mesh_lock::flip(const Flip_plan& plan) {
    if (auto r = try_flip(plan)) throw Edit_refused(*r);
}

std::optional<Refusal> Mesh_lock::try_flip(const Flip_plan& plan) {
    World& w = *world_;
    if (auto r = w.mesh().check_flip(plan)) return r;
    const Edge e = plan.edge();
    w.run_callbacks([&](const Mesh_callbacks& c) {
        if (c.before_flip) c.before_flip(w, e);
    });
    const Mesh& m = w.mesh();
    const Edge b = e.base();
    const Flip_change change{b, b.left(m), b.right(m)};
    // Refused only if a callback edited the mesh, which they may not: the mesh is then as it
    // was (a shared mesh is cloned first, which keeps its content and so the plan's stamp).
    if (auto r = w.writable_mesh().try_flip(plan)) return r;
    w.follow([](const Layer_base& l) { return l.follows_flip(); },
             [&](Layer_base& l) { return l.on_flip(*w.mesh_, change); });
    w.mesh_version_ = next_version();
    w.run_callbacks([&](const Mesh_callbacks& c) {
        if (c.after_flip) c.after_flip(w, e);
    });
    return std::nullopt;
}

Edge Mesh_lock::split(Edge e, float t) {
    Edge created;
    if (auto r = try_split(e, t, &created)) throw Edit_refused(*r);
    return created;
}

std::optional<Refusal> Mesh_lock::try_split(Edge e, float t, Edge* out) {
    return try_split(world_->mesh().plan_split(e, t), out);
}

Edge Mesh_lock::split(const Split_plan& plan) {
    Edge created;
    if (auto r = try_split(plan, &created)) throw Edit_refused(*r);
    return created;
}

std::optional<Refusal> Mesh_lock::try_split(const Split_plan& plan, Edge* out) {
    World& w = *world_;
    if (auto r = w.mesh().check_split(plan)) return r;
    const Edge e = plan.edge();
    const float t = plan.t();
    w.run_callbacks([&](const Mesh_callbacks& c) {
        if (c.before_split) c.before_split(w, e, t);
    });
    Split_change s;
    read_quad(w.mesh(), e, t, s);
    Edge n;
    if (auto r = w.writable_mesh().try_split(plan, &n)) return r; // as in try_flip(plan)
    const Mesh& m = w.mesh();
    s.n = n;
    s.m = n.origin(m);
    if (s.left.valid()) {
        s.g = n.origin_next(m);
        s.new_left = n.left(m);
    }
    if (s.right.valid()) {
        s.h = e.sym().origin_next(m);
        s.new_right = n.sym().left(m);
    }
    w.follow(every_layer, [&](Layer_base& l) { return l.on_split(m, s); });
    w.mesh_version_ = next_version();
    w.run_callbacks([&](const Mesh_callbacks& c) {
        if (c.after_split) c.after_split(w, e, n, t);
    });
    if (out) *out = n;
    return std::nullopt;
}

Vertex Mesh_lock::collapse(Edge e, float t) { return collapse(world_->mesh().plan_collapse(e, t)); }

std::optional<Refusal> Mesh_lock::try_collapse(Edge e, float t) {
    return try_collapse(world_->mesh().plan_collapse(e, t));
}

Vertex Mesh_lock::collapse(const Collapse_plan& plan) {
    const Mesh& m = world_->mesh();
    const Vertex a = m.check_collapse(plan) ? no_vertex : plan.edge().origin(m);
    if (auto r = try_collapse(plan)) throw Edit_refused(*r);
    return a;
}

std::optional<Refusal> Mesh_lock::try_collapse(const Collapse_plan& plan) {
    World& w = *world_;
    if (auto r = w.mesh().check_collapse(plan)) return r;
    const Edge e = plan.edge();
    const float t = plan.t();
    w.run_callbacks([&](const Mesh_callbacks& c) {
        if (c.before_collapse) c.before_collapse(w, e, t);
    });
    Collapse_change k;
    {
        const Mesh& m = w.mesh();
        const Edge s = e.sym();
        read_quad(m, e, t, k);
        w.scratch_edges_.clear();
        w.scratch_faces_.clear();
        for (const Edge x : k.b.edges(m)) {
            if (x != s && x != k.e1 && !(k.e4.valid() && x == k.e4.sym()))
                w.scratch_edges_.push_back(x);
            const Face f = x.left(m);
            if (f.valid() && f != k.left && f != k.right) w.scratch_faces_.push_back(f);
        }
        k.moved_edges = w.scratch_edges_;
        k.moved_faces = w.scratch_faces_;
    }
    if (auto r = w.writable_mesh().try_collapse(plan)) return r; // as in try_flip(plan)
    w.follow(every_layer, [&](Layer_base& l) { return l.on_collapse(*w.mesh_, k); });
    w.mesh_version_ = next_version();
    w.run_callbacks([&](const Mesh_callbacks& c) {
        if (c.after_collapse) c.after_collapse(w, k.a, t);
    });
    return std::nullopt;
}

void Mesh_lock::assign(Mesh mesh) {
    World& w = *world_;
    w.mesh_ = std::make_shared<Mesh>(std::move(mesh));
    for (auto& [name, e] : w.entries_) {
        if (!e.typed || e.doomed) continue;
        Layer_base& layer = w.writable(e); // a locked layer stays the object its lock holds
        layer.reset(*w.mesh_);
        layer.touch();
    }
    w.mesh_version_ = next_version();
}

void Mesh_lock::replace_connectivity(Mesh mesh) {
    World& w = *world_;
    const Mesh& old = *w.mesh_;
    bool same = mesh.vertex_slots() == old.vertex_slots();
    for (std::uint32_t i = 0; same && i < old.vertex_slots(); ++i)
        same = mesh.contains(Vertex{i}) == old.contains(Vertex{i});
    if (!same)
        throw std::invalid_argument(
            "replace_connectivity: the new mesh must have the same vertex slots and live vertices");
    w.mesh_ = std::make_shared<Mesh>(std::move(mesh));
    for (auto& [name, e] : w.entries_) {
        if (!e.typed || e.doomed) continue;
        if (e.typed->type() == Layer_type::vertex) continue;
        Layer_base& layer = w.writable(e);
        layer.reset(*w.mesh_);
        layer.touch();
    }
    w.mesh_version_ = next_version();
}

} // namespace orbis
