// SPDX-License-Identifier: MIT
// The quad-edge mesh: a triangle mesh and its dual stored together (seeds 003, 001, 002).
#pragma once

#include "orbis/core/chunked_array.hpp"
#include "orbis/core/ids.hpp"
#include "orbis/core/ranges.hpp"
#include "orbis/core/refusal.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace orbis {

class Mesh;
struct Mesh_arrays;
struct Mesh_arrays_view;
struct Mesh_chunks;
class Mesh_to_fill;
/// The stored arrays of `m` (see Mesh_arrays). O(size).
Mesh_arrays mesh_arrays(const Mesh& m);
/// A mesh from stored arrays; every id is range-checked and the result validate()d.
/// \throws std::invalid_argument saying what is wrong; never returns an invalid mesh.
Mesh mesh_from_arrays(const Mesh_arrays& arrays);
/// mesh_from_arrays on raw bytes (see Mesh_arrays_view).
Mesh mesh_from_arrays(const Mesh_arrays_view& arrays);

/// A flip that Mesh::plan_flip has checked: the refusal, or the quad the flip rewrites, so that
/// Mesh::try_flip(plan) edits without walking the rings again. A plan belongs to the mesh content
/// it was checked on: copies of that mesh accept it too, and once a mesh is edited it refuses
/// the plan as Refusal_kind::stale_plan, unchanged. Holding a plan costs nothing (no reference
/// to the mesh); a default-constructed plan belongs to no content and is refused as stale_plan.
class Flip_plan {
public:
    /// A plan for no content; every edit refuses it (stale_plan).
    constexpr Flip_plan() = default;
    /// Why the flip is refused, or nothing when the plan can be applied (if not stale).
    const std::optional<Refusal>& refusal() const { return refusal_; }
    /// The edge the plan was made for, as the caller named it.
    Edge edge() const { return edge_; }

private:
    friend class Mesh;
    std::optional<Refusal> refusal_;
    std::uint64_t stamp_ = 0; // the content it was checked on (Mesh::Stamp; 0 is never one)
    Edge edge_;
    Edge b_, e1_, e2_, e3_, e4_; // base a->b; b->c, c->a (left face); a->d, d->b (right face)
    Vertex c_, d_;
    Face left_, right_;
};

/// A split that Mesh::plan_split has checked, for Mesh::try_split(plan); the same rules as
/// Flip_plan (stale once the mesh is edited).
class Split_plan {
public:
    /// A plan for no content; every edit refuses it (stale_plan).
    constexpr Split_plan() = default;
    /// Why the split is refused, or nothing when the plan can be applied (if not stale).
    const std::optional<Refusal>& refusal() const { return refusal_; }
    /// The edge the plan was made for.
    Edge edge() const { return edge_; }
    /// The fraction the plan was made for.
    float t() const { return t_; }

private:
    friend class Mesh;
    std::optional<Refusal> refusal_;
    std::uint64_t stamp_ = 0;
    Edge edge_;
    float t_ = 0.5f;
};

/// A collapse that Mesh::plan_collapse has checked (link condition and the rest: both rings
/// walked), for Mesh::try_collapse(plan); the same rules as Flip_plan (stale once the mesh is
/// edited).
class Collapse_plan {
public:
    /// A plan for no content; every edit refuses it (stale_plan).
    constexpr Collapse_plan() = default;
    /// Why the collapse is refused, or nothing when the plan can be applied (if not stale).
    const std::optional<Refusal>& refusal() const { return refusal_; }
    /// The edge the plan was made for.
    Edge edge() const { return edge_; }
    /// The fraction the plan was made for.
    float t() const { return t_; }

private:
    friend class Mesh;
    std::optional<Refusal> refusal_;
    std::uint64_t stamp_ = 0;
    Edge edge_;
    float t_ = 0.5f;
    Vertex a_, b_;           // origin (survives) and dest (deleted)
    Face left_, right_;      // either may be no_face (an open mesh), not both
    Edge e1_, e2_, e3_, e4_; // b->c, c->a (left face); a->d, d->b (right face); or no_edge
};

