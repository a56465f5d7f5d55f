// SPDX-License-Identifier: MIT
// A numbering of the live vertices in which vertices near on the sphere get near numbers, for
// passes that walk the mesh graph in an order of their own (a priority-flood, a lake's
// breadth-first search): the refined mesh's slots scatter neighbours over the whole array, so
// such a walk misses the cache on nearly every neighbour it reads.
#pragma once

#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace orbis::gen {

/// A one-to-one numbering of the live vertex slots along a space-filling curve.
struct Spatial_order {
    /// The slot of each new id, 0 .. live count - 1.
    std::vector<std::uint32_t> slot_of;
    /// The new id of each slot; unspecified for dead slots.
    std::vector<std::uint32_t> id_of;
};

/// Numbers the slots where live[s] != 0 along the sphere's space-filling curve
/// (orbis/core/sphere_curve.hpp; cells of 16 to 64 vertices, slot order within a cell), with
/// `position` giving each slot's place (any length, not necessarily unit). Deterministic and
/// O(slots).
Spatial_order spatial_order(std::span<const glm::vec3> position,
                            std::span<const std::uint8_t> live);

} // namespace orbis::gen
