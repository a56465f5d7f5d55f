// SPDX-License-Identifier: MIT
// What edits changed between two states of a World.
#include "orbis/core/world_delta.hpp"

#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

namespace orbis {

World_delta delta_from(const World& world) { return delta_from(world, World_delta{}); }

World_delta delta_from(const World& world, World_delta delta) {
    delta.from_mesh_version = world.mesh_version();
    const auto* positions = world.layer(position_layer);
    delta.from_position_version = positions ? positions->version() : 0;
    return delta;
}

} // namespace orbis
