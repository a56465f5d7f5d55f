// SPDX-License-Identifier: MIT
#include "orbis/gen/biome_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/run_memory.hpp"
#include "orbis/gen/vertex_adjacency.hpp"
#include "orbis/gen/world_ocean.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
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

// What a run keeps for the next one on the same mesh (see run_memory.hpp): its inputs by slot,
// each vertex's outflow and biome, and the counts.
struct Biome_module::Memory {
    // What the kept state was computed for.
    std::uint64_t mesh_version = 0;
    Biome_params params;
    std::uint32_t slots = 0;
    std::size_t edge_slots = 0;
    bool has_ocean = false, has_lake = false, has_height = false, has_discharge = false;
    std::vector<float> temperature, precipitation, height; // by slot
    std::vector<std::uint8_t> ocean;                       // by slot
    std::vector<std::int32_t> lake;                        // by slot
    std::vector<float> discharge;                          // by edge slot
    std::vector<float> outflow;                            // by slot: the largest discharge out
    std::vector<std::int32_t> biome;                       // by slot
    std::array<std::int64_t, std::size_t(biome_count)> counts{};
    std::uint64_t written = 0; // the biome layer's version right after the run wrote it
};

Biome_module::Biome_module() = default;
Biome_module::~Biome_module() = default;

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
    // Without an ocean layer the ocean comes from the whole world's elevation: nothing to keep.
    const bool keep = m.vertex_count() <= run_memory_limit() && (ocean_in || !elevation_in);

    std::unique_ptr<Memory> kept = memory_.take();
    if (kept && !(keep && kept->mesh_version == world.mesh_version() && kept->params == params &&
                  kept->slots == slots && kept->edge_slots == m.edge_slots() &&
                  kept->has_ocean == (ocean_in != nullptr) && kept->has_lake == (lake != nullptr) &&
                  kept->has_height == (elevation_in != nullptr) &&
                  kept->has_discharge == (discharge != nullptr)))
        kept.reset();
    const bool again = kept != nullptr;
    if (!again) {
        kept = std::make_unique<Memory>();
        Memory& k = *kept;
        k.mesh_version = world.mesh_version();
        k.params = params;
        k.slots = slots;
        k.edge_slots = m.edge_slots();
        k.has_ocean = ocean_in != nullptr;
        k.has_lake = lake != nullptr;
        k.has_height = elevation_in != nullptr;
        k.has_discharge = discharge != nullptr;
    }
    Memory& k = *kept;
    // The biome of the vertex at slot i from the kept inputs.
    const auto classify = [&](std::uint32_t i) {
        const double t = k.temperature[i], p = k.precipitation[i];
        if (k.ocean[i]) return Biome::ocean;
        if (lake && k.lake[i] >= 0) return Biome::lake;
        Biome b = classify_biome(t, p, params);
        const bool thawed = b != Biome::ice && b != Biome::tundra;
        if (thawed && elevation_in) {
            const bool floodplain =
                discharge && k.outflow[i] >= params.wetland_discharge && k.height[i] < 300.f;
            const bool marsh = p > params.wetland_rainfall && k.height[i] < wetland_height;
            if (floodplain || marsh) b = Biome::wetland;
        }
        return b;
    };
    // The largest discharge leaving the vertex at slot i: its river, if any.
    const auto outflow_of = [&](std::uint32_t i) {
        float out = 0;
        for (const Edge e : Vertex{i}.edges(m))
            out = std::max(out, (*discharge)[e]);
        return out;
    };
    // Slots whose biome may have changed since the kept run.
    std::vector<std::uint32_t> changed;
    if (!again) {
        const auto copy = [&](const auto* layer, auto& out, auto fallback) {
            out.assign(std::max<std::size_t>(slots, layer ? layer->size() : 0), fallback);
            if (layer)
                for (std::size_t c = 0; c < layer->chunk_count(); ++c) {
                    const auto values = layer->chunk(c);
                    std::copy(
                        values.begin(), values.end(),
                        out.begin() +
                            std::ptrdiff_t(c * Chunked_array<typename std::decay_t<
                                                   decltype(*layer)>::value_type>::chunk_size));
                }
        };
        copy(temperature, k.temperature, 0.f);
        copy(precipitation, k.precipitation, 0.f);
        copy(elevation_in, k.height, 0.f);
        copy(lake, k.lake, std::int32_t(-1));
        copy(ocean_in, k.ocean, std::uint8_t(0));
        if (!ocean_in && elevation_in)
            k.ocean = world_ocean(vertex_adjacency(m, Neighbour_order::edge_scan), k.height);
        if (discharge) {
            k.outflow.assign(slots, 0.f);
            for (const Edge e : m.edges())
                for (const Edge d : {e, e.sym()}) {
                    float& out = k.outflow[d.origin(m).index()];
                    out = std::max(out, (*discharge)[d]);
                }
            if (keep) copy(discharge, k.discharge, 0.f);
        }
        progress.report(name(), 0.4);
        k.biome.assign(slots, 0);
        for (const Vertex v : m.vertices()) {
            const Biome b = classify(v.index());
            k.biome[v.index()] = std::int32_t(b);
            ++k.counts[std::size_t(b)];
        }
    } else {
        std::vector<std::uint8_t> mark(slots, 0);
        const auto add = [&](std::size_t i) {
            if (i < slots && !std::exchange(mark[i], 1) && m.contains(Vertex{std::uint32_t(i)}))
                changed.push_back(std::uint32_t(i));
        };
        const auto on_vertex = [&](std::size_t i, auto, auto) { add(i); };
        update_changed(*temperature, k.temperature.data(), on_vertex);
        update_changed(*precipitation, k.precipitation.data(), on_vertex);
        if (elevation_in) update_changed(*elevation_in, k.height.data(), on_vertex);
        if (lake) update_changed(*lake, k.lake.data(), on_vertex);
        if (ocean_in) update_changed(*ocean_in, k.ocean.data(), on_vertex);
        if (discharge) {
            std::vector<std::uint32_t> sources;
            update_changed(*discharge, k.discharge.data(), [&](std::size_t e, float, float) {
                const Edge d{std::uint32_t(e)};
                if (m.contains(d)) sources.push_back(d.origin(m).index());
            });
            for (const std::uint32_t i : sources) {
                k.outflow[i] = outflow_of(i);
                add(i);
            }
        }
        progress.report(name(), 0.4);
        for (const std::uint32_t i : changed) {
            const Biome b = classify(i);
            --k.counts[std::size_t(k.biome[i])];
            ++k.counts[std::size_t(b)];
            k.biome[i] = std::int32_t(b);
        }
    }
    // Nothing is locked (and the layer's version stays) unless a biome changes.
    const auto* existing = world.layer(biome_layer);
    if (again && existing && existing->version() == k.written) {
        // The layer still holds the kept biomes: only the changed ones are written.
        std::vector<std::uint32_t> differ;
        for (const std::uint32_t i : changed)
            if ((*existing)[Vertex{i}] != k.biome[i]) differ.push_back(i);
        if (!differ.empty()) {
            auto [biome] = world.lock_layer(biome_layer);
            for (const std::uint32_t i : differ)
                biome[Vertex{i}] = k.biome[i];
        }
    } else {
        const auto values = [&](std::size_t first, std::span<std::int32_t> out) {
            for (std::size_t i = 0; i < out.size(); ++i)
                if (m.contains(Vertex{std::uint32_t(first + i)})) out[i] = k.biome[first + i];
        };
        if (existing) {
            const auto biome_new = changed_chunks(*existing, values);
            if (any_changed(biome_new)) {
                auto [biome] = world.lock_layer(biome_layer);
                write_changed_chunks(biome, biome_new);
            }
        } else {
            auto [biome] = world.lock_layer(biome_layer);
            parallel_changed_chunks(biome, values);
        }
    }
    Dict report;
    for (std::int32_t i = 0; i < biome_count; ++i)
        report.set(styles[std::size_t(i)].name, k.counts[std::size_t(i)]);
    if (keep) {
        k.written = world.layer(biome_layer)->version();
        memory_.put(std::move(kept));
    }
    return report;
}

} // namespace orbis::gen
