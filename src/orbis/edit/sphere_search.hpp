// SPDX-License-Identifier: MIT
// Finding vertices by direction: the vertex nearest a point, the vertices within a geodesic
// radius. What brushes and selections stand on.
#pragma once

#include "orbis/core/ids.hpp"
#include "orbis/core/world.hpp"

#include <glm/vec3.hpp>

#include <vector>

namespace orbis::edit {

/// The vertex nearest the direction of `p`, by a greedy walk over neighbours from `hint` (or from
/// vertex 0 / the first live vertex with edges). Exact on a Delaunay mesh; after hand edits that
/// break the Delaunay property the walk may stop at a local minimum (it looks two rings ahead
/// before giving up). Cost: O(distance in edges from the start), ~O(sqrt n) without a hint.
/// no_vertex when the mesh has no vertex, there is no position layer or `p` is zero or not finite.
Vertex nearest_vertex(const World& world, const glm::dvec3& p, Vertex hint = no_vertex);

/// Vertices whose geodesic distance (as in apply_dab) to `centre` is at most radius_km, found by
/// flooding over edges from nearest_vertex; the nearest vertex first. O(result): on meshes where
/// the disc's vertices are not connected to each other (not Delaunay) a part may be missed.
/// Empty when the nearest vertex is outside the radius, radius_km is not >= 0, or there is no
/// position layer.
std::vector<Vertex> vertices_within(const World& world, const glm::dvec3& centre, double radius_km,
                                    Vertex hint = no_vertex);

} // namespace orbis::edit
