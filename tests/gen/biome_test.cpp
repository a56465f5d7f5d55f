// SPDX-License-Identifier: MIT
// The biome module: the Whittaker classification, a valid biome everywhere, water where the
// ocean and lake layers say, and every value named and coloured.
#include <orbis/core/sphere_geometry.hpp>
#include <orbis/gen/biome_module.hpp>
#include <orbis/gen/climate_module.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/hydrology_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/run_memory.hpp>
#include <orbis/gen/sphere_module.hpp>
#include <orbis/gen/vertex_adjacency.hpp>
#include <orbis/gen/world_ocean.hpp>

#include <gtest/gtest.h>

#include <set>

namespace {

using namespace orbis;
using namespace orbis::gen;

World climate_planet(std::int64_t seed, std::int64_t count = 30000) {
    World world;
    Dict sphere;
    sphere.set("count", count);
    sphere.set("seed", seed);
    run_module(world, Sphere_module{}, sphere);
    run_module(world, Plates_module{}, {});
    run_module(world, Elevation_module{}, {});
    run_module(world, Climate_module{}, {});
    return world;
}

std::vector<std::uint8_t> ocean_of(const World& world) {
    const Mesh& m = world.mesh();
    std::vector<float> elevation(m.vertex_slots(), 0.f);
    for (const Vertex v : m.vertices())
        elevation[v.index()] = (*world.layer(elevation_layer))[v];
    return world_ocean(vertex_adjacency(m), elevation);
}

TEST(Biome, WhittakerClassification) {
    EXPECT_EQ(classify_biome(27, 3000), Biome::tropical_rainforest);
    EXPECT_EQ(classify_biome(26, 1500), Biome::tropical_forest);
    EXPECT_EQ(classify_biome(25, 800), Biome::savanna);
    EXPECT_EQ(classify_biome(25, 400), Biome::shrubland);
    EXPECT_EQ(classify_biome(25, 100), Biome::desert);
    EXPECT_EQ(classify_biome(10, 100), Biome::desert);
    EXPECT_EQ(classify_biome(8, 250), Biome::grassland);
    EXPECT_EQ(classify_biome(16, 500), Biome::shrubland);
    EXPECT_EQ(classify_biome(10, 900), Biome::temperate_forest);
    EXPECT_EQ(classify_biome(12, 2500), Biome::temperate_rainforest);
    EXPECT_EQ(classify_biome(1, 600), Biome::boreal_forest);
    EXPECT_EQ(classify_biome(-8, 300), Biome::tundra);
    EXPECT_EQ(classify_biome(-30, 100), Biome::ice);
    Biome_params warm_ice;
    warm_ice.ice_temperature = 0;
    EXPECT_EQ(classify_biome(-2, 600, warm_ice), Biome::ice);
}

TEST(Biome, ClassificationIsLandAndOrderedByWarmthAndWetness) {
    for (double t = -40; t <= 35; t += 0.5)
        for (double p = 0; p <= 5000; p += 25) {
            const Biome b = classify_biome(t, p);
            ASSERT_NE(b, Biome::ocean);
            ASSERT_NE(b, Biome::lake);
            ASSERT_NE(b, Biome::wetland);
            const bool cold = b == Biome::ice || b == Biome::tundra;
            EXPECT_EQ(cold, t < Biome_params{}.tundra_temperature) << t << " °C " << p << " mm";
            if (!cold && p < 50) {
                EXPECT_EQ(b, Biome::desert) << t << " °C " << p << " mm";
            }
            if (b == Biome::tropical_rainforest || b == Biome::savanna) {
                EXPECT_GE(t, 20);
            }
            if (b == Biome::boreal_forest) {
                EXPECT_LT(t, 5);
            }
            if (b == Biome::desert) {
                EXPECT_LE(p, 250);
            }
            // More rain never makes a place a desert again.
            if (b != Biome::desert && !cold) {
                EXPECT_NE(classify_biome(t, p + 500), Biome::desert);
            }
        }
}

TEST(Biome, HintsNameAndColourEveryBiome) {
    const Layer_hints h = biome_hints();
    EXPECT_EQ(h.label, "Biome");
    EXPECT_EQ(h.colour_map, "categorical");
    ASSERT_EQ(h.categories.size(), std::size_t(biome_count));
    std::set<std::string> names;
    for (std::int32_t i = 0; i < biome_count; ++i) {
        const Layer_category* c = h.category(i);
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(c->name, biome_name(Biome(i)));
        EXPECT_NE(c->name, "unknown");
        names.insert(c->name);
    }
    EXPECT_EQ(names.size(), std::size_t(biome_count));
    EXPECT_EQ(biome_name(Biome::tropical_rainforest), "tropical rainforest");
    // Natural colours: deep blue ocean, white ice, sandy desert, dark green rainforest.
    const auto colour = [&](Biome b) { return h.category(std::int32_t(b))->colour; };
    EXPECT_GT(colour(Biome::ocean).b, colour(Biome::ocean).r + 60);
    EXPECT_GT(std::min({colour(Biome::ice).r, colour(Biome::ice).g, colour(Biome::ice).b}), 230);
    EXPECT_GT(colour(Biome::desert).r, colour(Biome::desert).b + 50);
    EXPECT_GT(colour(Biome::tropical_rainforest).g, colour(Biome::tropical_rainforest).r);
    EXPECT_LT(colour(Biome::tropical_rainforest).g, 120);
}

TEST(Biome, EveryVertexGetsAPlausibleBiome) {
    std::set<std::int32_t> seen;
    for (const std::int64_t seed : {1, 2, 3}) {
        World world = climate_planet(seed);
        const Dict report = run_module(world, Biome_module{}, {});
        const auto ocean = ocean_of(world);
        const auto& biome = *world.layer(biome_layer);
        const auto& temperature = *world.layer(temperature_layer);
        const auto& precipitation = *world.layer(precipitation_layer);
        std::int64_t total = 0;
        for (std::int32_t i = 0; i < biome_count; ++i)
            total += report.at(std::string(biome_name(Biome(i)))).as<std::int64_t>();
        EXPECT_EQ(total, std::int64_t(world.mesh().vertex_count()));
        for (const Vertex v : world.mesh().vertices()) {
            const std::int32_t b = biome[v];
            ASSERT_GE(b, 0);
            ASSERT_LT(b, biome_count);
            EXPECT_EQ(b == std::int32_t(Biome::ocean), bool(ocean[v.index()]));
            seen.insert(b);
            const double t = temperature[v], p = precipitation[v];
            if (b == std::int32_t(Biome::tropical_rainforest)) {
                EXPECT_GT(t, 20);
            }
            if (b == std::int32_t(Biome::ice)) {
                EXPECT_LT(t, -10);
            }
            if (b == std::int32_t(Biome::desert)) {
                EXPECT_LT(p, 251);
            }
        }
    }
    // Climates of Earth's variety: nearly every land biome somewhere on three worlds (no lake
    // without hydrology).
    EXPECT_GE(seen.size(), std::size_t(biome_count - 2));
    EXPECT_FALSE(seen.contains(std::int32_t(Biome::lake)));
}

TEST(Biome, OceanAndLakeLayersWinOverElevation) {
    World world = climate_planet(4, 5000);
    const Mesh& m = world.mesh();
    std::vector<Vertex> vertices(m.vertices().begin(), m.vertices().end());
    {
        auto [ocean, lake] = world.lock_layer(ocean_layer, lake_layer);
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            ocean[vertices[i]] = i % 3 == 0;
            lake[vertices[i]] = i % 3 == 1 ? std::int32_t(i % 7) : -1;
        }
    }
    run_module(world, Biome_module{}, {});
    const auto& biome = *world.layer(biome_layer);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const auto b = Biome(biome[vertices[i]]);
        if (i % 3 == 0) {
            EXPECT_EQ(b, Biome::ocean);
        }
        if (i % 3 == 1) {
            EXPECT_EQ(b, Biome::lake);
        }
        if (i % 3 == 2) {
            EXPECT_NE(b, Biome::ocean);
            EXPECT_NE(b, Biome::lake);
        }
    }
}

