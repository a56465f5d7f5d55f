// SPDX-License-Identifier: MIT
// The hydrology module against the laws it claims: one downstream edge per vertex, paths that
// end in the ocean or an endorheic sink, flat lakes, no water climbing the filled surface, and
// water conserved at every vertex and over the world; on generated worlds and on hand-made
// terrain (a bowl, a plateau with one outlet, a planet without an ocean).
#include <orbis/core/world.hpp>
#include <orbis/gen/climate_module.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/flow_routing.hpp>
#include <orbis/gen/hydrology_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/refresh.hpp>
#include <orbis/gen/run_memory.hpp>
#include <orbis/gen/sphere_module.hpp>
#include <orbis/gen/world_ocean.hpp>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace {

using namespace orbis;
using namespace orbis::gen;

World sphere(std::int64_t count, std::int64_t seed = 1) {
    World world;
    Dict params;
    params.set("count", count);
    params.set("seed", seed);
    run_module(world, Sphere_module{}, params);
    return world;
}

World planet(std::int64_t seed, std::int64_t count, bool refine = false) {
    World world = sphere(count, seed);
    run_module(world, Plates_module{}, {});
    run_module(world, Elevation_module{}, {});
    if (refine) run_module(world, Refine_module{}, {});
    return world;
}

// Sets the elevation of every vertex from its unit position.
void shape(World& world, const std::function<float(glm::dvec3)>& height) {
    const auto& position = *world.layer(position_layer);
    auto [elevation] = world.lock_layer(elevation_layer);
    for (const Vertex v : world.mesh().vertices())
        elevation[v] = height(glm::normalize(glm::dvec3(position[v])));
}

Dict run_hydrology(World& world, double rainfall = 1000, double evaporation = 1) {
    Dict params;
    params.set("rainfall", rainfall);
    params.set("evaporation", evaporation);
    return run_module(world, Hydrology_module{}, params);
}

// What the water does, read back from the layers.
struct Water {
    std::vector<std::uint32_t> receiver; // slot; itself where nothing flows out
    std::vector<double> out, in;         // m³/s per slot
};

Water read_water(const World& world) {
    const Mesh& m = world.mesh();
    const auto& discharge = *world.layer(discharge_layer);
    Water w;
    w.receiver.resize(m.vertex_slots());
    w.out.assign(m.vertex_slots(), 0);
    w.in.assign(m.vertex_slots(), 0);
    for (const Vertex v : m.vertices()) {
        w.receiver[v.index()] = v.index();
        int outgoing = 0;
        for (const Edge e : v.edges(m)) {
            const float q = discharge[e];
            EXPECT_GE(q, 0.f) << "negative discharge out of v" << v.index();
            if (q <= 0) continue;
            ++outgoing;
            w.receiver[v.index()] = e.dest(m).index();
            w.out[v.index()] += q;
            w.in[e.dest(m).index()] += q;
        }
        EXPECT_LE(outgoing, 1) << "v" << v.index() << " drains along " << outgoing << " edges";
    }
    return w;
}

