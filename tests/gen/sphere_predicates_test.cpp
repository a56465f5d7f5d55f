// SPDX-License-Identifier: MIT
#include <array>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "orbis/gen/sphere_predicates.hpp"

namespace orbis::gen {
namespace {

// 128-bit integers hold the exact determinants of the test grid.
__extension__ typedef __int128 Int;

/// A float as an exact integer multiple of 2^-12 (the test inputs stay on that grid).
Int to_fixed(float v) {
    const double scaled = std::ldexp(static_cast<double>(v), 12);
    EXPECT_EQ(scaled, std::trunc(scaled)) << "input off the test grid: " << v;
    return static_cast<Int>(scaled);
}

/// Reference: exact sign of det[b - a, c - a, d - a] in 128-bit integers.
int exact_orientation(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                      const glm::vec3& d) {
    const auto diff = [](const glm::vec3& p, const glm::vec3& q) {
        return std::array<Int, 3>{to_fixed(p.x) - to_fixed(q.x), to_fixed(p.y) - to_fixed(q.y),
                                  to_fixed(p.z) - to_fixed(q.z)};
    };
    const auto u = diff(b, a), v = diff(c, a), w = diff(d, a);
    const Int det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                    u[2] * (v[0] * w[1] - v[1] * w[0]);
    return (det > 0) - (det < 0);
}

/// Deterministic floats on a grid of 2^-12 within [-8, 8), exact in the fixed-point reference.
class Grid_floats {
public:
    explicit Grid_floats(std::uint64_t seed)
        : state_(seed) {}
    float next() {
        state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
        const auto bits = static_cast<std::int32_t>(state_ >> 48) - 32768;
        return std::ldexp(static_cast<float>(bits), -12);
    }

private:
    std::uint64_t state_;
};

TEST(Orientation, sign_convention) {
    const glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
    EXPECT_EQ(orientation(a, b, c, glm::vec3(0, 0, 1)), 1);
    EXPECT_EQ(orientation(a, b, c, glm::vec3(0, 0, -1)), -1);
    EXPECT_EQ(orientation(a, b, c, glm::vec3(5, -3, 0)), 0);
    EXPECT_EQ(orientation(b, a, c, glm::vec3(0, 0, 1)), -1);
}

TEST(Orientation, outside_of_a_counterclockwise_face_is_positive) {
    // (1,0,0), (0,1,0), (0,0,1) is counterclockwise seen from outside the unit sphere.
    const glm::vec3 a(1, 0, 0), b(0, 1, 0), c(0, 0, 1);
    EXPECT_EQ(orientation(a, b, c, glm::vec3(1, 1, 1)), 1);
    EXPECT_EQ(orientation(a, b, c, glm::vec3(0, 0, 0)), -1);
    EXPECT_EQ(orientation_on_sphere(a, b, c), 1);
    EXPECT_EQ(orientation_on_sphere(b, a, c), -1);
}

TEST(Orientation, exact_on_nearly_and_exactly_coplanar_points) {
    Grid_floats random(7);
    const auto snap = [](float v) { return std::ldexp(std::round(std::ldexp(v, 12)), -12); };
    int coplanar = 0;
    for (int i = 0; i < 20000; ++i) {
        const glm::vec3 a(random.next(), random.next(), random.next());
        const glm::vec3 b(random.next(), random.next(), random.next());
        const glm::vec3 c(random.next(), random.next(), random.next());
        // Even i: d exactly on the plane of a, b, c (integer combination); odd i: d on it up to
        // rounding to the grid, so nearly coplanar.
        const float s = i % 2 == 0 ? std::round(random.next() / 4.f) : random.next() / 8.f;
        const float t = i % 2 == 0 ? std::round(random.next() / 4.f) : random.next() / 8.f;
        const glm::vec3 on_plane = a + s * (b - a) + t * (c - a);
        const glm::vec3 d(snap(on_plane.x), snap(on_plane.y), snap(on_plane.z));
        const int expected = exact_orientation(a, b, c, d);
        coplanar += expected == 0;
        ASSERT_EQ(orientation(a, b, c, d), expected) << i;
        // An exact translation changes nothing.
        const glm::vec3 offset(1024.f, -512.f, 768.f);
        ASSERT_EQ(orientation(a + offset, b + offset, c + offset, d + offset), expected) << i;
    }
    EXPECT_GT(coplanar, 5000);
}

TEST(Orientation_on_sphere, exact_for_coplanar_directions) {
    // det[a; b; c] = 0 exactly, with large cancelling products.
    const glm::vec3 a(16777215.f, 3.f, 1.f), b(16777213.f, 1.f, 1.f);
    const glm::vec3 c = a - b;
    EXPECT_EQ(orientation_on_sphere(a, b, c), 0);
    EXPECT_EQ(orientation_on_sphere(a, b, c + glm::vec3(0.f, 0.f, 0.5f)),
              -orientation_on_sphere(a, b, c - glm::vec3(0.f, 0.f, 0.5f)));
}

TEST(Direction_orientation, agrees_with_orientation_on_the_unit_sphere) {
    const glm::vec3 a(1, 0, 0), b(0, 1, 0), c(0, 0, 1);
    EXPECT_EQ(direction_orientation(a, b, c, glm::vec3(-1, 0, 0)), -1);
    EXPECT_EQ(direction_orientation(a, b, c, glm::vec3(0, -1, 0)), -1);
    EXPECT_EQ(direction_orientation(b, a, c, glm::vec3(0, -1, 0)), 1);
}

TEST(Direction_orientation, uses_directions_not_positions) {
    // The plane through the three axis points is x + y + z = 1. A point at (0.3, 0.3, 0.3) is
    // below it, but its direction, (1, 1, 1) / sqrt(3), lies beyond it on the unit sphere.
    const glm::vec3 a(1, 0, 0), b(0, 1, 0), c(0, 0, 1), d(0.3f, 0.3f, 0.3f);
    EXPECT_EQ(orientation(a, b, c, d), -1);
    EXPECT_EQ(direction_orientation(a, b, c, d), 1);
}

TEST(Direction_orientation, matches_normalised_points_where_the_sign_is_clear) {
    Grid_floats random(13);
    int compared = 0;
    for (int i = 0; i < 5000; ++i) {
        std::array<glm::vec3, 4> p;
        std::array<std::array<long double, 3>, 4> unit;
        for (std::size_t k = 0; k < 4; ++k) {
            p[k] = glm::vec3(random.next(), random.next(), random.next());
            const long double length = std::sqrt(static_cast<long double>(p[k].x) * p[k].x +
                                                 static_cast<long double>(p[k].y) * p[k].y +
                                                 static_cast<long double>(p[k].z) * p[k].z);
            unit[k] = {p[k].x / length, p[k].y / length, p[k].z / length};
        }
        if (p[0] == glm::vec3(0.f) || p[1] == glm::vec3(0.f) || p[2] == glm::vec3(0.f) ||
            p[3] == glm::vec3(0.f)) {
            continue;
        }
        long double m[3][3];
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c)
                m[r][c] = unit[r + 1][c] - unit[0][c];
        }
        const long double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                                m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                                m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        if (std::abs(det) < 1e-12L) continue;
        ++compared;
        EXPECT_EQ(direction_orientation(p[0], p[1], p[2], p[3]), det > 0 ? 1 : -1) << i;
    }
    EXPECT_GT(compared, 4000);
}

