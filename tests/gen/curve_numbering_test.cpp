// SPDX-License-Identifier: MIT
#include <orbis/core/sphere_curve.hpp>
#include <orbis/gen/curve_numbering.hpp>
#include <orbis/gen/fibonacci_sphere.hpp>
#include <orbis/gen/parallel_ranges.hpp>
#include <orbis/gen/sphere_delaunay.hpp>

#include "triangulation_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::gen;

// A point's coordinates as a sortable tuple.
std::tuple<float, float, float> coordinates(const glm::vec3& p) { return {p.x, p.y, p.z}; }

// The triangles' corners named by the points themselves, so two numberings compare.
std::set<std::array<std::tuple<float, float, float>, 3>>
triangles_by_position(std::span<const glm::vec3> points, const Sphere_triangulation& t) {
    std::set<std::array<std::tuple<float, float, float>, 3>> out;
    for (auto corners : gen::testing::canonical_triangles(t)) {
        std::array<std::tuple<float, float, float>, 3> named{};
        for (int i = 0; i < 3; ++i)
            named[i] = coordinates(points[corners[i]]);
        std::rotate(named.begin(), std::min_element(named.begin(), named.end()), named.end());
        out.insert(named);
    }
    return out;
}

class CurveNumbering : public ::testing::TestWithParam<unsigned> {};

TEST_P(CurveNumbering, RenamesTheSameTriangulationAlongTheCurve) {
    set_parallel_settings({.threads = GetParam(), .min_items = 2});
    const auto original = fibonacci_points({.count = 20'000, .perturbation = 0.5f, .seed = 4});
    const Sphere_triangulation before = delaunay_on_sphere(original);
    auto points = original;
    auto triangulation = before;
    number_along_curve(points, triangulation);
    set_parallel_settings({});

    // The same points and the same triangles on them, a valid triangulation with its twins.
    auto sorted_before = original, sorted_after = points;
    const auto less = [](const glm::vec3& a, const glm::vec3& b) {
        return coordinates(a) < coordinates(b);
    };
    std::sort(sorted_before.begin(), sorted_before.end(), less);
    std::sort(sorted_after.begin(), sorted_after.end(), less);
    EXPECT_EQ(sorted_before, sorted_after);
    EXPECT_TRUE(gen::testing::is_sphere_delaunay(points, triangulation));
    EXPECT_EQ(triangles_by_position(original, before), triangles_by_position(points, triangulation));

    // Points follow the curve, and triangles their lowest corner.
    const int level = sphere_curve_level(points.size(), 16);
    for (std::size_t i = 1; i < points.size(); ++i)
        ASSERT_LE(sphere_curve_key(points[i - 1], level), sphere_curve_key(points[i], level)) << i;
    const auto lowest = [](const std::array<std::uint32_t, 3>& t) {
        return std::min({t[0], t[1], t[2]});
    };
    for (std::size_t t = 1; t < triangulation.triangles.size(); ++t)
        ASSERT_LE(lowest(triangulation.triangles[t - 1]), lowest(triangulation.triangles[t])) << t;

    // What the numbering is for: the ends of an edge get near numbers. Along the spiral the
    // typical neighbour is a Fibonacci number of places away (here hundreds); along the curve
    // most neighbours lie within a few cells.
    const auto median_gap = [](const Sphere_triangulation& t) {
        std::vector<std::uint32_t> gaps;
        for (const auto& c : t.triangles)
            for (int i = 0; i < 3; ++i)
                gaps.push_back(c[i] > c[(i + 1) % 3] ? c[i] - c[(i + 1) % 3]
                                                     : c[(i + 1) % 3] - c[i]);
        std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
        return gaps[gaps.size() / 2];
    };
    EXPECT_LT(median_gap(triangulation) * 4, median_gap(before));
}

TEST(CurveNumberingThreads, OneAndTwoThreadsGiveTheSameNames) {
    const auto original = fibonacci_points({.count = 5'000, .perturbation = 0.3f, .seed = 2});
    const Sphere_triangulation t = delaunay_on_sphere(original);
    auto run = [&](unsigned threads) {
        set_parallel_settings({.threads = threads, .min_items = 2});
        auto points = original;
        auto triangulation = t;
        number_along_curve(points, triangulation);
        set_parallel_settings({});
        return std::tuple(points, triangulation.triangles, triangulation.opposite);
    };
    EXPECT_EQ(run(1), run(2));
}

INSTANTIATE_TEST_SUITE_P(Threads, CurveNumbering, ::testing::Values(1u, 2u));

} // namespace
