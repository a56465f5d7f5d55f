// SPDX-License-Identifier: MIT
// The helpers shared by generation modules: vertex adjacency, random streams, geodesic
// distances and vertex cell areas.
#include <orbis/gen/cell_area.hpp>
#include <orbis/gen/geodesic.hpp>
#include <orbis/gen/random_stream.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/gen/vertex_adjacency.hpp>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using orbis::Edge;
using orbis::Mesh;
using orbis::Vertex;
using orbis::World;
using orbis::gen::Neighbour_order;
using orbis::gen::Random_stream;
using orbis::gen::Vertex_adjacency;

constexpr double pi = std::numbers::pi;

orbis::gen::Sphere sphere(std::uint32_t count, float radius = 1.f) {
    return orbis::gen::make_sphere(orbis::gen::Fibonacci_params{count, radius, 0.5f, 7});
}

// Every row holds the live vertex's neighbours, in Vertex::neighbors order for `ring`; dead
// slots have empty rows.
void expect_matches(const Mesh& m, const Vertex_adjacency& a, Neighbour_order order) {
    ASSERT_EQ(a.first.size(), std::size_t{m.vertex_slots()} + 1);
    ASSERT_EQ(a.slots(), m.vertex_slots());
    EXPECT_EQ(a.first.back(), a.next.size());
    EXPECT_EQ(a.next.size(), 2 * m.edge_count());
    for (std::uint32_t i = 0; i < m.vertex_slots(); ++i) {
        const auto row = a.neighbours(i);
        if (!m.contains(Vertex{i})) {
            EXPECT_TRUE(row.empty()) << "dead slot " << i;
            continue;
        }
        std::vector<std::uint32_t> expected;
        for (const Vertex n : Vertex{i}.neighbors(m))
            expected.push_back(n.index());
        std::vector<std::uint32_t> got(row.begin(), row.end());
        if (order == Neighbour_order::edge_scan) {
            std::sort(expected.begin(), expected.end());
            std::sort(got.begin(), got.end());
        }
        ASSERT_EQ(got, expected) << "vertex " << i;
    }
}

TEST(Vertex_adjacency, RowsAreTheNeighboursInRingOrder) {
    const auto s = sphere(2000);
    expect_matches(s.mesh, orbis::gen::vertex_adjacency(s.mesh), Neighbour_order::ring);
    expect_matches(s.mesh, orbis::gen::vertex_adjacency(s.mesh, Neighbour_order::edge_scan),
                   Neighbour_order::edge_scan);
}

TEST(Vertex_adjacency, FollowsSplitsAndCollapses) {
    auto s = sphere(2000);
    Mesh& m = s.mesh;
    for (std::uint32_t q = 0; q < 40; ++q)
        m.split(Edge{2 * (q * 37)});
    std::size_t collapsed = 0;
    for (std::uint32_t q = 0; q < 200 && collapsed < 20; q += 7)
        if (m.contains(Edge{2 * q}) && !m.try_collapse(Edge{2 * q})) ++collapsed;
    ASSERT_GT(collapsed, 0u);
    ASSERT_LT(m.vertex_count(), m.vertex_slots()); // some dead slots
    ASSERT_EQ(m.validate(), std::nullopt);
    expect_matches(m, orbis::gen::vertex_adjacency(m), Neighbour_order::ring);
    expect_matches(m, orbis::gen::vertex_adjacency(m, Neighbour_order::edge_scan),
                   Neighbour_order::edge_scan);
}