/// A manifold triangle mesh and its dual, stored as quad-edges.
///
/// Storage (all in copy-on-write chunks, so copying a Mesh is a cheap snapshot): per primal and
/// per dual edge its origin and `origin_next`; per vertex one outgoing edge; per face one edge
/// with the face on its left. Everything else is derived by bit operations on the edge ids.
/// The dual rings follow from the primal ones (`rot(x).origin_next == origin_prev(x).inv_rot`),
/// and every edit keeps them in step. Deleted elements leave holes that `vertices()`, `faces()`
/// and `edges()` skip, and their ids go to free lists that later additions reuse.
///
/// Open meshes have one imaginary outside face, `no_face`; the dual edges leaving it form one
/// ring per boundary loop. A vertex may be shared by several fans of faces that are not
/// connected through edges (during construction); add_face and collapse refuse the edits whose
/// result would be ambiguous or non-manifold.
///
/// Sizes: ids are 32 bits; a mesh holds fewer than 2^30 quad-edges.
class Mesh {
public:
    /// An empty mesh.
    Mesh() = default;

    /// \name Counts and membership
    ///@{
    /// Number of live vertices.
    std::size_t vertex_count() const { return vertex_count_; }
    /// Number of live faces.
    std::size_t face_count() const { return face_count_; }
    /// Number of live undirected edges (quad-edges).
    std::size_t edge_count() const { return quad_count_; }
    /// One past the largest vertex index ever used: the size of a vertex layer.
    std::uint32_t vertex_slots() const { return static_cast<std::uint32_t>(vertex_edge_.size()); }
    /// One past the largest face index ever used: the size of a face layer.
    std::uint32_t face_slots() const { return static_cast<std::uint32_t>(face_edge_.size()); }
    /// One past the largest edge index ever used (directed, per primal or dual mesh): twice the
    /// quad-edge slots.
    std::uint32_t edge_slots() const { return static_cast<std::uint32_t>(2 * quads_.size()); }
    /// True when `v` is a live vertex of this mesh.
    bool contains(Vertex v) const {
        return v.index() < vertex_slots() && vertex_edge_[v.index()] != deleted_edge;
    }
    /// True when `f` is a live face of this mesh.
    bool contains(Face f) const {
        return f.index() < face_slots() && face_edge_[f.index()].valid();
    }
    /// True when `e` (primal or dual) belongs to a live quad-edge of this mesh.
    bool contains(Edge e) const {
        return e.valid() && e.index() < edge_slots() && origin_at(e.index()).valid();
    }
    ///@}

    /// \name Iteration over all live elements (deleted slots are skipped)
    ///@{
    /// Live vertices in index order.
    auto vertices() const { return Element_range<Vertex, Vertex_traits>(*this, vertex_slots()); }
    /// Live faces in index order.
    auto faces() const { return Element_range<Face, Face_traits>(*this, face_slots()); }
    /// The base edge (primal, even index) of every live quad-edge, in index order.
    auto edges() const { return Element_range<Edge, Edge_traits>(*this, edge_slots() / 2); }
    ///@}

    /// \name Construction (seed 001)
    ///@{
    /// A new isolated vertex; reuses the most recently freed vertex id if there is one.
    Vertex add_vertex();
    /// Appends `n` isolated vertices with consecutive ids and returns the first. Does not reuse
    /// freed ids, so that the new ids are consecutive.
    Vertex add_vertices(std::uint32_t n);
    /// Reserves room for about `vertices` vertices and `faces` faces (a closed mesh has
    /// 1.5 edges per face).
    void reserve(std::size_t vertices, std::size_t faces);

    /// Why `add_face(a, b, c)` would be refused, or nothing if it would succeed.
    /// O(valence of a, b and c).
    std::optional<Refusal> check_add_face(Vertex a, Vertex b, Vertex c) const;
    /// Adds the triangle (a, b, c), counterclockwise seen from outside, creating the edges that
    /// are missing and merging edge rings where the face joins fans at a vertex.
    /// \throws Edit_refused with check_add_face's reason; the mesh is then unchanged.
    Face add_face(Vertex a, Vertex b, Vertex c);
    /// add_face without the exception: the new face in `out` (if given) or the refusal.
    std::optional<Refusal> try_add_face(Vertex a, Vertex b, Vertex c, Face* out = nullptr);
    ///@}

