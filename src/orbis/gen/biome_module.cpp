// SPDX-License-Identifier: MIT
#include "orbis/gen/biome_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/vertex_adjacency.hpp"
#include "orbis/gen/world_ocean.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace orbis::gen {

namespace {

struct Biome_style {
    std::string_view name;
    glm::u8vec3 colour;
};

// Indexed by the enumerator's value. Colours follow the usual atlas conventions: blues for
// water, white ice, greys and olives in the cold, sand for deserts, yellows for dry grass,
// greens darkening with the rain.
constexpr std::array<Biome_style, std::size_t(biome_count)> styles{{
    {"ocean", {24, 56, 128}},
    {"lake", {70, 130, 200}},
    {"ice", {242, 246, 250}},
    {"tundra", {158, 166, 140}},
    {"boreal forest", {44, 96, 76}},
    {"temperate forest", {70, 140, 60}},
    {"temperate rainforest", {24, 112, 84}},
    {"grassland", {176, 196, 100}},
    {"shrubland", {170, 150, 96}},
    {"desert", {232, 208, 146}},
    {"savanna", {206, 182, 80}},
    {"tropical forest", {96, 156, 40}},
    {"tropical rainforest", {16, 84, 32}},
    {"wetland", {72, 140, 134}},
}};

// Lowland where wet ground becomes wetland, m: coastal plains, deltas, wet basins. A height
// rather than a slope, because slopes between neighbours depend on the mesh's resolution
// (fractal hills) and the share of land below a height does not.
constexpr float wetland_height = 50.f;

// Koppen's dryness limits in mm/yr for an annual mean in °C (rain spread over the year).
double desert_limit(double celsius) { return std::clamp(10.0 * celsius + 70.0, 50.0, 250.0); }
double steppe_limit(double celsius) { return std::max(100.0, 20.0 * celsius + 140.0); }

} // namespace

std::string_view biome_name(Biome b) {
    const auto i = std::int32_t(b);
    return i >= 0 && i < biome_count ? styles[std::size_t(i)].name : "unknown";
}

Layer_hints biome_hints() {
    Layer_hints h = make_hints("Biome", "", "categorical");
    for (std::int32_t i = 0; i < biome_count; ++i)
        h.categories.push_back(
            {i, std::string(styles[std::size_t(i)].name), styles[std::size_t(i)].colour});
    return h;
}

Biome classify_biome(double celsius, double mm_per_year, const Biome_params& params) {
    if (std::isnan(celsius) || std::isnan(mm_per_year)) return Biome::desert;
    const double t = celsius, p = mm_per_year;
    if (t < params.ice_temperature) return Biome::ice;
    if (t < params.tundra_temperature) return Biome::tundra;
    if (p < desert_limit(t)) return Biome::desert;
    const bool semi_arid = p < steppe_limit(t);
    if (t < 4.0) return semi_arid ? Biome::grassland : Biome::boreal_forest;
    if (t < 21.0) {
        // Warm semi-arid and summer-dry climates grow scrub and open woodland (chaparral,
        // maquis), cool ones grass (steppe, prairie).
        if (semi_arid) return t < 12.0 ? Biome::grassland : Biome::shrubland;
        if (t >= 12.0 && p < steppe_limit(t) + 250.0) return Biome::shrubland;
        return p < 1800.0 ? Biome::temperate_forest : Biome::temperate_rainforest;
    }
    if (semi_arid) return Biome::shrubland;
    if (p < 1200.0) return Biome::savanna;
    return p < 2000.0 ? Biome::tropical_forest : Biome::tropical_rainforest;
}

std::string_view Biome_module::description() const {
    return "what grows where: a Whittaker-diagram biome (ice, tundra, boreal forest, temperate "
           "forest and rainforest, grassland, shrubland, desert, savanna, tropical forest and "
           "rainforest) from annual temperature and precipitation, with ocean, lakes and "
           "wetlands (wet flat lowland, floodplains of big rivers); reads temperature, "
           "precipitation and, when present, ocean, lake, elevation, discharge; "
           "writes 'biome' (int32, vertex, categorical)";
}

