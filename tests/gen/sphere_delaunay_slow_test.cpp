// SPDX-License-Identifier: MIT
// One million points; registered separately with the label "slow" (see CMakeLists.txt).
#include <string>

#include <gtest/gtest.h>

#include "orbis/gen/fibonacci_sphere.hpp"
#include "orbis/gen/sphere_delaunay.hpp"
#include "triangulation_checks.hpp"

namespace orbis::gen {
namespace {

class Slow_million_points : public ::testing::TestWithParam<float> {};

TEST_P(Slow_million_points, is_delaunay_and_matches_cgal) {
    const auto points =
        fibonacci_points({.count = 1'000'000, .perturbation = GetParam(), .seed = 1});
    const Sphere_triangulation ours = delaunay_on_sphere(points);
    EXPECT_TRUE(testing::is_sphere_delaunay(points, ours));
    const Sphere_triangulation reference = delaunay_on_sphere_cgal(points);
    EXPECT_TRUE(testing::same_up_to_cocircular(points, ours, reference));
}

std::string perturbation_name(const ::testing::TestParamInfo<float>& param) {
    return "perturbation" + std::to_string(static_cast<int>(param.param * 100));
}

INSTANTIATE_TEST_SUITE_P(Slow, Slow_million_points, ::testing::Values(0.f, 0.5f),
                         perturbation_name);

} // namespace
} // namespace orbis::gen