    /// \name Modification (seed 002). Every edit is refused, with the mesh unchanged, when its
    /// check fails; the check_* functions give the same answer without editing.
    ///
    /// One check per edit, whichever way a caller asks: try_flip(e) checks and edits; plan_flip(e)
    /// checks once and try_flip(plan) edits from the plan without checking again (for callers
    /// that look at the answer before deciding, or run code in between); and check_flip(e)
    /// followed by flip(e) or try_flip(e) with no edit in between, on the same thread, reuses
    /// the check too: check_* keeps its last accepted plan per kind of edit in a thread-local
    /// slot that the edits consult. Safety rests on a stamp that names the mesh content: every
    /// edit gives the mesh a stamp never used before, copies keep it, so a plan can only be
    /// applied to the content it was checked on; on any other it is refused (stale_plan).
    ///@{
    /// Why `flip(e)` would be refused (boundary edge, opposite vertices already connected,
    /// invalid edge), or nothing. O(valence of the opposite corners). Remembers an accepted
    /// check on this thread for the next flip(e) / try_flip(e) / plan_flip(e).
    std::optional<Refusal> check_flip(Edge e) const;
    /// The check of flip(e) as a plan that try_flip(plan) carries out without checking again.
    /// Same cost as check_flip (nothing when check_flip(e) was just accepted).
    Flip_plan plan_flip(Edge e) const;
    /// Why `try_flip(plan)` would be refused: the plan's own refusal, or stale_plan when this
    /// mesh's content is not the one the plan was checked on. O(1).
    std::optional<Refusal> check_flip(const Flip_plan& plan) const;
    /// Turns the edge of any part of quad-edge `e` to connect the two opposite corners.
    /// Afterwards, for b = e.base() with old origin_next n and origin_prev p:
    /// origin(b) = old dest(p), dest(b) = old dest(n); left(b) and right(b) keep their ids.
    /// No element is created or deleted. \throws Edit_refused.
    void flip(Edge e);
    /// The flip a plan describes. \throws Edit_refused with check_flip(plan)'s reason.
    void flip(const Flip_plan& plan);
    /// flip without the exception.
    std::optional<Refusal> try_flip(Edge e);
    /// flip(plan) without the exception: the flip without a second check, or check_flip(plan)'s
    /// refusal with the mesh unchanged.
    std::optional<Refusal> try_flip(const Flip_plan& plan);

    /// Why `split(e, t)` would be refused (invalid or dual edge, no face, bad t), or nothing.
    /// O(1), as cheap as reusing it would be, so it is not remembered.
    std::optional<Refusal> check_split(Edge e, float t = 0.5f) const;
    /// The check of split(e, t) as a plan for try_split(plan).
    Split_plan plan_split(Edge e, float t = 0.5f) const;
    /// Why `try_split(plan)` would be refused: the plan's refusal, or stale_plan. O(1).
    std::optional<Refusal> check_split(const Split_plan& plan) const;
    /// Splits primal edge `e` at fraction t from its origin (t is for the World's layers; the
    /// mesh itself has no positions). `e` keeps its id and origin and ends at the new vertex;
    /// the returned edge goes from the new vertex to the old dest(e). An interior edge gets two
    /// new faces and three new quad-edges, a boundary edge one face and two; each split face
    /// keeps its id on the side of origin(e). \throws Edit_refused.
    Edge split(Edge e, float t = 0.5f);
    /// The split a plan describes. \throws Edit_refused with check_split(plan)'s reason.
    Edge split(const Split_plan& plan);
    /// split without the exception; the returned edge of split in `out` (if given).
    std::optional<Refusal> try_split(Edge e, float t = 0.5f, Edge* out = nullptr);
    /// split(plan) without the exception.
    std::optional<Refusal> try_split(const Split_plan& plan, Edge* out = nullptr);

