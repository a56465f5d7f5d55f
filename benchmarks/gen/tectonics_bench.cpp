// SPDX-License-Identifier: MIT
// Plates that move (issue 18): one tectonics step at 100,000 and 1,000,000 vertices, split into
// motion, boundary processes and mesh repair with the counts of flips, splits and collapses; the
// same points triangulated from scratch by CGAL's Delaunay_triangulation_on_sphere_2 as the
// yardstick, alone and alternating with the step; the rebuild of last resort that a step ending
// with a fold makes (rebuild_delaunay); and the memory a kept timeline step costs beyond its
// neighbour.
//
// The world is the default pipeline's sphere, plates and elevation (no refine, so the vertex count
// is the sphere's), run 10 steps first so the boundaries have their working shape; every
// iteration then steps a copy-on-write copy of it, so only the step itself is timed.
#include <orbis/core/world.hpp>
#include <orbis/gen/delaunay_module.hpp>
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/tectonics_module.hpp>

#include <CGAL/Delaunay_triangulation_on_sphere_2.h>
#include <CGAL/Delaunay_triangulation_on_sphere_traits_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <string>

namespace {

using namespace orbis;
using namespace orbis::gen;

// The default pipeline's first three steps at n points, then 10 steps of tectonics (cached).
const World& warmed_up(std::int64_t n) {
    static std::map<std::int64_t, std::unique_ptr<World>> cache;
    auto& slot = cache[n];
    if (!slot) {
        Pipeline pipeline = default_pipeline();
        pipeline.steps.resize(3); // sphere, plates, elevation
        pipeline.steps.front().params.set("count", n);
        slot = std::make_unique<World>();
        run_pipeline(*slot, pipeline, builtin_modules());
        for (int i = 0; i < 10; ++i)
            tectonic_step(*slot, Tectonics_params{});
    }
    return *slot;
}

void step(benchmark::State& state) {
    const World& start = warmed_up(state.range(0));
    Tectonic_step_stats total;
    std::int64_t steps = 0;
    for (auto _ : state) {
        World world = start;
        const Tectonic_step_stats s = tectonic_step(world, Tectonics_params{});
        total.motion_ms += s.motion_ms;
        total.boundary_ms += s.boundary_ms;
        total.repair_ms += s.repair_ms;
        total.substeps += s.substeps;
        total.flips += s.flips;
        total.splits += s.splits;
        total.collapses += s.collapses;
        ++steps;
        state.PauseTiming();
        world = World(); // freeing the copy's private chunks is not the step's cost
        state.ResumeTiming();
    }
    const double n = double(steps);
    state.counters["motion_ms"] = total.motion_ms / n;
    state.counters["boundary_ms"] = total.boundary_ms / n;
    state.counters["repair_ms"] = total.repair_ms / n;
    state.counters["substeps"] = double(total.substeps) / n;
    state.counters["flips"] = double(total.flips) / n;
    state.counters["splits"] = double(total.splits) / n;
    state.counters["collapses"] = double(total.collapses) / n;
    state.counters["vertices"] = double(start.mesh().vertex_count());
}

using Cgal_kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Cgal_point = Cgal_kernel::Point_3;

// The World's vertex positions as unit vectors, in vertex order.
std::vector<Cgal_point> cgal_points(const World& world) {
    std::vector<Cgal_point> points;
    const auto& position = *world.layer(position_layer);
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p(position[v]);
        const double length = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
        points.emplace_back(p.x / length, p.y / length, p.z / length);
    }
    return points;
}

// CGAL's spherical Delaunay triangulation of `points` from scratch.
void triangulate_with_cgal(const std::vector<Cgal_point>& points) {
    using Traits = CGAL::Delaunay_triangulation_on_sphere_traits_2<Cgal_kernel>;
    using Triangulation = CGAL::Delaunay_triangulation_on_sphere_2<Traits>;
    Triangulation triangulation(Traits(Cgal_point(CGAL::ORIGIN), 1.0));
    triangulation.insert(points.begin(), points.end());
    benchmark::DoNotOptimize(triangulation.number_of_faces());
}

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0 : n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// CGAL's spherical Delaunay triangulation of the same points, from scratch.
void cgal_triangulation(benchmark::State& state) {
    const World& world = warmed_up(state.range(0));
    const std::vector<Cgal_point> points = cgal_points(world);
    for (auto _ : state)
        triangulate_with_cgal(points);
    state.counters["vertices"] = double(points.size());
}

