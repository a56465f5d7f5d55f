// SPDX-License-Identifier: MIT
#include "orbis/gen/hydrology_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/flow_routing.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/run_memory.hpp"
#include "orbis/gen/scratch_buffer.hpp"
#include "orbis/gen/spatial_order.hpp"
#include "orbis/gen/world_ocean.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <queue>
#include <span>
#include <stdexcept>
#include <utility>

namespace orbis::gen {

namespace {

constexpr std::uint32_t none = ~0u;
constexpr double seconds_per_year = 365.25 * 86400.0;

// Potential evaporation (mm/yr) of open water at an annual mean of `celsius`: about 300 mm/yr
// at 0 °C and 1,550 at 25 °C, as pan measurements give from the boreal zone to the tropics,
// and never below the 100 mm/yr that ice and cold water still lose to dry polar air.
double potential_evaporation(double celsius) {
    return std::clamp(300.0 + 50.0 * celsius, 100.0, 2000.0);
}

// Actual evaporation from land (mm/yr) with rain `p` and potential `pet`: the Turc-Pike form of
// Budyko's curve, which stays below both and tends to the smaller one when the other is large.
double land_evaporation(double p, double pet) {
    if (p <= 0 || pet <= 0) return 0;
    return p * pet / std::sqrt(p * p + pet * pet);
}

// What the module knows of one lake while it routes the water.
struct Lake {
    std::vector<std::uint32_t> vertices;
    std::uint32_t outlet = none; // the vertex whose outflow leaves the lake; the sink if endorheic
    double level = 0;
    double inflow = 0;      // m³/s reaching the lake, its own rain included
    double evaporation = 0; // m³/s the lake loses to the air
    bool endorheic = false;
    double area = 0; // m²
};

// What the water layers get at one vertex: the receiver's slot (`none` where no discharge
// leaves: the ocean and sinks) and the discharge towards it, and the vertex layers' values.
struct Water_out {
    std::uint32_t down;
    float flow, runoff, level;
    std::int32_t lake, basin;
    bool ocean;
};

bool same_bits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

bool same_water(const Water_out& a, const Water_out& b) {
    return a.down == b.down && same_bits(a.flow, b.flow) && same_bits(a.runoff, b.runoff) &&
           same_bits(a.level, b.level) && a.lake == b.lake && a.basin == b.basin &&
           a.ocean == b.ocean;
}

// The versions of the six water layers (0 where one is missing).
std::array<std::uint64_t, 6> water_versions(const World& world) {
    const auto version = [&](const auto& info) -> std::uint64_t {
        const auto* layer = world.layer(info);
        return layer ? layer->version() : 0;
    };
    return {version(ocean_layer),     version(lake_layer),  version(water_level_layer),
            version(discharge_layer), version(basin_layer), version(runoff_layer)};
}

// Upstream-first order of the vertices where `skip` is 0 in the forest given by `receiver`
// (roots point to themselves): every such vertex comes before its receiver. Skipped vertices
// must be roots (the ocean): they pass nothing on, so leaving them out changes neither the
// order of the others nor any sum. Kahn's algorithm over donor counts, starting from the
// leaves in id order, which follows the space-filling curve, so the walks along the result
// stay near in memory; O(vertices).
Scratch_vector<std::uint32_t> upstream_first(const std::vector<std::uint32_t>& receiver,
                                             const std::vector<std::uint8_t>& skip) {
    const auto count = std::uint32_t(receiver.size());
    // Where each kept vertex's water goes among the kept ones (`none` at roots and where it
    // enters the ocean), so the walk below reads one array per step.
    Scratch_vector<std::uint32_t> down(count);
    parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t v = begin; v < end; ++v) {
            const std::uint32_t r = receiver[v];
            down[v] = skip[v] || r == v || skip[r] ? none : r;
        }
    });
    // Donor counts, and whether each vertex is a leaf: each thread counts for the receivers in
    // its part of the ids, reading all of `down` (in sequence) rather than sharing counters.
    Scratch_vector<std::uint32_t> donors(count);
    Scratch_vector<std::uint8_t> leaf(count);
    parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        std::fill(donors.begin() + begin, donors.begin() + end, 0u);
        for (std::uint32_t v = 0; v < count; ++v)
            if (const std::uint32_t r = down[v]; r - begin < end - begin) ++donors[r];
        for (std::uint32_t v = begin; v < end; ++v)
            leaf[v] = !skip[v] && donors[v] == 0;
    });
    Scratch_vector<std::uint32_t> order;
    order.reserve(count);
    for (std::uint32_t v = 0; v < count; ++v)
        if (leaf[v]) order.push_back(v);
    // The queue jumps ahead of the leaves, but holds what comes next: fetching the receivers
    // and their donor counts a few places ahead overlaps the misses.
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i + 8 < order.size()) __builtin_prefetch(&down[order[i + 8]]);
        if (i + 4 < order.size())
            if (const std::uint32_t r = down[order[i + 4]]; r != none)
                __builtin_prefetch(&donors[r]);
        const std::uint32_t r = down[order[i]];
        if (r != none && --donors[r] == 0) order.push_back(r);
    }
    return order;
}

} // namespace

