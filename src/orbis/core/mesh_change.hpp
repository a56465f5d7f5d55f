// SPDX-License-Identifier: MIT
// What one mesh edit did, in ids: the World hands these to every layer so that it can follow
// the edit (SPEC "Layers": what split creates, what collapse merges, what counts as changed).
#pragma once

#include "orbis/core/ids.hpp"

#include <array>
#include <cstdint>
#include <span>

namespace orbis {

/// Vertices, a face and edges that an addition created (add_vertex, add_vertices, add_face).
struct Added_elements {
    Vertex first_vertex;            ///< the first new vertex, or no_vertex
    std::uint32_t vertex_count = 0; ///< new vertices: first_vertex and the ids after it
    Face face;                      ///< the new face, or no_face
    std::array<Edge, 3> edges{};    ///< new quad-edges (their base edges)
    int edge_count = 0;             ///< how many of `edges` are set
};

/// A flip of `edge` (the base edge, now d -> c) between faces `left` and `right`, which keep
/// their ids but whose corners changed. No element is created or deleted.
struct Flip_change {
    Edge edge;  ///< the flipped base edge: its endpoints changed
    Face left;  ///< left(edge), corners changed
    Face right; ///< right(edge), corners changed
};

/// A split of e = a -> b with left face (a, b, c) and right face (b, a, d) at t, in seed 002's
/// names; edges that do not exist on an open mesh are no_edge, faces no_face.
struct Split_change {
    float t = 0.5f;
    Vertex a, b;      ///< the ends of e before the split
    Vertex m;         ///< the new vertex
    Edge e;           ///< the split edge, now a -> m
    Edge n;           ///< the new edge m -> b
    Edge g;           ///< the new edge m -> c (left face present)
    Edge h;           ///< the new edge m -> d (right face present)
    Edge e1, e2;      ///< b -> c and c -> a, the other edges of the left face
    Edge e3, e4;      ///< a -> d and d -> b, the other edges of the right face
    Face left, right; ///< the split faces, which keep their ids on a's side
    Face new_left;    ///< the half of `left` on b's side (m, b, c)
    Face new_right;   ///< the half of `right` on b's side (b, m, d)
};

/// A collapse of e = a -> b at t: b merged into a, in seed 002's names. e, e1 (b -> c),
/// e4 (d -> b), b and the faces left and right of e are deleted; e2 (c -> a) and e3 (a -> d)
/// survive and absorb e1 and e4. The spans stay valid only during the layer update.
struct Collapse_change {
    float t = 0.5f;
    Vertex a;                          ///< the survivor
    Vertex b;                          ///< deleted
    Edge e;                            ///< deleted
    Edge e1, e2;                       ///< b -> c (deleted) and c -> a (absorbs it), or no_edge
    Edge e3, e4;                       ///< a -> d (absorbs) and d -> b (deleted), or no_edge
    Face left, right;                  ///< deleted, or no_face on an open mesh
    std::span<const Edge> moved_edges; ///< b's other edges, which now start at a (changed)
    std::span<const Face> moved_faces; ///< b's other faces, which now have a as a corner
};

} // namespace orbis
