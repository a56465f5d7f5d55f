// SPDX-License-Identifier: MIT
// The erosion module: it only ever lowers land, leaves the ocean alone, keeps the coastline,
// cuts hardest where drainage area and slope are largest, and drains depressions rather than
// digging new ones.
#include <orbis/core/world.hpp>
#include <orbis/gen/cell_area.hpp>
#include <orbis/gen/climate_module.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/erosion_module.hpp>
#include <orbis/gen/flow_routing.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/sphere_module.hpp>
#include <orbis/gen/vertex_adjacency.hpp>
#include <orbis/gen/world_ocean.hpp>

#include <glm/geometric.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace {

using namespace orbis;
using namespace orbis::gen;

// A generated world; with `refine` coarsened in the open ocean, so that the mesh has dead
// vertex slots and uneven edges.
World planet(std::int64_t seed, std::int64_t count = 20000, bool refine = false) {
    World world;
    Dict sphere;
    sphere.set("count", count);
    sphere.set("seed", seed);
    run_module(world, Sphere_module{}, sphere);
    run_module(world, Plates_module{}, {});
    run_module(world, Elevation_module{}, {});
    if (refine) {
        Dict r;
        r.set("split_length", 200.0);
        r.set("collapse_length", 250.0);
        run_module(world, Refine_module{}, r);
    }
    return world;
}

// A sphere whose elevation is height(unit position); the radius is Earth's.
World shaped(const std::function<float(glm::dvec3)>& height, std::int64_t count = 20000) {
    World world;
    Dict sphere;
    sphere.set("count", count);
    run_module(world, Sphere_module{}, sphere);
    const auto& position = *world.layer(position_layer);
    auto [elevation] = world.lock_layer(elevation_layer);
    for (const Vertex v : world.mesh().vertices())
        elevation[v] = height(glm::normalize(glm::dvec3(position[v])));
    return world;
}

std::vector<float> heights(const World& world) {
    std::vector<float> h(world.mesh().vertex_slots(), 0.f);
    const auto& elevation = *world.layer(elevation_layer);
    for (const Vertex v : world.mesh().vertices())
        h[v.index()] = elevation[v];
    return h;
}

Dict rates(double erodibility, double diffusion, double uplift = 0.0) {
    Dict p;
    p.set("erodibility", erodibility);
    p.set("diffusion", diffusion);
    p.set("uplift", uplift);
    return p;
}

// Sum over land of (filled - elevation) * cell area: the water depressions would hold.
double depression_volume(const World& world) {
    const Vertex_adjacency g = vertex_adjacency(world.mesh());
    const std::vector<float> h = heights(world);
    const auto ocean = world_ocean(g, h);
    const Flow_tree flow = route_flow(g, h, ocean);
    const auto area = vertex_cell_areas(world, 6371e3);
    double volume = 0;
    for (const Vertex v : world.mesh().vertices())
        volume += double(flow.filled[v.index()] - h[v.index()]) * area[v.index()];
    return volume;
}

// Land vertices below all their neighbours: where water cannot leave without filling a pit.
std::size_t pits(const World& world) {
    const Vertex_adjacency g = vertex_adjacency(world.mesh());
    const std::vector<float> h = heights(world);
    const auto ocean = world_ocean(g, h);
    std::size_t count = 0;
    for (const Vertex v : world.mesh().vertices()) {
        const std::uint32_t i = v.index();
        if (ocean[i]) continue;
        bool lowest = true;
        for (const std::uint32_t n : g.neighbours(i))
            lowest = lowest && h[n] > h[i];
        count += lowest;
    }
    return count;
}

TEST(Erosion, ZeroRatesLeaveElevationUnchanged) {
    for (const std::int64_t seed : {1, 2}) {
        World world = planet(seed);
        const World before = world.deep_copy();
        run_module(world, Erosion_module{}, rates(0, 0));
        EXPECT_TRUE(world.layer(elevation_layer)->equals(*before.layer(elevation_layer)));
    }
}