// What a run keeps for the next one on the same mesh (see run_memory.hpp): the numbering, the
// graph and cell areas, which depend on the mesh alone, and the inputs and local water balance
// by id, of which an edit changes a few.
struct Hydrology_module::Memory {
    // What the kept state was computed for.
    std::uint64_t mesh_version = 0, position_version = 0;
    Hydrology_params params;
    std::uint32_t slots = 0;
    bool has_rain = false, has_warmth = false;
    Spatial_order numbering;
    Vertex_adjacency g;                      // by id
    std::vector<double> area_km2;            // by id (km²; 0 on the ocean unless kept)
    std::vector<float> height, rain, warmth; // by id
    std::vector<float> height_by_slot, rain_by_slot, warmth_by_slot; // kept runs only
    std::vector<std::uint8_t> ocean;                                 // by id
    std::optional<Ocean_tracker> ocean_tracker;                      // kept runs only
    std::vector<double> runoff, lake_loss;                           // by id, m³/s
    std::vector<Water_out> water;                                    // by id, as last written
    // Versions of the six water layers right after that write: while the World's layers
    // still carry them, they hold `water`.
    std::array<std::uint64_t, 6> written{};
};

Hydrology_module::Hydrology_module() = default;
Hydrology_module::~Hydrology_module() = default;

std::string_view Hydrology_module::description() const {
    return "the world ocean, lakes at their spill level or smaller endorheic lakes, rivers "
           "(discharge along one edge per vertex) and drainage basins, by priority-flood "
           "depression filling; reads position, elevation, optionally precipitation and "
           "temperature; writes ocean, lake, water_level, discharge, basin, runoff and the "
           "'hydrology' Dict";
}

const Parameter_list<Hydrology_params>& Hydrology_module::parameter_list() const {
    static const auto list =
        Parameter_list<Hydrology_params>()
            .add("rainfall", &Hydrology_params::rainfall, 0.0, 20000.0, "mm/yr",
                 "precipitation everywhere when the World has no 'precipitation' layer")
            .add("evaporation", &Hydrology_params::evaporation, 0.0, 10.0, "",
                 "scale of evaporation from land and lakes (0: every depression fills)")
            .add("temperature", &Hydrology_params::temperature, -60.0, 60.0, "°C",
                 "temperature everywhere when the World has no 'temperature' layer")
            .add("ocean_min_fraction", &Hydrology_params::ocean_min_fraction, 0.0, 1.0, "",
                 "fraction of the vertices a body below sea level needs, besides the largest, "
                 "to be sea rather than an inland basin (1: only the largest)");
    return list;
}

Layer_uses Hydrology_module::layers_for(const Hydrology_params&) const {
    Layer_hints ocean = make_hints("Ocean", "", "categorical");
    ocean.categories = {{0, "land or lake", {190, 170, 120}}, {1, "ocean", {30, 70, 160}}};
    Layer_hints lake = make_hints("Lake", "", "categorical");
    lake.categories = {{-1, "no lake", {200, 200, 200}}};
    Layer_hints basin = make_hints("Drainage basin", "", "categorical");
    basin.categories = {{-1, "ocean", {30, 70, 160}}};
    return {
        .reads = {Layer_use::of(position_layer), Layer_use::of(elevation_layer),
                  Layer_use::of(precipitation_layer).optional(),
                  Layer_use::of(temperature_layer).optional()},
        .writes = {
            Layer_use::of(ocean_layer).with_hints(std::move(ocean)),
            Layer_use::of(lake_layer).with_hints(std::move(lake)),
            Layer_use::of(water_level_layer).with_hints(make_hints("Water level", "m", "terrain")),
            Layer_use::of(discharge_layer).with_hints(make_hints("Discharge", "m³/s", "viridis")),
            Layer_use::of(basin_layer).with_hints(std::move(basin)),
            Layer_use::of(runoff_layer).with_hints(make_hints("Runoff", "m³/s")),
            Layer_use::dict(std::string(hydrology_dict_name))}};
}

