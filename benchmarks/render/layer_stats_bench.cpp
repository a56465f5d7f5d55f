// SPDX-License-Identifier: MIT
// The Layers dock's statistics of every layer (render::all_layer_stats), which the editor
// computes when a world opens and after each pause in editing: the default pipeline's terrain
// at 1,000,000 points, or the world file named by ORBIS_STATS_WORLD (e.g. a 10M world).
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/io/world_file.hpp>
#include <orbis/render/layer_stats.hpp>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <cstdlib>
#include <memory>

namespace {

using namespace orbis;

const World& stats_world() {
    static std::unique_ptr<World> world;
    if (!world) {
        if (const char* path = std::getenv("ORBIS_STATS_WORLD")) {
            world = std::make_unique<World>(io::load_world(path));
        } else {
            gen::Pipeline p = gen::default_pipeline();
            std::erase_if(p.steps, [](const gen::Pipeline_step& s) {
                return s.module != "sphere" && s.module != "plates" && s.module != "elevation" &&
                       s.module != "refine" && s.module != "plate_boundaries";
            });
            gen::override_parameter(p, gen::builtin_modules(), "count",
                                    Dict_value(std::int64_t{1'000'000}), "sphere");
            world = std::make_unique<World>();
            gen::run_pipeline(*world, p, gen::builtin_modules());
        }
    }
    return *world;
}

/// Every layer's count, range, mean and histogram.
void all_layer_stats(benchmark::State& state) {
    const World& world = stats_world();
    for (auto _ : state) {
        auto stats = render::all_layer_stats(world);
        benchmark::DoNotOptimize(stats.data());
    }
    state.counters["vertices"] = double(world.mesh().vertex_count());
}

/// What the dock pays after a brush stroke on elevation: the figures from before the stroke
/// are passed in, and only the stroked layer is read again.
void all_layer_stats_after_a_stroke(benchmark::State& state) {
    World world = stats_world();
    const std::vector<render::Layer_stats> before = render::all_layer_stats(world);
    {
        auto [e] = world.lock_layer(Layer_info<float, Layer_type::vertex>("elevation"));
        e[*world.mesh().vertices().begin()] += 1.f;
    }
    for (auto _ : state) {
        auto stats = render::all_layer_stats(world, 32, before);
        benchmark::DoNotOptimize(stats.data());
    }
}

} // namespace

BENCHMARK(all_layer_stats)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(all_layer_stats_after_a_stroke)->Unit(benchmark::kMillisecond)->UseRealTime();
ORBIS_BENCHMARK_MAIN()
