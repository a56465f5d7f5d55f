// SPDX-License-Identifier: MIT
#include "orbis/gen/spatial_order.hpp"

#include "orbis/core/sphere_curve.hpp"
#include "orbis/gen/parallel_ranges.hpp"

#include <vector>

namespace orbis::gen {

Spatial_order spatial_order(const std::vector<glm::vec3>& position,
                            const std::vector<std::uint8_t>& live) {
    const auto slots = static_cast<std::uint32_t>(live.size());
    std::uint32_t count = 0;
    for (std::uint32_t s = 0; s < slots; ++s)
        count += live[s] != 0;
    // Cells of 16 to 64 vertices: a cell's vertices lie within a few edges of one another,
    // which is near enough for the cache, and the counting sort's table stays small enough
    // for the cache too (with a cell per vertex, its scattered counts cost more than the
    // locality gained).
    const int level = sphere_curve_level(count, 16);
    // Each slot's own key, on two threads.
    std::vector<std::uint32_t> key(slots, 0);
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t s = begin; s < end; ++s)
            if (live[s]) key[s] = sphere_curve_key(position[s], level);
    });
    Spatial_order o;
    o.slot_of = order_by_key(key, sphere_curve_cells(level));
    std::erase_if(o.slot_of, [&](std::uint32_t s) { return !live[s]; });
    o.id_of.assign(slots, 0);
    for (std::uint32_t id = 0; id < o.slot_of.size(); ++id)
        o.id_of[o.slot_of[id]] = id;
    o.in_slot_order.reserve(count);
    for (std::uint32_t s = 0; s < slots; ++s)
        if (live[s]) o.in_slot_order.push_back(o.id_of[s]);
    return o;
}

} // namespace orbis::gen
