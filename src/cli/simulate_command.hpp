// SPDX-License-Identifier: MIT
// orbis-cli simulate: move a world's plates with the `tectonics` module for a number of steps,
// with progress, Ctrl+C and optionally one map per step for a video.
#pragma once

#include <orbis/gen/module_registry.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace orbis::cli {

/// What `orbis-cli simulate` was asked to do.
struct Simulate_options {
    std::string input;                 ///< world file to start from
    std::int64_t steps = 0;            ///< steps of the tectonics module
    double dt = 1.0;                   ///< million years per step
    std::optional<std::uint64_t> seed; ///< reseeds the World's generator before the run
    std::string output;                ///< world file to write at the end
    std::string frames;                ///< folder for the PNG frames; empty for none
    std::string layer = "elevation";   ///< scalar vertex layer the frames draw
    std::int64_t every = 1;            ///< a frame every this many steps
    std::uint32_t width = 2048;        ///< frame width in pixels; the height is half
};

/// Adds `simulate` to `app`, filling `options`; returns the subcommand.
CLI::App* add_simulate_command(CLI::App& app, Simulate_options& options);

/// Runs the tectonics module of `registry` on the input and saves the result; returns 0, or 130
/// when interrupted by SIGINT (nothing saved then). \throws on failure (nothing saved either).
int run_simulate(const Simulate_options& options, const gen::Module_registry& registry);

} // namespace orbis::cli
