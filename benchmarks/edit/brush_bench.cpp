// SPDX-License-Identifier: MIT
// Brush costs on Fibonacci spheres of 1M and 10M vertices: one dab, a stroke's undo memory, undo.
//
// Each size's world (radius 6371 km, perturbation 0.5, a float vertex layer "elevation") is
// built once and dropped before the next size is built, so 10M (~3 GB) never shares the process
// with another large world. Benchmarks are registered size by size for that reason.
// - dab/<n>/<radius>: one raise dab of 50, 200 or 1000 km on a world whose touched chunks are
//   already private (copied by warm-up dabs), centred on one of 64 fixed points with the pick's
//   vertex as hint, as the editor does.
// - dab_after_snapshot/<n>/200: a snapshot then a dab, so the dab pays the copy-on-write of the
//   chunks it touches: the first dab of every stroke.
// - nearest_no_hint/<n>: nearest_vertex from vertex 0 (no pick to start from).
// - stroke/<n>: a 30-dab stroke (200 km, dabs radius/4 apart) on a fresh snapshot; counter
//   private_bytes = World::memory().private_bytes after it: what the stroke's undo step costs.
//   dab_after_snapshot and stroke time only the dabs (manual time), not making or dropping
//   snapshots nor World::memory().
// - undo/<n>: copy-assigning the snapshot from before a stroke back, then the one after it
//   (undo, redo), one assignment per iteration.

#include <orbis/core.hpp>
#include <orbis/edit/brush.hpp>
#include <orbis/gen/sphere.hpp>

#include <orbis/core/huge_page_malloc.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::edit;

constexpr auto elevation = Layer_info<float, Layer_type::vertex>("elevation");
constexpr double earth_km = 6371.0;
using Clock = std::chrono::steady_clock;

// The one world alive at a time, and the size it has.
std::unique_ptr<World> cached;
std::uint32_t cached_size = 0;

const World& world_of(std::uint32_t n) {
    if (cached_size != n) {
        cached.reset(); // free the previous size before building the next
        cached = std::make_unique<World>(gen::make_sphere_world(
            {.count = n, .radius = float(earth_km), .perturbation = 0.5f, .seed = 1}));
        {
            auto [e] = cached->lock_layer(elevation);
            (void)e;
        }
        cached_size = n;
    }
    return *cached;
}

struct Pick {
    glm::dvec3 point;
    Vertex vertex;
};

std::vector<Pick> picks(const World& w) {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> g;
    std::vector<Pick> out;
    for (int i = 0; i < 64; ++i) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(g(rng), g(rng), g(rng))) * earth_km;
        out.push_back({p, nearest_vertex(w, p)});
    }
    return out;
}

Brush raise(double radius) {
    Brush b;
    b.mode = Brush_mode::raise;
    b.layer = "elevation";
    b.radius_km = radius;
    b.strength = 1.0;
    return b;
}

void dab(benchmark::State& state, std::uint32_t n, double radius) {
    World w = world_of(n); // a snapshot; the warm-up dabs below make their chunks private
    const auto ps = picks(w);
    const Brush b = raise(radius);
    std::size_t i = 0;
    std::size_t touched = 0;
    for (const auto& p : ps) // copy-on-write of each disc's chunks, outside the timing
        apply_dab(w, b, p.point, p.vertex);
    for (auto _ : state) {
        const Pick& p = ps[i++ % ps.size()];
        touched += apply_dab(w, b, p.point, p.vertex).vertices.size();
    }
    state.counters["vertices"] = double(touched) / double(std::max<std::size_t>(i, 1));
}

void dab_after_snapshot(benchmark::State& state, std::uint32_t n) {
    World w = world_of(n);
    const auto ps = picks(w);
    const Brush b = raise(200);
    std::size_t i = 0;
    for (auto _ : state) {
        const Pick& p = ps[i++ % ps.size()];
        World before = w; // the stroke's undo snapshot: the dab below copies what it touches
        const auto start = Clock::now();
        apply_dab(w, b, p.point, p.vertex);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
        benchmark::DoNotOptimize(before);
    }
}

void nearest_no_hint(benchmark::State& state, std::uint32_t n) {
    const World& w = world_of(n);
    const auto ps = picks(w);
    std::size_t i = 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(nearest_vertex(w, ps[i++ % ps.size()].point));
}

glm::dvec3 from_lat_lon(double lat_deg, double lon_deg) {
    const double lat = lat_deg * std::numbers::pi / 180.0;
    const double lon = lon_deg * std::numbers::pi / 180.0;
    return glm::dvec3(std::cos(lat) * std::cos(lon), std::sin(lat),
                      -std::cos(lat) * std::sin(lon)) *
           earth_km;
}

// The 30 dab centres of a stroke heading east-north-east from 29 N 0 E, 50 km (radius / 4)
// apart, as the editor places them with stroke_points while the mouse moves.
std::vector<glm::dvec3> stroke_path() {
    auto points = stroke_points(from_lat_lon(29, 0), from_lat_lon(35, 20), 50.0);
    points.resize(30);
    return points;
}

// The stroke's dabs, each hinted with the previous dab's vertex as the editor's picks are.
void stroke(World& w, const std::vector<glm::dvec3>& path) {
    const Brush b = raise(200);
    Vertex hint = no_vertex;
    for (const auto& p : path) {
        hint = nearest_vertex(w, p, hint);
        apply_dab(w, b, p, hint);
    }
}

void stroke_memory(benchmark::State& state, std::uint32_t n) {
    const World& base = world_of(n);
    const auto path = stroke_path();
    double bytes = 0;
    for (auto _ : state) {
        World w = base;
        const World before = w; // the undo snapshot
        const auto start = Clock::now();
        stroke(w, path);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
        bytes = double(w.memory().private_bytes);
    }
    state.counters["private_bytes"] = bytes;
    state.counters["layer_bytes"] = double(base.layer(elevation)->bytes());
}

void undo(benchmark::State& state, std::uint32_t n) {
    World w = world_of(n);
    const World before = w;
    stroke(w, stroke_path());
    const World after = w;
    bool to_before = true;
    for (auto _ : state) {
        w = to_before ? before : after;
        to_before = !to_before;
        benchmark::DoNotOptimize(w);
    }
}

} // namespace

int main(int argc, char** argv) {
    orbis::use_huge_page_malloc(argv); // as the editor does (benchmark_main.hpp)
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    for (const std::uint32_t n : {1'000'000u, 10'000'000u}) {
        const std::string size = std::to_string(n / 1'000'000) + "M";
        for (const double r : {50.0, 200.0, 1000.0})
            benchmark::RegisterBenchmark(("dab/" + size + "/" + std::to_string(int(r))).c_str(),
                                         [n, r](benchmark::State& s) { dab(s, n, r); })
                ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("dab_after_snapshot/" + size + "/200").c_str(),
                                     [n](benchmark::State& s) { dab_after_snapshot(s, n); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("nearest_no_hint/" + size).c_str(), [n](benchmark::State& s) {
            nearest_no_hint(s, n);
        })->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("stroke/" + size).c_str(),
                                     [n](benchmark::State& s) { stroke_memory(s, n); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("undo/" + size).c_str(), [n](benchmark::State& s) {
            undo(s, n);
        })->Unit(benchmark::kMicrosecond);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
