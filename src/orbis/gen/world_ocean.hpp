// SPDX-License-Identifier: MIT
// Which vertices are the world ocean: below sea level and connected to the largest such body,
// or to another one large enough to be an ocean of its own.
// Shared by `climate` (moisture comes from the ocean) and `hydrology` (rivers end in it), so
// both agree that an inland basin below sea level is land.
#pragma once

#include "orbis/core/mesh.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include <cstdint>
#include <memory>
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

/// world_ocean on a renumbered graph, kept up to date as vertices cross sea level: what
/// `climate` and `hydrology` keep between runs (run_memory.hpp), so that a stroke that sinks a
/// stretch of coast does not search every sea again.
class Ocean_tracker {
public:
    /// The bodies below sea level and world_ocean(g, elevation, slot_of, sea_level,
    /// min_fraction) of them. Cost: O(vertices + edges).
    Ocean_tracker(const Vertex_adjacency& g, const std::vector<float>& elevation,
                  const std::vector<std::uint32_t>& slot_of, float sea_level, double min_fraction);
    /// Moves the bodies.
    Ocean_tracker(Ocean_tracker&&) noexcept;
    /// Moves the bodies.
    Ocean_tracker& operator=(Ocean_tracker&&) noexcept;
    ~Ocean_tracker();

    /// One byte per id, 1 on the world ocean: what world_ocean gives for the elevations of
    /// the last construction or update.
    const std::vector<std::uint8_t>& ocean() const;
    /// Brings ocean() up to world_ocean of `elevation` (the same graph and numbering), where
    /// the ids in `crossed` (each once) and only they crossed sea level since; appends the ids
    /// whose ocean changed to `changed`. Cost: O(crossed + the small bodies they join to the
    /// ocean) when all of them sank; a whole search when one rose (which may split a body) or
    /// when the largest body lost its place to another.
    void update(const Vertex_adjacency& g, const std::vector<float>& elevation,
                const std::vector<std::uint32_t>& slot_of,
                const std::vector<std::uint32_t>& crossed, std::vector<std::uint32_t>& changed);

    /// The bodies below sea level (defined with the tracker).
    struct Bodies;

private:
    std::unique_ptr<Bodies> bodies_;
    float sea_level_;
    double min_fraction_;
};

} // namespace orbis::gen
