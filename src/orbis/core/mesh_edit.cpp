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

// The last plan each check_* accepted on this thread, for callers that check and then edit:
// the edit (or plan_*) finds it here when the mesh still has the stamp it was checked on, and
// skips the check. A refused check leaves stamp 0 here, which no mesh has. Constant-initialised,
// so reading it costs no guard.
// (A split's check is O(1), as cheap as looking here, so it is not remembered.)
struct Remembered {
    Flip_plan flip;
    Collapse_plan collapse;
};
constinit thread_local Remembered remembered;

Refusal stale(const char* op, Edge e) { return refuse(op, Refusal_kind::stale_plan, e); }

} // namespace

// ---------------------------------------------------------------------------------------------
// flip

// The quad around the base edge b = a->b: e1 = b->c, e2 = c->a (left face), e3 = a->d,
// e4 = d->b (right face), read with the records the check loads anyway and kept in the plan.
void Mesh::make_flip_plan(Edge e, Flip_plan& q) const {
    q.stamp_ = stamp_.value();
    q.edge_ = e;
    q.refusal_ = check_flip_quad(e, q);
}

std::optional<Refusal> Mesh::check_flip_quad(Edge e, Flip_plan& q) const {
    if (!contains(e)) return refuse("flip", Refusal_kind::invalid_element, e);
    q.b_ = e.base();
    const Quad_record& rb = record(q.b_);
    q.left_ = rb.left[0];
    q.right_ = rb.left[1];
    if (!q.left_.valid() || !q.right_.valid())
        return refuse("flip", Refusal_kind::boundary_edge, e);
    q.e1_ = rb.prev[1]; // left_next(b) == origin_prev(b.sym())
    q.e3_ = rb.prev[0]; // left_next(b.sym()) == origin_prev(b)
    const Quad_record& r1 = record(q.e1_);
    const Quad_record& r3 = record(q.e3_);
    const unsigned k1 = q.e1_.mask() & 1, k3 = q.e3_.mask() & 1;
    q.c_ = r1.origin[k1 ^ 1];
    q.e2_ = r1.prev[k1 ^ 1];
    q.d_ = r3.origin[k3 ^ 1];
    q.e4_ = r3.prev[k3 ^ 1];
    if (q.c_ == q.d_) return refuse("flip", Refusal_kind::degenerate_flip, e, q.c_);
    // Is d among c's other neighbours? c's ring runs e2 (c->a), e1.sym() (c->b), then the rest
    // back to e2. The rest is walked from both ends at once: each step is a cache miss on a
    // large mesh, and two chains of half the length finish in about half the time. (Walking d's
    // ring in step with c's measured no better: it overlaps misses without shortening the chain.)
    // e4's record is fetched now: the flip writes it next (a check alone merely wastes the fetch).
    __builtin_prefetch(&record(q.e4_));
    Edge x = r1.next[k1 ^ 1];
    if (x == q.e2_) return std::nullopt;
    Edge y = record(q.e2_).prev[q.e2_.mask() & 1];
    for (;;) {
        const Quad_record& rx = record(x);
        const Quad_record& ry = record(y);
        const unsigned kx = x.mask() & 1, ky = y.mask() & 1;
        if (rx.origin[kx ^ 1] == q.d_ || ry.origin[ky ^ 1] == q.d_)
            return refuse("flip", Refusal_kind::already_connected, e, q.d_, q.c_);
        if (x == y) break;
        x = rx.next[kx];
        if (x == y) break;
        y = ry.prev[ky];
    }
    return std::nullopt;
}

std::optional<Refusal> Mesh::check_flip(Edge e) const {
    Flip_plan& p = remembered.flip;
    if (checked_here(p, e)) return std::nullopt;
    make_flip_plan(e, p);         // in place: a copy would cost as much as the check's arithmetic
    if (p.refusal_) p.stamp_ = 0; // only accepted plans are remembered
    return p.refusal_;
}

Flip_plan Mesh::plan_flip(Edge e) const {
    Flip_plan p; // one return object, built in place (two would each be copied out)
    if (checked_here(remembered.flip, e))
        p = remembered.flip;
    else
        make_flip_plan(e, p);
    return p;
}

std::optional<Refusal> Mesh::check_flip(const Flip_plan& plan) const {
    if (plan.refusal_) return plan.refusal_;
    if (plan.stamp_ != stamp_.value()) return stale("flip", plan.edge_);
    return std::nullopt;
}

void Mesh::flip(Edge e) {
    if (auto r = try_flip(e)) throw Edit_refused(*r);
}

void Mesh::flip(const Flip_plan& plan) {
    if (auto r = try_flip(plan)) throw Edit_refused(*r);
}