TEST(Erosion, LowersLandOnlyKeepsTheOceanAndTheCoastline) {
    for (const std::int64_t seed : {1, 2, 3}) {
        for (const bool refine : {false, true}) {
            World world = planet(seed, 20000, refine);
            const std::vector<float> before = heights(world);
            const auto ocean = world_ocean(vertex_adjacency(world.mesh()), before);
            run_module(world, Erosion_module{}, rates(5e-6, 2000));
            const auto& after = *world.layer(elevation_layer);
            std::size_t lowered = 0;
            for (const Vertex v : world.mesh().vertices()) {
                const float was = before[v.index()];
                if (ocean[v.index()]) {
                    ASSERT_EQ(after[v], was) << "ocean vertex v" << v.index() << " changed";
                    continue;
                }
                ASSERT_LE(after[v], was) << "land vertex v" << v.index() << " rose";
                if (was >= 0) {
                    ASSERT_GE(after[v], 0.f) << "v" << v.index() << " went under";
                }
                lowered += after[v] < was;
            }
            EXPECT_GT(lowered, 0u);
            EXPECT_EQ(world.mesh().validate(), std::nullopt);
        }
    }
}

TEST(Erosion, ReportsTheVolumeRemovedAndKeepsTerrainDictAndHints) {
    World world = planet(4);
    const std::vector<float> before = heights(world);
    const Dict report = run_module(world, Erosion_module{}, {});
    const std::vector<float> after = heights(world);
    const auto area = vertex_cell_areas(world, 6371e3);
    double volume = 0, deepest = 0;
    float lo = 1e9f, hi = -1e9f;
    for (const Vertex v : world.mesh().vertices()) {
        const std::uint32_t i = v.index();
        volume += double(before[i] - after[i]) * area[i];
        deepest = std::max(deepest, double(before[i]) - double(after[i]));
        lo = std::min(lo, after[i]);
        hi = std::max(hi, after[i]);
    }
    EXPECT_GT(volume, 0) << "land volume goes down";
    EXPECT_NEAR(report.at("eroded_volume").as<double>(), volume * 1e-9, 1e-6 * volume * 1e-9);
    EXPECT_NEAR(report.at("max_incision").as<double>(), deepest, 1e-3);
    EXPECT_GT(deepest, 0);
    const Dict& terrain = *world.layer(terrain_dict_name);
    EXPECT_EQ(terrain.at("min").as<double>(), double(lo));
    EXPECT_EQ(terrain.at("max").as<double>(), double(hi));
    EXPECT_EQ(terrain.at("sea_level").as<double>(), 0.0);
    // The elevation keeps the display hints its own module gives it.
    const Layer_hints* hints = world.hints(elevation_layer.name());
    ASSERT_NE(hints, nullptr);
    EXPECT_EQ(hints->colour_map, "terrain");
    EXPECT_EQ(hints->min, std::optional<double>(-11000.0));
    EXPECT_EQ(hints->max, std::optional<double>(9000.0));
}

TEST(Erosion, RiversDrainDepressionsRatherThanDigNewOnes) {
    for (const std::int64_t seed : {1, 2, 3}) {
        World world = planet(seed, 40000);
        const double before = depression_volume(world);
        const std::size_t pits_before = pits(world);
        Dict p;
        p.set("iterations", std::int64_t(10));
        run_module(world, Erosion_module{}, p);
        // On the new surface's flow tree every drained land vertex stands at or above its
        // receiver, and outlets cut down through depression rims let lakes drain.
        const Vertex_adjacency g = vertex_adjacency(world.mesh());
        const std::vector<float> h = heights(world);
        const Flow_tree flow = route_flow(g, h, world_ocean(g, h));
        for (const Vertex v : world.mesh().vertices()) {
            const std::uint32_t i = v.index();
            if (flow.filled[i] > h[i]) continue;
            ASSERT_GE(h[i], h[flow.receiver[i]]) << "v" << i;
        }
        EXPECT_LT(depression_volume(world), before) << "seed " << seed;
        EXPECT_LT(2 * pits(world), pits_before) << "seed " << seed;
    }
}

