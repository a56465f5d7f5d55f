// SPDX-License-Identifier: MIT
// The World's costs (issue 3) on Fibonacci spheres of 100,000 and 1,000,000 vertices with a
// position layer and four float layers: snapshot, undoable flip and split (snapshot + edit, with
// an undo stack that keeps its snapshots), split and collapse throughput with every layer
// interpolated against the bare mesh doing the same edits, and a full deep copy for comparison.
// Counters: bytes_per_step is the memory one undo step adds (chunks private to the edited
// world right after the step, mean over the first 256 steps).

#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include "world_input.hpp"

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using namespace orbis;
using Clock = std::chrono::steady_clock;

/// Undo steps kept by the undoable-edit benchmarks (older ones are dropped, as an editor's
/// bounded undo stack does).
constexpr std::size_t undo_depth = 256;
/// Edits per repetition of the throughput benchmarks.
constexpr std::uint32_t edit_count = 20'000;

void require(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(what);
}

const World& world_of(const benchmark::State& state) {
    return bench::benchmark_world(static_cast<std::uint32_t>(state.range(0)));
}

// A private copy of the cached world: the benchmark's writes never touch the cache.
World fresh(const benchmark::State& state) { return world_of(state).deep_copy(); }

Edge random_edge(const Mesh& m, std::mt19937_64& rng) {
    for (;;) {
        const Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots())};
        if (m.contains(e)) return e;
    }
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgName("n")->Arg(100'000)->Arg(1'000'000)->Repetitions(5)->ReportAggregatesOnly(true);
}

void BM_World_snapshot(benchmark::State& state) {
    const World& w = world_of(state);
    for (auto _ : state) {
        World copy = w;
        benchmark::DoNotOptimize(copy);
    }
}
BENCHMARK(BM_World_snapshot)->Apply(sizes)->Unit(benchmark::kMicrosecond);

void BM_World_deep_copy(benchmark::State& state) {
    const World& w = world_of(state);
    for (auto _ : state) {
        World copy = w.deep_copy();
        benchmark::DoNotOptimize(copy);
    }
    state.counters["bytes"] = static_cast<double>(w.memory().bytes);
}
BENCHMARK(BM_World_deep_copy)->Apply(sizes)->Unit(benchmark::kMillisecond);

// Mean memory one undoable edit adds, over `steps` steps on a private world.
template <class Edit>
double bytes_per_step(benchmark::State& state, Edit edit, int steps = 256) {
    World w = fresh(state);
    std::deque<World> undo;
    std::mt19937_64 rng(5);
    double total = 0;
    for (int i = 0; i < steps; ++i) {
        undo.push_back(w);
        edit(w, rng);
        total += static_cast<double>(w.memory().private_bytes);
    }
    return total / steps;
}

// snapshot + edit per iteration, with the snapshots kept on a bounded undo stack.
template <class Edit>
void undoable(benchmark::State& state, Edit edit) {
    state.counters["bytes_per_step"] = bytes_per_step(state, edit);
    World w = fresh(state);
    std::deque<World> undo;
    std::mt19937_64 rng(7);
    for (auto _ : state) {
        if (undo.size() == undo_depth) undo.pop_front();
        undo.push_back(w);
        edit(w, rng);
    }
}

void flip_edit(World& w, std::mt19937_64& rng) {
    auto m = w.lock_mesh();
    while (m.try_flip(random_edge(*m, rng))) {
    }
}

void split_edit(World& w, std::mt19937_64& rng) {
    auto m = w.lock_mesh();
    m.split(random_edge(*m, rng), 0.5f);
}

void BM_World_undoable_flip(benchmark::State& state) { undoable(state, flip_edit); }
BENCHMARK(BM_World_undoable_flip)->Apply(sizes)->Unit(benchmark::kMicrosecond);

void BM_World_undoable_split(benchmark::State& state) { undoable(state, split_edit); }
BENCHMARK(BM_World_undoable_split)->Apply(sizes)->Unit(benchmark::kMicrosecond);

// edit_count edits on a private world (made outside the timed region), manual time; the same
// picks on the bare mesh when `bare` is set, so the ratio is the cost of following layers.
template <class Edit>
void throughput(benchmark::State& state, bool bare, Edit edit) {
    for (auto _ : state) {
        World w = fresh(state);
        Mesh m = w.mesh().deep_copy();
        std::mt19937_64 rng(9);
        const auto start = Clock::now();
        if (bare) {
            for (std::uint32_t i = 0; i < edit_count; ++i)
                edit(m, rng);
        } else {
            auto lock = w.lock_mesh();
            for (std::uint32_t i = 0; i < edit_count; ++i)
                edit(lock, rng);
        }
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
        if (bare)
            require(!m.validate(), "mesh invalid after the edits");
        else
            require(!w.mesh().validate(), "world mesh invalid after the edits");
    }
    state.counters["ns_per_edit"] = benchmark::Counter(
        static_cast<double>(edit_count) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Works on a Mesh and on a Mesh_lock alike.
template <class M>
const Mesh& mesh_of(M& m) {
    if constexpr (std::is_same_v<M, Mesh>)
        return m;
    else
        return *m;
}

template <class M>
void split_any(M& m, std::mt19937_64& rng) {
    m.split(random_edge(mesh_of(m), rng), 0.5f);
}

template <class M>
void collapse_any(M& m, std::mt19937_64& rng) {
    while (m.try_collapse(random_edge(mesh_of(m), rng), 0.5f)) {
    }
}

void throughput_args(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "bare"});
    for (const std::int64_t n : {100'000, 1'000'000})
        for (const std::int64_t bare : {1, 0})
            b->Args({n, bare});
    b->UseManualTime()->Iterations(1)->Repetitions(5)->ReportAggregatesOnly(true)->Unit(
        benchmark::kMillisecond);
}

void BM_World_split(benchmark::State& state) {
    throughput(state, state.range(1) != 0,
               [](auto& m, std::mt19937_64& rng) { split_any(m, rng); });
}
BENCHMARK(BM_World_split)->Apply(throughput_args);

void BM_World_collapse(benchmark::State& state) {
    throughput(state, state.range(1) != 0,
               [](auto& m, std::mt19937_64& rng) { collapse_any(m, rng); });
}
BENCHMARK(BM_World_collapse)->Apply(throughput_args);

} // namespace

ORBIS_BENCHMARK_MAIN()
