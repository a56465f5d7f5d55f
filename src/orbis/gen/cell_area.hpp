// SPDX-License-Identifier: MIT
// The share of the sphere's surface each vertex stands for.
#pragma once

#include "orbis/core/mesh.hpp"

#include <glm/vec3.hpp>

#include <span>
#include <vector>

namespace orbis {
class World;
}

namespace orbis::gen {

/// Area of the spherical triangle with corners in the directions of a, b and c on a sphere of
/// `radius` (Van Oosterom and Strackee's formula on the normalised corners). Positive when the
/// corners are counterclockwise seen from outside, negative when clockwise.
double spherical_triangle_area(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, double radius);

/// The area of every vertex slot's cell on the sphere of `radius`: a third of each incident
/// face's spherical_triangle_area (barycentric cells, close to the Voronoi cell on an even
/// mesh). On a closed mesh covering the sphere once the areas sum to 4 pi radius^2 up to
/// rounding; a face folded over (clockwise) counts negative, so the sum still holds. Dead slots
/// get 0. Precondition: positions has one entry per vertex slot. Cost: O(faces + slots).
std::vector<double> vertex_cell_areas(const Mesh& m, std::span<const glm::vec3> positions,
                                      double radius);

/// As above with the positions of `world`'s orbis::position_layer.
/// \throws std::runtime_error when the World has no position layer.
std::vector<double> vertex_cell_areas(const World& world, double radius);

} // namespace orbis::gen
