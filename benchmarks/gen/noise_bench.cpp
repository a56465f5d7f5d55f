// SPDX-License-Identifier: MIT
// Fractal noise on points of the unit sphere: one point at a time (operator()) against the batch
// (evaluate(), four points per AVX2 vector where the processor has them), interleaved in one run.
#include <benchmark/benchmark.h>

#include <glm/geometric.hpp>

#include <random>
#include <vector>

#include "orbis/gen/noise.hpp"

namespace {

using orbis::gen::Fractal_noise;

// 100,000 directions, uniform on the sphere, fixed by the seed.
const std::vector<glm::dvec3>& sphere_points() {
    static const std::vector<glm::dvec3> points = [] {
        std::mt19937_64 random(11);
        std::normal_distribution<double> normal;
        std::vector<glm::dvec3> out(100'000);
        for (glm::dvec3& p : out)
            p = glm::normalize(glm::dvec3(normal(random), normal(random), normal(random)));
        return out;
    }();
    return points;
}

// The elevation module's hill noise: eight octaves.
const Fractal_noise& hill_noise() {
    static const Fractal_noise noise({9, 8, 3.0, 2.0, 0.5});
    return noise;
}

void noise_one_by_one(benchmark::State& state) {
    const auto& points = sphere_points();
    std::vector<double> out(points.size());
    for (auto _ : state) {
        for (std::size_t i = 0; i < points.size(); ++i)
            out[i] = hill_noise()(points[i]);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["ns_per_point"] =
        benchmark::Counter(double(points.size()), benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}
BENCHMARK(noise_one_by_one)->Unit(benchmark::kMillisecond);

void noise_batch(benchmark::State& state) {
    const auto& points = sphere_points();
    std::vector<double> out(points.size());
    for (auto _ : state) {
        hill_noise().evaluate(points, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["ns_per_point"] =
        benchmark::Counter(double(points.size()), benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}
BENCHMARK(noise_batch)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