const Parameter_list<Biome_params>& Biome_module::parameter_list() const {
    static const auto list =
        Parameter_list<Biome_params>()
            .add("ice_temperature", &Biome_params::ice_temperature, -60.0, 10.0, "°C",
                 "land with a colder annual mean is ice")
            .add("tundra_temperature", &Biome_params::tundra_temperature, -60.0, 20.0, "°C",
                 "land with a colder annual mean (but above ice_temperature) is tundra: the "
                 "tree line")
            .add("wetland_rainfall", &Biome_params::wetland_rainfall, 0.0, 100000.0, "mm/yr",
                 "lowland (below 50 m: coastal plains, deltas, basins) with more precipitation "
                 "is wetland")

            .add("wetland_discharge", &Biome_params::wetland_discharge, 0.0, 1e9, "m³/s",
                 "lowland (below 300 m) along a river with more discharge is wetland "
                 "(floodplain)");
    return list;
}

Layer_uses Biome_module::layers_for(const Biome_params&) const {
    return {.reads = {Layer_use::of(temperature_layer), Layer_use::of(precipitation_layer),
                      Layer_use::of(ocean_layer).optional(), Layer_use::of(lake_layer).optional(),
                      Layer_use::of(elevation_layer).optional(),
                      Layer_use::of(discharge_layer).optional()},
            .writes = {Layer_use::of(biome_layer).with_hints(biome_hints())}};
}

Dict Biome_module::run_with(World& world, const Biome_params& params,
                            const Progress& progress) const {
    const auto* temperature = world.layer(temperature_layer);
    const auto* precipitation = world.layer(precipitation_layer);
    if (!temperature || !precipitation)
        throw std::runtime_error("module 'biome' needs the layers temperature and precipitation "
                                 "(run 'climate' first)");
    const auto* ocean_in = world.layer(ocean_layer);
    const auto* lake = world.layer(lake_layer);
    const auto* elevation_in = world.layer(elevation_layer);
    const auto* discharge = world.layer(discharge_layer);
    const Mesh& m = world.mesh();
    const std::uint32_t slots = m.vertex_slots();

    std::vector<float> height(slots, 0.f);
    if (elevation_in) {
        for (const Vertex v : m.vertices())
            height[v.index()] = (*elevation_in)[v];
    }
    std::vector<std::uint8_t> ocean(slots, 0);
    if (ocean_in) {
        for (const Vertex v : m.vertices())
            ocean[v.index()] = (*ocean_in)[v];
    } else if (elevation_in) {
        ocean = world_ocean(vertex_adjacency(m, Neighbour_order::edge_scan), height);
    }
    // The discharge leaving each vertex: its river, if any.
    std::vector<float> outflow;
    if (discharge) {
        outflow.assign(slots, 0.f);
        for (const Edge e : m.edges())
            for (const Edge d : {e, e.sym()}) {
                float& out = outflow[d.origin(m).index()];
                out = std::max(out, (*discharge)[d]);
            }
    }
    progress.report(name(), 0.4);

    std::array<std::int64_t, std::size_t(biome_count)> counts{};
    {
        auto [biome] = world.lock_layer(biome_layer);
        for (const Vertex v : m.vertices()) {
            const std::uint32_t i = v.index();
            const double t = (*temperature)[v], p = (*precipitation)[v];
            Biome b;
            if (ocean[i]) {
                b = Biome::ocean;
            } else if (lake && (*lake)[v] >= 0) {
                b = Biome::lake;
            } else {
                b = classify_biome(t, p, params);
                const bool thawed = b != Biome::ice && b != Biome::tundra;
                if (thawed && elevation_in) {
                    const bool floodplain = !outflow.empty() &&
                                            outflow[i] >= params.wetland_discharge &&
                                            height[i] < 300.f;
                    const bool marsh = p > params.wetland_rainfall && height[i] < wetland_height;
                    if (floodplain || marsh) b = Biome::wetland;
                }
            }
            biome[v] = std::int32_t(b);
            ++counts[std::size_t(b)];
        }
    }
    Dict report;
    for (std::int32_t i = 0; i < biome_count; ++i)
        report.set(styles[std::size_t(i)].name, counts[std::size_t(i)]);
    return report;
}

} // namespace orbis::gen
