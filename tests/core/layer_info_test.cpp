// SPDX-License-Identifier: MIT
// Layer_info and interpolation (SPEC "Layers"): constexpr chaining, defaults, range checks,
// every row of the Interpolation table, refusals, slerp edge cases.
#include "orbis/core/interpolation.hpp"
#include "orbis/core/layer_info.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace orbis {
namespace {

using I = Interpolation;

// --- Layer_info -------------------------------------------------------------------------------

constexpr auto distance_info = Layer_info<float, Layer_type::edge_primal>("plate_distance")
                                   .initial(-1.f)
                                   .min(-1.f)
                                   .max(100.f)
                                   .validate(Validation::range)
                                   .on_mesh_change(On_mesh_change::reset_affected)
                                   .interpolation(Interpolation::lerp);

static_assert(distance_info.name() == "plate_distance");
static_assert(distance_info.initial_value() == -1.f);
static_assert(distance_info.min_value() == -1.f);
static_assert(distance_info.max_value() == 100.f);
static_assert(distance_info.validation() == Validation::range);
static_assert(distance_info.mesh_change() == On_mesh_change::reset_affected);
static_assert(distance_info.interpolation_mode() == Interpolation::lerp);
static_assert(distance_info.in_range(50.f) && !distance_info.in_range(100.5f));
static_assert(std::same_as<decltype(distance_info)::value_type, float>);
static_assert(decltype(distance_info)::type == Layer_type::edge_primal);

constexpr auto position_info = Layer_info<glm::vec3, Layer_type::vertex>("position")
                                   .initial(glm::vec3(0.f, 0.f, 1.f))
                                   .interpolation(Interpolation::slerp);
static_assert(position_info.initial_value() == glm::vec3(0.f, 0.f, 1.f));
static_assert(interpolation_allowed<glm::vec3>(position_info.interpolation_mode()));

TEST(LayerInfo, DefaultsAreDocumented) {
    constexpr auto info = Layer_info<std::int32_t, Layer_type::face>("plate_id");
    static_assert(info.initial_value() == 0);
    static_assert(info.validation() == Validation::none);
    static_assert(info.mesh_change() == On_mesh_change::keep);
    static_assert(info.interpolation_mode() == Interpolation::dont_care);
    EXPECT_EQ(info.min_value(), std::numeric_limits<std::int32_t>::lowest());
    EXPECT_EQ(info.max_value(), std::numeric_limits<std::int32_t>::max());

    constexpr auto f = Layer_info<double, Layer_type::vertex>("h");
    EXPECT_EQ(f.initial_value(), 0.0);
    EXPECT_EQ(f.min_value(), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(f.max_value(), std::numeric_limits<double>::infinity());

    constexpr auto v = Layer_info<glm::dvec4, Layer_type::edge_dual_directed>("v");
    EXPECT_EQ(v.initial_value(), glm::dvec4(0.0));
    EXPECT_TRUE(v.in_range(glm::dvec4(1e300, -1e300, 0.0, 1.0)));
}

TEST(LayerInfo, SettersReturnModifiedCopies) {
    constexpr auto base = Layer_info<float, Layer_type::vertex>("t");
    constexpr auto changed = base.initial(3.f);
    EXPECT_EQ(base.initial_value(), 0.f);
    EXPECT_EQ(changed.initial_value(), 3.f);
    EXPECT_NE(base, changed);
    EXPECT_EQ(base, (Layer_info<float, Layer_type::vertex>("t")));
}

TEST(LayerInfo, InRangeChecksEveryComponentAndRejectsNan) {
    constexpr auto info = Layer_info<glm::vec2, Layer_type::face>("wind")
                              .min(glm::vec2(-1.f, 0.f))
                              .max(glm::vec2(1.f, 2.f));
    EXPECT_TRUE(info.in_range(glm::vec2(-1.f, 2.f)));
    EXPECT_FALSE(info.in_range(glm::vec2(0.f, 2.5f)));
    EXPECT_FALSE(info.in_range(glm::vec2(-1.5f, 1.f)));
    EXPECT_FALSE(info.in_range(glm::vec2(std::nanf(""), 1.f)));
    constexpr auto scalar = Layer_info<double, Layer_type::vertex>("x");
    EXPECT_TRUE(scalar.in_range(std::numeric_limits<double>::infinity()));
    EXPECT_FALSE(scalar.in_range(std::nan("")));
}

TEST(LayerInfo, ValueAndTypeNames) {
    static_assert(layer_value_name<bool>() == "bool");
    static_assert(layer_value_name<std::uint32_t>() == "uint32");
    static_assert(layer_value_name<glm::dvec3>() == "dvec3");
    static_assert(layer_type_name(Layer_type::edge_dual_directed) == "edge_dual_directed");
    static_assert(layer_value_length<float> == 1 && layer_value_length<glm::vec4> == 4);
    static_assert(!Layer_value<char> && !Layer_value<glm::ivec3> && Layer_value<std::int64_t>);
    SUCCEED();
}

// --- Refusals ---------------------------------------------------------------------------------

TEST(Interpolation, RefusesLerpOnBoolWithMessage) {
    const auto why = why_not<bool>(I::lerp);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("bool"), std::string_view::npos);
    EXPECT_THROW(interpolate(I::lerp, false, true, 0.5f, false), std::invalid_argument);
    try {
        (void)interpolate(I::lerp, false, true, 0.5f, false);
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("lerp on bool"), std::string::npos);
    }
}

