// SPDX-License-Identifier: MIT
#include "orbis/gen/spatial_order.hpp"

#include <algorithm>
#include <cmath>

namespace orbis::gen {

namespace {

// The bits of x (below 16) spread to the even bit positions.
std::uint32_t spread_bits(std::uint32_t x) {
    x &= 0xFFFF;
    x = (x | (x << 8)) & 0x00FF00FF;
    x = (x | (x << 4)) & 0x0F0F0F0F;
    x = (x | (x << 2)) & 0x33333333;
    x = (x | (x << 1)) & 0x55555555;
    return x;
}

} // namespace

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
    std::uint32_t bits = 1;
    while (bits < 15 && (6ull * 64 << (2 * bits)) < count)
        ++bits;
    const std::uint32_t side = 1u << bits;
    const std::uint32_t cells = 6u * side * side;
    std::vector<std::uint32_t> key(slots, 0), start(std::size_t{cells} + 1, 0);
    for (std::uint32_t s = 0; s < slots; ++s) {
        if (!live[s]) continue;
        const glm::vec3 p = position[s];
        const float ax = std::abs(p.x), ay = std::abs(p.y), az = std::abs(p.z);
        std::uint32_t face;
        float u, v, major;
        if (ax >= ay && ax >= az) {
            face = p.x >= 0 ? 0 : 1;
            u = p.y, v = p.z, major = ax;
        } else if (ay >= az) {
            face = p.y >= 0 ? 2 : 3;
            u = p.z, v = p.x, major = ay;
        } else {
            face = p.z >= 0 ? 4 : 5;
            u = p.x, v = p.y, major = az;
        }
        const auto cell = [&](float t) {
            const float x = major > 0 ? (t / major + 1.f) * 0.5f * float(side) : 0.f;
            return std::min(side - 1, static_cast<std::uint32_t>(std::max(0.f, x)));
        };
        key[s] = face * side * side + (spread_bits(cell(u)) | (spread_bits(cell(v)) << 1));
        ++start[key[s] + 1];
    }
    for (std::uint32_t c = 0; c < cells; ++c)
        start[c + 1] += start[c];
    Spatial_order o;
    o.slot_of.resize(count);
    o.id_of.assign(slots, 0);
    o.in_slot_order.reserve(count);
    for (std::uint32_t s = 0; s < slots; ++s) {
        if (!live[s]) continue;
        const std::uint32_t id = start[key[s]]++;
        o.slot_of[id] = s;
        o.id_of[s] = id;
        o.in_slot_order.push_back(id);
    }
    return o;
}

} // namespace orbis::gen