TEST(Direction_orientation, scale_invariant) {
    Grid_floats random(11);
    for (int i = 0; i < 2000; ++i) {
        std::array<glm::vec3, 4> p;
        for (auto& q : p)
            q = glm::vec3(random.next(), random.next(), random.next());
        if (p[0] == glm::vec3(0.f)) continue;
        const int sign = direction_orientation(p[0], p[1], p[2], p[3]);
        // Powers of two keep the float directions exactly.
        EXPECT_EQ(direction_orientation(4.f * p[0], 0.5f * p[1], p[2], 1024.f * p[3]), sign);
    }
}

TEST(Direction_orientation, exactly_cocircular_directions_give_zero) {
    // Four directions on the equator, at different distances from the centre: the filter
    // cannot decide, the exact path with square roots must return 0.
    const glm::vec3 a(3, 0, 0), b(0, 0, 5), c(-7, 0, 0), d(0, 0, -0.3f);
    EXPECT_EQ(direction_orientation(a, b, c, d), 0);
    // The same circle tilted so that no coordinate is zero: directions (1, 1, 0) and (0, 0, 1)
    // span the plane; the four points lie on it at various scales.
    const glm::vec3 e(1, 1, 0), f(0, 0, 1), g(-3, -3, 0), h(0, 0, -9);
    EXPECT_EQ(direction_orientation(e, f, g, 2.f * e + f), 0);
    EXPECT_EQ(direction_orientation(e, f, g, h), 0);
    // Lifting the fourth direction off the circle by the smallest float decides the sign.
    const float tiny = std::nextafter(0.f, 1.f);
    EXPECT_NE(direction_orientation(b, c, d, glm::vec3(3.f, tiny, 0.f)), 0);
    EXPECT_EQ(direction_orientation(b, c, d, glm::vec3(3.f, tiny, 0.f)),
              -direction_orientation(b, c, d, glm::vec3(3.f, -tiny, 0.f)));
}

TEST(Direction_orientation, nearly_cocircular_directions_match_exact_signs) {
    // Directions on the equator circle with a tiny lift of the fourth; unit-circle points
    // (3/5, 4/5) scaled by 5 are exact floats, so the circle is exact.
    const glm::vec3 a(3, 0, 4), b(-4, 0, 3), c(-3, 0, -4);
    for (int k = -3; k <= 3; ++k) {
        const float lift = k * 1e-30f;
        const int sign = direction_orientation(a, b, c, glm::vec3(4.f, lift, -3.f));
        EXPECT_EQ(sign,
                  k == 0 ? 0
                         : (direction_orientation(a, b, c, glm::vec3(0, 1, 0)) * (k > 0 ? 1 : -1)))
            << k;
    }
}

} // namespace
} // namespace orbis::gen