    /// Why `collapse(e, t)` would be refused (link condition, unconnected fans, dangling edge,
    /// tetrahedron, no face, invalid or dual edge, bad t), or nothing. O(valence). Remembers an
    /// accepted check on this thread, as check_flip does.
    std::optional<Refusal> check_collapse(Edge e, float t = 0.5f) const;
    /// The check of collapse(e, t) as a plan for try_collapse(plan). O(valence).
    Collapse_plan plan_collapse(Edge e, float t = 0.5f) const;
    /// Why `try_collapse(plan)` would be refused: the plan's refusal, or stale_plan. O(1).
    std::optional<Refusal> check_collapse(const Collapse_plan& plan) const;
    /// Merges dest(e) into origin(e), which survives (at fraction t for the layers). Deletes
    /// dest(e), the faces left and right of e, e itself and the edges from dest(e) to the two
    /// opposite corners (their partners from origin(e) survive and take over their faces).
    /// The other edges of dest(e) keep their ids and now start at origin(e).
    /// \throws Edit_refused.
    Vertex collapse(Edge e, float t = 0.5f);
    /// The collapse a plan describes; returns the survivor.
    /// \throws Edit_refused with check_collapse(plan)'s reason.
    Vertex collapse(const Collapse_plan& plan);
    /// collapse without the exception; the survivor is the old `e.origin(m)`.
    std::optional<Refusal> try_collapse(Edge e, float t = 0.5f);
    /// collapse(plan) without the exception.
    std::optional<Refusal> try_collapse(const Collapse_plan& plan);
    ///@}

    /// \name Queries
    ///@{
    /// The primal edge from `a` to `b`, or `no_edge`. O(valence of a).
    Edge find_edge(Vertex a, Vertex b) const;
    /// True when `v` has an edge with no face on its left (an open fan). O(valence).
    bool is_boundary(Vertex v) const;
    /// True when the primal edge of `e` has a face on one side only.
    bool is_boundary(Edge e) const;
    /// Bytes of connectivity storage (both meshes, vertices and faces; chunk slack included).
    std::size_t connectivity_bytes() const;
    /// Bytes of connectivity chunks that no copy of this mesh shares.
    std::size_t private_connectivity_bytes() const;
    /// Bytes of connectivity chunks of this mesh that `other` does not share. O(chunks).
    std::size_t connectivity_bytes_not_shared_with(const Mesh& other) const;
    ///@}

    /// Checks every invariant (rings closed and consistent with origins, dual rings in step
    /// with the primal ones, faces are triangles with matching back-references, no repeated
    /// edges, free lists and counts) and returns the first violation in words, or nothing when
    /// the mesh is valid. O(size): a valid mesh is confirmed in storage order with one ring walk
    /// per vertex (two threads on large meshes); only an invalid one is walked again by
    /// validate_by_walking() to name its first violation.
    std::optional<std::string> validate() const;

    /// The same verdict and message as validate(), found by following every ring and face
    /// from every edge. Several times slower; it is the reference the quick check is tested
    /// against.
    std::optional<std::string> validate_by_walking() const;

    /// Same elements, same connectivity and same free lists (chunks shared by both are not read).
    friend bool operator==(const Mesh& a, const Mesh& b);

    /// A copy that shares no chunk with this mesh (for measuring; a plain copy is a snapshot).
    Mesh deep_copy() const;

private:
    friend class Vertex;
    friend class Face;
    friend class Edge;
    friend struct Mesh_builder;
    friend Mesh_arrays mesh_arrays(const Mesh& m);
    friend Mesh mesh_from_arrays(const Mesh_arrays_view& arrays);
    friend Mesh_chunks mesh_chunks(const Mesh& m);
    friend class Mesh_to_fill;

