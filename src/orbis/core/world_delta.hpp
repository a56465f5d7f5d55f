// SPDX-License-Identifier: MIT
// What edits changed between two states of a World: the elements views update in place.
#pragma once

#include "orbis/core/ids.hpp"

#include <cstdint>
#include <vector>

namespace orbis {

class World;

/// What edits changed between an earlier state of a World and its current one, so that caches
/// update in place instead of rebuilding: every vertex and face whose position, corners,
/// existence or value in any layer may differ is listed (created and deleted ones included).
/// Edits fill it (Delta_recorder, or by hand for value changes); the same delta serves undo
/// and redo.
struct World_delta {
    std::uint64_t from_mesh_version = 0;     ///< World::mesh_version() of the earlier state
    std::uint64_t from_position_version = 0; ///< the position layer's version then
    std::vector<Vertex> vertices;            ///< vertices that changed
    std::vector<Face> faces;                 ///< faces that changed
    /// Primal edges created, deleted or given other ends that are not at a listed vertex (a
    /// collapse's deleted edges); edge segments update in place only with them.
    std::vector<Edge> edges;
};

/// An empty delta starting at the current state of `world` (its mesh and position versions);
/// the caller lists what changes after.
World_delta delta_from(const World& world);

/// The same elements as `delta`, starting at `world` instead: an edit and its undo touch the
/// same elements, so one list serves both directions.
World_delta delta_from(const World& world, World_delta delta);

} // namespace orbis
