// SPDX-License-Identifier: MIT
// flip, split and collapse (seed 002) with their checks, written as edits of the primal rings;
// Mesh::link keeps the dual rings in step. Names follow the figures of seed 002: e = a->b,
// left face (a, b, c), right face (b, a, d).
#include "orbis/core/mesh.hpp"

#include <cmath>

namespace orbis {

namespace {

Refusal refuse(const char* op, Refusal_kind kind, Edge e, Vertex v = no_vertex,
               Vertex other = no_vertex, Face f = no_face) {
    return Refusal{kind, op, e, v, other, f};
}

bool bad_t(float t) { return !(t >= 0.f && t <= 1.f); }

} // namespace

// ---------------------------------------------------------------------------------------------
// flip

// The quad around the base edge b = a->b: e1 = b->c, e2 = c->a (left face), e3 = a->d,
// e4 = d->b (right face). Read with the records the check has loaded anyway.
struct Mesh::Flip_quad {
    Edge b, e1, e2, e3, e4;
    Vertex c, d;
    Face left, right;
};

std::optional<Refusal> Mesh::plan_flip(Edge e, Flip_quad& q) const {
    if (!contains(e)) return refuse("flip", Refusal_kind::invalid_element, e);
    q.b = e.base();
    const Quad_record& rb = record(q.b);
    q.left = rb.left[0];
    q.right = rb.left[1];
    if (!q.left.valid() || !q.right.valid()) return refuse("flip", Refusal_kind::boundary_edge, e);
    q.e1 = rb.prev[1]; // left_next(b) == origin_prev(b.sym())
    q.e3 = rb.prev[0]; // left_next(b.sym()) == origin_prev(b)
    const Quad_record& r1 = record(q.e1);
    const Quad_record& r3 = record(q.e3);
    const unsigned k1 = q.e1.mask() & 1, k3 = q.e3.mask() & 1;
    q.c = r1.origin[k1 ^ 1];
    q.e2 = r1.prev[k1 ^ 1];
    q.d = r3.origin[k3 ^ 1];
    q.e4 = r3.prev[k3 ^ 1];
    if (q.c == q.d) return refuse("flip", Refusal_kind::degenerate_flip, e, q.c);
    // Is d among c's other neighbours? c's ring runs e2 (c->a), e1.sym() (c->b), then the rest
    // back to e2. The rest is walked from both ends at once: each step is a cache miss on a
    // large mesh, and two chains of half the length finish in about half the time. (Walking d's
    // ring in step with c's measured no better: it overlaps misses without shortening the chain.)
    // e4's record is fetched now: try_flip writes it next (check_flip merely wastes the fetch).
    __builtin_prefetch(&record(q.e4));
    Edge x = r1.next[k1 ^ 1];
    if (x == q.e2) return std::nullopt;
    Edge y = record(q.e2).prev[q.e2.mask() & 1];
    for (;;) {
        const Quad_record& rx = record(x);
        const Quad_record& ry = record(y);
        const unsigned kx = x.mask() & 1, ky = y.mask() & 1;
        if (rx.origin[kx ^ 1] == q.d || ry.origin[ky ^ 1] == q.d)
            return refuse("flip", Refusal_kind::already_connected, e, q.d, q.c);
        if (x == y) break;
        x = rx.next[kx];
        if (x == y) break;
        y = ry.prev[ky];
    }
    return std::nullopt;
}

std::optional<Refusal> Mesh::check_flip(Edge e) const {
    Flip_quad q;
    return plan_flip(e, q);
}

void Mesh::flip(Edge e) {
    if (auto r = try_flip(e)) throw Edit_refused(*r);
}

std::optional<Refusal> Mesh::try_flip(Edge e) {
    Flip_quad q;
    if (auto r = plan_flip(e, q)) return r;
    const Edge b = q.b, s = b.sym();
    // The five quad-edges are distinct; each record is made writable once and then edited in
    // place (the links below are Mesh::link spelled out on those records).
    Quad_record& rb = record_mut(b);
    Quad_record& r1 = record_mut(q.e1);
    Quad_record& r2 = record_mut(q.e2);
    Quad_record& r3 = record_mut(q.e3);
    Quad_record& r4 = record_mut(q.e4);
    const unsigned k1 = q.e1.mask() & 1, k2 = q.e2.mask() & 1, k3 = q.e3.mask() & 1,
                   k4 = q.e4.mask() & 1;
    const Vertex va = rb.origin[0], vb = rb.origin[1];

    // Take b out of the rings of a and b: e3 -> e2.sym() around a, e1 -> e4.sym() around b.
    r3.next[k3] = q.e2.sym();
    r2.prev[k2 ^ 1] = q.e3;
    r1.next[k1] = q.e4.sym();
    r4.prev[k4 ^ 1] = q.e1;
    // Put it in as d -> c: e4 -> b -> e3.sym() around d, e2 -> s -> e1.sym() around c.
    r4.next[k4] = b;
    rb.prev[0] = q.e4;
    rb.next[0] = q.e3.sym();
    r3.prev[k3 ^ 1] = b;
    r2.next[k2] = s;
    rb.prev[1] = q.e2;
    rb.next[1] = q.e1.sym();
    r1.prev[k1 ^ 1] = s;
    rb.origin = {q.d, q.c};
    r3.left[k3] = q.left;
    r1.left[k1] = q.right;

    if (vertex_edge_[va.index()] == b) vertex_edge_.set(va.index(), q.e2.sym());
    if (vertex_edge_[vb.index()] == s) vertex_edge_.set(vb.index(), q.e1);
    face_edge_.set(q.left.index(), b);
    face_edge_.set(q.right.index(), s);
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// split

std::optional<Refusal> Mesh::check_split(Edge e, float t) const {
    if (!contains(e)) return refuse("split", Refusal_kind::invalid_element, e);
    if (e.is_dual()) return refuse("split", Refusal_kind::dual_edge, e);
    if (bad_t(t)) return refuse("split", Refusal_kind::bad_parameter, e);
    if (!e.left(*this).valid() && !e.right(*this).valid())
        return refuse("split", Refusal_kind::faceless_edge, e);
    return std::nullopt;
}

Edge Mesh::split(Edge e, float t) {
    if (auto r = check_split(e, t)) throw Edit_refused(*r);
    // Read everything before the first write: the rings change under the traversal below.
    const Edge s = e.sym();
    const Face left = e.left(*this), right = s.left(*this);
    const Vertex b = s.origin(*this);
    const Edge s_prev = s.origin_prev(*this);
    const Edge s_next = s.origin_next(*this);
    const Edge e1 = left.valid() ? e.left_next(*this) : no_edge;   // b -> c
    const Edge e2 = left.valid() ? e1.left_next(*this) : no_edge;  // c -> a
    const Edge e3 = right.valid() ? s.left_next(*this) : no_edge;  // a -> d
    const Edge e4 = right.valid() ? e3.left_next(*this) : no_edge; // d -> b

    const Vertex m = add_vertex();
    const Edge n = new_quad(m, b); // m -> b
    vertex_edge_.set(m.index(), n);
    if (vertex_edge_[b.index()] == s) vertex_edge_.set(b.index(), n.sym());
    set_origin(s, m);

    // b's ring: b->m takes the place of b->a.
    link(s_prev, n.sym());
    link(n.sym(), s_next);

    // m's ring, counterclockwise: n (m->b), g (m->c), s (m->a), h (m->d), each present only
    // where its face exists.
    Edge g = no_edge, h = no_edge;
    if (left.valid()) {
        g = new_quad(m, e2.origin(*this));
        link(e2, g.sym());
        link(g.sym(), e1.sym());
        const Face fl = new_face(n);
        set_left(n, fl);
        set_left(e1, fl);
        set_left(g.sym(), fl);
        set_left(g, left);
        face_edge_.set(left.index(), e);
    }
    if (right.valid()) {
        h = new_quad(m, e4.origin(*this));
        link(e4, h.sym());
        link(h.sym(), e3.sym());
        const Face fr = new_face(n.sym());
        set_left(n.sym(), fr);
        set_left(h, fr);
        set_left(e4, fr);
        set_left(h.sym(), right);
        face_edge_.set(right.index(), s);
    }
    const Edge after_n = g.valid() ? g : s;
    link(n, after_n);
    if (g.valid()) link(g, s);
    const Edge after_s = h.valid() ? h : n;
    link(s, after_s);
    if (h.valid()) link(h, n);
    return n;
}

// ---------------------------------------------------------------------------------------------
// collapse

std::optional<Refusal> Mesh::check_collapse(Edge e, float t) const {
    constexpr const char* op = "collapse";
    if (!contains(e)) return refuse(op, Refusal_kind::invalid_element, e);
    if (e.is_dual()) return refuse(op, Refusal_kind::dual_edge, e);
    if (bad_t(t)) return refuse(op, Refusal_kind::bad_parameter, e);
    const Edge s = e.sym();
    const Face left = e.left(*this), right = s.left(*this);
    if (!left.valid() && !right.valid()) return refuse(op, Refusal_kind::faceless_edge, e);
    const Vertex a = e.origin(*this), b = s.origin(*this);
    const Vertex c = left.valid() ? e.left_next(*this).dest(*this) : no_vertex;
    const Vertex d = right.valid() ? s.left_next(*this).dest(*this) : no_vertex;

    // Link condition: the only common neighbours of a and b are the opposite corners. One walk
    // around each end collects what the later checks need too.
    constexpr int small = 32;
    Vertex b_neighbors[small];
    int b_count = 0;
    bool b_boundary = false;
    for (const Edge eb : b.edges(*this)) {
        if (!eb.left(*this).valid()) b_boundary = true;
        const Vertex x = eb.dest(*this);
        if (x == a || x == c || x == d) continue;
        if (b_count == small) {
            b_count = -1; // valence beyond the buffer: fall back to find_edge below
            break;
        }
        b_neighbors[b_count++] = x;
    }
    bool a_boundary = false;
    for (const Edge ea : a.edges(*this)) {
        if (!ea.left(*this).valid()) a_boundary = true;
        const Vertex x = ea.dest(*this);
        if (x == b || x == c || x == d) continue;
        if (b_count < 0) {
            if (find_edge(b, x).valid()) return refuse(op, Refusal_kind::link_condition, e, x);
            continue;
        }
        for (int i = 0; i < b_count; ++i)
            if (b_neighbors[i] == x) return refuse(op, Refusal_kind::link_condition, e, x);
    }
    if (b_count < 0) b_boundary = is_boundary(b);
    if (left.valid() && right.valid() && a_boundary && b_boundary)
        return refuse(op, Refusal_kind::unconnected_fans, e, a, b);

    // The corners: no edge may lose both its faces, and an interior corner of valence 3 that
    // passed the link condition belongs to a tetrahedron.
    auto check_corner = [&](Edge first, Edge second, Vertex corner) -> std::optional<Refusal> {
        if (!first.right(*this).valid() && !second.right(*this).valid())
            return refuse(op, Refusal_kind::dangling_edge, e, corner);
        int valence = 0;
        for (const Edge x : corner.edges(*this)) {
            if (!x.left(*this).valid()) return std::nullopt;
            if (++valence > 3) return std::nullopt;
        }
        return refuse(op, Refusal_kind::tetrahedron, e, corner);
    };
    if (left.valid()) {
        const Edge e1 = e.left_next(*this);
        if (auto r = check_corner(e1, e1.left_next(*this), c)) return r;
    }
    if (right.valid()) {
        const Edge e3 = s.left_next(*this);
        if (auto r = check_corner(e3, e3.left_next(*this), d)) return r;
    }
    return std::nullopt;
}

Vertex Mesh::collapse(Edge e, float t) {
    const Vertex a = contains(e) && e.is_primal() ? e.origin(*this) : no_vertex;
    if (auto r = try_collapse(e, t)) throw Edit_refused(*r);
    return a;
}

std::optional<Refusal> Mesh::try_collapse(Edge e, float t) {
    if (auto r = check_collapse(e, t)) return r;
    const Edge s = e.sym();
    const Face left = e.left(*this), right = s.left(*this);
    const Vertex a = e.origin(*this), b = s.origin(*this);
    const Edge e1 = left.valid() ? e.left_next(*this) : no_edge;   // b -> c, deleted
    const Edge e2 = left.valid() ? e1.left_next(*this) : no_edge;  // c -> a, survives
    const Edge e3 = right.valid() ? s.left_next(*this) : no_edge;  // a -> d, survives
    const Edge e4 = right.valid() ? e3.left_next(*this) : no_edge; // d -> b, deleted

    // The new ring of a: a's edges without e, with b's edges (without e.sym(), b->d and b->c,
    // which merge into a->d and a->c) in the place of e.
    const Edge a_prev = e.origin_prev(*this); // e3 when the right face exists
    const Edge a_next = e.origin_next(*this); // e2.sym() when the left face exists
    Edge first_b = s.origin_next(*this);
    if (right.valid()) first_b = first_b.origin_next(*this); // skip b -> d
    const Edge stop_b = left.valid() ? e1 : s;

    Edge prev = a_prev;
    for (Edge x = first_b; x != stop_b;) {
        const Edge next = x.origin_next(*this);
        set_origin(x, a);
        link(prev, x);
        prev = x;
        x = next;
    }
    link(prev, a_next);
    if (vertex_edge_[a.index()] == e) vertex_edge_.set(a.index(), a_next);

    if (left.valid()) {
        // c: c->b leaves the ring; c->a takes over the face beyond c->b.
        const Vertex c = e2.origin(*this);
        const Edge cb = e1.sym();
        link(e2, cb.origin_next(*this));
        if (vertex_edge_[c.index()] == cb) vertex_edge_.set(c.index(), e2);
        const Face beyond = cb.left(*this);
        set_left(e2, beyond);
        if (beyond.valid() && face_edge_[beyond.index()] == cb) face_edge_.set(beyond.index(), e2);
        delete_quad(e1);
        delete_face(left);
    }
    if (right.valid()) {
        // d: d->b leaves the ring; a->d takes over the face beyond b->d.
        const Vertex d = e4.origin(*this);
        link(e4.origin_prev(*this), e3.sym());
        if (vertex_edge_[d.index()] == e4) vertex_edge_.set(d.index(), e3.sym());
        const Face beyond = e4.sym().left(*this);
        set_left(e3, beyond);
        if (beyond.valid() && face_edge_[beyond.index()] == e4.sym())
            face_edge_.set(beyond.index(), e3);
        delete_quad(e4);
        delete_face(right);
    }
    delete_quad(e);
    delete_vertex(b);
    return std::nullopt;
}

} // namespace orbis
