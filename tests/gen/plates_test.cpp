// SPDX-License-Identifier: MIT
// The `plates` module: plate growth, determinism, balance, boundary classification and refusals.
#include <orbis/gen/module.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/sphere.hpp>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

using orbis::Dict;
using orbis::Edge;
using orbis::Mesh;
using orbis::Vertex;
using orbis::World;
using orbis::gen::Plate;
using orbis::gen::Plate_boundary;
using orbis::gen::plate_boundary_layer;
using orbis::gen::plate_id_layer;
using orbis::gen::Plates_module;

World sphere(std::uint32_t count, std::uint64_t seed) {
    return orbis::gen::make_sphere_world(orbis::gen::Fibonacci_params{count, 1.f, 0.5f, seed});
}

Dict params(std::int64_t count, double irregularity = 0.5) {
    Dict p;
    p.set("count", count);
    p.set("irregularity", irregularity);
    return p;
}

World with_plates(std::uint32_t vertices, std::uint64_t seed, std::int64_t count,
                  double irregularity = 0.5, std::int64_t meander = 8) {
    World w = sphere(vertices, seed);
    Dict p = params(count, irregularity);
    p.set("meander", meander);
    orbis::gen::run_module(w, Plates_module{}, p);
    return w;
}

std::int32_t plate_of(const World& w, Vertex v) { return (*w.layer(plate_id_layer))[v]; }

Plate_boundary boundary_of(const World& w, Edge e) {
    return static_cast<Plate_boundary>((*w.layer(plate_boundary_layer))[e]);
}

// Vertices of each plate, live vertices only.
std::vector<std::size_t> plate_sizes(const World& w, std::size_t count) {
    std::vector<std::size_t> sizes(count, 0);
    for (const Vertex v : w.mesh().vertices())
        ++sizes.at(static_cast<std::size_t>(plate_of(w, v)));
    return sizes;
}

// Number of connected pieces of each plate, by breadth-first search inside the plate.
std::vector<int> plate_pieces(const World& w, std::size_t count) {
    const Mesh& m = w.mesh();
    std::vector<int> pieces(count, 0);
    std::vector<bool> seen(m.vertex_slots(), false);
    std::vector<Vertex> queue;
    for (const Vertex start : m.vertices()) {
        if (seen[start.index()]) continue;
        const std::int32_t p = plate_of(w, start);
        ++pieces.at(static_cast<std::size_t>(p));
        seen[start.index()] = true;
        queue.assign(1, start);
        while (!queue.empty()) {
            const Vertex v = queue.back();
            queue.pop_back();
            for (const Vertex n : v.neighbors(m)) {
                if (seen[n.index()] || plate_of(w, n) != p) continue;
                seen[n.index()] = true;
                queue.push_back(n);
            }
        }
    }
    return pieces;
}

std::size_t boundary_edge_count(const World& w) {
    std::size_t n = 0;
    for (const Edge e : w.mesh().edges())
        n += plate_of(w, e.origin(w.mesh())) != plate_of(w, e.dest(w.mesh())) ? 1 : 0;
    return n;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(Plates, EveryLiveVertexHasOneOfCountPlates) {
    const World w = with_plates(5000, 1, 12);
    for (const Vertex v : w.mesh().vertices()) {
        EXPECT_GE(plate_of(w, v), 0) << v;
        EXPECT_LT(plate_of(w, v), 12) << v;
    }
    for (const std::size_t size : plate_sizes(w, 12))
        EXPECT_GT(size, 0u);
    EXPECT_EQ(orbis::gen::read_plates(w).size(), 12u);
}

TEST(Plates, EveryPlateIsConnected) {
    for (const double irregularity : {0.0, 0.5, 0.9})
        for (const std::uint64_t seed : {1u, 2u, 3u}) {
            const World w = with_plates(4000, seed, 20, irregularity);
            const auto pieces = plate_pieces(w, 20);
            EXPECT_EQ(pieces, std::vector<int>(20, 1))
                << "seed " << seed << ", irregularity " << irregularity;
        }
}

TEST(Plates, SameSeedGivesTheSameWorld) {
    EXPECT_TRUE(with_plates(3000, 5, 12) == with_plates(3000, 5, 12));
}

TEST(Plates, DifferentSeedsGiveDifferentPlates) {
    const World a = with_plates(3000, 5, 12);
    World b = sphere(3000, 5);
    b.lock_random()->seed(6);
    orbis::gen::run_module(b, Plates_module{}, params(12));
    std::size_t differ = 0;
    for (const Vertex v : a.mesh().vertices())
        differ += plate_of(a, v) != plate_of(b, v) ? 1 : 0;
    EXPECT_GT(differ, 300u);
}

// Twelve random seeds cut the sphere into cells of which the largest rarely exceeds a quarter
// of the surface; a growth that lets one plate run ahead (e.g. a depth-first flood fill, or a
// frontier whose new vertices are handled in the same round) gives one plate most of it.
TEST(Plates, PlatesAreNotGrosslyUnbalanced) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        const World w = with_plates(5000, seed, 12);
        const auto sizes = plate_sizes(w, 12);
        EXPECT_LT(*std::max_element(sizes.begin(), sizes.end()), 5000u * 40 / 100)
            << "seed " << seed;
    }
}

