// SPDX-License-Identifier: MIT
// Depression filling and flow routing on the mesh graph: the priority-flood of Barnes, Lehman
// & Mulla (2014, "Priority-Flood: an optimal depression-filling and watershed-labeling
// algorithm"), shared by `hydrology` and `erosion`.
#pragma once

#include "orbis/gen/vertex_adjacency.hpp"

#include <cstdint>
#include <vector>

namespace orbis::gen {

/// Where water goes on a depression-filled surface: a tree whose roots are the outlets.
struct Flow_tree {
    /// The filled surface per vertex slot: the lowest height from which water can run to an
    /// outlet without climbing; >= the elevation, equal outside depressions. Outlets keep
    /// their own height, or the outlet level given to route_flow when it is higher.
    std::vector<float> filled;
    /// The neighbour each vertex slot drains to; the slot itself for outlets and dead slots.
    /// filled[receiver[v]] <= filled[v] always, and following receivers ends at an outlet.
    std::vector<std::uint32_t> receiver;
    /// The live slots, every receiver before its donors (outlets first): walk it backwards to
    /// accumulate from the headwaters down, forwards to solve from the outlets up.
    std::vector<std::uint32_t> order;
};

/// The flow tree of `elevation` (one value per slot of `g`, dead slots ignored) draining to
/// the slots where outlet[s] != 0, whose surface is raised to at least `outlet_level`. When no
/// live slot is an outlet, the lowest live vertex becomes the only one. Water crosses a
/// depression to its spill point through a breadth-first tree over the flat filled surface.
/// The tree depends on the numbering where heights tie (seeds go in slot order); on a graph
/// numbered along a space-filling curve (renumbered_adjacency) its reads stay near in memory.
/// Cost: O(n log n) for n live vertices; 4 * 3 * slots bytes plus the queue.
Flow_tree route_flow(const Vertex_adjacency& g, const std::vector<float>& elevation,
                     const std::vector<std::uint8_t>& outlet, float outlet_level = 0.f);

} // namespace orbis::gen
