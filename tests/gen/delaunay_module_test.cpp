// SPDX-License-Identifier: MIT
// The delaunay module: after vertices move, Lawson flips give the exact Delaunay triangulation
// of the moved points, with layers following the flips.
#include <orbis/gen/delaunay_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/gen/sphere_delaunay.hpp>
#include <orbis/gen/sphere_predicates.hpp>

#include "triangulation_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>

#include <glm/geometric.hpp>

namespace {

using namespace orbis;
using namespace orbis::gen;

std::vector<glm::vec3> positions_of(const World& world) {
    const auto* layer = world.layer(position_layer);
    return {layer->begin(), layer->end()};
}

// Moves every vertex by up to `fraction` of the mean edge length in a random tangent direction.
void jiggle(World& world, float fraction, std::uint64_t seed) {
    const float step = fraction * std::sqrt(4.f * 3.14159f / float(world.mesh().vertex_count()));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    auto [position] = world.lock_layer(position_layer);
    for (const Vertex v : world.mesh().vertices()) {
        const glm::vec3 p = position[v];
        const glm::vec3 q = glm::normalize(p + step * glm::vec3(u(rng), u(rng), u(rng)));
        position[v] = q;
    }
}

using gen::testing::canonical_triangles;
using gen::testing::mesh_triangles;

std::size_t folded_faces(const World& world) {
    const auto p = positions_of(world);
    const Mesh& m = world.mesh();
    std::size_t folded = 0;
    for (const Face f : m.faces()) {
        std::array<glm::vec3, 3> c;
        int i = 0;
        for (const Vertex v : f.vertices(m))
            c[std::size_t(i++)] = p[v.index()];
        folded += orientation_on_sphere(c[0], c[1], c[2]) <= 0;
    }
    return folded;
}

class DelaunayModuleMoved : public ::testing::TestWithParam<float> {};

// Thin triangles of a perturbed lattice fold already when vertices move by a tenth of an edge.
TEST_P(DelaunayModuleMoved, RestoresTheDelaunayTriangulationOfMovedPoints) {
    World world = make_sphere_world({.count = 20000, .perturbation = 0.5f, .seed = 4});
    jiggle(world, GetParam(), 1);
    ASSERT_GT(folded_faces(world), 100u);
    ASSERT_GT(count_non_delaunay_edges(world.mesh(), positions_of(world)), 100u);
    const Dict report = run_module(world, Delaunay_module{}, {});
    EXPECT_GT(report.at("flips").as<std::int64_t>(), 100);
    EXPECT_EQ(report.at("non_delaunay"), Dict_value(std::int64_t(0)));
    ASSERT_EQ(world.mesh().validate(), std::nullopt);
    const auto p = positions_of(world);
    EXPECT_EQ(count_non_delaunay_edges(world.mesh(), p), 0u);
    EXPECT_EQ(folded_faces(world), 0u);
    EXPECT_EQ(canonical_triangles(mesh_triangles(world.mesh())),
              canonical_triangles(delaunay_on_sphere(p)));
}

INSTANTIATE_TEST_SUITE_P(Distance, DelaunayModuleMoved, ::testing::Values(0.1f, 0.3f, 0.6f, 1.f));

// Collapses leave dead vertex slots; a rebuild keeps them dead, and every id with them.
TEST(DelaunayModule, RebuildsAMeshWithDeletedVertices) {
    World world = make_sphere_world({.count = 20000, .perturbation = 0.5f, .seed = 4});
    {
        auto lock = world.lock_mesh();
        int collapsed = 0;
        for (std::uint32_t q = 0; collapsed < 200 && q < lock->edge_slots() / 2; q += 37)
            if (lock->contains(Edge(2 * q)) && !lock.try_collapse(Edge(2 * q))) ++collapsed;
        ASSERT_EQ(collapsed, 200);
    }
    const Mesh before = world.mesh();
    jiggle(world, 1.f, 5);
    ASSERT_GT(folded_faces(world), 100u);
    const auto moved = positions_of(world);
    const Dict report = run_module(world, Delaunay_module{}, {});
    ASSERT_EQ(report.at("rebuilt"), Dict_value(true));
    EXPECT_EQ(report.at("non_delaunay"), Dict_value(std::int64_t(0)));
    const Mesh& m = world.mesh();
    ASSERT_EQ(m.validate(), std::nullopt);
    ASSERT_EQ(m.vertex_slots(), before.vertex_slots());
    for (std::uint32_t v = 0; v < m.vertex_slots(); ++v)
        ASSERT_EQ(m.contains(Vertex(v)), before.contains(Vertex(v))) << "vertex " << v;
    const auto p = positions_of(world);
    EXPECT_EQ(p, moved); // vertex layers keep their values
    EXPECT_EQ(count_non_delaunay_edges(m, p), 0u);
    EXPECT_EQ(folded_faces(world), 0u);
    // Later vertices take the ids they would have taken before.
    Mesh copy = before;
    Mesh after = m;
    for (int i = 0; i < 10; ++i)
        ASSERT_EQ(after.add_vertex(), copy.add_vertex());
}

// Points that cannot be triangulated (two with one direction): nothing changes.
TEST(DelaunayModule, RebuildRefusesPointsItCannotTriangulate) {
    World world = make_sphere_world({.count = 2000, .perturbation = 0.5f, .seed = 6});
    {
        auto [position] = world.lock_layer(position_layer);
        position[Vertex(1)] = 2.f * position[Vertex(0)];
    }
    const World before = world.deep_copy();
    auto lock = world.lock_mesh();
    EXPECT_FALSE(rebuild_delaunay(lock, positions_of(before)));
    EXPECT_TRUE(*lock == before.mesh());
}

TEST(DelaunayModule, SmallMovesAreRepairedByFlipsAlone) {
    World world = make_sphere_world({.count = 20000, .perturbation = 0.5f, .seed = 4});
    constexpr auto tag = Layer_info<std::int32_t, Layer_type::face>("tag").initial(-1);
    {
        auto [t] = world.lock_layer(tag);
        for (const Face f : world.mesh().faces())
            t[f] = 1;
    }
    jiggle(world, 0.01f, 2);
    const Dict report = run_module(world, Delaunay_module{}, {});
    EXPECT_GT(report.at("flips").as<std::int64_t>(), 0);
    EXPECT_EQ(report.at("rebuilt"), Dict_value(false));
    EXPECT_EQ(count_non_delaunay_edges(world.mesh(), positions_of(world)), 0u);
    EXPECT_EQ(*world.layer(tag)->begin(), 1);
}

TEST(DelaunayModule, DelaunayMeshNeedsNoFlips) {
    World world = make_sphere_world({.count = 5000, .perturbation = 0.3f, .seed = 2});
    const World before = world.deep_copy();
    const Dict report = run_module(world, Delaunay_module{}, {});
    EXPECT_EQ(report.at("flips"), Dict_value(std::int64_t(0)));
    // The run is recorded; mesh and layers are as they were.
    ASSERT_EQ(world.provenance().steps.size(), 1u);
    EXPECT_EQ(world.provenance().steps[0].module, "delaunay");
    world.set_provenance(before.provenance());
    EXPECT_TRUE(world == before);
}

TEST(DelaunayModule, FaceLayersFollowTheFlips) {
    World world = make_sphere_world({.count = 3000, .perturbation = 0.5f, .seed = 8});
    constexpr auto tag =
        Layer_info<std::int32_t, Layer_type::face>("tag").initial(-1).on_mesh_change(
            On_mesh_change::reset_affected);
    {
        auto [t] = world.lock_layer(tag);
        for (const Face f : world.mesh().faces())
            t[f] = 1;
    }
    jiggle(world, 0.01f, 3);
    const Dict report = run_module(world, Delaunay_module{}, {});
    ASSERT_EQ(report.at("rebuilt"), Dict_value(false));
    const auto flips = report.at("flips").as<std::int64_t>();
    ASSERT_GT(flips, 0);
    std::int64_t reset = 0;
    for (const Face f : world.mesh().faces())
        reset += (*world.layer(tag))[f] == -1;
    EXPECT_GT(reset, 0);
    EXPECT_LE(reset, 2 * flips);
}

// Lawson's algorithm as written before lawson_flips decided the first verdicts on two threads:
// every edge on a stack, decided in turn, the four around each flip queued again; then the
// blocked edges again, once each per round and in the order they were blocked, while a round
// flips anything.
Lawson_result reference_lawson_flips(Mesh_lock& lock, std::span<const glm::vec3> p) {
    std::vector<Edge> stack, blocked;
    std::vector<bool> queued(lock->edge_slots() / 2, false);
    const std::size_t max_flips = 64 * (lock->edge_count() + 1);
    Lawson_result result;
    const auto push = [&](Edge e) {
        if (queued[e.base().quad_index()]) return;
        queued[e.base().quad_index()] = true;
        stack.push_back(e.base());
    };
    const auto drain = [&] {
        while (!stack.empty()) {
            const Edge e = stack.back();
            stack.pop_back();
            queued[e.quad_index()] = false;
            const Mesh& m = *lock;
            if (!m.contains(e) || !e.left(m).valid() || !e.right(m).valid()) continue;
            const auto at = [&](Vertex v) { return p[v.index()]; };
            const Flip_decision d =
                lawson_decision(at(e.origin(m)), at(e.dest(m)), at(e.left_next(m).dest(m)),
                                at(e.sym().left_next(m).dest(m)));
            if (d == Flip_decision::keep) continue;
            if (result.flips >= max_flips || d == Flip_decision::blocked || lock.try_flip(e)) {
                blocked.push_back(e);
                continue;
            }
            ++result.flips;
            const Mesh& f = *lock;
            for (const Edge n :
                 {e.left_next(f), e.left_prev(f), e.sym().left_next(f), e.sym().left_prev(f)})
                push(n);
        }
    };
    for (const Edge e : lock->edges())
        push(e);
    drain();
    while (!blocked.empty()) {
        const std::size_t flips = result.flips;
        std::vector<Edge> again;
        again.swap(blocked);
        std::set<std::uint32_t> tried;
        for (const Edge e : again) {
            if (!tried.insert(e.quad_index()).second) continue;
            push(e);
            drain();
        }
        if (result.flips == flips) break;
    }
    result.blocked = blocked.size();
    return result;
}

// The verdicts found ahead on two threads must not change which flips are made or their order
// (the order decides which quad-edge record ends up holding which edge).
TEST(DelaunayModule, LawsonFlipsMakeTheFlipsOfDecidingEveryEdgeInTurn) {
    for (const float distance : {0.05f, 0.3f, 1.f}) {
        World world = make_sphere_world({.count = 20000, .perturbation = 0.5f, .seed = 6});
        jiggle(world, distance, 7);
        const auto p = positions_of(world);
        World reference = world.deep_copy();
        World all = world.deep_copy(); // the overload that starts from every edge itself
        Lawson_result got, got_all, expected;
        {
            auto lock = world.lock_mesh();
            std::vector<Edge> edges;
            for (const Edge e : lock->edges())
                edges.push_back(e);
            got = lawson_flips(lock, p, std::move(edges));
        }
        {
            auto lock = all.lock_mesh();
            got_all = lawson_flips(lock, p);
        }
        {
            auto lock = reference.lock_mesh();
            expected = reference_lawson_flips(lock, p);
        }
        ASSERT_GT(expected.flips, 100u) << distance;
        EXPECT_EQ(got.flips, expected.flips) << distance;
        EXPECT_EQ(got.blocked, expected.blocked) << distance;
        EXPECT_TRUE(world.mesh() == reference.mesh()) << distance;
        EXPECT_EQ(got_all.flips, expected.flips) << distance;
        EXPECT_EQ(got_all.blocked, expected.blocked) << distance;
        EXPECT_TRUE(all.mesh() == reference.mesh()) << distance;
    }
}

// Any unfolded triangulation of few points (random flips away from Delaunay) flips back to the
// Delaunay one with nothing blocked.
TEST(DelaunayModule, LawsonFlipsFinishEveryUnfoldedTriangulationOfFewPoints) {
    std::size_t worlds = 0, scrambling_flips = 0;
    for (std::uint32_t count = 6; count <= 16; ++count) {
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            World world = make_sphere_world({.count = count, .perturbation = 0.6f, .seed = seed});
            const auto p = positions_of(world);
            std::mt19937_64 rng(seed * 131 + count);
            {
                auto lock = world.lock_mesh();
                const auto at = [&](Vertex v) { return p[v.index()]; };
                for (int i = 0; i < 40 * int(count); ++i) {
                    const Mesh& m = *lock;
                    const Edge e(std::uint32_t(2 * (rng() % (m.edge_slots() / 2))));
                    if (!m.contains(e)) continue;
                    const glm::vec3 a = at(e.origin(m)), b = at(e.dest(m));
                    const glm::vec3 c = at(e.left_next(m).dest(m));
                    const glm::vec3 d = at(e.sym().left_next(m).dest(m));
                    if (orientation_on_sphere(c, d, b) <= 0 || orientation_on_sphere(d, c, a) <= 0)
                        continue; // the flip would fold a face
                    if (!lock.try_flip(e)) ++scrambling_flips;
                }
            }
            ASSERT_EQ(world.mesh().validate(), std::nullopt);
            ASSERT_EQ(folded_faces(world), 0u);
            Lawson_result result;
            {
                auto lock = world.lock_mesh();
                result = lawson_flips(lock, p);
            }
            ASSERT_EQ(world.mesh().validate(), std::nullopt);
            EXPECT_EQ(result.blocked, 0u) << count << " points, seed " << seed;
            EXPECT_EQ(count_non_delaunay_edges(world.mesh(), p), 0u)
                << count << " points, seed " << seed;
            EXPECT_EQ(folded_faces(world), 0u) << count << " points, seed " << seed;
            ++worlds;
        }
    }
    EXPECT_GT(scrambling_flips, 10 * worlds);
}

