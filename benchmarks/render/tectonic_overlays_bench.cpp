// SPDX-License-Identifier: MIT
// The tectonic overlays at 1,000,000 vertices: plate boundary lines and velocity arrows built
// from a world after the default pipeline's plates and one tectonics step, as the viewport
// rebuilds them after every step of the timeline.
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/tectonics_module.hpp>
#include <orbis/render/buffer_cache.hpp>
#include <orbis/render/mesh_buffers.hpp>
#include <orbis/render/tectonic_overlays.hpp>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <algorithm>
#include <map>
#include <memory>

namespace {

using namespace orbis;

// The default pipeline's sphere and plates at `n` points, moved one tectonics step (which
// writes velocity and classifies the boundaries again); built once per size.
const World& simulated_world(std::int64_t n) {
    static std::map<std::int64_t, std::unique_ptr<World>> cache;
    auto& slot = cache[n];
    if (!slot) {
        gen::Pipeline p = gen::default_pipeline();
        std::erase_if(p.steps, [](const gen::Pipeline_step& s) {
            return s.module != "sphere" && s.module != "plates" && s.module != "elevation";
        });
        gen::override_parameter(p, gen::builtin_modules(), "count", Dict_value(n), "sphere");
        slot = std::make_unique<World>();
        gen::run_pipeline(*slot, p, gen::builtin_modules());
        gen::tectonic_step(*slot, gen::Tectonics_params{});
    }
    return *slot;
}

/// Plate boundary segments of every boundary edge, from positions already flattened.
void plate_boundary_lines(benchmark::State& state) {
    const World& world = simulated_world(state.range(0));
    const auto positions = render::vertex_positions(world);
    const auto& kinds = *render::plate_boundary_layer(world);
    render::Boundary_lines out;
    for (auto _ : state) {
        render::plate_boundary_lines(world.mesh(), positions, kinds,
                                     world.hints(render::plate_boundary_layer_name), out);
        benchmark::DoNotOptimize(out.positions.data());
    }
    state.counters["segments"] = double(out.edge_of.size());
}

/// Velocity arrows at the view's default count, from positions already flattened.
void velocity_arrows(benchmark::State& state) {
    const World& world = simulated_world(state.range(0));
    const auto positions = render::vertex_positions(world);
    const auto& velocity = *render::velocity_layer(world);
    render::Velocity_arrows out;
    for (auto _ : state) {
        render::velocity_arrows(world.mesh(), positions, velocity,
                                render::default_max_velocity_arrows, out);
        benchmark::DoNotOptimize(out.positions.data());
    }
    state.counters["arrows"] = double(out.vertex_of.size());
}

/// Both overlays after a step: a fresh cache per iteration, so that the positions are
/// flattened again too (what a new World state costs the viewport's worker thread).
void overlays_after_step(benchmark::State& state) {
    const World& world = simulated_world(state.range(0));
    for (auto _ : state) {
        render::Buffer_cache cache;
        benchmark::DoNotOptimize(cache.plate_boundaries(world).positions.data());
        benchmark::DoNotOptimize(
            cache.velocity_arrows(world, render::default_max_velocity_arrows).positions.data());
    }
}

} // namespace

BENCHMARK(plate_boundary_lines)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(velocity_arrows)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(overlays_after_step)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
ORBIS_BENCHMARK_MAIN()
