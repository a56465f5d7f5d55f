// SPDX-License-Identifier: MIT
// Distances along the sphere: between two points, and from source vertices over the mesh edges.
#pragma once

#include "orbis/core/mesh.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include <glm/vec3.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace orbis {
class World;
}

namespace orbis::gen {

/// Great-circle distance between the directions of `a` and `b` on a sphere of `radius`:
/// radius * atan2(|a x b|, a . b) of the normalised inputs, accurate for tiny and for nearly
/// antipodal pairs (acos of the dot product loses half the digits there). 0 when either is the
/// origin.
double geodesic_distance(glm::dvec3 a, glm::dvec3 b, double radius);

/// Shortest distance from the nearest of `sources` to every vertex slot, walking along mesh
/// edges whose lengths are geodesic_distance of their ends' `positions` on a sphere of `radius`
/// (Dijkstra's distances to the last bit, found with buckets by distance instead of a heap).
/// Slots that are dead, unreachable or farther than `max_distance` get +infinity.
/// A path over edges is never shorter than the great circle, and on a fine, even mesh it is
/// a few percent longer. Preconditions: positions has one entry per vertex slot; sources are
/// live slots (repeats are fine). \throws std::invalid_argument for a negative radius.
/// Cost: about O(V + E) for the V vertices and E edges within max_distance when edges are of
/// similar length (more when edges far shorter than the sources' first ones make vertices be
/// filed again), plus O(slots) for the result.
std::vector<double>
geodesic_distances_from(const Mesh& m, std::span<const glm::vec3> positions, double radius,
                        std::span<const std::uint32_t> sources,
                        double max_distance = std::numeric_limits<double>::infinity());

/// As above over the rows of `adjacency` (a copy of a mesh's neighbours, which a caller that
/// walks the graph several times builds once: reading a row costs one cache line where a ring
/// walk reads one quad-edge record per neighbour). Same result as the Mesh overload for the mesh
/// the rows were made from. Preconditions: as above, with positions.size() >= adjacency.slots().
std::vector<double>
geodesic_distances_from(const Vertex_adjacency& adjacency, std::span<const glm::vec3> positions,
                        double radius, std::span<const std::uint32_t> sources,
                        double max_distance = std::numeric_limits<double>::infinity());

/// As above with the positions of `world`'s orbis::position_layer.
/// \throws std::runtime_error when the World has no position layer.
std::vector<double>
geodesic_distances_from(const World& world, double radius, std::span<const std::uint32_t> sources,
                        double max_distance = std::numeric_limits<double>::infinity());

} // namespace orbis::gen