TEST(Interpolation, RefusesMinValueOnVec3WithMessage) {
    const auto why = why_not<glm::vec3>(I::min_value);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("vectors have no order"), std::string_view::npos);
    EXPECT_FALSE(interpolation_allowed<glm::dvec2>(I::max_value));
    EXPECT_THROW(interpolate(I::max_value, glm::vec3(0.f), glm::vec3(1.f), 0.5f, glm::vec3(0.f)),
                 std::invalid_argument);
}

TEST(Interpolation, SlerpOnlyForThreeComponentVectors) {
    static_assert(interpolation_allowed<glm::vec3>(I::slerp));
    static_assert(interpolation_allowed<glm::dvec3>(I::slerp));
    static_assert(!interpolation_allowed<glm::vec2>(I::slerp));
    static_assert(!interpolation_allowed<glm::dvec4>(I::slerp));
    static_assert(!interpolation_allowed<float>(I::slerp));
    static_assert(!interpolation_allowed<bool>(I::slerp));
    EXPECT_TRUE(why_not<float>(I::slerp).has_value());
}

TEST(Interpolation, EverythingElseIsAllowed) {
    for (auto mode : {I::dont_care, I::reset_affected, I::reset_all, I::remove_layer, I::keep_src,
                      I::keep_dest, I::min_weight, I::max_weight}) {
        EXPECT_TRUE(interpolation_allowed<bool>(mode));
        EXPECT_TRUE(interpolation_allowed<std::int64_t>(mode));
        EXPECT_TRUE(interpolation_allowed<glm::vec4>(mode));
        EXPECT_TRUE(interpolation_allowed<glm::dvec3>(mode));
    }
    EXPECT_TRUE(interpolation_allowed<bool>(I::min_value));
    EXPECT_TRUE(interpolation_allowed<std::uint32_t>(I::lerp));
    EXPECT_TRUE(interpolation_allowed<glm::vec2>(I::lerp));
}

// --- SPEC's table, scalars ----------------------------------------------------------------------

template <class T>
class FloatingTable : public ::testing::Test {};
using Floating_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FloatingTable, Floating_types);

TYPED_TEST(FloatingTable, EveryRow) {
    using T = TypeParam;
    const T src = T(0.1), dest = T(0.9), initial = T(-1);
    auto run = [&](I mode, float t) { return interpolate<T>(mode, src, dest, t, initial); };
    // dont_care: unspecified by SPEC; documented here as src.
    EXPECT_EQ(run(I::dont_care, 0.3f), src);
    EXPECT_EQ(run(I::reset_affected, 0.3f), initial);
    EXPECT_EQ(run(I::reset_all, 0.3f), initial);
    EXPECT_EQ(run(I::remove_layer, 0.3f), initial);
    for (float t : {0.f, 0.25f, 0.5f, 0.6f, 1.f}) {
        EXPECT_EQ(run(I::keep_src, t), src);
        EXPECT_EQ(run(I::keep_dest, t), dest);
        EXPECT_EQ(run(I::min_value, t), src);
        EXPECT_EQ(run(I::max_value, t), dest);
    }
    if constexpr (std::same_as<T, float>)
        EXPECT_FLOAT_EQ(run(I::lerp, 0.5f), 0.5f);
    else
        EXPECT_DOUBLE_EQ(run(I::lerp, 0.5f), 0.5);
    EXPECT_EQ(run(I::lerp, 0.f), src);
    EXPECT_EQ(run(I::lerp, 1.f), dest);
    EXPECT_EQ(run(I::min_weight, 0.6f), src);
    EXPECT_EQ(run(I::max_weight, 0.6f), dest);
    EXPECT_EQ(run(I::min_weight, 0.4f), dest);
    EXPECT_EQ(run(I::max_weight, 0.4f), src);
    // Order of arguments does not matter for min/max_value.
    EXPECT_EQ(interpolate<T>(I::min_value, dest, src, 0.f, initial), src);
    EXPECT_EQ(interpolate<T>(I::max_value, dest, src, 0.f, initial), dest);
}

