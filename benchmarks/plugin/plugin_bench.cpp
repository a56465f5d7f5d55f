// SPDX-License-Identifier: MIT
// Loading module plugins: available_modules with a folder of 20 plugins, each registering one
// module (issue target: under 50 ms for 20). Every iteration loads fresh copies under new file
// names, copied outside the timed region: the loader keeps a library it has loaded once
// (RTLD_NODELETE), so loading the same files again would only measure a reference count.
#include "orbis/gen/plugin.hpp"

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace orbis::gen;
using Clock = std::chrono::steady_clock;

constexpr std::size_t plugin_count = 20;

// The bench plugins as built (bench_00.so ... bench_19.so).
std::vector<fs::path> built_plugins() {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(ORBIS_BENCH_PLUGIN_FOLDER))
        if (entry.path().extension() == ".so") out.push_back(entry.path());
    if (out.size() != plugin_count)
        throw std::runtime_error("expected " + std::to_string(plugin_count) + " plugins in " +
                                 std::string(ORBIS_BENCH_PLUGIN_FOLDER));
    return out;
}

void load_20_plugins(benchmark::State& state) {
    // Only the folder given is read: no ORBIS_MODULE_PATH, an empty per-user folder.
    const fs::path scratch =
        fs::temp_directory_path() / ("orbis_plugin_bench_" + std::to_string(::getpid()));
    fs::remove_all(scratch);
    ::unsetenv("ORBIS_MODULE_PATH");
    ::setenv("XDG_DATA_HOME", (scratch / "data").c_str(), 1);
    const auto plugins = built_plugins();
    // Never reused, repetitions included: the loader knows a library by its path too.
    static std::size_t round = 0;
    for (auto _ : state) {
        const fs::path folder = scratch / ("round_" + std::to_string(round++));
        fs::create_directories(folder);
        for (const auto& p : plugins)
            fs::copy_file(p, folder / p.filename());
        const std::vector<fs::path> folders{folder};

        Plugin_report report;
        const auto start = Clock::now();
        Module_registry modules = available_modules(folders, &report);
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());

        if (report.loaded.size() != plugin_count || !report.refused.empty()) {
            state.SkipWithError(report.refused.empty() ? "plugins missing"
                                                       : report.refused.front().c_str());
            break;
        }
        benchmark::DoNotOptimize(modules.find("bench_19"));
    }
    fs::remove_all(scratch);
    state.SetItemsProcessed(state.iterations() * std::int64_t(plugin_count));
}

} // namespace

BENCHMARK(load_20_plugins)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(10)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

ORBIS_BENCHMARK_MAIN()
