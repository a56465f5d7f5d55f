// SPDX-License-Identifier: MIT
// Mesh::validate on corrupted arrays, for meshes small enough to be checked on one thread and
// large enough for two: every corruption of a live quad-edge's links or origins is found, with
// the same verdict on both paths, and none makes the check read out of bounds (ASan builds).
#include <orbis/core.hpp>
#include <orbis/core/mesh_arrays.hpp>

#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

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

// A loader writes the stored words straight into a Mesh_to_fill; the result is the mesh the
// words came from, and words that are no mesh are refused as mesh_from_arrays refuses them.
TEST(MeshToFill, FilledFromAMeshsChunksGivesThatMeshAndRefusesWhatIsNoMesh) {
    Mesh mesh = test::build(test::icosphere(5)); // several chunks per array
    std::mt19937_64 rng(3);
    for (int i = 0; i < 300; ++i) // deleted elements, so that the free lists are not empty
        (void)mesh.try_collapse(Edge{static_cast<std::uint32_t>(rng() % mesh.edge_slots())}, 0.5f);
    const Mesh_chunks stored = mesh_chunks(mesh);
    ASSERT_FALSE(stored.pieces[3].empty());
    const auto fill_from = [&](const Mesh_chunks& from) {
        Mesh_to_fill fill(from.words);
        for (int a = 0; a < 6; ++a) {
            std::vector<std::byte> flat;
            for (const auto piece : from.pieces[a])
                flat.insert(flat.end(), piece.begin(), piece.end());
            ASSERT_EQ(flat.size(), 4 * from.words[a]);
            std::size_t done = 0;
            for (const auto piece : fill.pieces()[a]) {
                std::memcpy(piece.data(), flat.data() + done, piece.size());
                done += piece.size();
            }
            ASSERT_EQ(done, flat.size()) << "array " << a;
        }
        const Mesh m = std::move(fill).finish();
        EXPECT_TRUE(m == mesh);
        EXPECT_EQ(m.vertex_count(), mesh.vertex_count());
        EXPECT_EQ(m.face_count(), mesh.face_count());
        EXPECT_EQ(m.edge_count(), mesh.edge_count());
    };
    fill_from(stored);
    // Sizes that cannot be a mesh's are refused before anything is allocated.
    auto words = stored.words;
    words[2] += 3;
    EXPECT_THROW(Mesh_to_fill{words}, std::invalid_argument);
    // Words that are no mesh: every origin of the first quad-edge pointing nowhere.
    Mesh_to_fill bad(stored.words);
    for (int a = 0; a < 6; ++a) {
        std::size_t c = 0;
        for (const auto piece : bad.pieces()[a])
            std::memcpy(piece.data(), stored.pieces[a][c++].data(), piece.size());
    }
    const std::uint32_t nowhere = mesh.vertex_slots() + 5;
    std::memcpy(bad.pieces()[2][0].data() + 4 * 4, &nowhere, 4);
    try {
        (void)std::move(bad).finish();
        ADD_FAILURE() << "a quad-edge with an origin out of range was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("not a valid mesh"), std::string::npos) << e.what();
    }
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