// Without the shuffle, the plates seeded first would win every contested vertex in every
// round: on these worlds the first half of the plates then ends up 27% larger than the second
// half in total (measured with the shuffle taken out), while sampling noise is about 3%.
TEST(Plates, EarlySeedsAreNotFavoured) {
    std::size_t first = 0, last = 0;
    for (std::uint64_t seed = 1; seed <= 96; ++seed) {
        const auto sizes = plate_sizes(with_plates(1000, seed, 12, 0.0), 12);
        for (std::size_t k = 0; k < 6; ++k) {
            first += sizes[k];
            last += sizes[11 - k];
        }
    }
    const double ratio = double(first) / double(last);
    EXPECT_GT(ratio, 0.9);
    EXPECT_LT(ratio, 1.12);
}

// The seeds are drawn before the growth, so both runs start from the same seeds; random waits
// make the borders ragged, hence longer (by 5% on these worlds).
TEST(Plates, IrregularityMakesBordersLonger) {
    std::size_t straight = 0, ragged = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        straight += boundary_edge_count(with_plates(5000, seed, 12, 0.0, 0));
        ragged += boundary_edge_count(with_plates(5000, seed, 12, 0.9, 0));
    }
    EXPECT_GT(ragged, straight * 103 / 100);
}

// The same seeds grown with and without meander (the seeds and the shuffles are drawn alike):
// slow terrain moves whole stretches of border, so many vertices change plate.
TEST(Plates, MeanderMovesBordersAtLargeScale) {
    std::size_t changed = 0, total = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        const World a = with_plates(20000, seed, 12, 0.0, 0);
        const World b = with_plates(20000, seed, 12, 0.0, 16);
        for (const Vertex v : a.mesh().vertices()) {
            changed += plate_of(a, v) != plate_of(b, v);
            ++total;
        }
    }
    EXPECT_GT(double(changed) / double(total), 0.15);
}

TEST(Plates, BoundaryEdgesAreExactlyTheEdgesBetweenPlates) {
    World w = sphere(5000, 2);
    const Dict report = orbis::gen::run_module(w, Plates_module{}, params(12));
    const Mesh& m = w.mesh();
    std::array<std::int64_t, 6> counts{};
    for (const Edge e : m.edges()) {
        const bool between = plate_of(w, e.origin(m)) != plate_of(w, e.dest(m));
        const Plate_boundary kind = boundary_of(w, e);
        EXPECT_EQ(between, kind != Plate_boundary::joined) << e;
        ++counts.at(static_cast<std::size_t>(kind));
    }
    EXPECT_EQ(report.at("plates").as<std::int64_t>(), 12);
    EXPECT_EQ(report.at("ridge").as<std::int64_t>(), counts[1]);
    EXPECT_EQ(report.at("subduction").as<std::int64_t>(), counts[2] + counts[3]);
    EXPECT_EQ(report.at("transform").as<std::int64_t>(), counts[4]);
    EXPECT_EQ(report.at("collision").as<std::int64_t>(), counts[5]);
    EXPECT_EQ(orbis::gen::classify_plate_boundaries(w)[0], std::size_t(counts[0]));
}

TEST(Plates, ContinentalFractionIsAShareOfTheArea) {
    for (const double fraction : {0.0, 0.35, 1.0}) {
        World w = sphere(5000, 3);
        Dict p = params(12);
        p.set("continental_fraction", fraction);
        orbis::gen::run_module(w, Plates_module{}, p);
        const auto plates = orbis::gen::read_plates(w);
        const auto sizes = plate_sizes(w, 12);
        std::size_t continental = 0, largest = 0;
        for (std::size_t k = 0; k < 12; ++k) {
            continental += plates[k].continental ? sizes[k] : 0;
            largest = std::max(largest, sizes[k]);
        }
        // Vertices of a Fibonacci sphere stand for equal areas; whole plates can miss the
        // target by half the largest plate at most.
        EXPECT_NEAR(double(continental), fraction * 5000, double(largest) / 2 + 50) << fraction;
        for (const Plate& plate : plates) {
            EXPECT_NEAR(glm::length(plate.axis), 1.0, 1e-12);
            EXPECT_GE(plate.angular_speed, 0.0);
            EXPECT_LE(plate.angular_speed, 0.017);
            EXPECT_GT(plate.density, plate.continental ? 2.59 : 2.89);
            EXPECT_LT(plate.density, plate.continental ? 2.81 : 3.11);
        }
    }
}

