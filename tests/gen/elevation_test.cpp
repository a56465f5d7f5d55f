// SPDX-License-Identifier: MIT
// The elevation module: Earth-like ranges, the land fraction asked for, and the features that
// plate boundaries should make: mountains where continents collide, trenches where oceans
// subduct, raised sea floor at ridges.
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/sphere_module.hpp>

#include <gtest/gtest.h>

namespace {

using namespace orbis;
using namespace orbis::gen;

World planet(std::int64_t seed, std::int64_t count = 40000) {
    World world;
    Dict sphere;
    sphere.set("count", count);
    sphere.set("seed", seed);
    run_module(world, Sphere_module{}, sphere);
    run_module(world, Plates_module{}, {});
    return world;
}

struct Mean {
    double sum = 0;
    std::size_t n = 0;
    void add(double x) {
        sum += x;
        ++n;
    }
    double value() const { return n ? sum / double(n) : 0; }
};

TEST(Elevation, EarthLikeRangesAndTheLandFractionAskedFor) {
    World world = planet(1);
    Dict params;
    params.set("land_fraction", 0.4);
    const Dict report = run_module(world, Elevation_module{}, params);
    EXPECT_NEAR(report.at("land_fraction").as<double>(), 0.4, 0.01);
    const auto& elevation = *world.layer(elevation_layer);
    float lo = 1e9f, hi = -1e9f;
    for (const Vertex v : world.mesh().vertices()) {
        lo = std::min(lo, elevation[v]);
        hi = std::max(hi, elevation[v]);
    }
    EXPECT_GE(lo, -11000.f);
    EXPECT_LE(hi, 9000.f);
    EXPECT_LT(lo, -5000.f);
    EXPECT_GT(hi, 2000.f);
    const Dict* terrain = world.layer(terrain_dict_name);
    ASSERT_NE(terrain, nullptr);
    EXPECT_EQ(terrain->at("sea_level"), Dict_value(0.0));
    EXPECT_EQ(terrain->at("max"), Dict_value(double(hi)));
}

TEST(Elevation, BoundariesMakeMountainsTrenchesAndRidges) {
    Mean collision, continent, trench, ocean, ridge;
    for (std::int64_t seed : {1, 2, 3}) {
        World world = planet(seed);
        run_module(world, Elevation_module{}, {});
        const Mesh& m = world.mesh();
        const auto plates = read_plates(world);
        const auto& plate = *world.layer(plate_id_layer);
        const auto& boundary = *world.layer(plate_boundary_layer);
        const auto& elevation = *world.layer(elevation_layer);
        std::vector<char> near_boundary(m.vertex_slots(), 0);
        for (const Edge e : m.edges()) {
            const auto kind = Plate_boundary(boundary[e]);
            const Vertex a = e.base().origin(m), b = e.base().dest(m);
            if (kind != Plate_boundary::joined)
                near_boundary[a.index()] = near_boundary[b.index()] = 1;
            if (kind == Plate_boundary::collision) {
                collision.add(elevation[a]);
                collision.add(elevation[b]);
            }
            if (kind == Plate_boundary::ridge) {
                ridge.add(elevation[a]);
                ridge.add(elevation[b]);
            }
            if (kind == Plate_boundary::subducting_origin ||
                kind == Plate_boundary::subducting_dest) {
                const Vertex down = kind == Plate_boundary::subducting_origin ? a : b;
                if (!plates[std::size_t(plate[down])].continental) trench.add(elevation[down]);
            }
        }
        for (const Vertex v : m.vertices()) {
            if (near_boundary[v.index()]) continue;
            (plates[std::size_t(plate[v])].continental ? continent : ocean).add(elevation[v]);
        }
    }
    ASSERT_GT(collision.n, 0u);
    ASSERT_GT(trench.n, 0u);
    ASSERT_GT(ridge.n, 0u);
    EXPECT_GT(collision.value(), continent.value() + 1500) << "collisions raise mountains";
    EXPECT_LT(trench.value(), ocean.value() - 1500) << "subducting ocean floor forms trenches";
    EXPECT_GT(ridge.value(), ocean.value() + 500) << "ridges stand above the ocean floor";
}

TEST(Elevation, SameSeedSameHeightsOtherSeedOtherHeights) {
    World a = planet(5, 5000), b = planet(5, 5000), c = planet(6, 5000);
    run_module(a, Elevation_module{}, {});
    run_module(b, Elevation_module{}, {});
    run_module(c, Elevation_module{}, {});
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a.layer(elevation_layer)->equals(*c.layer(elevation_layer)));
}

TEST(Elevation, RefusesAWorldWithoutPlates) {
    World world;
    Dict sphere;
    sphere.set("count", std::int64_t(100));
    run_module(world, Sphere_module{}, sphere);
    const World before = world.deep_copy();
    EXPECT_THROW(run_module(world, Elevation_module{}, {}), std::runtime_error);
    EXPECT_TRUE(world == before);
}

} // namespace
