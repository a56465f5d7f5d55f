// SPDX-License-Identifier: MIT
// Water and climate (issue 17): each module alone on the default world's terrain at 1M and
// 10M sphere points, one erosion iteration, and hydrology again after a 200 km brush stroke.
// The terrain (the default pipeline up to plate_boundaries) is built once per size; every
// iteration runs on a copy-on-write copy, so only the module's own work is timed.
#include <orbis/core/world.hpp>
#include <orbis/edit/brush.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/flow_routing.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/refresh.hpp>
#include <orbis/gen/run_memory.hpp>
#include <orbis/gen/spatial_order.hpp>
#include <orbis/gen/vertex_adjacency.hpp>
#include <orbis/gen/world_ocean.hpp>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::gen;
using Clock = std::chrono::steady_clock;

// The default pipeline's steps up to and including `last`, with the sphere at `n` points.
Pipeline steps_through(std::int64_t n, std::string_view last) {
    Pipeline full = default_pipeline();
    Pipeline out;
    for (auto& step : full.steps) {
        if (step.module == "sphere") step.params.set("count", n);
        out.steps.push_back(step);
        if (step.module == last) return out;
    }
    // Steps the default pipeline does not (yet) run: add them after it.
    for (const std::string_view extra : {"climate", "hydrology", "biome"}) {
        out.steps.push_back({.module = std::string(extra),
                             .params = complete_parameters(*builtin_modules().find(extra), {})});
        if (extra == last) break;
    }
    return out;
}

// The world after the default pipeline's steps through `last` (cached per size and step).
const World& world_through(std::int64_t n, const std::string& last) {
    static std::map<std::pair<std::int64_t, std::string>, std::unique_ptr<World>> cache;
    auto& slot = cache[{n, last}];
    if (!slot) {
        slot = std::make_unique<World>();
        run_pipeline(*slot, steps_through(n, last), builtin_modules());
    }
    return *slot;
}