    // A deleted vertex's edge; never a real edge because a mesh has fewer than 2^30 quad-edges.
    static constexpr Edge deleted_edge{0xFFFF'FFFEu};

    struct Vertex_traits {
        static Vertex make(std::uint32_t i) { return Vertex{i}; }
        static bool alive(const Mesh& m, std::uint32_t i) {
            return m.vertex_edge_[i] != deleted_edge;
        }
    };
    struct Face_traits {
        static Face make(std::uint32_t i) { return Face{i}; }
        static bool alive(const Mesh& m, std::uint32_t i) { return m.face_edge_[i].valid(); }
    };
    struct Edge_traits {
        static Edge make(std::uint32_t q) { return Edge{2 * q}; }
        static bool alive(const Mesh& m, std::uint32_t q) { return m.quads_[q].origin[0].valid(); }
    };

    // Everything about a quad-edge in one 32-byte record, for its two primal edges: origin_next,
    // origin_prev, origin and left face. The dual is not stored but read off the same record:
    // for a primal x, rot(x).origin_next == origin_prev(x).inv_rot and origin_face(inv_rot(x))
    // == left(x). So a ring walk or an edit touches one cache line per quad-edge, as a half-edge
    // mesh does, and the dual rings can never fall out of step with the primal ones.
    struct Quad_record {
        std::array<Edge, 2> next;     // origin_next of primal edges 2q and 2q+1
        std::array<Edge, 2> prev;     // origin_prev of primal edges 2q and 2q+1
        std::array<Vertex, 2> origin; // origins of primal edges 2q and 2q+1
        std::array<Face, 2> left;     // faces left of primal edges 2q and 2q+1
        friend bool operator==(const Quad_record&, const Quad_record&) = default;
    };

    const Quad_record& record(Edge e) const { return quads_[e.quad_index()]; }
    Quad_record& record_mut(Edge e) { return quads_.mut(e.quad_index()); }
    Vertex origin_at(std::uint32_t i) const { return quads_[i >> 1].origin[i & 1]; }
    // Makes x follow p around their common origin (both primal).
    void link(Edge p, Edge x) {
        record_mut(p).next[p.mask() & 1] = x;
        record_mut(x).prev[x.mask() & 1] = p;
    }
    void set_origin(Edge e, Vertex v) { record_mut(e).origin[e.mask() & 1] = v; }
    void set_left(Edge e, Face f) { record_mut(e).left[e.mask() & 1] = f; }
    std::optional<std::string> validate_elements() const;
    bool faces_hold(std::uint32_t first_face, std::uint32_t end_face,
                    const std::uint8_t* face_hits_a, const std::uint8_t* face_hits_b) const;
    bool rings_hold(std::uint32_t first_vertex, std::uint32_t end_vertex, std::uint8_t* face_hits,
                    std::size_t& with_face, std::size_t& ring_edges) const;
    bool holds_quickly() const;
    std::optional<std::string> validate_links(std::size_t& with_face) const;
    std::optional<std::string> validate_rings_and_faces(std::vector<std::uint8_t>& on_face) const;
    // Names the mesh content for plans: every edit takes a value never used before in this
    // process, copies keep it, and a moved-from mesh gets a new one. So equal stamps mean equal
    // content, and a plan whose stamp matches the mesh's may skip its check. Drawing a stamp
    // costs no atomic operation (each thread draws from a block of its own).
    class Stamp {
    public:
        Stamp() noexcept
            : value_(fresh()) {}
        Stamp(const Stamp&) = default;
        Stamp& operator=(const Stamp&) = default;
        Stamp(Stamp&& other) noexcept
            : value_(other.value_) {
            other.value_ = fresh();
        }
        Stamp& operator=(Stamp&& other) noexcept {
            value_ = other.value_;
            other.value_ = fresh(); // on self-assignment too: a fresh stamp is always safe
            return *this;
        }
        std::uint64_t value() const { return value_; }
        void renew() noexcept { value_ = fresh(); }

    private:
        static std::uint64_t fresh() noexcept;
        std::uint64_t value_;
    };

    // Whether plan `p` (accepted or not) was checked on this content for these arguments.
    template <class Plan>
    bool checked_here(const Plan& p, Edge e) const {
        return p.stamp_ == stamp_.value() && p.edge_ == e;
    }
    template <class Plan>
    bool checked_here(const Plan& p, Edge e, float t) const {
        return checked_here(p, e) && p.t_ == t;
    }
    void make_flip_plan(Edge e, Flip_plan& p) const;
    std::optional<Refusal> check_flip_quad(Edge e, Flip_plan& q) const;
    void make_split_plan(Edge e, float t, Split_plan& p) const;
    void make_collapse_plan(Edge e, float t, Collapse_plan& p) const;
    std::optional<Refusal> check_collapse_corners(Edge e, float t, Collapse_plan& p) const;
    void apply_flip(const Flip_plan& p);
    Edge apply_split(const Split_plan& p);
    void apply_collapse(const Collapse_plan& p);
    Edge new_quad(Vertex from, Vertex to);
    Face new_face(Edge e);
    void delete_quad(Edge e);
    void delete_face(Face f);
    void delete_vertex(Vertex v);
    void apply_add_face(Vertex a, Vertex b, Vertex c, Face* out);

    // Small chunks (4 KiB of edges, 8 KiB of quad records) keep copy-on-write cheap: an edit
    // copies only the records near it, and a tectonics step, whose repairs follow the plate
    // boundaries across the whole sphere, leaves most chunks shared with the step before it
    // when the mesh is numbered along the sphere's curve (benchmarks/README.md, issue 18).
    Chunked_array<Edge, 10> vertex_edge_; // per vertex: an outgoing edge, no_edge, or deleted_edge
    Chunked_array<Edge, 10> face_edge_;   // per face: an edge with the face on its left, or no_edge
    Chunked_array<Quad_record, 8> quads_;
    Chunked_array<Vertex> free_vertices_;  // used as stacks
    Chunked_array<Face> free_faces_;
    Chunked_array<std::uint32_t> free_quads_;
    std::size_t vertex_count_ = 0;
    std::size_t face_count_ = 0;
    std::size_t quad_count_ = 0;
    Stamp stamp_;
};

// ---- inline traversal (ids.hpp declares these; they need the complete Mesh) ----

inline Edge Vertex::edge(const Mesh& m) const {
    const Edge e = m.vertex_edge_[index_];
    return e == Mesh::deleted_edge ? no_edge : e;
}
inline Origin_ccw_range Vertex::edges(const Mesh& m) const { return {m, edge(m)}; }
inline Neighbor_range Vertex::neighbors(const Mesh& m) const { return {m, edge(m)}; }
inline Vertex_face_range Vertex::faces(const Mesh& m) const {
    return Vertex_face_range{Ring_range<Origin_ccw_step, To_left_face>{m, edge(m)}};
}
inline int Vertex::valence(const Mesh& m) const { return static_cast<int>(edges(m).size()); }

inline Edge Face::edge(const Mesh& m) const { return m.face_edge_[index_]; }
inline Face_edge_range Face::edges(const Mesh& m) const { return {m, edge(m)}; }
inline Face_vertex_range Face::vertices(const Mesh& m) const { return {m, edge(m)}; }

// Primal edges read their own record; dual edges read the record of the primal edge they are
// a quarter turn from (see Mesh::Quad_record).
inline Vertex Edge::origin(const Mesh& m) const { return m.origin_at(index()); }
inline Vertex Edge::dest(const Mesh& m) const { return sym().origin(m); }
inline Face Edge::origin_face(const Mesh& m) const {
    const Edge x = rot(); // the primal edge with this dual edge as inv_rot
    return m.record(x).left[x.mask_ & 1];
}
inline Face Edge::dest_face(const Mesh& m) const { return sym().origin_face(m); }
inline Face Edge::left(const Mesh& m) const { return inv_rot().origin_face(m); }
inline Face Edge::right(const Mesh& m) const { return rot().origin_face(m); }
inline Vertex Edge::left_vertex(const Mesh& m) const { return inv_rot().origin(m); }
inline Vertex Edge::right_vertex(const Mesh& m) const { return rot().origin(m); }

inline Edge Edge::origin_next(const Mesh& m) const {
    if (is_primal()) return m.record(*this).next[mask_ & 1];
    const Edge x = inv_rot(); // primal, with x.rot() == *this
    return m.record(x).prev[x.mask_ & 1].inv_rot();
}
inline Edge Edge::origin_prev(const Mesh& m) const {
    if (is_primal()) return m.record(*this).prev[mask_ & 1];
    const Edge x = rot(); // primal, with x.inv_rot() == *this
    return m.record(x).next[x.mask_ & 1].rot();
}
inline Edge Edge::dest_next(const Mesh& m) const { return sym().origin_next(m).sym(); }
inline Edge Edge::dest_prev(const Mesh& m) const { return inv_rot().origin_next(m).inv_rot(); }
inline Edge Edge::left_next(const Mesh& m) const { return inv_rot().origin_next(m).rot(); }
inline Edge Edge::left_prev(const Mesh& m) const { return origin_next(m).sym(); }
inline Edge Edge::right_next(const Mesh& m) const { return rot().origin_next(m).inv_rot(); }
inline Edge Edge::right_prev(const Mesh& m) const { return sym().origin_next(m); }

inline Origin_ccw_range Edge::origin_ccw(const Mesh& m) const { return {m, *this}; }
inline Origin_cw_range Edge::origin_cw(const Mesh& m) const { return {m, *this}; }

} // namespace orbis