TYPED_TEST(FloatingTable, MinMaxValueIgnoreNan) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    EXPECT_EQ(interpolate<T>(I::min_value, nan, T(2), 0.5f, T(0)), T(2));
    EXPECT_EQ(interpolate<T>(I::max_value, T(2), nan, 0.5f, T(0)), T(2));
}

TEST(Interpolation, WeightsAtExactlyHalf) {
    EXPECT_EQ(interpolate(I::min_weight, 0.1f, 0.9f, 0.5f, 0.f), 0.1f);
    EXPECT_EQ(interpolate(I::max_weight, 0.1f, 0.9f, 0.5f, 0.f), 0.9f);
    EXPECT_EQ(interpolate(I::min_weight, 0.1, 0.9, 0.5f, 0.0), 0.1);
    EXPECT_EQ(interpolate(I::max_weight, 0.1, 0.9, 0.5f, 0.0), 0.9);
    EXPECT_EQ(interpolate(I::min_weight, std::int32_t{1}, std::int32_t{9}, 0.5f, 0), 1);
    EXPECT_EQ(interpolate(I::max_weight, std::int32_t{1}, std::int32_t{9}, 0.5f, 0), 9);
    const glm::vec3 a(1.f, 2.f, 3.f), b(4.f, 5.f, 6.f);
    EXPECT_EQ(interpolate(I::min_weight, a, b, 0.5f, glm::vec3(0.f)), a);
    EXPECT_EQ(interpolate(I::max_weight, a, b, 0.5f, glm::vec3(0.f)), b);
}

TEST(Interpolation, IntegerRows) {
    const std::int32_t src = 1, dest = 9, initial = -1;
    auto run = [&](I mode, float t) { return interpolate(mode, src, dest, t, initial); };
    EXPECT_EQ(run(I::dont_care, 0.3f), src);
    EXPECT_EQ(run(I::reset_affected, 0.3f), initial);
    EXPECT_EQ(run(I::reset_all, 0.3f), initial);
    EXPECT_EQ(run(I::remove_layer, 0.3f), initial);
    EXPECT_EQ(run(I::keep_src, 0.7f), src);
    EXPECT_EQ(run(I::keep_dest, 0.2f), dest);
    EXPECT_EQ(run(I::lerp, 0.5f), 5);
    EXPECT_EQ(run(I::lerp, 0.25f), 3);
    EXPECT_EQ(run(I::min_value, 0.9f), 1);
    EXPECT_EQ(run(I::max_value, 0.1f), 9);
    EXPECT_EQ(run(I::min_weight, 0.6f), src);
    EXPECT_EQ(run(I::max_weight, 0.6f), dest);
}

