// SPDX-License-Identifier: MIT
// Picking latency: random rays and coherent hover rays at 100,000 and 1,000,000 vertices.
#include <orbis/gen/sphere.hpp>
#include <orbis/render/picking.hpp>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <glm/geometric.hpp>

#include <cmath>
#include <random>
#include <vector>

namespace {

using namespace orbis;

const World& world_of(std::int64_t n) {
    static std::int64_t made = 0;
    static World world;
    if (made != n) {
        world =
            gen::make_sphere_world({.count = std::uint32_t(n), .perturbation = 0.5f, .seed = 1});
        made = n;
    }
    return world;
}

// Rays from a camera at 3 radii towards random points of the sphere's front half.
std::vector<render::Ray> random_rays(std::size_t count) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal;
    std::vector<render::Ray> rays;
    while (rays.size() < count) {
        const glm::dvec3 target = glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
        const glm::dvec3 camera = 3.0 * glm::normalize(target + glm::dvec3(0.3, 0.2, 0.1));
        rays.push_back({camera, target - camera});
    }
    return rays;
}

// A mouse sweeping across the globe: each ray a small step from the last.
std::vector<render::Ray> hover_rays(std::size_t count) {
    std::vector<render::Ray> rays;
    const glm::dvec3 camera(0, 0.5, 3);
    for (std::size_t i = 0; i < count; ++i) {
        const double t = double(i) / double(count);
        const glm::dvec3 target(std::sin(6.0 * t) * 0.8, std::cos(5.0 * t) * 0.7, 1.0);
        rays.push_back({camera, target - camera});
    }
    return rays;
}

/// One pick from the index per ray, random directions.
void pick_random(benchmark::State& state) {
    const World& world = world_of(state.range(0));
    const render::Picker picker(world);
    const auto rays = random_rays(4096);
    std::size_t i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(picker.pick(world, rays[i++ % rays.size()]));
}

/// Picks along a mouse path, each starting from the previous pick's face.
void pick_hover(benchmark::State& state) {
    const World& world = world_of(state.range(0));
    const render::Picker picker(world);
    const auto rays = hover_rays(4096);
    std::size_t i = 0;
    Face hint = no_face;
    for (auto _ : state) {
        const auto pick = picker.pick(world, rays[i++ % rays.size()], hint);
        hint = pick ? pick->face : no_face;
        benchmark::DoNotOptimize(pick);
    }
}

/// Building the picker's index from a World.
void picker_build(benchmark::State& state) {
    const World& world = world_of(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(render::Picker(world));
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgName("n")->Arg(100'000)->Arg(1'000'000)->Repetitions(5)->ReportAggregatesOnly(true);
}

} // namespace

BENCHMARK(pick_random)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(pick_hover)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(picker_build)->Apply(sizes)->Unit(benchmark::kMillisecond);

ORBIS_BENCHMARK_MAIN()