// One step and CGAL's triangulation of the same points, alternating: on a shared machine whose
// speed drifts over seconds, the ratio of each pair is steadier than the ratio of two medians
// taken apart. Reports the medians of the step, of CGAL and of the pairs' ratios.
void step_against_cgal(benchmark::State& state) {
    const World& start = warmed_up(state.range(0));
    const std::vector<Cgal_point> points = cgal_points(start);
    std::vector<double> step_ms, cgal_ms, ratios;
    for (auto _ : state) {
        World world = start;
        auto t0 = std::chrono::steady_clock::now();
        tectonic_step(world, Tectonics_params{});
        const double step = ms_between(t0, std::chrono::steady_clock::now());
        state.PauseTiming();
        world = World();
        state.ResumeTiming();
        t0 = std::chrono::steady_clock::now();
        triangulate_with_cgal(points);
        const double cgal = ms_between(t0, std::chrono::steady_clock::now());
        step_ms.push_back(step);
        cgal_ms.push_back(cgal);
        ratios.push_back(step / cgal);
    }
    state.counters["step_ms"] = median(step_ms);
    state.counters["cgal_ms"] = median(cgal_ms);
    state.counters["step_over_cgal"] = median(ratios);
    state.counters["vertices"] = double(start.mesh().vertex_count());
}

// The rebuild a step makes when a fold outlived its repairs: the live points triangulated from
// scratch and the connectivity replaced, on a copy of the world (what the step pays beyond its
// repairs, in the rare step that needs it).
void rebuild(benchmark::State& state) {
    const World& start = warmed_up(state.range(0));
    const auto& layer = *start.layer(position_layer);
    const std::vector<glm::vec3> positions(layer.begin(), layer.end());
    for (auto _ : state) {
        state.PauseTiming();
        World world = start;
        state.ResumeTiming();
        {
            auto lock = world.lock_mesh();
            benchmark::DoNotOptimize(rebuild_delaunay(lock, positions));
        }
        state.PauseTiming();
        world = World(); // freeing the rebuilt mesh is not the step's
        state.ResumeTiming();
    }
    state.counters["vertices"] = double(start.mesh().vertex_count());
}

// What keeping one more step in a timeline costs: the chunks a step writes that the step before
// it does not share.
void kept_step_memory(benchmark::State& state) {
    const World& start = warmed_up(state.range(0));
    double bytes = 0;
    std::int64_t count = 0;
    std::map<std::string, double> parts; // where the bytes go: the mesh and each layer
    for (auto _ : state) {
        World next = start;
        tectonic_step(next, Tectonics_params{});
        bytes += double(next.bytes_not_shared_with(start));
        parts["mesh"] += double(next.mesh().connectivity_bytes_not_shared_with(start.mesh()));
        for (const std::string& name : next.layer_names()) {
            const Layer_base* now = next.find_layer(name);
            const Layer_base* before = start.find_layer(name);
            if (now && now != before)
                parts[name] += double(before ? now->bytes_not_shared_with(*before) : now->bytes());
        }
        ++count;
    }
    state.counters["MB_per_kept_step"] = bytes / double(count) / 1e6;
    for (const auto& [name, part] : parts)
        if (part > 0) state.counters["MB_" + name] = part / double(count) / 1e6;
    state.counters["MB_world"] = double(start.memory().bytes) / 1e6;
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n"});
    b->Arg(100'000)->Arg(1'000'000);
    b->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true)->Iterations(1);
}

BENCHMARK(step)->Apply(sizes);
BENCHMARK(cgal_triangulation)->Apply(sizes);
BENCHMARK(rebuild)->Apply(sizes);
BENCHMARK(step_against_cgal)
    ->ArgNames({"n"})
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(9);
BENCHMARK(kept_step_memory)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

} // namespace

ORBIS_BENCHMARK_MAIN()