TEST(Geodesic, DistanceBetweenPoints) {
    using orbis::gen::geodesic_distance;
    const glm::dvec3 a(1, 2, 3);
    EXPECT_NEAR(geodesic_distance(a, -a, 2.0), 2 * pi, 1e-12);
    EXPECT_NEAR(geodesic_distance({0, 0, 5}, {0, 0, -0.1}, 1.0), pi, 1e-12);
    EXPECT_EQ(geodesic_distance(a, a * 4.0, 3.0), 0.0);
    EXPECT_EQ(geodesic_distance(a, glm::dvec3(0), 3.0), 0.0);
    EXPECT_NEAR(geodesic_distance({1, 0, 0}, {0, 3, 0}, 2.0), pi, 1e-12);
    const glm::dvec3 b(-0.3, 0.9, 0.1), c(0.2, -0.4, 2.5);
    EXPECT_EQ(geodesic_distance(b, c, 1.5), geodesic_distance(c, b, 1.5));
    // Small angles: still the angle to full relative precision (acos would lose half of it).
    for (const double angle : {1e-3, 1e-6, 1e-9}) {
        const glm::dvec3 p(1, 0, 0), q(std::cos(angle), std::sin(angle), 0);
        EXPECT_NEAR(geodesic_distance(p, q, 6371.0), 6371.0 * angle, 1e-12 * 6371.0 * angle);
    }
}

TEST(Geodesic, DijkstraOverEdgesIsSlightlyLongerThanTheGreatCircle) {
    constexpr float radius = 6371.f;
    const auto s = sphere(20000, radius);
    const std::uint32_t source = 1234;
    const std::vector<std::uint32_t> sources{source};
    const auto d = orbis::gen::geodesic_distances_from(s.mesh, s.positions, radius, sources);
    ASSERT_EQ(d.size(), s.mesh.vertex_slots());
    EXPECT_EQ(d[source], 0.0);
    const glm::dvec3 from(s.positions[source]);
    double ratio_sum = 0;
    std::size_t far = 0;
    for (const Vertex v : s.mesh.vertices()) {
        const double direct =
            orbis::gen::geodesic_distance(from, glm::dvec3(s.positions[v.index()]), radius);
        ASSERT_TRUE(std::isfinite(d[v.index()]));
        EXPECT_GE(d[v.index()], direct * (1 - 1e-12)) << "vertex " << v.index();
        // Paths along edges zigzag: on a triangle lattice up to 2 / sqrt(3) longer in the worst
        // directions, more near the source (a few edges) and where the points are uneven.
        if (direct > 0.05 * radius) {
            EXPECT_LE(d[v.index()], direct * 1.25) << "vertex " << v.index();
            ratio_sum += d[v.index()] / direct;
            ++far;
        }
    }
    // On average, a few percent (measured: 4.9 %).
    EXPECT_LT(ratio_sum / double(far), 1.07);

    // max_distance leaves the far vertices unreached; the near ones keep their distances.
    const auto near =
        orbis::gen::geodesic_distances_from(s.mesh, s.positions, radius, sources, 0.2 * radius);
    std::size_t reached = 0;
    for (const Vertex v : s.mesh.vertices()) {
        const double full = d[v.index()], cut = near[v.index()];
        if (full <= 0.2 * radius) {
            EXPECT_EQ(cut, full);
            ++reached;
        } else {
            EXPECT_EQ(cut, std::numeric_limits<double>::infinity());
        }
    }
    EXPECT_GT(reached, 100u);
    EXPECT_LT(reached, 1000u);

    // The rows of a Vertex_adjacency, in either order, give the same distances.
    for (const auto order : {Neighbour_order::ring, Neighbour_order::edge_scan})
        EXPECT_EQ(orbis::gen::geodesic_distances_from(orbis::gen::vertex_adjacency(s.mesh, order),
                                                      s.positions, radius, sources, 0.2 * radius),
                  near);

    // The World overload reads the same positions.
    World world =
        orbis::gen::make_sphere_world(orbis::gen::Fibonacci_params{20000, radius, 0.5f, 7});
    EXPECT_EQ(orbis::gen::geodesic_distances_from(world, radius, sources), d);
}

