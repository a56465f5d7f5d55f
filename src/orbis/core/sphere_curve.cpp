// SPDX-License-Identifier: MIT
// A space-filling curve over the sphere: Hilbert curves on the six faces of the cube around it.
#include "orbis/core/sphere_curve.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <thread>
#include <utility>

namespace orbis {
namespace {

// The Hilbert curve as a machine of four states: the quadrant turns met so far, a mirror of
// both coordinates (bit 0) and a swap of them (bit 1), which commute. Each entry of `two`
// reads two levels at once (x's two bits, then y's) and gives their two base-4 digits (low
// four bits) and the next state (above); `one` reads a single level, for odd levels. A table
// lookup per two levels is about twice as fast as turning the quadrants bit by bit.
struct Hilbert_tables {
    std::array<std::array<std::uint8_t, 16>, 4> two{};
    std::array<std::array<std::uint8_t, 4>, 4> one{};

    constexpr Hilbert_tables() {
        // One level: the quadrant's digit, then the turn that makes the curve inside it start
        // where the last one ended (mirror where rx is 1 and ry 0, swap where ry is 0).
        const auto level_step = [](unsigned& state, unsigned bx, unsigned by) {
            const unsigned mirror = state & 1u, swap = state >> 1;
            const unsigned rx = (swap ? by : bx) ^ mirror, ry = (swap ? bx : by) ^ mirror;
            state = (mirror ^ (rx & (ry ^ 1u))) | ((swap ^ (ry ^ 1u)) << 1);
            return (3u * rx) ^ ry;
        };
        for (unsigned state = 0; state < 4; ++state) {
            for (unsigned q = 0; q < 4; ++q) {
                unsigned next = state;
                const unsigned digit = level_step(next, q >> 1, q & 1u);
                one[state][q] = static_cast<std::uint8_t>(digit | (next << 4));
            }
            for (unsigned q = 0; q < 16; ++q) {
                unsigned next = state;
                const unsigned high = level_step(next, (q >> 3) & 1u, (q >> 1) & 1u);
                const unsigned low = level_step(next, (q >> 2) & 1u, q & 1u);
                two[state][q] = static_cast<std::uint8_t>(((high << 2) | low) | (next << 4));
            }
        }
    }
};

// Built at compile time, so no static initialisation order can see it empty.
constexpr Hilbert_tables hilbert_tables{};

// The distance along the Hilbert curve of side 2^level of cell (x, y).
std::uint32_t hilbert_distance(std::uint32_t x, std::uint32_t y, int level) {
    std::uint32_t d = 0;
    unsigned state = 0;
    int bit = level;
    if (bit & 1) {
        --bit;
        const unsigned entry =
            hilbert_tables.one[state][(((x >> bit) & 1u) << 1) | ((y >> bit) & 1u)];
        d = entry & 15u;
        state = entry >> 4;
    }
    while (bit > 0) {
        bit -= 2;
        const unsigned entry =
            hilbert_tables.two[state][(((x >> bit) & 3u) << 2) | ((y >> bit) & 3u)];
        d = (d << 4) | (entry & 15u);
        state = entry >> 4;
    }
    return d;
}

// A coordinate in [-1, 1] as a cell index in [0, side).
std::uint32_t cell_of(float u, std::uint32_t side) {
    const float t = (u + 1.f) * 0.5f * static_cast<float>(side);
    return std::min(side - 1, static_cast<std::uint32_t>(std::max(t, 0.f)));
}

} // namespace

std::uint32_t sphere_curve_key(const glm::vec3& p, int level) {
    const float ax = std::abs(p.x), ay = std::abs(p.y), az = std::abs(p.z);
    const float major = std::max({ax, ay, az});
    if (!(major > 0.f) || !std::isfinite(major)) return 0;
    // The cube face the direction leaves through, and where on it, in [-1, 1]². Chosen by
    // selects rather than branches: points met in slot order make each branch a coin toss.
    const bool on_x = major == ax, on_y = !on_x && major == ay;
    const float along = on_x ? p.x : on_y ? p.y : p.z;
    const std::uint32_t face = (on_x ? 0u : on_y ? 2u : 4u) + (along > 0.f ? 0u : 1u);
    const float u = (on_x ? p.y : on_y ? p.z : p.x) / major;
    const float v = (on_x ? p.z : on_y ? p.x : p.y) / major;
    const std::uint32_t side = 1u << level;
    return face * side * side + hilbert_distance(cell_of(u, side), cell_of(v, side), level);
}

int sphere_curve_level(std::size_t count, std::size_t per_cell) {
    const double cells =
        static_cast<double>(count) / static_cast<double>(std::max<std::size_t>(per_cell, 1));
    int level = 0;
    while (level < 12 && 6.0 * std::pow(4.0, level + 1) <= cells)
        ++level;
    return level;
}

std::vector<std::uint32_t> order_by_key(std::span<const std::uint32_t> keys, std::uint32_t cells) {
    // Two halves counted and placed on two threads when there are many keys: each key's
    // entries from the first half go before those from the second, so the order is the one
    // a single pass gives. The scattered stores are most of the cost and overlap well.
    constexpr std::size_t min_part = std::size_t{1} << 20;
    const std::size_t parts = keys.size() >= 2 * min_part &&
                                      keys.size() >= 4 * std::size_t{cells} &&
                                      std::thread::hardware_concurrency() > 1
                                  ? 2
                                  : 1;
    const std::size_t half = parts == 1 ? keys.size() : keys.size() / 2;
    std::vector<std::uint32_t> order(keys.size());
    std::vector<std::uint32_t> first(std::size_t{cells} + 1, 0);
    std::vector<std::uint32_t> second(parts == 1 ? 0 : std::size_t{cells}, 0);
    const auto count = [&](std::size_t from, std::size_t to, std::uint32_t* into) {
        for (std::size_t i = from; i < to; ++i)
            ++into[keys[i]];
    };
    const auto place = [&](std::size_t from, std::size_t to, std::uint32_t* next) {
        for (std::size_t i = from; i < to; ++i)
            order[next[keys[i]]++] = static_cast<std::uint32_t>(i);
    };
    if (parts == 1) {
        count(0, keys.size(), first.data() + 1);
        for (std::size_t c = 1; c < first.size(); ++c)
            first[c] += first[c - 1];
        place(0, keys.size(), first.data());
        return order;
    }
    {
        std::thread other([&] { count(half, keys.size(), second.data()); });
        count(0, half, first.data() + 1);
        other.join();
    }
    // first[k]: where key k's entries from the first half start; second[k]: from the second.
    std::uint32_t at = 0;
    for (std::size_t k = 0; k < cells; ++k) {
        const std::uint32_t a = first[k + 1], b = second[k];
        first[k] = at;
        second[k] = at + a;
        at += a + b;
    }
    std::thread other([&] { place(half, keys.size(), second.data()); });
    place(0, half, first.data());
    other.join();
    return order;
}

} // namespace orbis