TEST(Interpolation, IntegerLerpRoundsAndStaysBetweenEnds) {
    // Halves round up, whichever side is src.
    EXPECT_EQ(interpolate(I::lerp, std::int32_t{1}, std::int32_t{2}, 0.5f, 0), 2);
    EXPECT_EQ(interpolate(I::lerp, std::int32_t{2}, std::int32_t{1}, 0.5f, 0), 2);
    EXPECT_EQ(interpolate(I::lerp, std::int32_t{-1}, std::int32_t{-2}, 0.5f, 0), -1);
    EXPECT_EQ(interpolate(I::lerp, std::uint32_t{0}, std::uint32_t{4'000'000'000u}, 0.5f, 0u),
              2'000'000'000u);
    constexpr auto big = std::numeric_limits<std::int64_t>::max();
    constexpr auto low = std::numeric_limits<std::int64_t>::lowest();
    EXPECT_EQ(interpolate(I::lerp, big - 1, big, 0.999f, std::int64_t{0}), big);
    EXPECT_EQ(interpolate(I::lerp, big - 1, big, 0.f, std::int64_t{0}), big - 1);
    EXPECT_EQ(interpolate(I::lerp, low, low + 1, 0.001f, std::int64_t{0}), low);
    EXPECT_EQ(interpolate(I::lerp, low, big, 0.f, std::int64_t{0}), low);
    EXPECT_EQ(interpolate(I::lerp, low, big, 1.f, std::int64_t{0}), big);
    EXPECT_EQ(interpolate(I::lerp, big, low, 0.999999f, std::int64_t{0}) < 0, true);
    const auto mid = interpolate(I::lerp, low, big, 0.5f, std::int64_t{0});
    EXPECT_LE(std::abs(static_cast<double>(mid)), 2048.0);
}

TEST(Interpolation, BoolRows) {
    EXPECT_EQ(interpolate(I::min_value, true, false, 0.5f, true), false);
    EXPECT_EQ(interpolate(I::max_value, false, true, 0.5f, false), true);
    EXPECT_EQ(interpolate(I::keep_dest, false, true, 0.5f, false), true);
    EXPECT_EQ(interpolate(I::min_weight, false, true, 0.6f, true), false);
    EXPECT_EQ(interpolate(I::max_weight, false, true, 0.6f, false), true);
    EXPECT_EQ(interpolate(I::reset_affected, false, false, 0.6f, true), true);
}

// --- Vectors ----------------------------------------------------------------------------------

template <class V>
void expect_near(const V& got, const V& want, double tol) {
    for (int i = 0; i < V::length(); ++i)
        EXPECT_NEAR(static_cast<double>(got[i]), static_cast<double>(want[i]), tol) << "i=" << i;
}

template <class T>
class VectorTable : public ::testing::Test {};
using Vector_types =
    ::testing::Types<glm::vec2, glm::vec3, glm::vec4, glm::dvec2, glm::dvec3, glm::dvec4>;
TYPED_TEST_SUITE(VectorTable, Vector_types);

TYPED_TEST(VectorTable, EveryAllowedRow) {
    using V = TypeParam;
    using S = typename V::value_type;
    const V src(S(0.1)), dest(S(0.9)), initial(S(-1));
    auto run = [&](I mode, float t) { return interpolate<V>(mode, src, dest, t, initial); };
    EXPECT_EQ(run(I::dont_care, 0.3f), src);
    EXPECT_EQ(run(I::reset_affected, 0.3f), initial);
    EXPECT_EQ(run(I::reset_all, 0.3f), initial);
    EXPECT_EQ(run(I::remove_layer, 0.3f), initial);
    EXPECT_EQ(run(I::keep_src, 0.6f), src);
    EXPECT_EQ(run(I::keep_dest, 0.6f), dest);
    expect_near(run(I::lerp, 0.5f), V(S(0.5)), 1e-6);
    EXPECT_EQ(run(I::min_weight, 0.6f), src);
    EXPECT_EQ(run(I::max_weight, 0.6f), dest);
    EXPECT_FALSE(interpolation_allowed<V>(I::min_value));
    EXPECT_FALSE(interpolation_allowed<V>(I::max_value));
}

template <class T>
class SlerpTest : public ::testing::Test {};
using Slerp_types = ::testing::Types<glm::vec3, glm::dvec3>;
TYPED_TEST_SUITE(SlerpTest, Slerp_types);

TYPED_TEST(SlerpTest, SpecRow) {
    using V = TypeParam;
    const V got = interpolate(I::slerp, V(1, 0, 0), V(0, 1, 0), 0.5f, V(0));
    expect_near(got, V(std::sqrt(0.5), std::sqrt(0.5), 0), 1e-6);
}

TYPED_TEST(SlerpTest, LengthIsLerpedDirectionSlerped) {
    using V = TypeParam;
    const V got = interpolate(I::slerp, V(2, 0, 0), V(0, 4, 0), 0.5f, V(0));
    expect_near(got, V(3 * std::sqrt(0.5), 3 * std::sqrt(0.5), 0), 1e-5);
    // A third of the way: 30 degrees, length 2 + (4 - 2) / 3.
    const V third = interpolate(I::slerp, V(2, 0, 0), V(0, 4, 0), 1.f / 3.f, V(0));
    const double len = 2.0 + 2.0 / 3.0;
    expect_near(third,
                V(len * std::cos(std::numbers::pi / 6), len * std::sin(std::numbers::pi / 6), 0),
                1e-5);
}

TYPED_TEST(SlerpTest, EndpointsAreExact) {
    using V = TypeParam;
    const V a(0.3, -0.2, 0.9), b(-0.5, 0.7, 0.1);
    EXPECT_EQ(interpolate(I::slerp, a, b, 0.f, V(0)), a);
    EXPECT_EQ(interpolate(I::slerp, a, b, 1.f, V(0)), b);
}

TYPED_TEST(SlerpTest, UnitVectorsStayOnTheSphere) {
    using V = TypeParam;
    const V pairs[][2] = {
        {V(1, 0, 0), V(0, 1, 0)},
        {glm::normalize(V(1, 2, 3)), glm::normalize(V(-3, 0.5, 2))},
        {glm::normalize(V(1, 1, 1)), glm::normalize(V(-1, -1, -0.999))}, // nearly opposite
        {V(0, 0, 1), glm::normalize(V(1e-4, 0, 1))},                     // nearly equal
        {V(0, 1, 0), V(0, -1, 0)},                                       // opposite
    };
    for (const auto& p : pairs) {
        for (int i = 0; i <= 1000; ++i) {
            const float t = static_cast<float>(i) / 1000.f;
            const V got = interpolate(I::slerp, p[0], p[1], t, V(0));
            ASSERT_NEAR(static_cast<double>(glm::length(got)), 1.0, 1e-5) << "t=" << t;
        }
    }
}

TYPED_TEST(SlerpTest, AngleGrowsLinearlyWithT) {
    using V = TypeParam;
    const V a = glm::normalize(V(1, 2, 3)), b = glm::normalize(V(-3, 0.5, 2));
    const double total = std::acos(static_cast<double>(glm::dot(a, b)));
    for (float t : {0.1f, 0.25f, 0.5f, 0.9f}) {
        const V got = interpolate(I::slerp, a, b, t, V(0));
        const double from_a = std::acos(std::min(1.0, static_cast<double>(glm::dot(a, got))));
        EXPECT_NEAR(from_a, total * t, 1e-4);
    }
}

TYPED_TEST(SlerpTest, ZeroLengthSideUsesTheOtherDirection) {
    using V = TypeParam;
    expect_near(interpolate(I::slerp, V(0), V(0, 0, 4), 0.25f, V(0)), V(0, 0, 1), 1e-6);
    expect_near(interpolate(I::slerp, V(0, 2, 0), V(0), 0.5f, V(0)), V(0, 1, 0), 1e-6);
    EXPECT_EQ(interpolate(I::slerp, V(0), V(0), 0.5f, V(7)), V(0));
}

TYPED_TEST(SlerpTest, SameDirectionKeepsDirection) {
    using V = TypeParam;
    expect_near(interpolate(I::slerp, V(0, 2, 0), V(0, 4, 0), 0.5f, V(0)), V(0, 3, 0), 1e-6);
}

TYPED_TEST(SlerpTest, OppositeDirectionsAreDeterministic) {
    using V = TypeParam;
    // src = +x: the least aligned axis is y (first of the tied y and z), cross(x, y) = +z.
    expect_near(interpolate(I::slerp, V(1, 0, 0), V(-1, 0, 0), 0.5f, V(0)), V(0, 0, 1), 1e-6);
    // src = +z: least aligned is x, cross(z, x) = +y.
    expect_near(interpolate(I::slerp, V(0, 0, 2), V(0, 0, -2), 0.5f, V(0)), V(0, 2, 0), 1e-6);
    const V a = glm::normalize(V(1, 2, 3));
    const V first = interpolate(I::slerp, a, -a, 0.3f, V(0));
    EXPECT_EQ(first, interpolate(I::slerp, a, -a, 0.3f, V(0)));
    EXPECT_NEAR(static_cast<double>(glm::dot(a, first)), std::cos(0.3 * std::numbers::pi), 1e-5);
}

} // namespace
} // namespace orbis