// Dijkstra's algorithm as textbooks give it (binary heap), the reference for the bucketed walk.
std::vector<double> reference_distances(const Mesh& m, const std::vector<glm::vec3>& positions,
                                        double radius, const std::vector<std::uint32_t>& sources,
                                        double max_distance) {
    std::vector<double> d(m.vertex_slots(), std::numeric_limits<double>::infinity());
    using Entry = std::pair<double, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (const std::uint32_t s : sources) {
        d[s] = 0;
        heap.emplace(0.0, s);
    }
    while (!heap.empty()) {
        const auto [dv, v] = heap.top();
        heap.pop();
        if (dv > d[v]) continue;
        const glm::dvec3 p(positions[v]);
        for (const Vertex n : Vertex(v).neighbors(m)) {
            const std::uint32_t k = n.index();
            const glm::dvec3 q(positions[k]);
            const double through =
                dv + radius * std::atan2(glm::length(glm::cross(p, q)), glm::dot(p, q));
            if (through < d[k] && through <= max_distance) {
                d[k] = through;
                heap.emplace(through, k);
            }
        }
    }
    return d;
}

TEST(Geodesic, DistancesAreDijkstrasToTheLastBitOnUnevenEdges) {
    // Points pulled at random towards their neighbours make edges from a hundredth of the
    // spacing to twice it: many shorter than the walk's buckets, which then file vertices again.
    constexpr float radius = 6371.f;
    auto s = sphere(20000, radius);
    Random_stream random(99, "uneven edges");
    std::vector<glm::vec3> moved = s.positions;
    for (const Vertex v : s.mesh.vertices()) {
        const Vertex n = *Vertex(v).neighbors(s.mesh).begin();
        const float t = float(random.uniform());
        moved[v.index()] = glm::normalize(glm::mix(s.positions[v.index()], s.positions[n.index()],
                                                   0.99f * t * t)) *
                           radius;
    }
    std::vector<std::uint32_t> sources;
    for (std::uint32_t i = 0; i < 40; ++i)
        sources.push_back(std::uint32_t(random.uniform() * 19999.0));
    for (const double reach : {300.0, 2000.0, std::numeric_limits<double>::infinity()}) {
        const auto expected = reference_distances(s.mesh, moved, radius, sources, reach);
        EXPECT_EQ(orbis::gen::geodesic_distances_from(s.mesh, moved, radius, sources, reach),
                  expected)
            << "reach " << reach;
    }
    // No sources: nothing is reached.
    const auto none = orbis::gen::geodesic_distances_from(s.mesh, moved, radius, {});
    EXPECT_TRUE(std::all_of(none.begin(), none.end(), [](double d) { return std::isinf(d); }));
    // A negative radius would make negative lengths: refused.
    EXPECT_THROW(orbis::gen::geodesic_distances_from(s.mesh, moved, -1.0, sources),
                 std::invalid_argument);
}

TEST(Cell_area, PositiveAndSumToTheSphere) {
    for (const float radius : {1.f, 6371.f}) {
        const auto s = sphere(20000, radius);
        const auto area = orbis::gen::vertex_cell_areas(s.mesh, s.positions, radius);
        ASSERT_EQ(area.size(), s.mesh.vertex_slots());
        double total = 0;
        for (const double a : area) {
            EXPECT_GT(a, 0);
            total += a;
        }
        const double sphere_area = 4 * pi * double(radius) * double(radius);
        EXPECT_NEAR(total, sphere_area, 1e-9 * sphere_area);
    }
    // The regular spiral (no perturbation) is even: every cell within 35 % of the mean
    // (measured: 0.66 to 1.19 times the mean).
    const auto even = orbis::gen::make_sphere(orbis::gen::Fibonacci_params{20000, 1.f, 0.f, 7});
    const double mean = 4 * pi / 20000;
    for (const double a : orbis::gen::vertex_cell_areas(even.mesh, even.positions, 1.0))
        EXPECT_NEAR(a, mean, 0.35 * mean);
    World world = orbis::gen::make_sphere_world(orbis::gen::Fibonacci_params{500, 2.f, 0.5f, 7});
    const auto s = orbis::gen::make_sphere(orbis::gen::Fibonacci_params{500, 2.f, 0.5f, 7});
    EXPECT_EQ(orbis::gen::vertex_cell_areas(world, 2.0),
              orbis::gen::vertex_cell_areas(s.mesh, s.positions, 2.0));
}

