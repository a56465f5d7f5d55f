// SPDX-License-Identifier: MIT
// Selections on 1M- and 10M-vertex spheres: picking, statistics, refine and coarsen of a region.
#include "orbis/edit/selection.hpp"

#include "orbis/gen/sphere.hpp"

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <glm/geometric.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::edit;

constexpr double radius_km = 6371.0;
constexpr auto height =
    Layer_info<float, Layer_type::vertex>("height").interpolation(Interpolation::lerp);
constexpr auto cover = Layer_info<float, Layer_type::face>("cover");

// Built once per size: the 10M sphere takes seconds and about 3 GB, and every benchmark
// shares it (copies are copy-on-write snapshots).
const World& sphere(std::uint32_t n) {
    static std::map<std::uint32_t, World> cache;
    auto it = cache.find(n);
    if (it == cache.end()) {
        World w = gen::make_sphere_world(
            {.count = n, .radius = float(radius_km), .perturbation = 0.5f, .seed = 3});
        {
            auto [h, c] = w.lock_layer(height, cover);
            for (const Vertex v : w.mesh().vertices())
                h[v] = float(std::sin(0.001 * v.index()) * 1000);
            for (const Face f : w.mesh().faces())
                c[f] = float(f.index() % 100);
        }
        it = cache.emplace(n, std::move(w)).first;
    }
    return it->second;
}

glm::dvec3 lat_lon(double lat_deg, double lon_deg) {
    const double lat = lat_deg * std::numbers::pi / 180, lon = lon_deg * std::numbers::pi / 180;
    return {radius_km * std::cos(lat) * std::cos(lon), radius_km * std::sin(lat),
            -radius_km * std::cos(lat) * std::sin(lon)};
}

// The typical edge length of an n-vertex sphere: equilateral triangles of the same area.
double edge_km(std::uint32_t n) {
    const double cell = 4 * std::numbers::pi * radius_km * radius_km / n;
    return std::sqrt(2 * cell / std::sqrt(3.0));
}

// A wobbly 48-point lasso about `diameter_km` across, around (lat, lon).
std::vector<glm::dvec3> lasso_around(double lat, double lon, double diameter_km) {
    const glm::dvec3 c = glm::normalize(lat_lon(lat, lon));
    const glm::dvec3 e1 = glm::normalize(glm::cross(c, glm::dvec3(0, 1, 0)));
    const glm::dvec3 e2 = glm::cross(c, e1);
    std::vector<glm::dvec3> out;
    for (int i = 0; i < 48; ++i) {
        const double a = 2 * std::numbers::pi * i / 48;
        const double r = 0.5 * diameter_km / radius_km * (1 + 0.2 * std::sin(5 * a));
        out.push_back(c + std::tan(r) * (std::cos(a) * e1 + std::sin(a) * e2));
    }
    return out;
}

void select_disc_bench(benchmark::State& state) {
    const World& w = sphere(std::uint32_t(state.range(0)));
    const double r = double(state.range(1));
    const bool hint = state.range(2) != 0;
    // Without a hint the walk starts at a pole (O(sqrt n) steps); a brush passes its last dab.
    const Vertex start = hint ? select_disc(w, lat_lon(20, 30), 60).front() : no_vertex;
    std::size_t count = 0;
    for (auto _ : state) {
        const auto s = select_disc(w, lat_lon(20, 30), r, start);
        count = s.size();
        benchmark::DoNotOptimize(s.data());
    }
    state.counters["selected"] = double(count);
}

void select_lasso_bench(benchmark::State& state) {
    const World& w = sphere(std::uint32_t(state.range(0)));
    const auto lasso = lasso_around(-35, 140, 1000);
    std::size_t count = 0;
    for (auto _ : state) {
        const auto s = select_lasso(w, lasso);
        count = s.size();
        benchmark::DoNotOptimize(s.data());
    }
    state.counters["selected"] = double(count);
}

// A ring just south of the equator fits in no cap under 89 degrees: the O(n x k) fallback.
void select_lasso_hemisphere_bench(benchmark::State& state) {
    const World& w = sphere(std::uint32_t(state.range(0)));
    std::vector<glm::dvec3> ring;
    for (int i = 0; i < 8; ++i)
        ring.push_back(lat_lon(-0.5, 45.0 * i));
    std::size_t count = 0;
    for (auto _ : state) {
        const auto s = select_lasso(w, ring);
        count = s.size();
        benchmark::DoNotOptimize(s.data());
    }
    state.counters["selected"] = double(count);
}

void selection_stats_bench(benchmark::State& state) {
    const World& w = sphere(std::uint32_t(state.range(0)));
    Selection s{select_disc(w, lat_lon(45, -100), 500), {}};
    s.faces = faces_of(w, s.vertices);
    for (auto _ : state) {
        const Selection_stats stats = selection_stats(w, s);
        benchmark::DoNotOptimize(stats.area_km2);
    }
    state.counters["vertices"] = double(s.vertices.size());
}

// refine (state.range(1) = 1) or coarsen of a 500 km disc, each time on a fresh snapshot.
void operation_bench(benchmark::State& state) {
    const auto n = std::uint32_t(state.range(0));
    const bool refining = state.range(1) != 0;
    const World& base = sphere(n);
    const Selection s{select_disc(base, lat_lon(-10, 60), 500), {}};
    const double target = refining ? 0.5 * edge_km(n) : 2.0 * edge_km(n);
    Selection_edit edit;
    for (auto _ : state) {
        state.PauseTiming();
        World w = base; // O(layers); the edit copies the chunks it writes, as an undo step does
        state.ResumeTiming();
        edit = refining ? refine(w, s, target) : coarsen(w, s, target);
        benchmark::DoNotOptimize(edit.operations);
        state.PauseTiming();
        w = World{}; // freeing the copied chunks is not the operation's cost
        state.ResumeTiming();
    }
    state.counters["selected"] = double(s.vertices.size());
    state.counters["splits"] = double(edit.splits);
    state.counters["collapses"] = double(edit.collapses);
    state.counters["flips"] = double(edit.flips);
}

void sizes(benchmark::internal::Benchmark* b, std::vector<std::vector<std::int64_t>> args) {
    for (const std::int64_t n : {1'000'000, 10'000'000})
        for (auto a : args) {
            a.insert(a.begin(), n);
            b->Args(a);
        }
    b->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

BENCHMARK(select_disc_bench)->Apply([](auto* b) {
    sizes(b, {{200, 0}, {1000, 0}, {200, 1}, {1000, 1}});
    b->ArgNames({"n", "radius_km", "hint"});
});
BENCHMARK(select_lasso_bench)->Apply([](auto* b) {
    sizes(b, {{}});
    b->ArgNames({"n"});
});
BENCHMARK(select_lasso_hemisphere_bench)->Apply([](auto* b) {
    sizes(b, {{}});
    b->ArgNames({"n"});
});
BENCHMARK(selection_stats_bench)->Apply([](auto* b) {
    sizes(b, {{}});
    b->ArgNames({"n"});
});
BENCHMARK(operation_bench)->Apply([](auto* b) {
    sizes(b, {{1}, {0}});
    b->ArgNames({"n", "refine"});
});

} // namespace

ORBIS_BENCHMARK_MAIN()
