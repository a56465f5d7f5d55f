// SPDX-License-Identifier: MIT
#include <cmath>
#include <limits>
#include <stdexcept>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <gtest/gtest.h>

#include "orbis/gen/fibonacci_sphere.hpp"

namespace orbis::gen {
namespace {

TEST(Fibonacci_points, unperturbed_spiral_runs_from_pole_to_pole) {
    const auto points = fibonacci_points({.count = 1000, .radius = 2.f});
    ASSERT_EQ(points.size(), 1000u);
    EXPECT_EQ(points.front(), glm::vec3(0.f, 2.f, 0.f));
    EXPECT_FLOAT_EQ(points.back().y, -2.f);
    EXPECT_NEAR(glm::length(glm::vec2(points.back().x, points.back().z)), 0.f, 1e-6f);
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_NEAR(glm::length(points[i]), 2.f, 2e-6f) << i;
        if (i > 0) {
            EXPECT_LE(points[i].y, points[i - 1].y) << i;
        }
    }
}

TEST(Fibonacci_points, follows_the_seed_formula) {
    const std::uint32_t n = 7;
    const auto points = fibonacci_points({.count = n});
    const double golden_angle = 2.0 * 3.14159265358979323846 * (2.0 - 1.61803398874989484820);
    for (std::uint32_t i = 0; i < n; ++i) {
        const double y = 1.0 - 2.0 * i / (n - 1);
        const double r = std::sqrt(1.0 - y * y);
        EXPECT_FLOAT_EQ(points[i].x, static_cast<float>(std::cos(i * golden_angle) * r));
        EXPECT_FLOAT_EQ(points[i].y, static_cast<float>(y));
        EXPECT_FLOAT_EQ(points[i].z, static_cast<float>(std::sin(i * golden_angle) * r));
    }
}

TEST(Fibonacci_points, equal_seeds_give_equal_points) {
    const Fibonacci_params params{.count = 5000, .radius = 3.f, .perturbation = 0.5f, .seed = 42};
    EXPECT_EQ(fibonacci_points(params), fibonacci_points(params));
}

TEST(Fibonacci_points, different_seeds_give_different_points_when_perturbed) {
    Fibonacci_params params{.count = 5000, .perturbation = 0.5f, .seed = 1};
    const auto first = fibonacci_points(params);
    params.seed = 2;
    const auto second = fibonacci_points(params);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < first.size(); ++i)
        differing += first[i] != second[i];
    EXPECT_GT(differing, first.size() * 9 / 10);
}

TEST(Fibonacci_points, seed_is_irrelevant_without_perturbation) {
    EXPECT_EQ(fibonacci_points({.count = 100, .seed = 1}),
              fibonacci_points({.count = 100, .seed = 2}));
}

TEST(Fibonacci_points, perturbation_keeps_points_on_the_sphere_and_sorted) {
    const auto points = fibonacci_points({.count = 20000, .perturbation = 0.9f, .seed = 3});
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_NEAR(glm::length(points[i]), 1.f, 1e-6f) << i;
        if (i > 0) {
            EXPECT_LE(points[i].y, points[i - 1].y) << i;
        }
    }
    // The last index is clamped to count - 1, so the south pole stays where it is.
    EXPECT_FLOAT_EQ(points.back().y, -1.f);
}

TEST(Fibonacci_points, refuses_bad_parameters) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (std::uint32_t count : {0u, 1u, 2u, 3u}) {
        EXPECT_THROW(fibonacci_points({.count = count}), std::invalid_argument) << count;
    }
    for (float perturbation : {-0.1f, 1.f, 1.5f, nan, inf}) {
        EXPECT_THROW(fibonacci_points({.count = 10, .perturbation = perturbation}),
                     std::invalid_argument)
            << perturbation;
    }
    for (float radius : {0.f, -1.f, nan, inf, -inf}) {
        EXPECT_THROW(fibonacci_points({.count = 10, .radius = radius}), std::invalid_argument)
            << radius;
    }
    EXPECT_NO_THROW(fibonacci_points({.count = 4, .radius = 1e-3f, .perturbation = 0.999f}));
}

TEST(Fibonacci_points, refusal_names_the_problem) {
    try {
        fibonacci_points({.count = 10, .perturbation = 1.f});
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("perturbation"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace orbis::gen
