// SPDX-License-Identifier: MIT
// The climate module: winds by band and tangent to the sphere, temperature falling with
// latitude and with height at the lapse rate, and precipitation with a wet equator, dry
// subtropics and rain shadows behind high ground; with run memory, a run after an edit gives
// the bytes of a whole run.
#include <orbis/core/sphere_geometry.hpp>
#include <orbis/gen/climate_module.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/run_memory.hpp>
#include <orbis/gen/sphere_module.hpp>
#include <orbis/gen/vertex_adjacency.hpp>
#include <orbis/gen/world_ocean.hpp>

#include <glm/geometric.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

namespace {

using namespace orbis;
using namespace orbis::gen;

World planet(std::int64_t seed, std::int64_t count = 30000) {
    World world;
    Dict sphere;
    sphere.set("count", count);
    sphere.set("seed", seed);
    run_module(world, Sphere_module{}, sphere);
    run_module(world, Plates_module{}, {});
    run_module(world, Elevation_module{}, {});
    return world;
}

World climate_planet(std::int64_t seed) {
    World world = planet(seed);
    run_module(world, Climate_module{}, {});
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

// What each live vertex is: position, latitude, elevation, whether it is world ocean.
struct Sample {
    std::vector<Vertex> vertices;
    std::vector<double> latitude;
    std::vector<std::uint8_t> ocean; // by slot
    Vertex_adjacency g;
};

Sample sample(const World& world) {
    Sample s;
    const Mesh& m = world.mesh();
    std::vector<float> elevation(m.vertex_slots(), 0.f);
    for (const Vertex v : m.vertices()) {
        s.vertices.push_back(v);
        s.latitude.push_back(latitude_degrees(glm::dvec3((*world.layer(position_layer))[v])));
        elevation[v.index()] = (*world.layer(elevation_layer))[v];
    }
    s.g = vertex_adjacency(m);
    s.ocean = world_ocean(s.g, elevation);
    return s;
}

// Walks from v up (sign -1) or down (sign +1) the wind for `km`, each step to the neighbour
// best lined up with the wind, and returns the highest elevation met (v excluded).
float highest_along_wind(const World& world, const Vertex_adjacency& g, Vertex v, double sign,
                         double km) {
    const auto& position = *world.layer(position_layer);
    const auto& wind = *world.layer(wind_layer);
    const auto& elevation = *world.layer(elevation_layer);
    float highest = -1e9f;
    double walked = 0;
    for (int steps = 0; steps < 200 && walked < km; ++steps) {
        const glm::vec3 w = wind[v];
        if (glm::length(w) < 0.1f) break;
        const glm::vec3 p = position[v];
        float best = 0;
        std::uint32_t next = ~0u;
        for (const std::uint32_t k : g.neighbours(v.index())) {
            const glm::vec3 e = position[Vertex(k)] - p;
            const float c = float(sign) * glm::dot(glm::normalize(w), glm::normalize(e));
            if (c > best) {
                best = c;
                next = k;
            }
        }
        if (next == ~0u) break;
        walked += glm::length(position[Vertex(next)] - p);
        v = Vertex(next);
        highest = std::max(highest, elevation[v]);
    }
    return highest;
}

TEST(Climate, WindIsTangentPlausibleAndBlowsByBand) {
    for (const std::int64_t seed : {1, 2, 3}) {
        const World world = climate_planet(seed);
        const auto& position = *world.layer(position_layer);
        const auto& wind = *world.layer(wind_layer);
        Mean tropics, westerlies, polar, speed;
        double radial = 0, fastest = 0;
        for (const Vertex v : world.mesh().vertices()) {
            const glm::dvec3 up = glm::normalize(glm::dvec3(position[v]));
            const glm::dvec3 w(wind[v]);
            radial = std::max(radial, std::abs(glm::dot(w, up)));
            fastest = std::max(fastest, glm::length(w));
            speed.add(glm::length(w));
            const double lat = std::abs(latitude_degrees(up));
            glm::dvec3 east = glm::cross(glm::dvec3(0, 1, 0), up);
            if (glm::length(east) < 1e-9) continue;
            east = glm::normalize(east);
            const double u = glm::dot(w, east);
            if (lat > 5 && lat < 25) tropics.add(u);
            if (lat > 38 && lat < 52) westerlies.add(u);
            if (lat > 68 && lat < 82) polar.add(u);
        }
        EXPECT_LT(radial, 1e-4) << "tangent, seed " << seed;
        EXPECT_LE(fastest, 7.0 * 1.001) << "the default peak speed, seed " << seed;
        EXPECT_GT(speed.value(), 2.0) << "seed " << seed;
        EXPECT_LT(speed.value(), 8.0) << "seed " << seed;
        EXPECT_LT(tropics.value(), -2.0) << "trade winds blow from the east, seed " << seed;
        EXPECT_GT(westerlies.value(), 2.0) << "westerlies, seed " << seed;
        EXPECT_LT(polar.value(), -0.5) << "polar easterlies, seed " << seed;
    }
}

TEST(Climate, TemperatureFallsWithLatitudeInBothHemispheres) {
    for (const std::int64_t seed : {1, 2, 3}) {
        const World world = climate_planet(seed);
        const Sample s = sample(world);
        const auto& temperature = *world.layer(temperature_layer);
        std::array<Mean, 6> north, south; // 15° bands from the equator
        float lo = 1e9f, hi = -1e9f;
        for (std::size_t i = 0; i < s.vertices.size(); ++i) {
            const float t = temperature[s.vertices[i]];
            ASSERT_TRUE(std::isfinite(t));
            lo = std::min(lo, t);
            hi = std::max(hi, t);
            const auto band = std::min<std::size_t>(5, std::size_t(std::abs(s.latitude[i]) / 15));
            (s.latitude[i] >= 0 ? north : south)[band].add(t);
        }
        for (std::size_t b = 1; b < 6; ++b) {
            EXPECT_LT(north[b].value(), north[b - 1].value() - 1.0) << "seed " << seed;
            EXPECT_LT(south[b].value(), south[b - 1].value() - 1.0) << "seed " << seed;
        }
        // Earth-like: about -40..+30 °C at the surface, mountains and polar plateaus colder.
        EXPECT_GT(hi, 24.f);
        EXPECT_LT(hi, 35.f);
        EXPECT_LT(lo, -25.f);
        EXPECT_GT(lo, -80.f);
        EXPECT_GT(north[0].value(), 20.0);
        EXPECT_LT(north[5].value(), -10.0);
    }
}

TEST(Climate, LandCoolsWithHeightAtTheLapseRate) {
    for (const std::int64_t seed : {1, 2, 3}) {
        const World world = climate_planet(seed);
        const Sample s = sample(world);
        const auto& temperature = *world.layer(temperature_layer);
        const auto& elevation = *world.layer(elevation_layer);
        // Pooled regression within 5° bands: each band's means removed, so latitude does not
        // leak into the slope.
        std::map<int, Mean> band_h, band_t;
        const auto band_of = [&](std::size_t i) { return int(std::floor(s.latitude[i] / 5)); };
        for (std::size_t i = 0; i < s.vertices.size(); ++i) {
            const Vertex v = s.vertices[i];
            if (s.ocean[v.index()]) continue;
            band_h[band_of(i)].add(elevation[v]);
            band_t[band_of(i)].add(temperature[v]);
        }
        double shh = 0, sht = 0;
        for (std::size_t i = 0; i < s.vertices.size(); ++i) {
            const Vertex v = s.vertices[i];
            if (s.ocean[v.index()]) continue;
            const double dh = elevation[v] - band_h[band_of(i)].value();
            const double dt = temperature[v] - band_t[band_of(i)].value();
            shh += dh * dh;
            sht += dh * dt;
        }
        ASSERT_GT(shh, 0);
        const double lapse = -1000.0 * sht / shh; // K/km
        EXPECT_GT(lapse, 4.0) << "seed " << seed;
        EXPECT_LT(lapse, 9.0) << "seed " << seed;
    }
}

TEST(Climate, WetEquatorDrySubtropicsAndDesertsWhereExpected) {
    std::size_t deserts = 0, explained = 0, land = 0;
    for (const std::int64_t seed : {1, 2, 3}) {
        const World world = climate_planet(seed);
        const Sample s = sample(world);
        const auto& precipitation = *world.layer(precipitation_layer);
        const auto& temperature = *world.layer(temperature_layer);
        Mean equator, subtropics, all;
        float hi = 0;
        std::vector<float> values;
        for (std::size_t i = 0; i < s.vertices.size(); ++i) {
            const Vertex v = s.vertices[i];
            const float p = precipitation[v];
            ASSERT_TRUE(std::isfinite(p));
            ASSERT_GE(p, 0.f);
            hi = std::max(hi, p);
            all.add(p);
            values.push_back(p);
            if (s.ocean[v.index()]) continue;
            ++land;
            const double lat = std::abs(s.latitude[i]);
            if (lat < 10) equator.add(p);
            if (lat > 15 && lat < 35) subtropics.add(p);
            // Hot or temperate deserts; the cold polar deserts are another story (tundra, ice).
            if (p < 250 && temperature[v] > 0) {
                ++deserts;
                const bool subtropical = lat > 15 && lat < 35;
                if (subtropical || highest_along_wind(world, s.g, v, -1.0, 1500.0) > 1500.f)
                    ++explained;
            }
        }
        EXPECT_GT(equator.value(), 1.5 * subtropics.value()) << "seed " << seed;
        EXPECT_GT(equator.value(), 1200.0) << "seed " << seed;
        EXPECT_GT(all.value(), 500.0) << "seed " << seed;
        EXPECT_LT(all.value(), 1500.0) << "seed " << seed;
        EXPECT_GT(hi, 2000.f) << "seed " << seed;
        EXPECT_LT(hi, 12000.f) << "Earth's wettest places get ~12,000 mm, seed " << seed;
        std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() * 99 / 100),
                         values.end());
        EXPECT_LT(values[values.size() * 99 / 100], 4000.f) << "99th percentile, seed " << seed;
    }
    EXPECT_GT(double(deserts), 0.03 * double(land)) << deserts << " of " << land;
    EXPECT_GT(double(explained), 0.75 * double(deserts))
        << explained << " of " << deserts << " deserts lie in the subtropics or downwind of high "
        << "ground";
}

