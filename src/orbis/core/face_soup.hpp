// SPDX-License-Identifier: MIT
// Building a Mesh from a list of triangles given in any order.
#pragma once

#include "orbis/core/mesh.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace orbis {

/// Corners of one triangle as vertex indices, counterclockwise seen from outside.
using Triangle = std::array<std::uint32_t, 3>;

/// A face of the input that could not be added, and why.
struct Refused_face {
    /// Position in the input list.
    std::size_t index = 0;
    /// The reason the last attempt was refused.
    Refusal refusal;
};

/// What build_from_face_soup made of its input.
struct Face_soup_result {
    /// Vertices 0..vertex_count-1 and every face that could be added.
    Mesh mesh;
    /// For each input triangle, its face in `mesh`, or `no_face` if it was refused.
    std::vector<Face> faces;
    /// The triangles that can never be added (duplicates, non-manifold edges or vertices,
    /// bad indices), in input order.
    std::vector<Refused_face> refused;
};

/// Adds `triangles` to `m` one by one with add_face, in the given order; triangles refused only
/// because of their order (a vertex with several unconnected fans, seed 001) are retried after
/// the others until nothing changes. Returns the triangles that can never be added, in input
/// order; `faces`, if given, receives each triangle's face or `no_face`. Faces are numbered in
/// the order they were added. O(triangles x valence) per pass.
std::vector<Refused_face> add_faces(Mesh& m, std::span<const Triangle> triangles,
                                    std::vector<Face>* faces = nullptr);

/// Builds a mesh with `vertex_count` vertices from triangles in any order. Triangles refused
/// only because of their order (seed 001's forbidden case: a vertex with several unconnected
/// fans) are retried until nothing changes; the rest are reported in `refused`.
///
/// Manifold input whose vertices each have at most one open wedge (every closed or
/// disc-like mesh) takes a bulk path in O(triangles) that numbers face i as `Face(i)` and
/// stores each vertex's edges next to each other in memory; other input goes through add_faces.
Face_soup_result build_from_face_soup(std::uint32_t vertex_count,
                                      std::span<const Triangle> triangles);

/// The bulk path of build_from_face_soup for a closed triangulation whose twin half-edges are
/// known: half-edge 3t+i runs from triangles[t][i] to triangles[t][(i+1)%3] and `opposite[h]`
/// is its twin. Face i is `Face(i)`. `threads` 2 runs the passes over the half-edges, quad-edges
/// and vertices on two threads (169 instead of 233 ms for a million-point sphere); the mesh is
/// the same as with 1.
/// \throws std::invalid_argument if the input is not a closed manifold triangulation;
/// std::system_error if a second thread cannot be started.
Mesh build_from_closed_triangulation(std::uint32_t vertex_count,
                                     std::span<const Triangle> triangles,
                                     std::span<const std::uint32_t> opposite, unsigned threads = 1);

/// build_from_closed_triangulation for a mesh that takes `old`'s place, as
/// Mesh_lock::replace_connectivity wants it: the triangles use exactly old's live vertices, and the
/// result has old's vertex slots, live vertices and free list of vertex ids (so later splits
/// reuse the ids they would have reused in `old`). Faces and edges are numbered afresh, as
/// build_from_closed_triangulation numbers them. O(triangles + vertex slots).
/// \throws std::invalid_argument if the input is not a closed manifold triangulation, leaves out
/// a live vertex of `old` or uses a dead one; std::system_error if a second thread cannot start.
Mesh rebuild_closed_triangulation(const Mesh& old, std::span<const Triangle> triangles,
                                  std::span<const std::uint32_t> opposite, unsigned threads = 1);

} // namespace orbis