// Runs module `name` with its defaults (plus `params`) on a copy of the world through `after`.
void run_alone(benchmark::State& state, const std::string& name, const std::string& after,
               const Dict& params = {}) {
    const World& base = world_through(state.range(0), after);
    const Module* module = builtin_modules().find(name);
    for (auto _ : state) {
        World world = base;
        const auto start = Clock::now();
        run_module(world, *module, params);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    }
    state.counters["vertices"] = double(base.mesh().vertex_count());
    state.counters["ns_per_vertex"] = benchmark::Counter(
        double(base.mesh().vertex_count()),
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void climate(benchmark::State& state) { run_alone(state, "climate", "plate_boundaries"); }
void hydrology(benchmark::State& state) {
    run_alone(state, "hydrology",
              std::getenv("ORBIS_BENCH_NO_CLIMATE") ? "plate_boundaries" : "climate");
}
void biome(benchmark::State& state) { run_alone(state, "biome", "hydrology"); }
void erosion_iteration(benchmark::State& state) {
    Dict params;
    params.set("iterations", std::int64_t(1));
    run_alone(state, "erosion", "plate_boundaries", params);
}

// The priority-flood alone (gen::route_flow, the largest part of `hydrology`) on the default
// world's terrain, with the ocean as outlets; the inputs are built once, outside the timing.
void route_flow_alone(benchmark::State& state) {
    const World& base = world_through(state.range(0), "plate_boundaries");
    const Vertex_adjacency g = vertex_adjacency(base.mesh(), Neighbour_order::edge_scan);
    std::vector<float> height(g.slots(), 0.f);
    const auto& elevation = *base.layer(elevation_layer);
    for (const Vertex v : base.mesh().vertices())
        height[v.index()] = elevation[v];
    const std::vector<std::uint8_t> ocean = world_ocean(g, height);
    for (auto _ : state) {
        const auto start = Clock::now();
        const Flow_tree tree = route_flow(g, height, ocean);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
        benchmark::DoNotOptimize(tree.order.data());
    }
    state.counters["vertices"] = double(base.mesh().vertex_count());
}

// The same flood on ids along a space-filling curve, as `hydrology` runs it (gen::spatial_order,
// gen::renumbered_adjacency; the renumbering is built outside the timing): the same filled
// surface, with neighbours near in memory.
void route_flow_renumbered(benchmark::State& state) {
    const World& base = world_through(state.range(0), "plate_boundaries");
    const Mesh& m = base.mesh();
    std::vector<std::uint8_t> live(m.vertex_slots(), 0);
    std::vector<glm::vec3> where(m.vertex_slots(), glm::vec3(0));
    std::vector<float> height_by_slot(m.vertex_slots(), 0.f);
    const auto& elevation = *base.layer(elevation_layer);
    const auto& position = *base.layer(position_layer);
    for (const Vertex v : m.vertices()) {
        live[v.index()] = 1;
        where[v.index()] = position[v];
        height_by_slot[v.index()] = elevation[v];
    }
    const Spatial_order o = spatial_order(where, live);
    const auto count = std::uint32_t(o.slot_of.size());
    std::vector<float> height(count);
    for (std::uint32_t i = 0; i < count; ++i)
        height[i] = height_by_slot[o.slot_of[i]];
    const Vertex_adjacency g = renumbered_adjacency(m, o.id_of, count);
    const std::vector<std::uint8_t> ocean = world_ocean(g, height, o.slot_of, 0.f, 0.002);
    for (auto _ : state) {
        const auto start = Clock::now();
        const Flow_tree tree = route_flow(g, height, ocean, 0.f);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
        benchmark::DoNotOptimize(tree.order.data());
    }
    state.counters["vertices"] = double(count);
}

// The stroke both live water benchmarks time the water after: ten 200 km dabs lowering the
// terrain by 500 m, 50 km apart, from the first vertex.
void stroke(World& world) {
    const glm::dvec3 centre((*world.layer(position_layer))[*world.mesh().vertices().begin()]);
    edit::Brush brush;
    brush.layer = "elevation";
    brush.mode = edit::Brush_mode::lower;
    brush.radius_km = 200;
    brush.strength = 500;
    for (int d = 0; d < 10; ++d)
        edit::apply_dab(world, brush, centre + glm::dvec3(50.0 * d, 0, 0));
}

// Live water (issue 17): after a 200 km brush stroke that lowers the terrain, the stale water
// and climate steps run again (gen::refresh_stale_steps, what the editor's Live_water runs off
// the GUI thread). The stroke itself is not timed.
void live_water_after_stroke(benchmark::State& state) {
    const World& base = world_through(state.range(0), "biome");
    std::size_t ran = 0;
    for (auto _ : state) {
        World world = base;
        stroke(world);
        const auto start = Clock::now();
        ran = refresh_stale_steps(world, builtin_modules(), live_water_modules);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    }
    state.counters["steps_rerun"] = double(ran);
    state.counters["vertices"] = double(base.mesh().vertex_count());
}

// The same with run memory on, as in the editor: climate and hydrology keep what they computed
// for the world before the stroke (re-running them on it, untimed, sets that state and leaves
// the layers they wrote), and the timed refresh redoes what the stroke reaches.
void live_water_with_run_memory(benchmark::State& state) {
    const World& base = world_through(state.range(0), "biome");
    set_run_memory_limit(std::numeric_limits<std::uint32_t>::max());
    std::size_t ran = 0;
    for (auto _ : state) {
        // The world as the last live water update left it: its layers are what the modules
        // kept.
        World world = base;
        for (const Step_record& step : base.provenance().steps)
            if (std::find(live_water_modules.begin(), live_water_modules.end(), step.module) !=
                live_water_modules.end())
                run_module(world, *builtin_modules().find(step.module), step.params);
        stroke(world);
        const auto start = Clock::now();
        ran = refresh_stale_steps(world, builtin_modules(), live_water_modules);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    }
    set_run_memory_limit(0);
    state.counters["steps_rerun"] = double(ran);
    state.counters["vertices"] = double(base.mesh().vertex_count());
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n"})->Arg(1'000'000);
    // 10M takes minutes to set up; ORBIS_BENCH_10M=1 adds it.
    if (std::getenv("ORBIS_BENCH_10M")) b->Arg(10'000'000);
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

} // namespace

BENCHMARK(climate)->Apply(sizes);
BENCHMARK(hydrology)->Apply(sizes);
BENCHMARK(route_flow_alone)->Apply(sizes);
BENCHMARK(route_flow_renumbered)->Apply(sizes);
BENCHMARK(biome)->Apply(sizes);
BENCHMARK(erosion_iteration)->Apply(sizes);
BENCHMARK(live_water_after_stroke)->Apply(sizes);
BENCHMARK(live_water_with_run_memory)->Apply(sizes);

ORBIS_BENCHMARK_MAIN()