TEST(Plates, PlatesDictRoundTrips) {
    World w;
    const std::array<Plate, 2> plates{Plate{true, {0, 0, 1}, 0.01, 2.7},
                                      Plate{false, {1, 0, 0}, -0.02, 3.0}};
    orbis::gen::write_plates(w, plates);
    EXPECT_EQ(orbis::gen::read_plates(w), std::vector<Plate>(plates.begin(), plates.end()));
    const Dict& d = *w.layer("plates");
    EXPECT_EQ(d.at("count").as<std::int64_t>(), 2);
    EXPECT_EQ(d.at("plates").as<orbis::Dict_array>()[0].as<Dict>().at("type").as<std::string>(),
              "continental");
}

TEST(Plates, ReadPlatesRefusesMissingOrMalformedDicts) {
    World w;
    EXPECT_NE(error_of([&] { orbis::gen::read_plates(w); }).find("'plates'"), std::string::npos);
    orbis::gen::write_plates(w, std::array{Plate{}});
    const auto broken = [&](const std::function<void(Dict&)>& edit) {
        World copy = w;
        edit(*copy.lock_layer("plates"));
        return error_of([&] { orbis::gen::read_plates(copy); });
    };
    const auto first_plate = [](Dict& d) -> Dict& {
        return d.find("plates")->as<orbis::Dict_array>()[0].as<Dict>();
    };
    EXPECT_NE(broken([](Dict& d) { d.set("count", 2); }).find("'count' is 2"), std::string::npos);
    EXPECT_NE(broken([](Dict& d) { d.erase("plates"); }).find("'plates' must be an array"),
              std::string::npos);
    EXPECT_NE(broken([&](Dict& d) { first_plate(d).set("type", "granite"); }).find("plate 0"),
              std::string::npos);
    EXPECT_NE(broken([&](Dict& d) { first_plate(d).set("axis", glm::dvec3(0)); }).find("'axis'"),
              std::string::npos);
    EXPECT_NE(broken([&](Dict& d) { first_plate(d).set("density", -1.0); }).find("'density'"),
              std::string::npos);
    EXPECT_NE(broken([&](Dict& d) {
                  first_plate(d).set("angular_speed", "fast");
              }).find("'angular_speed'"),
              std::string::npos);
}

// ---- hand-made classification: plate 0 where x > 0, plate 1 elsewhere ----

struct Split_world {
    World world;
    std::array<std::size_t, 6> counts;
};

Split_world split_world(const Plate& east, const Plate& west) {
    Split_world s{sphere(4000, 7), {}};
    {
        const auto* position = s.world.layer(orbis::position_layer);
        auto [ids] = s.world.lock_layer(plate_id_layer);
        for (const Vertex v : s.world.mesh().vertices())
            ids[v] = (*position)[v].x > 0 ? 0 : 1;
    }
    orbis::gen::write_plates(s.world, std::array{east, west});
    s.counts = orbis::gen::classify_plate_boundaries(s.world);
    return s;
}

// A boundary edge of a split world: where it lies and how close it runs to the x axis, the
// direction across the boundary.
struct Crossing {
    Edge base;
    bool origin_east; // origin on plate 0
    double z;         // of the midpoint
    double cos_to_x;  // |cos| of the angle between the edge and the x axis
    Plate_boundary kind;
};

std::vector<Crossing> crossings(const World& w) {
    const Mesh& m = w.mesh();
    const auto& position = *w.layer(orbis::position_layer);
    std::vector<Crossing> out;
    for (const Edge e : m.edges()) {
        const Vertex a = e.origin(m), c = e.dest(m);
        if (plate_of(w, a) == plate_of(w, c)) continue;
        const glm::dvec3 pa = glm::normalize(glm::dvec3(position[a]));
        const glm::dvec3 pc = glm::normalize(glm::dvec3(position[c]));
        out.push_back({e, plate_of(w, a) == 0, glm::normalize(pa + pc).z,
                       std::abs(glm::normalize(pc - pa).x), boundary_of(w, e)});
    }
    return out;
}

