// SPDX-License-Identifier: MIT
// A space-filling curve over the sphere: Hilbert curves on the six faces of the cube around it.
// Sorting elements by their key puts neighbours on the sphere mostly next to each other, which
// a Fibonacci sphere's spiral numbering does not (its neighbours differ by Fibonacci numbers).
#pragma once

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace orbis {

/// The number of cells of sphere_curve_key at `level`: 6 · 4^level. Precondition: level in
/// [0, 15].
constexpr std::uint32_t sphere_curve_cells(int level) {
    return 6u << (2 * static_cast<unsigned>(level));
}

/// The cell of direction `p` along the curve at `level` (each cube face cut into 2^level ×
/// 2^level cells, visited in Hilbert order, the faces one after the other): a key below
/// sphere_curve_cells(level). Directions in one cell share a key; cells with consecutive keys
/// touch. `p` need not be unit length; the origin and non-finite directions get key 0.
/// Precondition: level in [0, 15]. O(level).
std::uint32_t sphere_curve_key(const glm::vec3& p, int level);

/// The level at which `count` elements spread evenly over the sphere fall about
/// `per_cell` to a cell (at least 0, at most 12).
int sphere_curve_level(std::size_t count, std::size_t per_cell);

/// Indices into `keys` ordered by key, equal keys by index (a counting sort). Precondition:
/// every key is below `cells`. O(keys + cells).
std::vector<std::uint32_t> order_by_key(std::span<const std::uint32_t> keys, std::uint32_t cells);

} // namespace orbis
