// SPDX-License-Identifier: MIT
// add_face: every case of seed 001, decided per corner on the primal edge rings.
//
// A face (a, b, c) needs, at each corner v with incoming edge u->v and outgoing edge v->w,
// origin_next(v->w) == v->u: the face is the wedge between them. Each corner is decided on its
// own ring (the three rings are distinct), first without writing anything, so a refusal leaves
// the mesh untouched; the dual rings follow from the primal links (Mesh::link).
#include "orbis/core/mesh.hpp"

namespace orbis {

namespace {

enum class Corner_kind {
    isolated,    // v has no edges: the two face edges form its ring
    into_gap,    // neither edge exists; v has exactly one open wedge (gap) to put the face in
    after_out,   // v->w exists: v->u goes right after it
    before_back, // v->u exists: v->w goes right before it
    done,        // both exist and are adjacent: the ring is right already (filling a hole)
    move_block,  // both exist with other fans between them: those fans move to the one other gap
};

struct Corner_plan {
    Corner_kind kind = Corner_kind::isolated;
    Edge gap; // into_gap / move_block: the edge after which the wedge is open
};

} // namespace

struct Add_face_plan {
    std::array<Vertex, 3> v;
    std::array<Edge, 3> existing; // existing edge v[i] -> v[i+1], or no_edge
    std::array<Corner_plan, 3> corner;
};

namespace {

Refusal refuse(Refusal_kind kind, Vertex v = no_vertex, Vertex other = no_vertex, Face f = no_face,
               Edge e = no_edge) {
    return Refusal{kind, "add_face", e, v, other, f};
}

// The single open wedge among the edges from `first` up to (not including) `stop` around their
// origin, counting every edge with no face on its left; `stop == first` walks the whole ring.
std::optional<Refusal> find_gap(const Mesh& m, Vertex v, Edge first, Edge stop, Edge& gap) {
    int gaps = 0;
    Edge e = first;
    do {
        if (!e.left(m).valid()) {
            gap = e;
            ++gaps;
        }
        e = e.origin_next(m);
    } while (e != stop);
    if (gaps == 0) return refuse(Refusal_kind::vertex_closed, v);
    if (gaps > 1) return refuse(Refusal_kind::ambiguous_fan, v);
    return std::nullopt;
}

std::optional<Refusal> plan(const Mesh& m, Vertex a, Vertex b, Vertex c, Add_face_plan& p) {
    p.v = {a, b, c};
    for (const Vertex v : p.v)
        if (!m.contains(v)) return refuse(Refusal_kind::invalid_element, v);
    if (a == b || a == c) return refuse(Refusal_kind::repeated_vertex, a);
    if (b == c) return refuse(Refusal_kind::repeated_vertex, b);

    for (int i = 0; i < 3; ++i) {
        const Vertex from = p.v[i], to = p.v[(i + 1) % 3];
        const Edge e = m.find_edge(from, to);
        p.existing[i] = e;
        if (!e.valid()) continue;
        const Face f = e.left(m);
        if (!f.valid()) continue;
        // The face on the left of from->to has (from, to, x) as corners; x == the third vertex
        // means the very same face.
        const Vertex x = e.left_next(m).dest(m);
        if (x == p.v[(i + 2) % 3]) return refuse(Refusal_kind::duplicate_face, from, to, f, e);
        return refuse(Refusal_kind::edge_side_taken, from, to, f, e);
    }

    for (int i = 0; i < 3; ++i) {
        const Vertex v = p.v[i];
        const Edge out = p.existing[i];                    // v -> next
        const Edge in = p.existing[(i + 2) % 3];           // prev -> v
        const Edge back = in.valid() ? in.sym() : no_edge; // v -> prev
        auto& plan = p.corner[i];
        if (!out.valid() && !back.valid()) {
            const Edge first = v.edge(m);
            if (!first.valid()) {
                plan.kind = Corner_kind::isolated;
                continue;
            }
            plan.kind = Corner_kind::into_gap;
            if (auto r = find_gap(m, v, first, first, plan.gap)) return r;
        } else if (!back.valid()) {
            plan.kind = Corner_kind::after_out;
        } else if (!out.valid()) {
            plan.kind = Corner_kind::before_back;
        } else if (out.origin_next(m) == back) {
            plan.kind = Corner_kind::done;
        } else {
            // Fans between out and back have to move out of the way, into the one open wedge
            // of the rest of the ring (back ... out).
            plan.kind = Corner_kind::move_block;
            if (auto r = find_gap(m, v, back, out, plan.gap)) return r;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<Refusal> Mesh::check_add_face(Vertex a, Vertex b, Vertex c) const {
    Add_face_plan p;
    return plan(*this, a, b, c, p);
}

Face Mesh::add_face(Vertex a, Vertex b, Vertex c) {
    Face f;
    if (auto r = try_add_face(a, b, c, &f)) throw Edit_refused(*r);
    return f;
}

std::optional<Refusal> Mesh::try_add_face(Vertex a, Vertex b, Vertex c, Face* out) {
    Add_face_plan p;
    if (auto r = plan(*this, a, b, c, p)) return r;
    stamp_.renew();

    std::array<Edge, 3> edge; // v[i] -> v[i+1], existing or new
    for (int i = 0; i < 3; ++i)
        edge[i] = p.existing[i].valid() ? p.existing[i] : new_quad(p.v[i], p.v[(i + 1) % 3]);

    for (int i = 0; i < 3; ++i) {
        const Vertex v = p.v[i];
        const Edge o = edge[i];
        const Edge back = edge[(i + 2) % 3].sym();
        const Corner_plan& plan = p.corner[i];
        switch (plan.kind) {
        case Corner_kind::isolated:
            link(o, back);
            link(back, o);
            vertex_edge_.set(v.index(), o);
            break;
        case Corner_kind::into_gap: {
            const Edge h = plan.gap.origin_next(*this);
            link(plan.gap, o);
            link(o, back);
            link(back, h);
            break;
        }
        case Corner_kind::after_out: {
            const Edge x = o.origin_next(*this);
            link(o, back);
            link(back, x);
            break;
        }
        case Corner_kind::before_back: {
            const Edge prev = back.origin_prev(*this);
            link(prev, o);
            link(o, back);
            break;
        }
        case Corner_kind::done:
            break;
        case Corner_kind::move_block: {
            const Edge first = o.origin_next(*this);
            const Edge last = back.origin_prev(*this);
            const Edge h = plan.gap.origin_next(*this);
            link(o, back);
            link(plan.gap, first);
            link(last, h);
            break;
        }
        }
    }

    const Face f = new_face(edge[0]);
    for (const Edge e : edge)
        set_left(e, f);
    if (out) *out = f;
    return std::nullopt;
}

} // namespace orbis