// Rotation about y: where z > 0 the eastern plate moves towards +x and the western towards -x
// (apart); where z < 0 they move towards each other. Edges within 50 degrees of the x axis
// see mostly normal motion there, whatever the zig-zag of the border.
constexpr double speed = 0.01;
constexpr double cos_50_degrees = 0.6428;

Plate plate(bool continental, glm::dvec3 axis, double angular_speed, double density = 3.0) {
    return Plate{continental, axis, angular_speed, density};
}

// Checks the converging half of a split world whose plates turn apart about y.
void expect_converging(const Split_world& s, const std::function<Plate_boundary(bool)>& expected) {
    std::array<int, 2> checked{};
    for (const Crossing& c : crossings(s.world)) {
        if (c.z > -0.5 || c.cos_to_x < cos_50_degrees) continue;
        EXPECT_EQ(c.kind, expected(c.origin_east)) << c.base << " z " << c.z;
        ++checked[c.origin_east ? 1 : 0];
    }
    EXPECT_GT(checked[0], 5);
    EXPECT_GT(checked[1], 5);
}

TEST(Plates, PlatesMovingApartMakeARidge) {
    const Split_world s =
        split_world(plate(false, {0, 1, 0}, speed), plate(false, {0, 1, 0}, -speed));
    int checked = 0;
    for (const Crossing& c : crossings(s.world)) {
        if (c.z < 0.5 || c.cos_to_x < cos_50_degrees) continue;
        EXPECT_EQ(c.kind, Plate_boundary::ridge) << c.base << " z " << c.z;
        ++checked;
    }
    EXPECT_GT(checked, 10);
    EXPECT_EQ(s.counts[0], s.world.mesh().edge_count() - crossings(s.world).size());
}

TEST(Plates, OceanicPlateSubductsUnderContinentalOne) {
    // East oceanic: the origin goes under when it lies in the east.
    expect_converging(split_world(plate(false, {0, 1, 0}, speed), plate(true, {0, 1, 0}, -speed)),
                      [](bool origin_east) {
                          return origin_east ? Plate_boundary::subducting_origin
                                             : Plate_boundary::subducting_dest;
                      });
    // West oceanic: the sides swap.
    expect_converging(split_world(plate(true, {0, 1, 0}, speed), plate(false, {0, 1, 0}, -speed)),
                      [](bool origin_east) {
                          return origin_east ? Plate_boundary::subducting_dest
                                             : Plate_boundary::subducting_origin;
                      });
}

TEST(Plates, DenserOceanicPlateSubducts) {
    expect_converging(
        split_world(plate(false, {0, 1, 0}, speed, 2.95), plate(false, {0, 1, 0}, -speed, 3.05)),
        [](bool origin_east) {
            return origin_east ? Plate_boundary::subducting_dest
                               : Plate_boundary::subducting_origin;
        });
}

TEST(Plates, ContinentalPlatesCollide) {
    expect_converging(
        split_world(plate(true, {0, 1, 0}, speed, 2.7), plate(true, {0, 1, 0}, -speed, 2.7)),
        [](bool) { return Plate_boundary::collision; });
}

TEST(Plates, SlidingPlatesMakeATransform) {
    // Rotation about x moves both plates along the border x = 0, in opposite directions.
    const Split_world s =
        split_world(plate(false, {1, 0, 0}, speed), plate(true, {1, 0, 0}, -speed));
    const auto all = crossings(s.world);
    int checked = 0;
    for (const Crossing& c : all) {
        // Within 25 degrees of the x axis the normal part is below half the tangential one.
        if (c.cos_to_x < 0.9063) continue;
        EXPECT_EQ(c.kind, Plate_boundary::transform) << c.base;
        ++checked;
    }
    EXPECT_GT(checked, 10);
    EXPECT_EQ(s.counts[static_cast<std::size_t>(Plate_boundary::ridge)] +
                  s.counts[static_cast<std::size_t>(Plate_boundary::subducting_origin)] +
                  s.counts[static_cast<std::size_t>(Plate_boundary::subducting_dest)] +
                  s.counts[static_cast<std::size_t>(Plate_boundary::transform)],
              all.size());
    EXPECT_EQ(s.counts[static_cast<std::size_t>(Plate_boundary::collision)], 0u);
}

TEST(Plates, ClassifyRefusesPlateIdsOutsideThePlates) {
    Split_world s = split_world(plate(false, {0, 1, 0}, speed), plate(false, {0, 1, 0}, -speed));
    {
        auto [ids] = s.world.lock_layer(plate_id_layer);
        ids[Vertex(17)] = 2;
    }
    const World before = s.world;
    EXPECT_NE(error_of([&] { orbis::gen::classify_plate_boundaries(s.world); }).find("v17"),
              std::string::npos);
    EXPECT_TRUE(s.world == before);
    EXPECT_THROW(orbis::gen::classify_plate_boundaries(s.world, -1.0), std::runtime_error);
}