// With run memory, a run after the climate and the water changed in a region classifies only
// what changed, and gives what a whole run gives; so does running it on the world from before.
TEST(Biome, ARunFromKeptStateGivesAWholeRunsBiomes) {
    set_run_memory_limit(1u << 30);
    // Small rivers flood their lowland too, so that the rivers' changes show in the biomes.
    Dict floodplains;
    floodplains.set("wetland_discharge", 20.0);
    const Climate_module climate;
    const Hydrology_module hydrology;
    const Biome_module biome;
    World world = climate_planet(4, 20000);
    run_module(world, hydrology, {});
    run_module(world, biome, floodplains);
    const World before = world;
    {
        // A region made high and dry: its climate, rivers and biomes change.
        const auto& position = *world.layer(position_layer);
        const glm::vec3 centre = glm::normalize(position[*world.mesh().vertices().begin()]);
        auto [elevation] = world.lock_layer(elevation_layer);
        for (const Vertex v : world.mesh().vertices())
            if (glm::length(glm::normalize(position[v]) - centre) < 0.2f)
                elevation[v] = elevation.get(v) + 2500.f;
    }
    run_module(world, climate, {});
    run_module(world, hydrology, {});
    const Dict report = run_module(world, biome, floodplains);
    set_run_memory_limit(0);
    World whole = world;
    EXPECT_EQ(run_module(whole, Biome_module{}, floodplains), report);
    std::size_t differ = 0;
    for (const Vertex v : world.mesh().vertices()) {
        ASSERT_EQ((*world.layer(biome_layer))[v], (*whole.layer(biome_layer))[v]);
        differ += (*world.layer(biome_layer))[v] != (*before.layer(biome_layer))[v];
    }
    EXPECT_GT(differ, 0u) << "the edit changed some biomes";

    set_run_memory_limit(1u << 30);
    World undone = before;
    run_module(undone, climate, {});
    run_module(undone, hydrology, {});
    run_module(undone, biome, floodplains);
    set_run_memory_limit(0);
    for (const Vertex v : world.mesh().vertices())
        ASSERT_EQ((*undone.layer(biome_layer))[v], (*before.layer(biome_layer))[v]);
}

TEST(Biome, RefusesWithoutClimate) {
    World world;
    Dict sphere;
    sphere.set("count", std::int64_t(1000));
    run_module(world, Sphere_module{}, sphere);
    EXPECT_THROW(run_module(world, Biome_module{}, {}), std::runtime_error);
}

} // namespace