TEST(Climate, RangesCastRainShadows) {
    // Lowland vertices in the westerlies: those with a high range upwind get less rain than
    // those with one downwind (the range's windward side).
    Mean lee, windward;
    for (const std::int64_t seed : {1, 2, 3, 4}) {
        const World world = climate_planet(seed);
        const Sample s = sample(world);
        const auto& precipitation = *world.layer(precipitation_layer);
        const auto& elevation = *world.layer(elevation_layer);
        for (std::size_t i = 0; i < s.vertices.size(); ++i) {
            const Vertex v = s.vertices[i];
            const double lat = std::abs(s.latitude[i]);
            if (s.ocean[v.index()] || elevation[v] > 800.f || lat < 38 || lat > 55) continue;
            const bool range_upwind = highest_along_wind(world, s.g, v, -1.0, 700.0) > 2000.f;
            const bool range_downwind = highest_along_wind(world, s.g, v, 1.0, 700.0) > 2000.f;
            if (range_upwind && !range_downwind) lee.add(precipitation[v]);
            if (range_downwind && !range_upwind) windward.add(precipitation[v]);
        }
    }
    ASSERT_GT(lee.n, 20u);
    ASSERT_GT(windward.n, 20u);
    EXPECT_LT(lee.value(), 0.7 * windward.value()) << lee.value() << " vs " << windward.value();
}