// Every law the module claims, on whatever world it ran on. Returns the water read back.
Water expect_water_laws(const World& world) {
    const Mesh& m = world.mesh();
    const auto& ocean = *world.layer(ocean_layer);
    const auto& lake = *world.layer(lake_layer);
    const auto& level = *world.layer(water_level_layer);
    const auto& basin = *world.layer(basin_layer);
    const auto& runoff = *world.layer(runoff_layer);
    const auto& elevation = *world.layer(elevation_layer);
    const Dict& info = *world.layer(hydrology_dict_name);
    const Water w = read_water(world);

    // The ocean is the largest body below sea level, as world_ocean says.
    const Vertex_adjacency g = vertex_adjacency(m);
    std::vector<float> height(m.vertex_slots(), 0.f);
    for (const Vertex v : m.vertices())
        height[v.index()] = elevation[v];
    const auto expected_ocean = world_ocean(g, height, 0.f, 0.002);
    for (const Vertex v : m.vertices())
        EXPECT_EQ(ocean[v], expected_ocean[v.index()] != 0) << "v" << v.index();

    // Water never climbs the depression-filled surface, and every path ends in the ocean or
    // in a sink (no outflow) without cycles.
    const Flow_tree tree = route_flow(g, height, expected_ocean, 0.f);
    std::size_t climbing = 0, endless = 0;
    for (const Vertex v : m.vertices()) {
        const std::uint32_t s = v.index(), r = w.receiver[s];
        if (ocean[v]) {
            EXPECT_EQ(r, s) << "the ocean drains";
            continue;
        }
        if (r != s && tree.filled[r] > tree.filled[s]) ++climbing;
        std::uint32_t at = s;
        std::size_t steps = 0;
        while (w.receiver[at] != at && steps <= m.vertex_count()) {
            at = w.receiver[at];
            ++steps;
        }
        if (steps > m.vertex_count()) ++endless;
        EXPECT_EQ(basin[v], ocean[Vertex(at)] ? basin[Vertex(s)] : basin[Vertex(at)]);
        EXPECT_GE(basin[v], 0);
        if (r != s && !ocean[Vertex(r)]) {
            EXPECT_EQ(basin[v], basin[Vertex(r)]);
        }
    }
    EXPECT_EQ(climbing, 0u) << "vertices draining up the filled surface";
    EXPECT_EQ(endless, 0u) << "paths that never end";

    // Lakes are flat, at or above their ground, and their level is the Dict's.
    const auto count = std::size_t(info.at("count").as<std::int64_t>());
    const auto& levels = info.at("level").as<Dict_array>();
    EXPECT_EQ(levels.size(), count);
    if (levels.size() != count) return w;
    for (const Vertex v : m.vertices()) {
        if (ocean[v]) {
            EXPECT_EQ(level[v], 0.f);
            EXPECT_EQ(lake[v], -1);
            EXPECT_EQ(basin[v], -1);
        } else if (lake[v] >= 0) {
            EXPECT_LT(std::size_t(lake[v]), count);
            if (std::size_t(lake[v]) >= count) continue;
            EXPECT_EQ(double(level[v]), float(levels[std::size_t(lake[v])].as<double>()));
            EXPECT_GE(level[v], elevation[v]);
        } else {
            EXPECT_EQ(level[v], elevation[v]);
        }
    }

    // Conservation: at each vertex out = in + runoff - evaporation, where only lake outlets
    // and sinks evaporate; over the world, sea + endorheic evaporation + lake evaporation =
    // runoff.
    std::vector<double> lake_evaporation(m.vertex_slots(), 0.0);
    const auto& outlets = info.at("outlet").as<Dict_array>();
    const auto& evaporations = info.at("evaporation").as<Dict_array>();
    double lakes_evaporate = 0, total_runoff = 0, to_sea = 0, sinks = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const auto outlet = outlets[i].as<std::int64_t>();
        if (outlet >= 0) {
            lake_evaporation[std::size_t(outlet)] = evaporations[i].as<double>();
            lakes_evaporate += evaporations[i].as<double>();
        }
    }
    for (const Vertex v : m.vertices()) {
        const std::uint32_t s = v.index();
        if (ocean[v]) {
            EXPECT_EQ(runoff[v], 0.f);
            to_sea += w.in[s];
            continue;
        }
        EXPECT_GE(runoff[v], 0.f);
        total_runoff += runoff[v];
        const double supply = w.in[s] + runoff[v];
        const double tolerance = 1e-4 * std::max(1.0, supply) + 1e-6;
        if (w.receiver[s] == s) {
            sinks += supply;
        } else {
            EXPECT_NEAR(w.out[s], std::max(0.0, supply - lake_evaporation[s]), tolerance)
                << "v" << s;
        }
    }
    EXPECT_NEAR(to_sea + sinks + lakes_evaporate, total_runoff, 1e-4 * total_runoff);
    EXPECT_NEAR(info.at("ocean_inflow").as<double>(), to_sea, 1e-4 * std::max(1.0, to_sea));
    EXPECT_NEAR(info.at("runoff").as<double>(), total_runoff, 1e-4 * total_runoff);
    EXPECT_FALSE(world.mesh().validate());
    return w;
}

class Generated : public ::testing::TestWithParam<std::tuple<std::int64_t, std::int64_t>> {};

