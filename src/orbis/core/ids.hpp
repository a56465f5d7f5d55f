// SPDX-License-Identifier: MIT
// Typed ids for the quad-edge mesh: Vertex, Face and Edge (seed 003, SPEC "Ids").
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace orbis {

class Mesh;
class Vertex;
class Face;
class Edge;

template <class Step, class Project>
class Ring_range;
struct Origin_ccw_step;
struct Origin_cw_step;
struct Left_next_step;
struct To_edge;
struct To_dest;
struct To_origin;
struct To_left_face;
template <class Range>
class Skip_no_face;

/// An edge ring around an origin, counterclockwise, yielding the edges themselves.
using Origin_ccw_range = Ring_range<Origin_ccw_step, To_edge>;
/// An edge ring around an origin, clockwise, yielding the edges themselves.
using Origin_cw_range = Ring_range<Origin_cw_step, To_edge>;
/// The neighbours of a vertex, counterclockwise.
using Neighbor_range = Ring_range<Origin_ccw_step, To_dest>;
/// The faces around a vertex, counterclockwise, skipping the outside of an open mesh.
using Vertex_face_range = Skip_no_face<Ring_range<Origin_ccw_step, To_left_face>>;
/// The three edges of a face, counterclockwise, each with `left == face`.
using Face_edge_range = Ring_range<Left_next_step, To_edge>;
/// The three corners of a face, counterclockwise.
using Face_vertex_range = Ring_range<Left_next_step, To_origin>;

/// A vertex of the primal mesh (a face of the dual), identified by its index.
class Vertex {
public:
    /// An invalid vertex, equal to `no_vertex`.
    constexpr Vertex() = default;
    /// The vertex with the given index; no check that it exists in any mesh.
    constexpr explicit Vertex(std::uint32_t index)
        : index_(index) {}

    /// The index into vertex arrays and vertex layers.
    constexpr std::uint32_t index() const { return index_; }
    /// False for `no_vertex`; says nothing about whether a mesh has this vertex.
    constexpr bool valid() const { return index_ != UINT32_MAX; }

    /// An outgoing edge, or `no_edge` when the vertex has no edges.
    Edge edge(const Mesh& m) const;
    /// The outgoing edges, counterclockwise from `edge(m)`; empty for an isolated vertex.
    Origin_ccw_range edges(const Mesh& m) const;
    /// The vertices connected to this one, counterclockwise.
    Neighbor_range neighbors(const Mesh& m) const;
    /// The faces around this vertex, counterclockwise; the outside of an open mesh is skipped.
    Vertex_face_range faces(const Mesh& m) const;
    /// Number of edges at this vertex. O(valence).
    int valence(const Mesh& m) const;

    constexpr friend bool operator==(Vertex, Vertex) = default;
    constexpr friend auto operator<=>(Vertex, Vertex) = default;

private:
    std::uint32_t index_ = UINT32_MAX;
};

/// A triangle of the primal mesh (a vertex of the dual), identified by its index.
class Face {
public:
    /// An invalid face, equal to `no_face` (also the id of the outside of an open mesh).
    constexpr Face() = default;
    /// The face with the given index; no check that it exists in any mesh.
    constexpr explicit Face(std::uint32_t index)
        : index_(index) {}

    /// The index into face arrays and face layers.
    constexpr std::uint32_t index() const { return index_; }
    /// False for `no_face`.
    constexpr bool valid() const { return index_ != UINT32_MAX; }

    /// A primal edge with `left == *this`.
    Edge edge(const Mesh& m) const;
    /// The three edges, counterclockwise, starting at `edge(m)`.
    Face_edge_range edges(const Mesh& m) const;
    /// The three corners, counterclockwise, starting at `edge(m).origin(m)`.
    Face_vertex_range vertices(const Mesh& m) const;

    constexpr friend bool operator==(Face, Face) = default;
    constexpr friend auto operator<=>(Face, Face) = default;

private:
    std::uint32_t index_ = UINT32_MAX;
};

/// A directed edge of the primal or the dual mesh, encoded as in seed 003: bit 31 says dual,
/// bit 0 says which of the two directions, and quad-edge k owns edges 2k and 2k+1 of both meshes.
class Edge {
public:
    /// The bit that marks a dual edge.
    static constexpr std::uint32_t dual_bit = 1u << 31;

    /// An invalid edge, equal to `no_edge`.
    constexpr Edge() = default;
    /// The edge with the given mask (bit 31 = dual); no check that it exists in any mesh.
    constexpr explicit Edge(std::uint32_t mask)
        : mask_(mask) {}

    /// The raw encoding.
    constexpr std::uint32_t mask() const { return mask_; }
    /// The index into the primal or dual edge arrays (the mask without the dual bit).
    constexpr std::uint32_t index() const { return mask_ & ~dual_bit; }
    /// The quad-edge this edge belongs to: `index() / 2`.
    constexpr std::uint32_t quad_index() const { return index() >> 1; }
    /// True for edges of the dual (Voronoi) mesh.
    constexpr bool is_dual() const { return (mask_ >> 31) != 0; }
    /// True for edges of the primal (triangle) mesh.
    constexpr bool is_primal() const { return !is_dual(); }
    /// False for `no_edge`.
    constexpr bool valid() const { return mask_ != UINT32_MAX; }

    /// The first primal edge of this quad-edge.
    constexpr Edge base() const { return Edge{mask_ & ~(dual_bit | 1u)}; }
    /// The same edge in the other direction.
    constexpr Edge sym() const { return Edge{mask_ ^ 1u}; }
    /// The edge rotated a quarter turn counterclockwise: primal 2k -> dual 2k -> primal 2k+1.
    constexpr Edge rot() const { return Edge{(mask_ ^ dual_bit) ^ (mask_ >> 31)}; }
    /// The edge rotated a quarter turn clockwise; `rot().inv_rot() == *this`.
    constexpr Edge inv_rot() const { return Edge{(mask_ ^ dual_bit) ^ ((mask_ >> 31) ^ 1u)}; }

    /// \name Neighbouring elements
    /// Primal edges have vertices as origin/dest and faces as left/right; dual edges the reverse.
    ///@{
    /// The vertex this primal edge starts at. Precondition: primal.
    Vertex origin(const Mesh& m) const;
    /// The vertex this primal edge ends at. Precondition: primal.
    Vertex dest(const Mesh& m) const;
    /// The face this dual edge starts at (`no_face` for the outside). Precondition: dual.
    Face origin_face(const Mesh& m) const;
    /// The face this dual edge ends at (`no_face` for the outside). Precondition: dual.
    Face dest_face(const Mesh& m) const;
    /// The face left of this primal edge, `no_face` on the outside of an open mesh.
    Face left(const Mesh& m) const;
    /// The face right of this primal edge, `no_face` on the outside of an open mesh.
    Face right(const Mesh& m) const;
    /// The vertex left of this dual edge. Precondition: dual.
    Vertex left_vertex(const Mesh& m) const;
    /// The vertex right of this dual edge. Precondition: dual.
    Vertex right_vertex(const Mesh& m) const;
    ///@}

    /// \name Traversal (Guibas–Stolfi: Onext, Oprev, Dnext, Dprev, Lnext, Lprev, Rnext, Rprev)
    ///@{
    /// Next edge counterclockwise around the origin (stored).
    Edge origin_next(const Mesh& m) const;
    /// Next edge clockwise around the origin.
    Edge origin_prev(const Mesh& m) const;
    /// Next edge counterclockwise around the destination, ending there.
    Edge dest_next(const Mesh& m) const;
    /// Next edge clockwise around the destination, ending there.
    Edge dest_prev(const Mesh& m) const;
    /// Next edge counterclockwise around the left face; it starts at `dest`.
    Edge left_next(const Mesh& m) const;
    /// Previous edge counterclockwise around the left face; it ends at `origin`.
    Edge left_prev(const Mesh& m) const;
    /// Next edge counterclockwise around the right face.
    Edge right_next(const Mesh& m) const;
    /// Previous edge counterclockwise around the right face.
    Edge right_prev(const Mesh& m) const;
    ///@}

    /// The edge ring around the origin, counterclockwise, starting with this edge.
    Origin_ccw_range origin_ccw(const Mesh& m) const;
    /// The edge ring around the origin, clockwise, starting with this edge.
    Origin_cw_range origin_cw(const Mesh& m) const;

    constexpr friend bool operator==(Edge, Edge) = default;
    constexpr friend auto operator<=>(Edge, Edge) = default;

private:
    std::uint32_t mask_ = UINT32_MAX;
};

/// The invalid vertex.
inline constexpr Vertex no_vertex{};
/// The invalid face, and the id of the outside of an open mesh.
inline constexpr Face no_face{};
/// The invalid edge.
inline constexpr Edge no_edge{};

/// "v12", or "no_vertex".
std::string to_string(Vertex v);
/// "f3", or "no_face".
std::string to_string(Face f);
/// "e7" for a primal edge, "e7*" for a dual one, or "no_edge".
std::string to_string(Edge e);
/// Writes `to_string(v)`.
std::ostream& operator<<(std::ostream& os, Vertex v);
/// Writes `to_string(f)`.
std::ostream& operator<<(std::ostream& os, Face f);
/// Writes `to_string(e)`.
std::ostream& operator<<(std::ostream& os, Edge e);

} // namespace orbis

/// Hashes ids by their raw value.
template <>
struct std::hash<orbis::Vertex> {
    std::size_t operator()(orbis::Vertex v) const noexcept { return v.index(); }
};
/// Hashes ids by their raw value.
template <>
struct std::hash<orbis::Face> {
    std::size_t operator()(orbis::Face f) const noexcept { return f.index(); }
};
/// Hashes ids by their raw value.
template <>
struct std::hash<orbis::Edge> {
    std::size_t operator()(orbis::Edge e) const noexcept { return e.mask(); }
};
