// SPDX-License-Identifier: MIT
// orbis-cli generate and modules: run a generation pipeline, list the modules.
#pragma once

#include <orbis/gen/module_registry.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orbis::cli {

/// What `orbis-cli generate` was asked to do.
struct Generate_options {
    std::string pipeline;                 ///< JSON file; empty for the default pipeline
    std::optional<std::int64_t> vertices; ///< overrides the sphere step's "count"
    std::optional<std::int64_t> seed;     ///< overrides every step's "seed"
    std::optional<double> perturbation;   ///< overrides the sphere step's "perturbation"
    std::vector<std::string> modules;     ///< run only these steps (empty: all)
    std::optional<int> threads;           ///< threads of the generation passes (1 or 2)
    bool timings = false;                 ///< print wall, CPU time and page faults per step
    bool print_pipeline = false;          ///< print the pipeline as JSON and stop
    std::string output;                   ///< world file to write
};

/// Adds `generate` to `app`, filling `options`; returns the subcommand.
CLI::App* add_generate_command(CLI::App& app, Generate_options& options);
/// Runs the pipeline with the modules of `registry` and saves the world; returns the exit
/// code. \throws on failure.
int run_generate(const Generate_options& options, const gen::Module_registry& registry);

/// Adds `modules` to `app`, setting `json` for --json; returns the subcommand.
CLI::App* add_modules_command(CLI::App& app, bool& json);
/// Prints every module of `registry` with its description, parameters and layers (as JSON when
/// `json`); returns 0.
int run_modules(const gen::Module_registry& registry, bool json);

} // namespace orbis::cli