TEST_P(Generated, WorldsObeyTheLawsOfWater) {
    const auto [seed, count] = GetParam();
    World world = planet(seed, count, seed == 2);
    const Dict report = run_hydrology(world);
    expect_water_laws(world);
    EXPECT_GT(report.at("ocean_fraction").as<double>(), 0.3);
    EXPECT_GT(report.at("basins").as<std::int64_t>(), 10);
    EXPECT_GT(report.at("max_discharge").as<double>(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Hydrology, Generated,
                         ::testing::Values(std::tuple{1, 5000}, std::tuple{2, 20000},
                                           std::tuple{3, 40000}));

TEST(Hydrology, DryAndWetWorldsObeyTheLaws) {
    for (const double evaporation : {0.0, 3.0}) {
        World world = planet(4, 20000);
        run_hydrology(world, 300, evaporation);
        expect_water_laws(world);
    }
}

TEST(Hydrology, InlandBasinsBelowSeaLevelAreNotOcean) {
    World world = sphere(8000);
    // Sea in the south; in the north a basin 200 m below sea level ringed by hills, smaller
    // than 0.2% of the sphere.
    shape(world, [](glm::dvec3 p) {
        if (p.z < -0.2) return -3000.f;
        const double from_pole = std::acos(std::clamp(p.z, -1.0, 1.0));
        return from_pole < 0.08 ? -200.f : 800.f;
    });
    run_hydrology(world, 100, 2);
    expect_water_laws(world);
    const auto& ocean = *world.layer(ocean_layer);
    const auto& position = *world.layer(position_layer);
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        EXPECT_EQ(ocean[v], p.z < -0.2) << "v" << v.index();
    }
}

TEST(Hydrology, ASecondOceanBeyondALandBridgeIsOcean) {
    World world = sphere(8000);
    // Below sea level in both polar caps (a quarter of the sphere each), land between.
    shape(world, [](glm::dvec3 p) { return std::abs(p.z) > 0.5 ? -3000.f : 500.f; });
    run_hydrology(world);
    expect_water_laws(world);
    const auto& ocean = *world.layer(ocean_layer);
    const auto& position = *world.layer(position_layer);
    for (const Vertex v : world.mesh().vertices())
        EXPECT_EQ(ocean[v], std::abs(glm::normalize(glm::dvec3(position[v])).z) > 0.5);
}

// A crater in the north: floor 1,000 m at the pole, rim 3,000 m, slopes down to a southern sea.
float bowl(glm::dvec3 p) {
    const double from_pole = std::acos(std::clamp(p.z, -1.0, 1.0));
    if (from_pole < 0.5) return float(1000.0 + 4000.0 * from_pole);
    return float(3000.0 - 3000.0 * (from_pole - 0.5));
}

TEST(Hydrology, AWetBowlFillsToItsRimAndSpills) {
    World world = sphere(8000);
    shape(world, bowl);
    run_hydrology(world, 2000, 0);
    expect_water_laws(world);
    const Dict& info = *world.layer(hydrology_dict_name);
    ASSERT_GE(info.at("count").as<std::int64_t>(), 1);
    // The largest lake is the crater, full to its lowest rim vertex and draining out.
    EXPECT_GT(info.at("level").as<Dict_array>()[0].as<double>(), 2800.0);
    EXPECT_GE(info.at("outlet").as<Dict_array>()[0].as<std::int64_t>(), 0);
    EXPECT_FALSE(info.at("endorheic").as<Dict_array>()[0].as<bool>());
}

TEST(Hydrology, ADryBowlKeepsASmallerEndorheicLake) {
    World world = sphere(8000);
    shape(world, bowl);
    run_hydrology(world, 400, 1);
    expect_water_laws(world);
    const Dict& info = *world.layer(hydrology_dict_name);
    ASSERT_GE(info.at("count").as<std::int64_t>(), 1);
    const auto& lake = *world.layer(lake_layer);
    const auto& position = *world.layer(position_layer);
    // Find the crater's lake: the one at the pole.
    std::int32_t crater = -1;
    double closest = -2;
    for (const Vertex v : world.mesh().vertices()) {
        const double z = glm::normalize(glm::dvec3(position[v])).z;
        if (z > closest) {
            closest = z;
            crater = lake[v];
        }
    }
    ASSERT_GE(crater, 0);
    const auto i = std::size_t(crater);
    EXPECT_TRUE(info.at("endorheic").as<Dict_array>()[i].as<bool>());
    EXPECT_LT(info.at("level").as<Dict_array>()[i].as<double>(), 2800.0);
    EXPECT_DOUBLE_EQ(info.at("evaporation").as<Dict_array>()[i].as<double>(),
                     info.at("inflow").as<Dict_array>()[i].as<double>());
    EXPECT_GT(info.at("endorheic_evaporation").as<double>(), 0.0);
}

TEST(Hydrology, APlateauDrainsThroughItsOnlyOutlet) {
    World world = sphere(8000);
    // A flat plateau at 2,000 m around the north pole, walled at 2,500 m but for one notch
    // that leads down to the sea along the meridian y = 0, x > 0.
    shape(world, [](glm::dvec3 p) {
        const double from_pole = std::acos(std::clamp(p.z, -1.0, 1.0));
        const bool notch = p.x > 0 && std::abs(p.y) < 0.06;
        if (from_pole < 0.5) return 2000.f;
        if (from_pole < 0.6) return notch ? 1500.f : 2500.f;
        return float(1500.0 - 4000.0 * (from_pole - 0.6));
    });
    run_hydrology(world, 1000, 0.5);
    const Water w = expect_water_laws(world);
    const auto& position = *world.layer(position_layer);
    const auto& basin = *world.layer(basin_layer);
    const auto& lake = *world.layer(lake_layer);
    std::int32_t plateau_basin = -2;
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        if (std::acos(std::clamp(p.z, -1.0, 1.0)) >= 0.5) continue;
        EXPECT_EQ(lake[v], -1) << "the plateau is not a depression";
        if (plateau_basin == -2) plateau_basin = basin[v];
        EXPECT_EQ(basin[v], plateau_basin) << "one outlet, one basin";
        // The path leaves the plateau through the notch.
        std::uint32_t at = v.index();
        while (w.receiver[at] != at) {
            const glm::dvec3 q = glm::normalize(glm::dvec3(position[Vertex(at)]));
            const double d = std::acos(std::clamp(q.z, -1.0, 1.0));
            if (d >= 0.5 && d < 0.6) {
                EXPECT_TRUE(q.x > 0 && std::abs(q.y) < 0.06) << "left through the wall";
                break;
            }
            at = w.receiver[at];
        }
    }
}

