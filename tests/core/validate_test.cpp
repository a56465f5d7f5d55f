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

// validate() confirms a valid mesh with a quick check and explains an invalid one by walking;
// on any corruption of any stored word (ids in range, out of range, dual, deleted markers) the
// two must agree: the quick check never passes what the walk refuses, and never refuses what
// the walk passes (validate() would then say they disagree).
TEST(Validate, QuickCheckAgreesWithTheWalk) {
    std::mt19937_64 rng(11);
    std::vector<Mesh> meshes;
    meshes.push_back(test::build(test::icosphere(3)));
    meshes.push_back(test::build(test::disc(6)));
    meshes.push_back(test::build(test::torus(9, 7)));
    {
        // Deleted elements and free lists.
        Mesh m = test::build(test::icosphere(3));
        for (int i = 0; i < 200; ++i) {
            const Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots()) & ~1u};
            if (!m.contains(e)) continue;
            if (i % 3 != 0)
                (void)m.try_collapse(e);
            else if (!m.check_split(e))
                m.split(e);
        }
        meshes.push_back(std::move(m));
    }
    int refused = 0, trials = 0;
    for (const Mesh& mesh : meshes) {
        ASSERT_EQ(mesh.validate_by_walking(), std::nullopt);
        const Mesh_arrays good = mesh_arrays(mesh);
        for (int trial = 0; trial < 400; ++trial) {
            Mesh_arrays bad = good;
            std::vector<std::uint32_t>* arrays[] = {&bad.vertex_edge, &bad.face_edge, &bad.quads,
                                                    &bad.quads,       &bad.quads,     &bad.quads,
                                                    &bad.free_quads,  &bad.free_faces};
            const int changes = 1 + static_cast<int>(rng() % 3);
            for (int c = 0; c < changes; ++c) {
                auto& words = *arrays[rng() % std::size(arrays)];
                if (words.empty()) continue;
                const std::size_t i = rng() % words.size();
                std::uint32_t& w = words[i];
                switch (rng() % 6) {
                case 5: // swap with the same word of another record: counts stay the same
                    std::swap(w, words[(i + 8 * (rng() % 16)) % words.size()]);
                    break;
                case 0:
                    w = static_cast<std::uint32_t>(rng() % (good.quads.size() / 4));
                    break;
                case 1:
                    w = static_cast<std::uint32_t>(rng() % good.vertex_edge.size());
                    break;
                case 2:
                    w = 0xFFFF'FFFFu - static_cast<std::uint32_t>(rng() % 2);
                    break;
                case 3:
                    w ^= 0x8000'0000u;
                    break;
                default:
                    w = static_cast<std::uint32_t>(rng());
                    break;
                }
            }
            ++trials;
            try {
                const Mesh m = mesh_from_arrays(bad);
                EXPECT_EQ(m.validate_by_walking(), std::nullopt) << "trial " << trial;
            } catch (const std::invalid_argument& e) {
                ++refused;
                EXPECT_EQ(std::string(e.what()).find("disagree"), std::string::npos) << e.what();
            }
        }
    }
    EXPECT_GT(refused, trials / 2); // the corruptions mostly break something
}

} // namespace
} // namespace orbis