std::optional<Refusal> Mesh::try_flip(Edge e) {
    if (checked_here(remembered.flip, e)) {
        apply_flip(remembered.flip);
        return std::nullopt;
    }
    Flip_plan p; // only the quad is needed: the plan is applied at once
    if (auto r = check_flip_quad(e, p)) return r;
    apply_flip(p);
    return std::nullopt;
}

std::optional<Refusal> Mesh::try_flip(const Flip_plan& plan) {
    if (auto r = check_flip(plan)) return r;
    apply_flip(plan);
    return std::nullopt;
}

// Each apply_* renews the stamp before its first write: even an edit cut short (an allocation
// failing in a copy-on-write clone) leaves no plan that matches the content.
void Mesh::apply_flip(const Flip_plan& q) {
    stamp_.renew();
    const Edge b = q.b_, s = b.sym();
    // The five quad-edges are distinct; each record is made writable once and then edited in
    // place (the links below are Mesh::link spelled out on those records).
    Quad_record& rb = record_mut(b);
    Quad_record& r1 = record_mut(q.e1_);
    Quad_record& r2 = record_mut(q.e2_);
    Quad_record& r3 = record_mut(q.e3_);
    Quad_record& r4 = record_mut(q.e4_);
    const unsigned k1 = q.e1_.mask() & 1, k2 = q.e2_.mask() & 1, k3 = q.e3_.mask() & 1,
                   k4 = q.e4_.mask() & 1;
    const Vertex va = rb.origin[0], vb = rb.origin[1];

    // Take b out of the rings of a and b: e3 -> e2.sym() around a, e1 -> e4.sym() around b.
    r3.next[k3] = q.e2_.sym();
    r2.prev[k2 ^ 1] = q.e3_;
    r1.next[k1] = q.e4_.sym();
    r4.prev[k4 ^ 1] = q.e1_;
    // Put it in as d -> c: e4 -> b -> e3.sym() around d, e2 -> s -> e1.sym() around c.
    r4.next[k4] = b;
    rb.prev[0] = q.e4_;
    rb.next[0] = q.e3_.sym();
    r3.prev[k3 ^ 1] = b;
    r2.next[k2] = s;
    rb.prev[1] = q.e2_;
    rb.next[1] = q.e1_.sym();
    r1.prev[k1 ^ 1] = s;
    rb.origin = {q.d_, q.c_};
    r3.left[k3] = q.left_;
    r1.left[k1] = q.right_;

    if (vertex_edge_[va.index()] == b) vertex_edge_.set(va.index(), q.e2_.sym());
    if (vertex_edge_[vb.index()] == s) vertex_edge_.set(vb.index(), q.e1_);
    face_edge_.set(q.left_.index(), b);
    face_edge_.set(q.right_.index(), s);
}

// ---------------------------------------------------------------------------------------------
// split

void Mesh::make_split_plan(Edge e, float t, Split_plan& p) const {
    p.stamp_ = stamp_.value();
    p.edge_ = e;
    p.t_ = t;
    p.refusal_ = std::nullopt;
    if (!contains(e)) {
        p.refusal_ = refuse("split", Refusal_kind::invalid_element, e);
    } else if (e.is_dual()) {
        p.refusal_ = refuse("split", Refusal_kind::dual_edge, e);
    } else if (bad_t(t)) {
        p.refusal_ = refuse("split", Refusal_kind::bad_parameter, e);
    } else if (!e.left(*this).valid() && !e.right(*this).valid()) {
        p.refusal_ = refuse("split", Refusal_kind::faceless_edge, e);
    }
}

std::optional<Refusal> Mesh::check_split(Edge e, float t) const {
    Split_plan p;
    make_split_plan(e, t, p);
    return p.refusal_;
}

Split_plan Mesh::plan_split(Edge e, float t) const {
    Split_plan p;
    make_split_plan(e, t, p);
    return p;
}

std::optional<Refusal> Mesh::check_split(const Split_plan& plan) const {
    if (plan.refusal_) return plan.refusal_;
    if (plan.stamp_ != stamp_.value()) return stale("split", plan.edge_);
    return std::nullopt;
}

Edge Mesh::split(Edge e, float t) {
    Edge n;
    if (auto r = try_split(e, t, &n)) throw Edit_refused(*r);
    return n;
}

Edge Mesh::split(const Split_plan& plan) {
    Edge n;
    if (auto r = try_split(plan, &n)) throw Edit_refused(*r);
    return n;
}

std::optional<Refusal> Mesh::try_split(Edge e, float t, Edge* out) {
    Split_plan p;
    make_split_plan(e, t, p);
    if (p.refusal_) return p.refusal_;
    const Edge n = apply_split(p);
    if (out) *out = n;
    return std::nullopt;
}