TEST(Climate, RunsOnARefinedMeshWithDeadSlots) {
    World world = planet(5, 20000);
    Dict refine;
    refine.set("split_length", 120.0);
    refine.set("collapse_length", 250.0);
    run_module(world, Refine_module{}, refine);
    ASSERT_GT(world.mesh().vertex_slots(), world.mesh().vertex_count()) << "has dead slots";
    const Dict report = run_module(world, Climate_module{}, {});
    EXPECT_LT(report.at("min_temperature").as<double>(), report.at("max_temperature").as<double>());
    const auto& temperature = *world.layer(temperature_layer);
    const auto& precipitation = *world.layer(precipitation_layer);
    for (const Vertex v : world.mesh().vertices()) {
        EXPECT_TRUE(std::isfinite(temperature[v]));
        EXPECT_TRUE(std::isfinite(precipitation[v]) && precipitation[v] >= 0);
    }
}

TEST(Climate, SameWorldSameClimateAndParametersAct) {
    World a = planet(7, 10000), b = a;
    run_module(a, Climate_module{}, {});
    run_module(b, Climate_module{}, {});
    Dict wetter, flat;
    wetter.set("rainfall", 2.0);
    flat.set("lapse_rate", 0.0);
    World c = planet(7, 10000), d = c;
    run_module(c, Climate_module{}, wetter);
    run_module(d, Climate_module{}, flat);
    const auto& elevation = *a.layer(elevation_layer);
    for (const Vertex v : a.mesh().vertices()) {
        ASSERT_EQ((*a.layer(temperature_layer))[v], (*b.layer(temperature_layer))[v]);
        ASSERT_EQ((*a.layer(precipitation_layer))[v], (*b.layer(precipitation_layer))[v]);
        ASSERT_EQ((*a.layer(wind_layer))[v], (*b.layer(wind_layer))[v]);
        // Twice the rain, and land recycles more of it, so at least twice everywhere.
        EXPECT_GE((*c.layer(precipitation_layer))[v],
                  1.999f * (*a.layer(precipitation_layer))[v] - 1e-3f);
        if (elevation[v] > 2000.f) {
            EXPECT_GT((*d.layer(temperature_layer))[v], (*a.layer(temperature_layer))[v] + 10.f);
        }
    }
}

