// SPDX-License-Identifier: MIT
// Collects the World_delta of the edits made on a World, for in-place buffer updates.
#include "orbis/core/delta_recorder.hpp"

#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

namespace orbis {

struct Delta_recorder::State {
    World_delta delta;

    // A vertex with every face and edge around it: what an edit at the vertex can change.
    void vertex_and_faces(const Mesh& m, Vertex v) {
        if (!m.contains(v)) return;
        delta.vertices.push_back(v);
        for (const Face f : v.faces(m))
            delta.faces.push_back(f);
        for (const Edge e : v.edges(m))
            delta.edges.push_back(e.base());
    }
    // Both ends of e and the faces around them.
    void edge(const Mesh& m, Edge e) {
        if (!m.contains(e)) return;
        vertex_and_faces(m, e.origin(m));
        vertex_and_faces(m, e.dest(m));
    }
    // The corners of the faces on both sides of e: a flip or split changes exactly these.
    void quad(const Mesh& m, Edge e) {
        if (!m.contains(e)) return;
        for (const Face f : {e.left(m), e.right(m)}) {
            if (!f.valid()) continue;
            delta.faces.push_back(f);
            for (const Vertex v : f.vertices(m))
                delta.vertices.push_back(v);
        }
        delta.edges.push_back(e.base());
    }
};

Delta_recorder::Delta_recorder(World& world)
    : world_(world)
    , state_(std::make_shared<State>()) {
    state_->delta = delta_from(world);
    Mesh_callbacks c;
    const std::weak_ptr<State> weak = state_;
    auto with = [weak](auto&& f) {
        if (const auto s = weak.lock()) f(*s);
    };
    c.before_flip = [with](World& w, Edge e) { with([&](State& s) { s.quad(w.mesh(), e); }); };
    c.after_flip = [with](World& w, Edge e) { with([&](State& s) { s.quad(w.mesh(), e); }); };
    c.before_split = [with](World& w, Edge e, float) {
        with([&](State& s) { s.quad(w.mesh(), e); });
    };
    c.after_split = [with](World& w, Edge, Edge created, float) {
        with([&](State& s) { s.vertex_and_faces(w.mesh(), created.origin(w.mesh())); });
    };
    c.before_collapse = [with](World& w, Edge e, float) {
        with([&](State& s) { s.edge(w.mesh(), e); });
    };
    c.after_collapse = [with](World& w, Vertex survivor, float) {
        with([&](State& s) { s.vertex_and_faces(w.mesh(), survivor); });
    };
    callbacks_id_ = world.add_mesh_callbacks(std::move(c));
}

Delta_recorder::~Delta_recorder() { world_.remove_mesh_callbacks(callbacks_id_); }

void Delta_recorder::touch(Vertex v) { state_->delta.vertices.push_back(v); }

void Delta_recorder::touch(Face f) { state_->delta.faces.push_back(f); }

World_delta Delta_recorder::delta() const { return state_->delta; }

} // namespace orbis
