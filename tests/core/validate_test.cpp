// SPDX-License-Identifier: MIT
// Mesh::validate on corrupted arrays, for meshes small enough to be checked on one thread and
// large enough for two: every corruption of a live quad-edge's links or origins is found, with
// the same verdict on both paths, and none makes the check read out of bounds (ASan builds).
#include <orbis/core.hpp>
#include <orbis/core/mesh_arrays.hpp>

#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <random>

namespace orbis {
namespace {

std::string verdict(const Mesh_arrays& arrays) {
    try {
        (void)mesh_from_arrays(arrays);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "valid";
}

class ValidateCorruption : public testing::TestWithParam<int> {};

TEST_P(ValidateCorruption, EveryBrokenLinkOrOriginIsFound) {
    const Mesh mesh = test::build(test::icosphere(GetParam()));
    const Mesh_arrays good = mesh_arrays(mesh);
    ASSERT_EQ(verdict(good), "valid");
    std::mt19937_64 rng(GetParam());
    const std::size_t quads = good.quads.size() / 8;
    const int trials = GetParam() < 6 ? 200 : 40;
    for (int trial = 0; trial < trials; ++trial) {
        Mesh_arrays bad = good;
        const std::size_t q = std::uniform_int_distribution<std::size_t>(0, quads - 1)(rng);
        // Words 0-5: next, prev and origin of both primal edges; a different valid-looking id.
        const std::size_t word = std::uniform_int_distribution<std::size_t>(0, 5)(rng);
        const std::uint32_t old = bad.quads[8 * q + word];
        const std::uint32_t range =
            word < 4 ? std::uint32_t(2 * quads) : std::uint32_t(good.vertex_edge.size());
        std::uint32_t value = old;
        while (value == old)
            value = std::uniform_int_distribution<std::uint32_t>(0, range - 1)(rng);
        bad.quads[8 * q + word] = value;
        EXPECT_NE(verdict(bad), "valid") << "quad " << q << " word " << word;
    }
}

// Level 4 has 30,720 edge slots (one thread), level 6 491,520 (two).
INSTANTIATE_TEST_SUITE_P(Sizes, ValidateCorruption, testing::Values(4, 6));

TEST(Validate, SameVerdictOnOneThreadAndTwo) {
    // The same local corruption on a small and a large mesh names the same kind of problem.
    for (const int level : {4, 6}) {
        const Mesh mesh = test::build(test::icosphere(level));
        Mesh_arrays bad = mesh_arrays(mesh);
        bad.face_edge[0] = bad.face_edge[1];
        EXPECT_NE(verdict(bad).find(" refers to "), std::string::npos) << verdict(bad);
    }
}

} // namespace
} // namespace orbis
