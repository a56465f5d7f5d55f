// SPDX-License-Identifier: MIT
// What every mesh benchmark shares: operation counts and seeds, timing, input lookup, the
// once-per-configuration validation gate and the argument sets.
#pragma once

#include "sphere_input.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <set>
#include <string>

namespace orbis::bench {

/// Flips and splits per repetition; collapses are min(this, N/2).
inline constexpr std::uint32_t operation_count = 100'000;
/// Seeds of the random picks, the same in every library's benchmark.
inline constexpr std::uint64_t flip_seed = 11;
/// Seed of the split picks.
inline constexpr std::uint64_t split_seed = 12;
/// Seed of the collapse picks.
inline constexpr std::uint64_t collapse_seed = 13;

/// The clock of manual timings.
using Clock = std::chrono::steady_clock;

/// Seconds since `start`.
inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The sphere input for the benchmark's arguments (N, perturbation in percent: benchmark
/// arguments are integers).
inline const Sphere_input& input_of(const benchmark::State& state) {
    return sphere_input(static_cast<std::uint32_t>(state.range(0)),
                        static_cast<double>(state.range(1)) / 100.0);
}

/// True the first time a workload runs with these arguments: validation is slow at 1M, so each
/// workload and configuration is checked once per process.
inline bool first_time(const char* workload, const benchmark::State& state) {
    static std::set<std::string> seen;
    return seen
        .insert(std::string(workload) + "/" + std::to_string(state.range(0)) + "/" +
                std::to_string(state.range(1)))
        .second;
}

/// N = 100,000 and 1,000,000, perturbation 0 and 0.5; manual time, 5 repetitions, medians.
inline void sphere_args(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "perturb_pct"});
    for (const std::int64_t n : {100'000, 1'000'000})
        for (const std::int64_t perturbation_percent : {0, 50})
            b->Args({n, perturbation_percent});
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

/// Workloads that change or create a mesh: one operation sequence per repetition on a fresh
/// mesh (as in anchor-benchmarks.md).
inline void stateful(benchmark::internal::Benchmark* b) {
    sphere_args(b);
    b->Iterations(1);
}

} // namespace orbis::bench
