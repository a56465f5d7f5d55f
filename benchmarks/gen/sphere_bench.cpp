// SPDX-License-Identifier: MIT
// Fibonacci points and spherical Delaunay triangulation at 100,000 and 1,000,000 points.
// Arguments: point count, perturbation in percent.
#include <cmath>
#include <vector>

#include <CGAL/Delaunay_triangulation_on_sphere_2.h>
#include <CGAL/Delaunay_triangulation_on_sphere_traits_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include "orbis/core/face_soup.hpp"
#include "orbis/gen/fibonacci_sphere.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

namespace {

using namespace orbis::gen;

Fibonacci_params params(const benchmark::State& state) {
    return {.count = static_cast<std::uint32_t>(state.range(0)),
            .perturbation = static_cast<float>(state.range(1)) / 100.f,
            .seed = 1};
}

void fibonacci(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(fibonacci_points(params(state)));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void delaunay(benchmark::State& state) {
    const auto points = fibonacci_points(params(state));
    for (auto _ : state)
        benchmark::DoNotOptimize(delaunay_on_sphere(points));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void delaunay_cgal(benchmark::State& state) {
    const auto points = fibonacci_points(params(state));
    for (auto _ : state)
        benchmark::DoNotOptimize(delaunay_on_sphere_cgal(points));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

/// The mesh built from the triangulation and its twins (the last step of make_sphere).
void mesh_from_triangulation(benchmark::State& state) {
    const auto points = fibonacci_points(params(state));
    const auto t = delaunay_on_sphere(points);
    for (auto _ : state)
        benchmark::DoNotOptimize(orbis::build_from_closed_triangulation(
            static_cast<std::uint32_t>(points.size()), t.triangles, t.opposite));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

/// The whole sphere: points, triangulation and mesh (what must beat CGAL's triangulation alone).
void whole_sphere(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(make_sphere(params(state)));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

/// Plain CGAL, as measured in the research notes: Delaunay_triangulation_on_sphere_2 with its
/// stock traits and range insert, on the same points as double-precision unit vectors, and no
/// conversion of the result. The baseline the whole sphere pipeline has to beat.
void cgal_stock(benchmark::State& state) {
    using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
    using Traits = CGAL::Delaunay_triangulation_on_sphere_traits_2<Kernel>;
    using Triangulation = CGAL::Delaunay_triangulation_on_sphere_2<Traits>;
    std::vector<Kernel::Point_3> points;
    for (const glm::vec3& p : fibonacci_points(params(state))) {
        const double length = std::sqrt(double(p.x) * p.x + double(p.y) * p.y + double(p.z) * p.z);
        points.emplace_back(p.x / length, p.y / length, p.z / length);
    }
    for (auto _ : state) {
        Triangulation triangulation(Traits(Kernel::Point_3(CGAL::ORIGIN), 1.0));
        triangulation.insert(points.begin(), points.end());
        benchmark::DoNotOptimize(triangulation.number_of_faces());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "perturbation_pct"});
    for (std::int64_t n : {100'000, 1'000'000}) {
        for (std::int64_t perturbation : {0, 50})
            b->Args({n, perturbation});
    }
    b->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

BENCHMARK(fibonacci)->Apply(sizes);
BENCHMARK(delaunay)->Apply(sizes);
BENCHMARK(delaunay_cgal)->Apply(sizes);
BENCHMARK(mesh_from_triangulation)->Apply(sizes);
BENCHMARK(whole_sphere)->Apply(sizes);
BENCHMARK(cgal_stock)->Apply(sizes);

} // namespace

ORBIS_BENCHMARK_MAIN()