TEST(Hydrology, APlanetWithoutOceanEndsInOneSink) {
    World world = sphere(6000);
    shape(world, [](glm::dvec3 p) { return float(500.0 + 400.0 * p.x + 300.0 * p.y * p.z); });
    const Dict report = run_hydrology(world, 500, 1);
    const Water w = expect_water_laws(world);
    EXPECT_EQ(report.at("ocean_fraction").as<double>(), 0.0);
    const Dict& info = *world.layer(hydrology_dict_name);
    EXPECT_EQ(info.at("ocean_inflow").as<double>(), 0.0);
    EXPECT_GT(info.at("endorheic_evaporation").as<double>(), 0.0);
    std::size_t sinks = 0;
    for (const Vertex v : world.mesh().vertices())
        sinks += w.receiver[v.index()] == v.index();
    EXPECT_GE(sinks, 1u);
}

TEST(Hydrology, RerunningGivesTheSameWater) {
    World a = planet(5, 10000);
    run_hydrology(a);
    World b = a;
    run_hydrology(b);
    const Mesh& m = a.mesh();
    for (const Edge e : m.edges()) {
        EXPECT_EQ((*a.layer(discharge_layer))[e], (*b.layer(discharge_layer))[e]);
        EXPECT_EQ((*a.layer(discharge_layer))[e.sym()], (*b.layer(discharge_layer))[e.sym()]);
    }
    for (const Vertex v : m.vertices()) {
        EXPECT_EQ((*a.layer(lake_layer))[v], (*b.layer(lake_layer))[v]);
        EXPECT_EQ((*a.layer(basin_layer))[v], (*b.layer(basin_layer))[v]);
    }
}

// Whether two layers hold the same bytes in every slot, dead ones included.
template <class Layer>
bool same_slots(const Layer& a, const Layer& b) {
    if (a.size() != b.size() || a.chunk_count() != b.chunk_count()) return false;
    for (std::size_t c = 0; c < a.chunk_count(); ++c)
        if (!std::equal(a.chunk(c).begin(), a.chunk(c).end(), b.chunk(c).begin())) return false;
    return true;
}