// Adds `metres` to the elevation of every vertex within `radius` (chord of the unit sphere) of
// the direction of vertex `centre`, as a brush stroke would.
void raise_around(World& world, Vertex centre, float radius, float metres) {
    const auto& position = *world.layer(position_layer);
    const glm::vec3 c = glm::normalize(position[centre]);
    auto [elevation] = world.lock_layer(elevation_layer);
    for (const Vertex v : world.mesh().vertices())
        if (glm::length(glm::normalize(position[v]) - c) < radius)
            elevation[v] = elevation.get(v) + metres;
}

void expect_same_climate(const World& a, const World& b) {
    for (const Vertex v : a.mesh().vertices()) {
        ASSERT_EQ(std::bit_cast<std::uint32_t>((*a.layer(temperature_layer))[v]),
                  std::bit_cast<std::uint32_t>((*b.layer(temperature_layer))[v]))
            << "temperature of v" << v.index();
        ASSERT_EQ(std::bit_cast<std::uint32_t>((*a.layer(precipitation_layer))[v]),
                  std::bit_cast<std::uint32_t>((*b.layer(precipitation_layer))[v]))
            << "precipitation of v" << v.index();
        ASSERT_EQ((*a.layer(wind_layer))[v], (*b.layer(wind_layer))[v]) << "wind of v" << v.index();
    }
}

// Run memory on for one test.
struct Run_memory_on {
    Run_memory_on() { set_run_memory_limit(1u << 30); }
    ~Run_memory_on() { set_run_memory_limit(0); }
};

TEST(ClimateRunMemory, ARunAfterAnEditRedoesWhatItReachesAndGivesAWholeRunsBytes) {
    const Run_memory_on on;
    const Climate_module module;
    World world = planet(3, 20000);
    run_module(world, module, {});
    const std::size_t count = world.mesh().vertex_count();
    EXPECT_EQ(module.last_run_vertices(), count);
    const World before = world;

    // A range raised inland, and a stretch of coast sunk below sea level (so the ocean grows).
    const auto& elevation = *world.layer(elevation_layer);
    std::optional<Vertex> high, shore;
    const Vertex_adjacency g = vertex_adjacency(world.mesh());
    for (const Vertex v : world.mesh().vertices()) {
        if (!high && elevation[v] > 800.f) high = v;
        if (!shore && elevation[v] > 0.f && elevation[v] < 300.f)
            for (const std::uint32_t n : g.neighbours(v.index()))
                if (elevation[Vertex{n}] < -200.f) shore = v;
    }
    ASSERT_TRUE(high && shore);
    raise_around(world, *high, 0.03f, 2500.f);
    raise_around(world, *shore, 0.03f, -1500.f);
    const auto heights = [&](const World& w) {
        std::vector<float> h(w.mesh().vertex_slots(), 0.f);
        for (const Vertex v : w.mesh().vertices())
            h[v.index()] = (*w.layer(elevation_layer))[v];
        return h;
    };
    ASSERT_NE(world_ocean(g, heights(world)), world_ocean(g, heights(before))) << "the ocean grew";
    const Dict report = run_module(world, module, {});
    EXPECT_GT(module.last_run_vertices(), 0u);
    EXPECT_LT(module.last_run_vertices(), count / 2) << "the run redid most of the world";
    // Again without an edit: nothing to redo, and the layers (and their versions) stay.
    const std::uint64_t version = world.layer(temperature_layer)->version();
    EXPECT_EQ(run_module(world, module, {}), report);
    EXPECT_EQ(module.last_run_vertices(), 0u);
    EXPECT_EQ(world.layer(temperature_layer)->version(), version);
    World whole = world;
    const Climate_module fresh;
    EXPECT_EQ(run_module(whole, fresh, {}), report);
    EXPECT_EQ(fresh.last_run_vertices(), count);
    expect_same_climate(world, whole);

    // Undo: the edit's world before it, run from the edited state's memory, gets its old
    // climate back, bit for bit.
    World undone = before;
    run_module(undone, module, {});
    EXPECT_LT(module.last_run_vertices(), count / 2);
    expect_same_climate(undone, before);

    // Other parameters, or memory off: whole runs.
    Dict wetter;
    wetter.set("rainfall", 1.5);
    run_module(undone, module, wetter);
    EXPECT_EQ(module.last_run_vertices(), count);
    set_run_memory_limit(0);
    run_module(undone, module, wetter);
    EXPECT_EQ(module.last_run_vertices(), count);
}

TEST(Climate, RefusesWithoutElevation) {
    World world;
    Dict sphere;
    sphere.set("count", std::int64_t(1000));
    run_module(world, Sphere_module{}, sphere);
    EXPECT_THROW(run_module(world, Climate_module{}, {}), std::runtime_error);
}

} // namespace
