// SPDX-License-Identifier: MIT
// Where the editor looks first: at land, not at an empty ocean.
#pragma once

#include "orbis/core/world.hpp"

#include <glm/vec3.hpp>

#include <optional>

namespace orbis::render {

/// The unit direction from the centre whose facing hemisphere's central cap (within 50°) holds
/// the most land, judged on about 20,000 sampled vertices against 162 candidate directions:
/// where the editor's first view of a world looks. Land is what the hydrology module's `ocean`
/// layer says is not ocean, else a vertex with `elevation` above 0. Nothing when the world has
/// neither layer or no land. Cost: O(vertices / stride + 162 × samples).
std::optional<glm::dvec3> land_facing_direction(const World& world);

} // namespace orbis::render