// A first run writes new layers whole (dead slots get the initial values); a run over layers
// that exist writes only the chunks that change. Both must leave the same values everywhere.
TEST(Hydrology, AFirstRunWritesWhatARunOverExistingLayersWrites) {
    World a = planet(3, 10000, true);
    // Refining collapses edges, which leaves dead slots for both paths to handle.
    ASSERT_GT(a.mesh().vertex_slots(), a.mesh().vertex_count());
    World b = a;
    {
        auto locks = b.lock_layer(ocean_layer, lake_layer, water_level_layer, discharge_layer,
                                  basin_layer, runoff_layer);
    }
    run_hydrology(a);
    run_hydrology(b);
    EXPECT_TRUE(same_slots(*a.layer(ocean_layer), *b.layer(ocean_layer)));
    EXPECT_TRUE(same_slots(*a.layer(lake_layer), *b.layer(lake_layer)));
    EXPECT_TRUE(same_slots(*a.layer(water_level_layer), *b.layer(water_level_layer)));
    EXPECT_TRUE(same_slots(*a.layer(discharge_layer), *b.layer(discharge_layer)));
    EXPECT_TRUE(same_slots(*a.layer(basin_layer), *b.layer(basin_layer)));
    EXPECT_TRUE(same_slots(*a.layer(runoff_layer), *b.layer(runoff_layer)));
    EXPECT_EQ(a, b);
}

// A valley along the meridian y = 0 (both halves) that falls from the north pole to a sea
// south of z = -0.3.
float valley(glm::dvec3 p) {
    if (p.z < -0.3) return -2000.f;
    return float(50.0 + 3000.0 * std::abs(p.y) + 6000.0 * (p.z + 0.3));
}

TEST(Hydrology, ADamAcrossAValleyMakesALakeAndANewBasinUntilUndone) {
    World world = sphere(20000);
    shape(world, valley);
    Dict params;
    params.set("rainfall", 300.0);
    run_module(world, Hydrology_module{}, params);
    const World before = world;
    const auto& position = *world.layer(position_layer);
    // The valley floor upstream of the dam site, and downstream of it.
    Vertex upstream, downstream;
    double best_up = 1, best_down = 1;
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        if (p.x <= 0) continue;
        const double up = std::abs(p.y) + std::abs(p.z - 0.45),
                     down = std::abs(p.y) + std::abs(p.z + 0.05);
        if (up < best_up) best_up = up, upstream = v;
        if (down < best_down) best_down = down, downstream = v;
    }
    EXPECT_EQ((*world.layer(lake_layer))[upstream], -1) << "no lake before the dam";
    EXPECT_EQ((*world.layer(basin_layer))[upstream], (*world.layer(basin_layer))[downstream]);

    // The dam: a wall 6,000 m high across the valley at z = 0.2 (an edit of the elevation,
    // as a brush stroke makes), then the water follows, as the editor's live water does.
    {
        auto [elevation] = world.lock_layer(elevation_layer);
        for (const Vertex v : world.mesh().vertices()) {
            const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
            if (std::abs(p.z - 0.2) < 0.04 && std::abs(p.y) < 0.3) elevation[v] = 6000.f;
        }
    }
    // Behind the dam, the lowest point of the valley floor is where the lake gathers.
    Vertex behind = upstream;
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        if (p.x > 0 && std::abs(p.y) < 0.05 && p.z > 0.24 && p.z < 0.5 &&
            (*world.layer(elevation_layer))[v] < (*world.layer(elevation_layer))[behind])
            behind = v;
    }
    upstream = behind;
    ASSERT_TRUE(first_stale_step(world, live_water_modules));
    EXPECT_EQ(refresh_stale_steps(world, builtin_modules(), live_water_modules), 1u);
    EXPECT_FALSE(first_stale_step(world, live_water_modules));
    expect_water_laws(world);
    EXPECT_GE((*world.layer(lake_layer))[upstream], 0) << "a lake behind the dam";
    EXPECT_NE((*world.layer(basin_layer))[upstream], (*world.layer(basin_layer))[downstream])
        << "the dammed valley drains into its own lake";
    // Undo is the snapshot from before: the old rivers come back exactly.
    world = before;
    EXPECT_EQ((*world.layer(lake_layer))[upstream], -1);
    EXPECT_FALSE(first_stale_step(world, live_water_modules));
}