// A cap of land around the north pole sloping down to a coast at 0.6 rad from it.
constexpr double cap = 0.6;
double from_coast_km(glm::dvec3 p) { return (cap - std::acos(std::clamp(p.z, -1.0, 1.0))) * 6371; }

TEST(Erosion, CutsHardestAlongTheValleyThatDrainsMost) {
    // Flanks slope down into a valley along the plane x = 0, which then runs to the coast.
    World world = shaped([](glm::dvec3 p) {
        const double d = from_coast_km(p);
        return d <= 0 ? -3000.f : float(1.0 * d + 1.0 * std::abs(p.x) * 6371 + 10);
    });
    const std::vector<float> before = heights(world);
    run_module(world, Erosion_module{}, {});
    const std::vector<float> after = heights(world);
    const auto& position = *world.layer(position_layer);
    double axis = 0, flank = 0;
    std::size_t axis_n = 0, flank_n = 0;
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        const double d = from_coast_km(p), x = std::abs(p.x) * 6371;
        if (d < 300 || d > 2500) continue;
        const double cut = double(before[v.index()] - after[v.index()]);
        if (x < 100) {
            axis += cut;
            ++axis_n;
        } else if (x > 800 && x < 2000) {
            flank += cut;
            ++flank_n;
        }
    }
    ASSERT_GT(axis_n, 10u);
    ASSERT_GT(flank_n, 10u);
    EXPECT_GT(axis / double(axis_n), 1.5 * flank / double(flank_n));
}

TEST(Erosion, CutsSteepSlopesHarderThanGentleOnes) {
    // The half x > 0 slopes three times as steeply to the coast as the half x < 0.
    World world = shaped([](glm::dvec3 p) {
        const double d = from_coast_km(p);
        return d <= 0 ? -3000.f : float(d * (2.0 + std::tanh(p.x * 20)) + 10);
    });
    const std::vector<float> before = heights(world);
    run_module(world, Erosion_module{}, rates(2e-6, 0));
    const std::vector<float> after = heights(world);
    const auto& position = *world.layer(position_layer);
    double steep = 0, gentle = 0;
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        if (from_coast_km(p) <= 0 || std::abs(p.x) < 0.1) continue;
        (p.x > 0 ? steep : gentle) += double(before[v.index()] - after[v.index()]);
    }
    EXPECT_GT(steep, 1.5 * gentle);
}

TEST(Erosion, UpliftRaisesLandAndNotTheOcean) {
    World world = planet(5);
    const std::vector<float> before = heights(world);
    const auto ocean = world_ocean(vertex_adjacency(world.mesh()), before);
    Dict p = rates(0, 0, 0.001);
    p.set("iterations", std::int64_t(2));
    p.set("time_step", 1000.0);
    run_module(world, Erosion_module{}, p);
    const auto& after = *world.layer(elevation_layer);
    for (const Vertex v : world.mesh().vertices()) {
        const float was = before[v.index()];
        if (ocean[v.index()]) {
            ASSERT_EQ(after[v], was);
        } else {
            ASSERT_NEAR(after[v], was + 2.f, 1e-3f);
        }
    }
}

TEST(Erosion, NoRainNoRivers) {
    // With a precipitation layer, drainage area counts rain: a world without rain has no
    // stream-power erosion.
    World world = planet(6);
    {
        auto [rain] = world.lock_layer(precipitation_layer);
        for (const Vertex v : world.mesh().vertices())
            rain[v] = 0.f;
    }
    const World before = world.deep_copy();
    run_module(world, Erosion_module{}, rates(1e-5, 0));
    EXPECT_TRUE(world.layer(elevation_layer)->equals(*before.layer(elevation_layer)));
}

TEST(Erosion, RefusesAWorldWithoutElevation) {
    World world;
    Dict sphere;
    sphere.set("count", std::int64_t(100));
    run_module(world, Sphere_module{}, sphere);
    const World before = world.deep_copy();
    EXPECT_THROW(run_module(world, Erosion_module{}, {}), std::runtime_error);
    EXPECT_TRUE(world == before);
}

} // namespace