std::optional<Refusal> Mesh::try_split(const Split_plan& plan, Edge* out) {
    if (auto r = check_split(plan)) return r;
    const Edge n = apply_split(plan);
    if (out) *out = n;
    return std::nullopt;
}

Edge Mesh::apply_split(const Split_plan& p) {
    stamp_.renew();
    const Edge e = p.edge_;
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

void Mesh::make_collapse_plan(Edge e, float t, Collapse_plan& p) const {
    p.stamp_ = stamp_.value();
    p.edge_ = e;
    p.t_ = t;
    p.refusal_ = check_collapse_corners(e, t, p);
}

std::optional<Refusal> Mesh::check_collapse_corners(Edge e, float t, Collapse_plan& p) const {
    constexpr const char* op = "collapse";
    if (!contains(e)) return refuse(op, Refusal_kind::invalid_element, e);
    if (e.is_dual()) return refuse(op, Refusal_kind::dual_edge, e);
    if (bad_t(t)) return refuse(op, Refusal_kind::bad_parameter, e);
    const Edge s = e.sym();
    const Face left = e.left(*this), right = s.left(*this);
    p.left_ = left;
    p.right_ = right;
    if (!left.valid() && !right.valid()) return refuse(op, Refusal_kind::faceless_edge, e);
    const Vertex a = e.origin(*this), b = s.origin(*this);
    p.a_ = a;
    p.b_ = b;
    p.e1_ = left.valid() ? e.left_next(*this) : no_edge;
    p.e2_ = left.valid() ? p.e1_.left_next(*this) : no_edge;
    p.e3_ = right.valid() ? s.left_next(*this) : no_edge;
    p.e4_ = right.valid() ? p.e3_.left_next(*this) : no_edge;
    const Vertex c = left.valid() ? p.e1_.dest(*this) : no_vertex;
    const Vertex d = right.valid() ? p.e3_.dest(*this) : no_vertex;

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
    if (left.valid())
        if (auto r = check_corner(p.e1_, p.e2_, c)) return r;
    if (right.valid())
        if (auto r = check_corner(p.e3_, p.e4_, d)) return r;
    return std::nullopt;
}

std::optional<Refusal> Mesh::check_collapse(Edge e, float t) const {
    Collapse_plan& p = remembered.collapse;
    if (checked_here(p, e, t)) return std::nullopt;
    make_collapse_plan(e, t, p);
    if (p.refusal_) p.stamp_ = 0; // only accepted plans are remembered
    return p.refusal_;
}

Collapse_plan Mesh::plan_collapse(Edge e, float t) const {
    Collapse_plan p; // one return object, as in plan_flip
    if (checked_here(remembered.collapse, e, t))
        p = remembered.collapse;
    else
        make_collapse_plan(e, t, p);
    return p;
}

std::optional<Refusal> Mesh::check_collapse(const Collapse_plan& plan) const {
    if (plan.refusal_) return plan.refusal_;
    if (plan.stamp_ != stamp_.value()) return stale("collapse", plan.edge_);
    return std::nullopt;
}

Vertex Mesh::collapse(Edge e, float t) {
    const Vertex a = contains(e) && e.is_primal() ? e.origin(*this) : no_vertex;
    if (auto r = try_collapse(e, t)) throw Edit_refused(*r);
    return a;
}

Vertex Mesh::collapse(const Collapse_plan& plan) {
    if (auto r = try_collapse(plan)) throw Edit_refused(*r);
    return plan.a_;
}

std::optional<Refusal> Mesh::try_collapse(Edge e, float t) {
    if (checked_here(remembered.collapse, e, t)) {
        apply_collapse(remembered.collapse);
        return std::nullopt;
    }
    Collapse_plan p; // only the corners are needed: the plan is applied at once
    if (auto r = check_collapse_corners(e, t, p)) return r;
    p.edge_ = e;
    apply_collapse(p);
    return std::nullopt;
}

std::optional<Refusal> Mesh::try_collapse(const Collapse_plan& plan) {
    if (auto r = check_collapse(plan)) return r;
    apply_collapse(plan);
    return std::nullopt;
}

void Mesh::apply_collapse(const Collapse_plan& p) {
    stamp_.renew();
    const Edge e = p.edge_, s = e.sym();
    const Face left = p.left_, right = p.right_;
    const Vertex a = p.a_, b = p.b_;
    const Edge e1 = p.e1_; // b -> c, deleted
    const Edge e2 = p.e2_; // c -> a, survives
    const Edge e3 = p.e3_; // a -> d, survives
    const Edge e4 = p.e4_; // d -> b, deleted

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
}

} // namespace orbis
