// SPDX-License-Identifier: MIT
// Which vertices are the world ocean: below sea level and connected to the largest such body,
// or to another one large enough to be an ocean of its own.
// Shared by `climate` (moisture comes from the ocean) and `hydrology` (rivers end in it), so
// both agree that an inland basin below sea level is land.
#pragma once

#include "orbis/core/mesh.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include <cstdint>
#include <vector>

namespace orbis::gen {

/// One byte per vertex slot, 1 where the vertex belongs to the world ocean: the largest set of
/// vertices below `sea_level` connected through mesh edges, and every other such set holding
/// at least `min_fraction` of the live vertices: a second ocean cut off by a land bridge, or an
/// inland sea of oceanic depth the size of the Mediterranean (0.5% of Earth), is sea; with the
/// default 0.2%, one of the Caspian's size (0.07%) is a lake or a dry basin.
/// Everything is 0 when no vertex lies below sea level; dead slots are 0.
/// Precondition: elevation has one value per vertex slot of the mesh `g` was built from.
/// Cost: O(slots + edges).
std::vector<std::uint8_t> world_ocean(const Vertex_adjacency& g,
                                      const std::vector<float>& elevation, float sea_level = 0.f,
                                      double min_fraction = 0.002);

/// world_ocean on a renumbered graph (see renumbered_adjacency): `g` and `elevation` are indexed
/// by new ids, and slot_of[i] is the original slot of new id i. Gives, per new id, exactly what
/// world_ocean on the original numbering gives per slot: between two largest bodies of equal
/// size, the one holding the smaller original slot wins, as there.
/// Precondition: every id of `g` is live. Cost: O(vertices + edges).
std::vector<std::uint8_t> world_ocean(const Vertex_adjacency& g,
                                      const std::vector<float>& elevation,
                                      const std::vector<std::uint32_t>& slot_of, float sea_level,
                                      double min_fraction);

} // namespace orbis::gen
