// SPDX-License-Identifier: MIT
// Long random sequences of flips, splits and collapses: validity, Euler characteristic, reuse of
// deleted ids, and refusals that leave the mesh untouched.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

namespace orbis {
namespace {

struct Stress_stats {
    int flips = 0, splits = 0, collapses = 0, refused = 0;
};

// What the mesh's free lists should hold: the deleted vertices in order (the list is a stack),
// and how many face and quad-edge ids are waiting to be reused.
struct Free_lists {
    std::vector<Vertex> vertices;
    std::size_t faces = 0, quads = 0;

    // Expects `v` to be the reused top of the vertex stack, or a new slot if it was empty.
    void expect_vertex(Vertex v, std::uint32_t old_slots) {
        if (vertices.empty()) {
            EXPECT_EQ(v, Vertex{old_slots});
            return;
        }
        EXPECT_EQ(v, vertices.back());
        vertices.pop_back();
    }
    // Expects the slots to grow only by what the free lists could not provide.
    void expect_created(const Mesh& m, std::size_t new_faces, std::size_t new_quads,
                        std::uint32_t old_face_slots, std::uint32_t old_edge_slots) {
        EXPECT_EQ(m.face_slots(), old_face_slots + (new_faces - std::min(new_faces, faces)));
        EXPECT_EQ(m.edge_slots(), old_edge_slots + 2 * (new_quads - std::min(new_quads, quads)));
        faces -= std::min(new_faces, faces);
        quads -= std::min(new_quads, quads);
    }
};

// Runs `steps` random edits on `m`, checking after each one, with `free` mirroring the mesh's
// free lists: a split's new vertex must be the most recently deleted one, and the slots grow
// only when nothing is left to reuse.
Stress_stats random_edits(Mesh& m, int euler, int steps, int validate_every, std::mt19937_64& rng,
                          Free_lists& free) {
    std::uniform_real_distribution<float> fraction(0.0f, 1.0f);
    Stress_stats stats;

    for (int step = 1; step <= steps; ++step) {
        Edge b;
        do {
            b = Edge{2 * static_cast<std::uint32_t>(rng() % (m.edge_slots() / 2))};
        } while (!m.contains(b));
        const Edge e = rng() % 2 ? b : b.sym();
        const int op = static_cast<int>(rng() % 3);
        const float t = fraction(rng);
        const Edge part = rng() % 2 ? e : e.rot(); // for flips: any part of the quad-edge

        std::optional<Refusal> check;
        switch (op) {
        case 0:
            check = m.check_flip(part);
            break;
        case 1:
            check = m.check_split(e, t);
            break;
        default:
            check = m.check_collapse(e, t);
            break;
        }
        if (check) {
            // A refused edit: the same refusal from the edit itself, and no change at all.
            ++stats.refused;
            const Mesh before = m;
            std::optional<Refusal> again;
            if (op == 0) again = m.try_flip(part);
            if (op == 1) {
                try {
                    m.split(e, t);
                } catch (const Edit_refused& x) {
                    again = x.refusal();
                }
            }
            if (op == 2) again = m.try_collapse(e, t);
            EXPECT_TRUE(again.has_value());
            if (again) {
                EXPECT_EQ(again->kind, check->kind);
            }
            if (!(m == before)) {
                ADD_FAILURE() << "step " << step
                              << ": a refused edit changed the mesh: " << check->message();
                return stats;
            }
            continue;
        }

        switch (op) {
        case 0: {
            m.flip(part);
            ++stats.flips;
            break;
        }
        case 1: {
            const auto slots = std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()};
            const int sides = (e.left(m).valid() ? 1 : 0) + (e.right(m).valid() ? 1 : 0);
            const Edge n = m.split(e, t);
            free.expect_vertex(n.origin(m), slots[0]);
            const auto new_faces = static_cast<std::size_t>(sides);
            free.expect_created(m, new_faces, new_faces + 1, slots[1], slots[2]);
            ++stats.splits;
            break;
        }
        default: {
            const Vertex a = e.origin(m), z = e.dest(m);
            const int sides = (e.left(m).valid() ? 1 : 0) + (e.right(m).valid() ? 1 : 0);
            EXPECT_EQ(m.collapse(e, t), a);
            EXPECT_FALSE(m.contains(z));
            free.vertices.push_back(z);
            free.faces += static_cast<std::size_t>(sides);
            free.quads += static_cast<std::size_t>(sides) + 1;
            ++stats.collapses;
            break;
        }
        }
        if (test::euler_characteristic(m) != euler) {
            ADD_FAILURE() << "step " << step << ": V - E + F = " << test::euler_characteristic(m);
            return stats;
        }
        if (step % validate_every == 0) {
            const auto problem = m.validate();
            if (problem) {
                ADD_FAILURE() << "step " << step << ": " << *problem;
                return stats;
            }
        }
    }
    EXPECT_TRUE(test::valid(m));
    return stats;
}

TEST(Stress, HundredThousandRandomEditsOnAClosedSphere) {
    const auto shape = test::icosphere(5); // 10,242 vertices
    Mesh m = build_from_face_soup(shape.vertex_count, shape.triangles).mesh;
    const Mesh original = m;
    std::mt19937_64 rng(2024);
    Free_lists free;
    const auto stats = random_edits(m, 2, 100'000, 1000, rng, free);
    EXPECT_GT(stats.flips, 20'000);
    EXPECT_GT(stats.splits, 20'000);
    EXPECT_GT(stats.collapses, 20'000);
    // Nothing an edit did reached the snapshot taken before.
    EXPECT_TRUE(test::valid(original));
    EXPECT_EQ(original.vertex_count(), shape.vertex_count);
    EXPECT_TRUE(original == build_from_face_soup(shape.vertex_count, shape.triangles).mesh);
}

TEST(Stress, RandomEditsOnAnOpenDisc) {
    const auto shape = test::disc(30); // 2,791 vertices, a rim of 180
    Mesh m = build_from_face_soup(shape.vertex_count, shape.triangles).mesh;
    std::mt19937_64 rng(7);
    Free_lists free;
    const auto stats = random_edits(m, 1, 20'000, 500, rng, free);
    EXPECT_GT(stats.flips, 2'000);
    EXPECT_GT(stats.splits, 2'000);
    EXPECT_GT(stats.collapses, 2'000);
    EXPECT_GT(stats.refused, 0);
}

TEST(Stress, EditsMixedWithAddFaceOnAnOpenMesh) {
    // Growing the rim with add_face (new vertices reuse collapsed ids) between edits.
    std::mt19937_64 rng(99);
    const auto shape = test::disc(6);
    Mesh m = test::build(shape);
    Free_lists free;
    int grown = 0, filled = 0;
    for (int round = 0; round < 200; ++round) {
        random_edits(m, 1, 50, 50, rng, free);
        if (testing::Test::HasFailure()) return;
        std::vector<Edge> rim;
        for (const Edge b : m.edges())
            for (const Edge e : {b, b.sym()})
                if (!e.left(m).valid()) rim.push_back(e);
        ASSERT_FALSE(rim.empty());
        const Edge e = rim[rng() % rim.size()]; // outside on its left
        const Vertex u = e.origin(m), v = e.dest(m);
        if (rng() % 2) {
            // A new triangle on the rim edge: (u, v, new) has u->v with the outside on its left.
            const auto slots = std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()};
            const Vertex w = m.add_vertex();
            free.expect_vertex(w, slots[0]);
            m.add_face(u, v, w);
            free.expect_created(m, 1, 2, slots[1], slots[2]);
            ++grown;
        } else {
            // Fill the ear between this rim edge and the next one, where that is allowed.
            const Vertex w = e.left_next(m).dest(m);
            const Mesh before = m;
            if (const auto r = m.try_add_face(u, v, w)) {
                EXPECT_TRUE(m == before) << r->message();
            } else {
                free.expect_created(m, 1, 1, before.face_slots(), before.edge_slots());
                ++filled;
            }
        }
        ASSERT_TRUE(test::valid(m)) << "round " << round;
        ASSERT_EQ(test::euler_characteristic(m), shape.euler) << "round " << round;
    }
    EXPECT_GT(grown, 50);
    EXPECT_GT(filled, 10);
}

} // namespace
} // namespace orbis
