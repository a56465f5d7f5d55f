// SPDX-License-Identifier: MIT
#include "orbis/gen/spatial_order.hpp"

#include "orbis/core/sphere_curve.hpp"
#include "orbis/gen/parallel_ranges.hpp"

#include <vector>

namespace orbis::gen {

Spatial_order spatial_order(std::span<const glm::vec3> position,
                            std::span<const std::uint8_t> live) {
    const auto slots = static_cast<std::uint32_t>(live.size());
    std::uint32_t count = 0;
    for (std::uint32_t s = 0; s < slots; ++s)
        count += live[s] != 0;
    // Cells of 16 to 64 vertices: a cell's vertices lie within a few edges of one another,
    // which is near enough for the cache, and the counting sort's table stays small enough
    // for the cache too (with a cell per vertex, its scattered counts cost more than the
    // locality gained).
    const int level = sphere_curve_level(count, 16);
    // Each slot's own key, on two threads; dead slots get a key past the curve's last cell,
    // so they sort to the end and are cut off there.
    const std::uint32_t cells = sphere_curve_cells(level);
    std::vector<std::uint32_t> key(slots);
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t s = begin; s < end; ++s)
            key[s] = live[s] ? sphere_curve_key(position[s], level) : cells;
    });
    Spatial_order o;
    o.slot_of = order_by_key(key, cells + 1);
    o.slot_of.resize(count);
    o.id_of.assign(slots, 0);
    parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t id = begin; id < end; ++id)
            o.id_of[o.slot_of[id]] = id;
    });
    return o;
}

} // namespace orbis::gen