TEST(Cell_area, DeadSlotsGetZero) {
    auto s = sphere(2000);
    Mesh& m = s.mesh;
    Vertex gone;
    for (std::uint32_t q = 0; q < 100 && !gone.valid(); ++q) {
        const Edge e{2 * q};
        const Vertex d = e.dest(m);
        if (!m.try_collapse(e)) gone = d;
    }
    ASSERT_TRUE(gone.valid());
    ASSERT_FALSE(m.contains(gone));
    const auto area = orbis::gen::vertex_cell_areas(m, s.positions, 1.0);
    EXPECT_EQ(area[gone.index()], 0.0);
    double total = 0;
    for (const double a : area)
        total += a;
    EXPECT_NEAR(total, 4 * pi, 1e-9 * 4 * pi);
}

TEST(Cell_area, SphericalTriangle) {
    // An octant: a quarter of a hemisphere, pi/2 on the unit sphere.
    EXPECT_NEAR(orbis::gen::spherical_triangle_area({1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 1.0), pi / 2,
                1e-15);
    EXPECT_NEAR(orbis::gen::spherical_triangle_area({2, 0, 0}, {0, 0, 3}, {0, 1, 0}, 2.0), -2 * pi,
                1e-14);
}

TEST(Random_stream, SameSeedAndTagSameSequence) {
    Random_stream a(42, "plates"), b(42, "plates");
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(a.next_u64(), b.next_u64());
}

TEST(Random_stream, DifferentTagsOrSeedsDiffer) {
    const auto first = [](std::uint64_t seed, const char* tag) {
        Random_stream s(seed, tag);
        std::vector<std::uint64_t> v;
        for (int i = 0; i < 4; ++i)
            v.push_back(s.next_u64());
        return v;
    };
    EXPECT_NE(first(42, "plates"), first(42, "platez"));
    EXPECT_NE(first(42, "plates"), first(42, ""));
    EXPECT_NE(first(42, "plates"), first(43, "plates"));
    EXPECT_NE(first(0, "a"), first(0, "b"));
}

TEST(Random_stream, KnownValues) {
    // FNV-1a's published test vectors; any change to the mixing would change every world.
    EXPECT_EQ(orbis::gen::fnv1a_64(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(orbis::gen::fnv1a_64("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(orbis::gen::fnv1a_64("foobar"), 0x85944171f73967e8ull);
}

TEST(Random_stream, RangesAndRoughUniformity) {
    Random_stream s(1, "ranges");
    for (const std::uint64_t n : {1ull, 2ull, 3ull, 7ull, 1000ull, (1ull << 63) + 1, ~0ull})
        for (int i = 0; i < 1000; ++i)
            ASSERT_LT(s.below(n), n);
    std::vector<int> counts(10, 0);
    double sum = 0;
    for (int i = 0; i < 100000; ++i) {
        const double u = s.uniform();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        sum += u;
        ++counts[static_cast<std::size_t>(s.below(10))];
    }
    EXPECT_NEAR(sum / 100000, 0.5, 0.01);
    for (const int c : counts)
        EXPECT_NEAR(c, 10000, 500);
}

TEST(Random_stream, StepStreamDrawsExactlyOneNumber) {
    World a(99), b(99);
    Random_stream from_step = orbis::gen::step_stream(a, "elevation");
    const std::uint64_t seed = (*b.lock_random())();
    Random_stream expected(seed, "elevation");
    EXPECT_EQ(from_step.next_u64(), expected.next_u64());
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ((*a.lock_random())(), (*b.lock_random())());
    // Tags give distinct streams from the same state of the generator.
    World c(99);
    EXPECT_NE(orbis::gen::step_stream(c, "plates").next_u64(),
              Random_stream(seed, "elevation").next_u64());
}

} // namespace
