// SPDX-License-Identifier: MIT
// The main() of every benchmark program: Google Benchmark's own, after the restart that gives
// malloc huge pages as the editor and orbis-cli get them (orbis::use_huge_page_malloc), so the
// figures are those a user sees. ORBIS_HUGE_PAGES=0 measures with small pages.
#pragma once

#include <orbis/core/huge_page_malloc.hpp>

#include <benchmark/benchmark.h>

/// Defines main(): huge-page malloc, then Google Benchmark's command line and runs.
#define ORBIS_BENCHMARK_MAIN()                                                                     \
    int main(int argc, char** argv) {                                                              \
        orbis::use_huge_page_malloc(argv);                                                         \
        ::benchmark::Initialize(&argc, argv);                                                      \
        if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;                        \
        ::benchmark::RunSpecifiedBenchmarks();                                                     \
        ::benchmark::Shutdown();                                                                   \
        return 0;                                                                                  \
    }