// Adds `metres` to the elevation within `radius` (chord of the unit sphere) of `centre`.
void raise_around(World& world, Vertex centre, float radius, float metres) {
    const auto& position = *world.layer(position_layer);
    const glm::vec3 c = glm::normalize(position[centre]);
    auto [elevation] = world.lock_layer(elevation_layer);
    for (const Vertex v : world.mesh().vertices())
        if (glm::length(glm::normalize(position[v]) - c) < radius)
            elevation[v] = elevation.get(v) + metres;
}

// Every water layer and the "hydrology" Dict, equal bit for bit.
void expect_same_water(const World& a, const World& b) {
    const Mesh& m = a.mesh();
    for (const Edge e : m.edges()) {
        ASSERT_EQ((*a.layer(discharge_layer))[e], (*b.layer(discharge_layer))[e]);
        ASSERT_EQ((*a.layer(discharge_layer))[e.sym()], (*b.layer(discharge_layer))[e.sym()]);
    }
    for (const Vertex v : m.vertices()) {
        ASSERT_EQ((*a.layer(ocean_layer))[v], (*b.layer(ocean_layer))[v]) << v.index();
        ASSERT_EQ((*a.layer(lake_layer))[v], (*b.layer(lake_layer))[v]) << v.index();
        ASSERT_EQ((*a.layer(basin_layer))[v], (*b.layer(basin_layer))[v]) << v.index();
        ASSERT_EQ((*a.layer(water_level_layer))[v], (*b.layer(water_level_layer))[v]);
        ASSERT_EQ((*a.layer(runoff_layer))[v], (*b.layer(runoff_layer))[v]) << v.index();
    }
    EXPECT_EQ(*a.layer(hydrology_dict_name), *b.layer(hydrology_dict_name));
}

TEST(HydrologyRunMemory, ARunAfterAnEditGivesAWholeRunsBytes) {
    set_run_memory_limit(1u << 30);
    const Climate_module climate;
    const Hydrology_module hydrology;
    World world = planet(9, 20000);
    run_module(world, climate, {});
    run_module(world, hydrology, {});
    const World before = world;

    // A range raised across the land and a stretch of coast sunk below sea level.
    const auto& elevation = *world.layer(elevation_layer);
    const auto& ocean = *world.layer(ocean_layer);
    std::optional<Vertex> high, shore;
    for (const Vertex v : world.mesh().vertices()) {
        if (!high && elevation[v] > 300.f && elevation[v] < 1000.f) high = v;
        if (!shore && !ocean[v] && elevation[v] > 0.f && elevation[v] < 300.f)
            for (const Edge e : v.edges(world.mesh()))
                if (ocean[e.dest(world.mesh())]) shore = v;
    }
    ASSERT_TRUE(high && shore);
    raise_around(world, *high, 0.04f, 2000.f);
    raise_around(world, *shore, 0.03f, -1500.f);
    run_module(world, climate, {});
    const Dict report = run_module(world, hydrology, {});
    std::size_t grew = 0;
    for (const Vertex v : world.mesh().vertices())
        grew += (*world.layer(ocean_layer))[v] && !(*before.layer(ocean_layer))[v];
    EXPECT_GT(grew, 0u) << "the sunk coast joined the ocean";

    // Again without an edit: the water layers (and their versions) stay.
    const std::uint64_t version = world.layer(discharge_layer)->version();
    EXPECT_EQ(run_module(world, hydrology, {}), report);
    EXPECT_EQ(world.layer(discharge_layer)->version(), version);

    set_run_memory_limit(0);
    World whole = world;
    EXPECT_EQ(run_module(whole, Hydrology_module{}, {}), report);
    // A whole run that finds the same water leaves the layers alone too.
    EXPECT_EQ(whole.layer(discharge_layer)->version(), version);
    expect_same_water(world, whole);

    // Undo: the world from before the edit, run from the edited state's memory.
    set_run_memory_limit(1u << 30);
    World undone = before;
    run_module(undone, climate, {});
    run_module(undone, hydrology, {});
    expect_same_water(undone, before);
    set_run_memory_limit(0);
}

} // namespace