// Where faces are folded, a flip the in-circle test asks for can be blocked (it would fold a
// face, or its new edge already exists around a fold) and become possible after later flips
// elsewhere, which queue only the four edges of their own quads. Lawson must not stop there:
// when it ends, every edge it would flip is one the mesh refuses to flip. Without the rounds
// that retry blocked edges, 36-45 flippable edges were left in each of these worlds.
TEST(DelaunayModule, LawsonFlipsLeaveNoEdgeThatCouldStillFlip) {
    std::size_t blocked = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        World world = make_sphere_world({.count = 3000, .perturbation = 0.5f, .seed = seed});
        jiggle(world, 1.5f, seed + 100);
        const auto p = positions_of(world);
        auto lock = world.lock_mesh();
        blocked += lawson_flips(lock, p).blocked;
        const Mesh& m = *lock;
        const auto at = [&](Vertex v) { return p[v.index()]; };
        std::size_t flippable = 0;
        for (const Edge e : m.edges()) {
            const Flip_decision d =
                lawson_decision(at(e.origin(m)), at(e.dest(m)), at(e.left_next(m).dest(m)),
                                at(e.sym().left_next(m).dest(m)));
            flippable += d == Flip_decision::flip && !m.check_flip(e);
        }
        EXPECT_EQ(flippable, 0u) << "seed " << seed;
    }
    EXPECT_GT(blocked, 0u); // the folds left Lawson something it could not do
}

TEST(DelaunayModule, RefusesAWorldWithoutPositions) {
    World world;
    world.lock_mesh().assign(make_sphere({.count = 10}).mesh);
    EXPECT_THROW(run_module(world, Delaunay_module{}, {}), std::runtime_error);
}

} // namespace
