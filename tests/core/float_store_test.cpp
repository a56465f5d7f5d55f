// SPDX-License-Identifier: MIT
//
// GCC 12.2's SLP vectoriser, at -O2 and above, once took a vertex stored as floats and read back
// as doubles from the double it was rounded from, skipping the rounding (found in the plate
// motion's splits, where it moved a new vertex by about 2 cm). cmake/OrbisTargets.cmake turns
// that pass off for every target; this test, built with those flags, is the pattern in plain
// form, so losing the flag there, or a compiler with the same fault, fails here (at -O2 and up)
// instead of writing different worlds.
#include <glm/glm.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

struct Points {
    std::vector<glm::vec3> p;
    std::vector<glm::dvec3> u;
    std::vector<glm::dvec3> p0;
    std::vector<std::int32_t> stamp;

    [[gnu::noinline]] void grow(std::size_t n) {
        p.resize(n);
        u.resize(n);
        p0.resize(n);
        stamp.resize(n);
    }
    void place(std::size_t i, const glm::vec3& q) {
        p[i] = q;
        u[i] = glm::normalize(glm::dvec3(q));
        stamp[i] = 1;
    }
    // Stores mid as floats, then turns what was stored.
    [[gnu::noinline]] void add(std::size_t i, const glm::dvec3& mid, const glm::dmat3& turn) {
        grow(i + 1);
        place(i, glm::vec3(mid));
        p0[i] = glm::transpose(turn) * glm::dvec3(p[i]);
    }
};

TEST(Toolchain, AFloatStoredThenReadAsDoubleIsTheRoundedFloat) {
    Points points;
    // Thirds, sevenths and elevenths of Earth's radius do not fit a float, so skipping the
    // rounding shows in every coordinate.
    const glm::dvec3 mid{6371.0 / 3.0, 6371.0 / 7.0, 6371.0 / 11.0};
    points.add(5, mid, glm::dmat3(1.0));
    const glm::dvec3 stored(points.p[5]);
    ASSERT_NE(stored.x, mid.x) << "the point must not fit a float for this test to mean anything";
    EXPECT_EQ(points.p0[5].x, stored.x);
    EXPECT_EQ(points.p0[5].y, stored.y);
    EXPECT_EQ(points.p0[5].z, stored.z);
}

}  // namespace