Dict Hydrology_module::run_with(World& world, const Hydrology_params& params,
                                const Progress& progress) const {
    const auto* position = world.layer(position_layer);
    const auto* elevation = world.layer(elevation_layer);
    if (!position || !elevation)
        throw std::runtime_error("module 'hydrology' needs the layers position and elevation "
                                 "(run 'elevation' first)");
    const auto* precipitation = world.layer(precipitation_layer);
    const auto* temperature = world.layer(temperature_layer);
    const Mesh& m = world.mesh();
    if (m.vertex_count() == 0) throw std::runtime_error("module 'hydrology' needs vertices");

    const std::uint32_t slots = m.vertex_slots();
    const bool keep = m.vertex_count() <= run_memory_limit();
    std::unique_ptr<Memory> kept = memory_.take();
    if (kept && !(keep && kept->mesh_version == world.mesh_version() &&
                  kept->position_version == position->version() && kept->params == params &&
                  kept->slots == slots && kept->has_rain == (precipitation != nullptr) &&
                  kept->has_warmth == (temperature != nullptr)))
        kept.reset();
    const bool again = kept != nullptr;
    if (!again) {
        kept = std::make_unique<Memory>();
        kept->mesh_version = world.mesh_version();
        kept->position_version = position->version();
        kept->params = params;
        kept->slots = slots;
        kept->has_rain = precipitation != nullptr;
        kept->has_warmth = temperature != nullptr;
    }
    Memory& k = *kept;
    std::vector<std::uint8_t> live(slots, 0);
    // Ids whose inputs changed since the kept run, and whether the ocean must be found again.
    std::vector<std::uint32_t> changed;
    std::vector<std::uint32_t> crossed; // ids whose elevation crossed sea level
    // Each id's position, on a run that builds the kept state anew (for the cell areas).
    Scratch_vector<glm::vec3> where;
    // The ends of each quad-edge by id, on such a run (for the discharge layer).
    Scratch_vector<std::array<std::uint32_t, 2>> ends;
    if (!again) {
        where.assign(slots, glm::vec3(0));
        // The other inputs of a slot side by side, so that renumbering reads one record per
        // vertex.
        struct Slot_input {
            float height = 0, rain = 0, warmth = 0;
        };
        Scratch_vector<Slot_input> input(slots, Slot_input{});
        // Per slot on two threads; each part keeps its own first bad slot, so the error
        // reported does not depend on the split.
        std::uint32_t part_bad[2] = {none, none};
        parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
            for (std::uint32_t s = begin; s < end; ++s) {
                const Vertex v{s};
                if (!m.contains(v)) continue;
                live[s] = 1;
                const float h = (*elevation)[v];
                input[s] = {h, precipitation ? (*precipitation)[v] : 0.f,
                            temperature ? (*temperature)[v] : 0.f};
                where[s] = (*position)[v];
                if (!std::isfinite(h) && part_bad[part] == none) part_bad[part] = s;
            }
        });
        if (const std::uint32_t bad = std::min(part_bad[0], part_bad[1]); bad != none)
            throw std::runtime_error("module 'hydrology': elevation of v" + std::to_string(bad) +
                                     " is not a number");
        // From here on the vertices go by ids along a space-filling curve: the flood, the
        // lakes' searches and the walks along the flow tree then read neighbours that sit near
        // in memory, where the refined mesh's slots scatter them (most reads missed the
        // cache). Ties (equal heights in the flood, the order of sums downstream) go by id,
        // so the world depends on the mesh and the inputs alone, not on the thread count.
        k.numbering = spatial_order(where, live);
        const auto count = std::uint32_t(k.numbering.slot_of.size());
        k.height.resize(count);
        k.rain.resize(count);
        k.warmth.resize(count);
        {
            const Scratch_vector<glm::vec3> where_by_slot = std::move(where);
            where.resize(count);
            parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
                for (std::uint32_t i = begin; i < end; ++i) {
                    // The slots jump (refinement appends vertices far from their
                    // neighbours' slots): fetch a few ahead.
                    if (i + 16 < end) {
                        const std::uint32_t later = k.numbering.slot_of[i + 16];
                        __builtin_prefetch(&where_by_slot[later]);
                        __builtin_prefetch(&input[later]);
                    }
                    const std::uint32_t s = k.numbering.slot_of[i];
                    where[i] = where_by_slot[s];
                    k.height[i] = input[s].height;
                    k.rain[i] = input[s].rain;
                    k.warmth[i] = input[s].warmth;
                }
            });
        }
        if (keep) {
            // As long as the layers (which may hold more slots than the mesh uses).
            const auto size = [&](const auto* layer) {
                return std::max<std::size_t>(slots, layer ? layer->size() : 0);
            };
            k.height_by_slot.resize(size(elevation));
            k.rain_by_slot.resize(size(precipitation));
            k.warmth_by_slot.resize(size(temperature));
            for (std::uint32_t s = 0; s < slots; ++s) {
                k.height_by_slot[s] = input[s].height;
                k.rain_by_slot[s] = input[s].rain;
                k.warmth_by_slot[s] = input[s].warmth;
            }
        }
        input = {};
        // Edge-scan order is three times cheaper to build than ring order.
        k.g = renumbered_adjacency(m, k.numbering.id_of, count, &ends);
        if (!keep)
            k.ocean =
                world_ocean(k.g, k.height, k.numbering.slot_of, 0.f, params.ocean_min_fraction);
    } else {
        for (const std::uint32_t s : k.numbering.slot_of)
            live[s] = 1;
        // The inputs that changed since the kept run, found chunk by chunk.
        std::vector<std::uint8_t> mark(k.height.size(), 0);
        const auto diff = [&](const auto* layer, std::vector<float>& by_slot,
                              std::vector<float>& by_id, bool is_height) {
            if (!layer) return;
            update_changed(*layer, by_slot.data(), [&](std::size_t i, float was, float now) {
                const auto s = std::uint32_t(i);
                if (s >= slots || !live[s]) return;
                if (is_height) {
                    if (!std::isfinite(now))
                        throw std::runtime_error("module 'hydrology': elevation of v" +
                                                 std::to_string(s) + " is not a number");
                    if ((now < 0.f) != (was < 0.f)) crossed.push_back(k.numbering.id_of[s]);
                }
                const std::uint32_t id = k.numbering.id_of[s];
                by_id[id] = now;
                if (!std::exchange(mark[id], 1)) changed.push_back(id);
            });
        };
        // Elevation first: a bad value must leave the kept state as it was (it is dropped).
        diff(elevation, k.height_by_slot, k.height, true);
        diff(precipitation, k.rain_by_slot, k.rain, false);
        diff(temperature, k.warmth_by_slot, k.warmth, false);
    }
    const std::vector<std::uint32_t>& slot_of = k.numbering.slot_of;
    const auto count = std::uint32_t(slot_of.size());
    const std::vector<float>& height = k.height;
    const std::vector<float>& rain = k.rain;
    const std::vector<float>& warmth = k.warmth;
    const Vertex_adjacency& g = k.g;
    const std::vector<double>& area_km2 = k.area_km2; // set beside the flood on a new run
    // Which vertices are ocean depends only on which lie below sea level.
    if (keep && !again) {
        k.ocean_tracker.emplace(g, height, slot_of, 0.f, params.ocean_min_fraction);
        k.ocean = k.ocean_tracker->ocean();
    } else if (!crossed.empty()) {
        std::vector<std::uint32_t> flipped;
        k.ocean_tracker->update(g, height, slot_of, crossed, flipped);
        for (const std::uint32_t s : flipped) {
            k.ocean[s] = k.ocean_tracker->ocean()[s];
            changed.push_back(s);
        }
    }
    const std::vector<std::uint8_t>& ocean = k.ocean;
    progress.report(name(), 0.1);

    // Local water balance per cell (m³/s): what runs off land, and what a lake over the cell
    // would evaporate on top of what the land there already does.
    const auto balance = [&](std::uint32_t s) {
        if (ocean[s]) {
            k.runoff[s] = 0;
            k.lake_loss[s] = 0;
            return;
        }
        const double p = precipitation ? std::max(0.0, double(rain[s])) : params.rainfall;
        const double pet =
            params.evaporation *
            potential_evaporation(temperature ? double(warmth[s]) : params.temperature);
        const double aet = land_evaporation(p, pet);
        const double to_flux = area_km2[s] * 1e6 * 1e-3 / seconds_per_year;
        k.runoff[s] = (p - aet) * to_flux;
        k.lake_loss[s] = (pet - aet) * to_flux;
    };
    // The flood reads neither the cell areas nor the water balance nor its total, and runs on
    // one core: the other computes them meanwhile.
    Flow_tree tree;
    double total_runoff = 0;
    parallel_tasks(2, [&](std::uint32_t task) {
        if (task == 0) {
            tree = route_flow(g, height, ocean, 0.f);
            return;
        }
        if (!again) {
            // Each vertex's cell area from its edges: sqrt(3)/12 of the squared length of each,
            // which is exact for the hexagonal cells of an even mesh and close on any Delaunay
            // mesh. Reading the adjacency rows in order costs far less than walking the faces'
            // quad-edge records. Only land needs it (the ocean's cells carry no runoff), but a
            // kept state has it everywhere for the land an edit may raise.
            k.area_km2.assign(count, 0.0);
            for (std::uint32_t s = 0; s < count; ++s) {
                if (!keep && ocean[s]) continue;
                double sum = 0;
                for (const std::uint32_t n : g.neighbours(s)) {
                    const glm::vec3 d = where[n] - where[s];
                    sum += double(glm::dot(d, d));
                }
                k.area_km2[s] = sum * (std::sqrt(3.0) / 12.0);
            }
            k.runoff.assign(count, 0.0);
            k.lake_loss.assign(count, 0.0);
            for (std::uint32_t s = 0; s < count; ++s)
                balance(s);
        } else {
            for (const std::uint32_t s : changed)
                balance(s);
        }
        for (std::uint32_t s = 0; s < count; ++s)
            if (!ocean[s]) total_runoff += k.runoff[s];
    });
    where = {};
    const std::vector<double>& runoff = k.runoff;
    const std::vector<double>& lake_loss = k.lake_loss;
    std::vector<std::uint32_t>& receiver = tree.receiver;
    progress.report(name(), 0.3);

    // Depressions: flooded vertices (filled above the ground) joined while they share a level.
    // The first vertex of one that the flood reached is where its water leaves.
    Scratch_vector<std::uint32_t> depression(count, none);
    std::vector<Lake> lakes;
    {
        // Which vertices are flooded, found in id order (sequential reads) so that the walk
        // in flood order below reads one byte per vertex instead of three scattered values.
        Scratch_vector<std::uint8_t> flooded(count);
        parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            for (std::uint32_t s = begin; s < end; ++s)
                flooded[s] = !ocean[s] && tree.filled[s] > height[s];
        });
        for (const std::uint32_t s : tree.order) {
            if (!flooded[s] || depression[s] != none) continue;
            const auto id = std::uint32_t(lakes.size());
            Lake& lake = lakes.emplace_back();
            lake.outlet = s;
            lake.level = tree.filled[s];
            depression[s] = id;
            // Breadth-first from the outlet, so the tree across the flat lake is shallow.
            lake.vertices.push_back(s);
            for (std::size_t i = 0; i < lake.vertices.size(); ++i) {
                const std::uint32_t c = lake.vertices[i];
                for (const std::uint32_t n : g.neighbours(c))
                    if (flooded[n] && depression[n] == none && tree.filled[n] == tree.filled[s]) {
                        depression[n] = id;
                        receiver[n] = c;
                        lake.vertices.push_back(n);
                    }
            }
        }
    }
    progress.report(name(), 0.4);

    // Pass 1, from the headwaters down: each depression's inflow decides whether it fills to
    // its spill point (and passes the rest on) or holds an endorheic lake that evaporates all.
    Scratch_vector<double> evaporation(count, 0.0);
    std::vector<std::uint8_t> sink(count, 0); // endorheic: keeps every drop that arrives
    Scratch_vector<std::int32_t> lake_of(count, -1);
    Scratch_vector<float> level(count, 0.f);
    std::vector<std::uint8_t> reached_mark(count, 0);
    // Fills the basin around `bottom` from its lowest point until the lake evaporates `inflow`
    // (and takes in every vertex below the level reached, so no dry hollow sits beside the
    // flat water). With `reroute_all`, every vertex reachable where `allowed` then drains
    // towards the bottom, and they are appended to `rerouted` donors first; otherwise only
    // the lake's vertices drain to it.
    std::vector<std::uint32_t> rerouted;
    const auto fill_endorheic = [&](Lake& lake, std::uint32_t bottom, double inflow,
                                    const std::function<bool(std::uint32_t)>& allowed,
                                    bool reroute_all) {
        // Equal heights leave in id order.
        using Entry = std::pair<float, std::uint32_t>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
        std::vector<std::uint32_t> reached{bottom}, lake_vertices;
        std::vector<std::uint32_t> parent{bottom};
        reached_mark[bottom] = 1;
        open.emplace(height[bottom], bottom);
        double loss = 0, top = height[bottom];
        bool full = false;
        bool closed = false; // the lake is complete: later vertices only drain into it
        while (!open.empty()) {
            const auto [h, c] = open.top();
            if (full && h > top) {
                if (!reroute_all) break;
                closed = true;
            }
            open.pop();
            if (!closed) {
                top = std::max(top, double(h));
                loss += lake_loss[c];
                lake_vertices.push_back(c);
                full = loss >= inflow;
            }
            for (const std::uint32_t n : g.neighbours(c))
                if (!reached_mark[n] && allowed(n)) {
                    reached_mark[n] = 1;
                    reached.push_back(n);
                    parent.push_back(c);
                    open.emplace(height[n], n);
                }
        }
        for (const std::uint32_t s : reached)
            reached_mark[s] = 0;
        if (reroute_all) {
            for (std::size_t i = 0; i < reached.size(); ++i)
                receiver[reached[i]] = parent[i];
            // Each vertex was reached after its new receiver.
            rerouted.insert(rerouted.end(), reached.rbegin(), reached.rend());
        } else {
            for (const std::uint32_t s : lake_vertices)
                reached_mark[s] = 1;
            for (std::size_t i = 0; i < reached.size(); ++i)
                if (reached_mark[reached[i]]) receiver[reached[i]] = parent[i];
            for (const std::uint32_t s : lake_vertices)
                reached_mark[s] = 0;
        }
        receiver[bottom] = bottom;
        sink[bottom] = 1;
        lake.vertices = std::move(lake_vertices);
        lake.level = top;
        lake.outlet = bottom;
        lake.endorheic = true;
        lake.inflow = inflow;
        lake.evaporation = inflow;
    };
    std::vector<std::uint8_t> depression_mark(count, 0);
    Scratch_vector<double> acc(runoff.begin(), runoff.end());
    Scratch_vector<std::uint32_t> order = upstream_first(receiver, ocean);
    bool dry_world = false; // no ocean: the last lake may take in earlier ones
    {
        for (std::size_t i = 0; i < order.size(); ++i) {
            // The walks along `order` jump across the ids: fetch a few places ahead.
            if (i + 8 < order.size()) {
                const std::uint32_t later = order[i + 8];
                __builtin_prefetch(&receiver[later]);
                __builtin_prefetch(&acc[later]);
                __builtin_prefetch(&depression[later]);
            }
            const std::uint32_t v = order[i];
            const std::uint32_t r = receiver[v];
            double out = acc[v];
            const std::uint32_t d = depression[v];
            if (d != none && lakes[d].outlet == v) {
                Lake& lake = lakes[d];
                double full_loss = 0;
                for (const std::uint32_t s : lake.vertices)
                    full_loss += lake_loss[s];
                lake.inflow = acc[v];
                if (acc[v] >= full_loss) {
                    lake.evaporation = full_loss;
                    out = acc[v] - full_loss;
                } else {
                    // Water stays in the depression: the lake shrinks towards its lowest point
                    // and everything else in the depression drains to it.
                    std::uint32_t bottom = lake.vertices.front();
                    for (const std::uint32_t s : lake.vertices)
                        if (height[s] < height[bottom]) bottom = s;
                    for (const std::uint32_t s : lake.vertices)
                        depression_mark[s] = 1;
                    const std::vector<std::uint32_t> region = lake.vertices;
                    fill_endorheic(
                        lake, bottom, acc[v],
                        [&](std::uint32_t n) { return depression_mark[n] != 0; }, true);
                    for (const std::uint32_t s : region)
                        depression_mark[s] = 0;
                    out = 0;
                }
            } else if (r == v && !ocean[v]) {
                // The lowest vertex of a world without an ocean: all water ends here.
                sink[v] = 1;
            }
            if (r != v && !sink[v]) acc[r] += out;
        }
        // A world without an ocean: the last root collects everything; size its lake now
        // that the whole inflow is known.
        const auto ends_dry = [&](std::uint32_t v) {
            return receiver[v] == v && !ocean[v] && depression[v] == none;
        };
        for (std::uint32_t v = 0; v < count; ++v)
            if (ends_dry(v)) {
                dry_world = true;
                Lake& lake = lakes.emplace_back();
                fill_endorheic(
                    lake, v, acc[v], [&](std::uint32_t n) { return !ocean[n]; }, false);
            }
    }
    progress.report(name(), 0.6);

    // Pass 2 on the final tree: discharge out of every vertex.
    Scratch_vector<double> out_flow(count, 0.0);
    std::fill(acc.begin(), acc.end(), 0.0);
    for (std::uint32_t s = 0; s < count; ++s)
        acc[s] = runoff[s];
    for (const Lake& lake : lakes)
        if (!lake.endorheic) evaporation[lake.outlet] = lake.evaporation;
    // The final tree differs from pass 1's only inside the endorheic depressions, which now
    // drain to their bottoms and pass nothing on: pass 1's order without their vertices,
    // then each of them donors first, is upstream-first for it too.
    if (dry_world) {
        order = upstream_first(receiver, ocean);
    } else if (!rerouted.empty()) {
        for (const std::uint32_t s : rerouted)
            reached_mark[s] = 1;
        std::erase_if(order, [&](std::uint32_t s) { return reached_mark[s] != 0; });
        order.insert(order.end(), rerouted.begin(), rerouted.end());
    }
    rerouted = {};
    double ocean_inflow = 0, sink_evaporation = 0, max_discharge = 0;
    Scratch_vector<std::int32_t> basin(count, -1);
    std::vector<double> basin_area;
    // Pass 2 reads the tree and writes the discharge; the lakes and basins read the tree and
    // the lakes and write neither: the second core takes them meanwhile.
    parallel_tasks(2, [&](std::uint32_t task) {
        if (task == 0) {
            for (std::size_t i = 0; i < order.size(); ++i) {
                if (i + 8 < order.size()) {
                    const std::uint32_t later = order[i + 8];
                    __builtin_prefetch(&receiver[later]);
                    __builtin_prefetch(&acc[later]);
                    __builtin_prefetch(&evaporation[later]);
                }
                const std::uint32_t v = order[i];
                if (ocean[v]) continue;
                const std::uint32_t r = receiver[v];
                if (sink[v] || r == v) {
                    evaporation[v] = acc[v];
                    sink_evaporation += acc[v];
                    continue;
                }
                const double out = std::max(0.0, acc[v] - evaporation[v]);
                out_flow[v] = out;
                max_discharge = std::max(max_discharge, out);
                acc[r] += out;
                if (ocean[r]) ocean_inflow += out;
            }
            return;
        }
        // Lakes, largest first; endorheic depressions too dry for water are salt flats.
        for (Lake& lake : lakes) {
            lake.area = 0;
            for (const std::uint32_t s : lake.vertices)
                lake.area += area_km2[s] * 1e6;
            if (lake.endorheic && lake.vertices.size() == 1 &&
                lake.inflow < 0.5 * lake_loss[lake.outlet])
                lake.vertices.clear();
        }
        std::erase_if(lakes, [](const Lake& l) { return l.vertices.empty(); });
        std::stable_sort(lakes.begin(), lakes.end(),
                         [](const Lake& a, const Lake& b) { return a.area > b.area; });
        for (std::size_t i = 0; i < lakes.size(); ++i)
            for (const std::uint32_t s : lakes[i].vertices) {
                lake_of[s] = std::int32_t(i);
                level[s] = float(lakes[i].level);
            }

        // Basins: one per river mouth (a land vertex draining into the ocean) or endorheic sink,
        // numbered by area, largest first.
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            if (order.rend() - it > 8) {
                const std::uint32_t later = it[8];
                __builtin_prefetch(&receiver[later]);
                __builtin_prefetch(&area_km2[later]);
                __builtin_prefetch(&basin[later], 1);
            }
            const std::uint32_t v = *it;
            if (ocean[v]) continue;
            const std::uint32_t r = receiver[v];
            if (r == v || ocean[r]) {
                basin[v] = std::int32_t(basin_area.size());
                basin_area.push_back(0);
            } else {
                basin[v] = basin[r];
            }
            basin_area[std::size_t(basin[v])] += area_km2[v];
        }
    });
    std::vector<std::int32_t> rank(basin_area.size());
    {
        std::vector<std::int32_t> by_area(basin_area.size());
        std::iota(by_area.begin(), by_area.end(), 0);
        std::stable_sort(by_area.begin(), by_area.end(), [&](std::int32_t a, std::int32_t b) {
            return basin_area[std::size_t(a)] > basin_area[std::size_t(b)];
        });
        for (std::size_t i = 0; i < by_area.size(); ++i)
            rank[std::size_t(by_area[i])] = std::int32_t(i);
    }
    progress.report(name(), 0.8);

    std::size_t ocean_count = 0;
    for (std::uint32_t s = 0; s < count; ++s)
        ocean_count += ocean[s];
    // What the layers get per vertex, by id.
    const auto water_of = [&](std::uint32_t s) -> Water_out {
        return {.down = ocean[s] || receiver[s] == s ? none : slot_of[receiver[s]],
                .flow = float(out_flow[s]),
                .runoff = float(runoff[s]),
                .level = ocean[s]          ? 0.f
                         : lake_of[s] >= 0 ? level[s]
                                           : height[s],
                .lake = lake_of[s],
                .basin = basin[s] < 0 ? -1 : rank[std::size_t(basin[s])],
                .ocean = ocean[s] != 0};
    };
    // By id, for the comparison with the kept run and to keep; a run that keeps nothing goes
    // straight to the slots below.
    std::vector<Water_out> now;
    if (keep || again) {
        now.resize(count);
        parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            for (std::uint32_t s = begin; s < end; ++s)
                now[s] = water_of(s);
        });
    }
    if (again && water_versions(world) == k.written) {
        // The layers still hold the kept run's water: only the vertices whose water changed
        // are written, and each changed outflow moves between two edges.
        std::vector<std::uint32_t> differ;
        for (std::uint32_t s = 0; s < count; ++s)
            if (!same_water(k.water[s], now[s])) differ.push_back(s);
        if (!differ.empty()) {
            auto [ocean_out, lake_out, level_out, discharge_out, basin_out, runoff_out] =
                world.lock_layer(ocean_layer, lake_layer, water_level_layer, discharge_layer,
                                 basin_layer, runoff_layer);
            const auto edge_to = [&](std::uint32_t a, std::uint32_t b) {
                for (const Edge e : Vertex{a}.edges(m))
                    if (e.dest(m).index() == b) return e;
                throw std::logic_error("hydrology: a receiver is not a neighbour");
            };
            for (const std::uint32_t s : differ) {
                const Water_out& was = k.water[s];
                const Water_out& is = now[s];
                const std::uint32_t slot = slot_of[s];
                const Vertex v{slot};
                if (was.down != is.down || !same_bits(was.flow, is.flow)) {
                    if (was.down != none) discharge_out[edge_to(slot, was.down)] = 0.f;
                    if (is.down != none) discharge_out[edge_to(slot, is.down)] = is.flow;
                }
                if (was.ocean != is.ocean) ocean_out[v] = is.ocean;
                if (was.lake != is.lake) lake_out[v] = is.lake;
                if (!same_bits(was.level, is.level)) level_out[v] = is.level;
                if (was.basin != is.basin) basin_out[v] = is.basin;
                if (!same_bits(was.runoff, is.runoff)) runoff_out[v] = is.runoff;
            }
        }
    } else {
        // The vertex layers' values put back at the vertices' slots in one pass (scattered
        // writes, which do not stall as scattered reads do), so that the layers are then
        // written reading in slot order. 16 bytes a vertex: the ocean is where the basin is
        // -1 (the basin layer's own rule), and the discharge goes by id below. Dead slots stay
        // unset and unread.
        struct Vertex_water {
            float runoff, level;
            std::int32_t lake, basin;
        };
        Scratch_vector<Vertex_water> by_slot;
        by_slot.resize(slots);
        parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            for (std::uint32_t s = begin; s < end; ++s) {
                const Water_out w = now.empty() ? water_of(s) : now[s];
                by_slot[slot_of[s]] = {w.runoff, w.level, w.lake, w.ocean ? -1 : w.basin};
            }
        });
        // One pass over the quad-edges sets both directions of each; the chunk of edge slots
        // 2q and 2q + 1 is the same (chunks hold an even number of values). Water leaves a
        // along edge (a, b) when b is its receiver, which is never so on the ocean and at
        // sinks (their own receivers). A new run kept the edges' ends by id from the adjacency
        // (8 bytes a quad-edge, read in sequence, where the mesh's records are 32).
        const auto discharge_of = [&](std::uint32_t a, std::uint32_t b) {
            return receiver[a] == b ? float(out_flow[a]) : 0.f;
        };
        const auto discharge_values = [&](std::size_t first, std::span<float> out) {
            const auto begin = std::uint32_t(first / 2),
                       end = std::uint32_t((first + out.size()) / 2);
            const std::vector<std::uint32_t>& id_of = k.numbering.id_of;
            for (std::uint32_t q = begin; q < end; ++q) {
                std::uint32_t a, b;
                if (!ends.empty()) {
                    // Layers may hold more slots than the mesh.
                    if (q >= ends.size() || ends[q][0] == none) continue;
                    a = ends[q][0];
                    b = ends[q][1];
                } else {
                    const Edge e{2 * q};
                    if (!m.contains(e)) continue;
                    a = id_of[e.origin(m).index()];
                    b = id_of[e.dest(m).index()];
                }
                const std::size_t i = 2 * std::size_t(q) - first;
                out[i] = discharge_of(a, b);
                out[i + 1] = discharge_of(b, a);
            }
        };
        // Dead slots keep their values.
        const auto vertex_values = [&](auto value_of) {
            return [&, value_of](std::size_t first, auto out) {
                for (std::size_t i = 0; i < out.size(); ++i) {
                    const auto s = std::uint32_t(first + i);
                    if (live[s]) out[i] = value_of(by_slot[s]);
                }
            };
        };
        const auto ocean_of = [](const Vertex_water& v) { return v.basin == -1; };
        const auto lake_of_vertex = [](const Vertex_water& v) { return v.lake; };
        const auto level_of = [](const Vertex_water& v) { return v.level; };
        const auto basin_of = [](const Vertex_water& v) { return v.basin; };
        const auto runoff_of = [](const Vertex_water& v) { return v.runoff; };
        const auto* ocean_in = world.layer(ocean_layer);
        const auto* lake_in = world.layer(lake_layer);
        const auto* level_in = world.layer(water_level_layer);
        const auto* discharge_in = world.layer(discharge_layer);
        const auto* basin_in = world.layer(basin_layer);
        const auto* runoff_in = world.layer(runoff_layer);
        if (ocean_in && lake_in && level_in && discharge_in && basin_in && runoff_in) {
            // Layers that would not change are not even locked, so their versions (and what
            // was computed from them) stay.
            const auto ocean_new = changed_chunks(*ocean_in, vertex_values(ocean_of));
            const auto lake_new = changed_chunks(*lake_in, vertex_values(lake_of_vertex));
            const auto level_new = changed_chunks(*level_in, vertex_values(level_of));
            const auto discharge_new = changed_chunks(*discharge_in, discharge_values);
            const auto basin_new = changed_chunks(*basin_in, vertex_values(basin_of));
            const auto runoff_new = changed_chunks(*runoff_in, vertex_values(runoff_of));
            if (any_changed(ocean_new) || any_changed(lake_new) || any_changed(level_new) ||
                any_changed(discharge_new) || any_changed(basin_new) || any_changed(runoff_new)) {
                auto [ocean_out, lake_out, level_out, discharge_out, basin_out, runoff_out] =
                    world.lock_layer(ocean_layer, lake_layer, water_level_layer, discharge_layer,
                                     basin_layer, runoff_layer);
                write_changed_chunks(ocean_out, ocean_new);
                write_changed_chunks(lake_out, lake_new);
                write_changed_chunks(level_out, level_new);
                write_changed_chunks(discharge_out, discharge_new);
                write_changed_chunks(basin_out, basin_new);
                write_changed_chunks(runoff_out, runoff_new);
            }
        } else if (!ocean_in && !lake_in && !level_in && !discharge_in && !basin_in && !runoff_in) {
            // A first run: the layers' memory is written once, on two threads, with no
            // initial fill to compare against and copy over.
            const auto every_value = [&](const auto& info, auto value_of) {
                return [&, value_of](std::size_t first, auto out) {
                    for (std::size_t i = 0; i < out.size(); ++i) {
                        const std::size_t s = first + i;
                        out[i] = s < slots && live[s] ? value_of(by_slot[s]) : info.initial_value();
                    }
                };
            };
            auto ocean_out = world.lock_new_layer(ocean_layer);
            auto lake_out = world.lock_new_layer(lake_layer);
            auto level_out = world.lock_new_layer(water_level_layer);
            auto discharge_out = world.lock_new_layer(discharge_layer);
            auto basin_out = world.lock_new_layer(basin_layer);
            auto runoff_out = world.lock_new_layer(runoff_layer);
            parallel_chunks(ocean_out, every_value(ocean_layer, ocean_of));
            parallel_chunks(lake_out, every_value(lake_layer, lake_of_vertex));
            parallel_chunks(level_out, every_value(water_level_layer, level_of));
            parallel_chunks(discharge_out, [&](std::size_t first, std::span<float> out) {
                // Dead quad-edges (and any slots past the mesh's) hold the initial 0.
                std::fill(out.begin(), out.end(), discharge_layer.initial_value());
                discharge_values(first, out);
            });
            parallel_chunks(basin_out, every_value(basin_layer, basin_of));
            parallel_chunks(runoff_out, every_value(runoff_layer, runoff_of));
        } else {
            auto [ocean_out, lake_out, level_out, discharge_out, basin_out, runoff_out] =
                world.lock_layer(ocean_layer, lake_layer, water_level_layer, discharge_layer,
                                 basin_layer, runoff_layer);
            parallel_changed_chunks(ocean_out, vertex_values(ocean_of));
            parallel_changed_chunks(lake_out, vertex_values(lake_of_vertex));
            parallel_changed_chunks(level_out, vertex_values(level_of));
            parallel_changed_chunks(discharge_out, discharge_values);
            parallel_changed_chunks(basin_out, vertex_values(basin_of));
            parallel_changed_chunks(runoff_out, vertex_values(runoff_of));
        }
    }
    if (keep) {
        k.water = std::move(now);
        k.written = water_versions(world);
    }
    {
        auto dict = world.lock_layer(hydrology_dict_name);
        Dict_array lake_level, lake_area, lake_inflow, lake_evaporation, lake_outlet,
            lake_endorheic;
        std::size_t endorheic = 0;
        for (const Lake& lake : lakes) {
            lake_level.emplace_back(lake.level);
            lake_area.emplace_back(lake.area * 1e-6);
            lake_inflow.emplace_back(lake.inflow);
            lake_evaporation.emplace_back(lake.evaporation);
            lake_outlet.emplace_back(lake.endorheic ? std::int64_t(-1)
                                                    : std::int64_t(slot_of[lake.outlet]));
            lake_endorheic.emplace_back(lake.endorheic);
            endorheic += lake.endorheic;
        }
        dict->set("count", std::int64_t(lakes.size()));
        dict->set("level", std::move(lake_level));
        dict->set("area", std::move(lake_area));
        dict->set("inflow", std::move(lake_inflow));
        dict->set("evaporation", std::move(lake_evaporation));
        dict->set("outlet", std::move(lake_outlet));
        dict->set("endorheic", std::move(lake_endorheic));
        dict->set("ocean_inflow", ocean_inflow);
        dict->set("endorheic_evaporation", sink_evaporation);
        dict->set("runoff", total_runoff);
        (void)endorheic;
    }
    Dict report;
    std::int64_t endorheic = 0;
    for (const Lake& lake : lakes)
        endorheic += lake.endorheic;
    report.set("lakes", std::int64_t(lakes.size()));
    report.set("endorheic_lakes", endorheic);
    report.set("basins", std::int64_t(basin_area.size()));
    report.set("ocean_fraction", double(ocean_count) / double(m.vertex_count()));
    report.set("ocean_inflow", ocean_inflow);
    report.set("max_discharge", max_discharge);
    if (keep) {
        memory_.put(std::move(kept));
    }
    return report;
}

} // namespace orbis::gen
