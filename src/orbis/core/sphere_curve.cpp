// SPDX-License-Identifier: MIT
// A space-filling curve over the sphere: Hilbert curves on the six faces of the cube around it.
#include "orbis/core/sphere_curve.hpp"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

namespace orbis {
namespace {

// The distance along the Hilbert curve of side 2^level of cell (x, y). Branch-free: the
// quadrant turns are masks, because cells met in slot order make each branch a coin toss.
std::uint32_t hilbert_distance(std::uint32_t x, std::uint32_t y, int level) {
    std::uint32_t d = 0;
    for (std::uint32_t s = (1u << level) >> 1; s > 0; s >>= 1) {
        const std::uint32_t rx = (x & s) ? 1u : 0u;
        const std::uint32_t ry = (y & s) ? 1u : 0u;
        d += s * s * ((3u * rx) ^ ry);
        // Turn the quadrant so that the curve inside it starts where the last one ended:
        // mirror (only the bits below s are read from here on) and then swap, where ry is 0.
        const std::uint32_t mirror = (0u - (rx & (ry ^ 1u))) & (s - 1);
        x ^= mirror;
        y ^= mirror;
        const std::uint32_t swap = (x ^ y) & (0u - (ry ^ 1u));
        x ^= swap;
        y ^= swap;
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
    // The cube face the direction leaves through, and where on it, in [-1, 1]².
    std::uint32_t face = 0;
    float u = 0.f, v = 0.f;
    if (major == ax) {
        face = p.x > 0.f ? 0 : 1;
        u = p.y / ax;
        v = p.z / ax;
    } else if (major == ay) {
        face = p.y > 0.f ? 2 : 3;
        u = p.z / ay;
        v = p.x / ay;
    } else {
        face = p.z > 0.f ? 4 : 5;
        u = p.x / az;
        v = p.y / az;
    }
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
