// SPDX-License-Identifier: MIT
// Tests of the sphere's space-filling curve: every cell once, consecutive cells touching, the
// faces of the cube one after the other, and the counting sort that orders by its keys.
#include "orbis/core/sphere_curve.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

namespace orbis {
namespace {

// The centre of cell (x, y) of cube face `face` at `level`, as sphere_curve_key lays them out.
glm::vec3 cell_centre(int face, int x, int y, int level) {
    const float side = float(1 << level);
    const float u = (float(x) + 0.5f) / side * 2.f - 1.f, v = (float(y) + 0.5f) / side * 2.f - 1.f;
    const float s = face % 2 == 0 ? 1.f : -1.f;
    switch (face / 2) {
    case 0:
        return {s, u, v};
    case 1:
        return {v, s, u};
    default:
        return {u, v, s};
    }
}

TEST(SphereCurve, EveryCellOnceAndConsecutiveCellsTouch) {
    for (const int level : {0, 1, 2, 3, 4, 5, 6}) {
        const int side = 1 << level;
        for (int face = 0; face < 6; ++face) {
            std::vector<int> x_of(side * side, -1), y_of(side * side, -1);
            for (int x = 0; x < side; ++x)
                for (int y = 0; y < side; ++y) {
                    const std::uint32_t key =
                        sphere_curve_key(cell_centre(face, x, y, level), level);
                    ASSERT_GE(key, std::uint32_t(face * side * side)) << "faces one after another";
                    const std::uint32_t d = key - std::uint32_t(face * side * side);
                    ASSERT_LT(d, std::uint32_t(side * side));
                    ASSERT_EQ(x_of[d], -1) << "two cells with key " << key;
                    x_of[d] = x;
                    y_of[d] = y;
                }
            for (int d = 1; d < side * side; ++d)
                EXPECT_EQ(std::abs(x_of[d] - x_of[d - 1]) + std::abs(y_of[d] - y_of[d - 1]), 1)
                    << "level " << level << " face " << face << " step " << d;
        }
        EXPECT_EQ(sphere_curve_cells(level), std::uint32_t(6 * side * side));
    }
}

// The Hilbert distance of cell (x, y) turned bit by bit (the textbook form), against which the
// library's table-driven one is checked: the view's buffers and the generation passes' ids
// follow these keys.
std::uint32_t reference_hilbert(std::uint32_t x, std::uint32_t y, int level) {
    std::uint32_t d = 0;
    for (std::uint32_t s = (1u << level) >> 1; s > 0; s >>= 1) {
        const std::uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
        d += s * s * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = s - 1 - (x & (s - 1));
                y = s - 1 - (y & (s - 1));
            }
            std::swap(x, y);
        }
    }
    return d;
}

TEST(SphereCurve, KeysAreTheTextbookHilbertDistancesOnEachFace) {
    for (int level = 0; level <= 12; ++level) {
        const std::uint32_t side = 1u << level;
        const std::uint32_t step = std::max(1u, side / 37);
        for (int face = 0; face < 6; ++face)
            for (std::uint32_t x = 0; x < side; x += step)
                for (std::uint32_t y = 0; y < side; y += step)
                    ASSERT_EQ(sphere_curve_key(cell_centre(face, int(x), int(y), level), level),
                              std::uint32_t(face) * side * side + reference_hilbert(x, y, level))
                        << "level " << level << " face " << face << " cell " << x << ", " << y;
    }
}

TEST(SphereCurve, ScaleDoesNotMatterAndDegenerateDirectionsGetKeyZero) {
    const glm::vec3 p(0.3f, -0.8f, 0.52f);
    EXPECT_EQ(sphere_curve_key(p, 7), sphere_curve_key(p * 6371.f, 7));
    EXPECT_EQ(sphere_curve_key(glm::vec3(0.f), 7), 0u);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(sphere_curve_key(glm::vec3(nan, 0.f, 1.f), 7), 0u);
    EXPECT_LT(sphere_curve_key(glm::vec3(-1.f, -1.f, -1.f), 12), sphere_curve_cells(12));
}

TEST(SphereCurve, LevelsGiveAboutTheAskedCountPerCell) {
    EXPECT_EQ(sphere_curve_level(0, 32), 0);
    EXPECT_EQ(sphere_curve_level(6 * 32, 32), 0);
    EXPECT_EQ(sphere_curve_level(6 * 4 * 32, 32), 1);
    EXPECT_EQ(sphere_curve_level(6 * 4 * 32 - 1, 32), 0);
    EXPECT_EQ(sphere_curve_level(std::size_t{1} << 40, 1), 12) << "capped";
    for (const std::size_t n : {1000u, 100000u, 18000000u}) {
        const double per_cell = double(n) / sphere_curve_cells(sphere_curve_level(n, 32));
        EXPECT_GE(per_cell, 32.0);
        EXPECT_LT(per_cell, 4 * 32.0);
    }
}

TEST(SphereCurve, OrderByKeySortsAndKeepsEqualKeysInIndexOrder) {
    const std::vector<std::uint32_t> keys{3, 0, 2, 0, 3, 1};
    EXPECT_EQ(order_by_key(keys, 4), (std::vector<std::uint32_t>{1, 3, 5, 2, 0, 4}));
    EXPECT_TRUE(order_by_key({}, 4).empty());
}

// Enough keys for the sort to split them between two threads: the order is still the one a
// stable sort by key gives, equal keys in index order across the split.
TEST(SphereCurve, OrderByKeyOfManyKeysIsAStableSort) {
    for (const std::uint32_t cells : {1u, 7u, 98304u}) {
        std::vector<std::uint32_t> keys(2'500'001);
        std::uint32_t x = 12345;
        for (auto& k : keys) {
            x = x * 1664525u + 1013904223u;
            k = (x >> 8) % cells;
        }
        // A stable sort by key: (key, index) pairs sorted (std::stable_sort's temporary
        // buffer would meet the counting operator delete of traversal_test.cpp under ASan).
        std::vector<std::uint64_t> pairs(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            pairs[i] = (std::uint64_t{keys[i]} << 32) | i;
        std::sort(pairs.begin(), pairs.end());
        std::vector<std::uint32_t> expected(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i)
            expected[i] = static_cast<std::uint32_t>(pairs[i] & 0xffffffffu);
        EXPECT_EQ(order_by_key(keys, cells), expected) << cells << " cells";
    }
}

} // namespace
} // namespace orbis