// ---- refusals, cancellation, edited meshes ----

TEST(Plates, RefusesAWorldWithoutPositionsOrVertices) {
    World no_position;
    EXPECT_NE(error_of([&] {
                  orbis::gen::run_module(no_position, Plates_module{}, {});
              }).find("'position'"),
              std::string::npos);
    World empty;
    (void)empty.lock_layer(orbis::position_layer);
    EXPECT_NE(
        error_of([&] { orbis::gen::run_module(empty, Plates_module{}, {}); }).find("'plates'"),
        std::string::npos);
}

TEST(Plates, RefusesMorePlatesThanVertices) {
    World w = sphere(20, 1);
    const World before = w;
    EXPECT_NE(error_of([&] { orbis::gen::run_module(w, Plates_module{}, params(21)); }).find("21"),
              std::string::npos);
    EXPECT_TRUE(w == before);
    EXPECT_NO_THROW(orbis::gen::run_module(w, Plates_module{}, params(20)));
}

TEST(Plates, RefusesBadParameters) {
    const Plates_module module;
    const auto refused = [&](std::string_view key, orbis::Dict_value value) {
        Dict p;
        p.set(key, std::move(value));
        EXPECT_THROW(orbis::gen::complete_parameters(module, p), orbis::gen::Pipeline_error) << key;
    };
    refused("count", 1);
    refused("count", 1001);
    refused("count", 2.5);
    refused("continental_fraction", 1.5);
    refused("max_speed", -0.1);
    refused("irregularity", 0.95);
    refused("transform_ratio", -1.0);
    refused("colour", "red");
    const Dict complete = orbis::gen::complete_parameters(module, {});
    EXPECT_EQ(complete.at("count").as<std::int64_t>(), 12);
}

TEST(Plates, CancelledRunLeavesTheWorldUnchanged) {
    World w = sphere(3000, 4);
    const World before = w;
    const std::atomic<bool> cancel{true};
    EXPECT_THROW(
        orbis::gen::run_module(w, Plates_module{}, params(12), orbis::gen::Progress({}, &cancel)),
        orbis::gen::Cancelled);
    EXPECT_TRUE(w == before);
    EXPECT_EQ(w.layer(plate_id_layer), nullptr);
}

TEST(Plates, ReportsProgressInOrder) {
    World w = sphere(3000, 4);
    std::vector<double> fractions;
    orbis::gen::run_module(
        w, Plates_module{}, params(12),
        orbis::gen::Progress([&](double f) { fractions.push_back(f); }, nullptr));
    ASSERT_GT(fractions.size(), 3u);
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_GE(fractions.front(), 0.0);
    EXPECT_LE(fractions.back(), 1.0);
}

TEST(Plates, SkipsDeletedElements) {
    World w = sphere(3000, 5);
    {
        auto lock = w.lock_mesh();
        int collapsed = 0;
        for (std::uint32_t q = 0; q < 4000 && collapsed < 100; q += 7)
            if (lock->contains(Edge{2 * q}) && !lock.try_collapse(Edge{2 * q})) ++collapsed;
        ASSERT_EQ(collapsed, 100);
    }
    const Mesh& m = w.mesh();
    ASSERT_LT(m.vertex_count(), m.vertex_slots());
    orbis::gen::run_module(w, Plates_module{}, params(12));
    EXPECT_EQ(plate_pieces(w, 12), std::vector<int>(12, 1));
    for (const Edge e : m.edges())
        EXPECT_EQ(plate_of(w, e.origin(m)) != plate_of(w, e.dest(m)),
                  boundary_of(w, e) != Plate_boundary::joined);
    for (std::uint32_t v = 0; v < m.vertex_slots(); ++v)
        EXPECT_TRUE(m.contains(Vertex(v)) || plate_of(w, Vertex(v)) == -1) << v;
}

TEST(Plates, UnreachedComponentsJoinAPlate) {
    World w = sphere(500, 6);
    Vertex lonely;
    {
        auto lock = w.lock_mesh();
        lonely = lock.add_vertex();
    }
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        World copy = w;
        copy.lock_random()->seed(seed);
        orbis::gen::run_module(copy, Plates_module{}, params(12));
        EXPECT_GE(plate_of(copy, lonely), 0);
        EXPECT_LT(plate_of(copy, lonely), 12);
    }
}

} // namespace
