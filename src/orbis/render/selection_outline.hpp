// SPDX-License-Identifier: MIT
// What the view draws for a selection: its outline and a tint of its elements.
#pragma once

#include "orbis/core/ids.hpp"

#include <glm/vec3.hpp>

#include <span>
#include <vector>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render {

/// Segments (pairs of ends) and points that show a selection on the surface.
struct Selection_outline {
    std::vector<glm::vec3> segments; ///< the border: Voronoi edges between selected and other
                                     ///< cells, primal edges between selected and other faces
    std::vector<glm::vec3> points;   ///< the tint: a dot on each selected vertex and face centroid
};

/// The outline of the selected `vertices` (as Voronoi cells) and `faces` of `world`; elements
/// the world no longer has are skipped. Both spans must be sorted (binary search). O(selected
/// elements × valence × log selected).
Selection_outline selection_outline(const World& world, std::span<const Vertex> vertices,
                                    std::span<const Face> faces);

} // namespace orbis::render
