// SPDX-License-Identifier: MIT
// orbis-cli replay: regenerate a world from the steps its file records.
#pragma once

#include <orbis/gen/module_registry.hpp>

#include <CLI/CLI.hpp>

#include <string>

namespace orbis::cli {

/// What `orbis-cli replay` was asked to do.
struct Replay_options {
    std::string input;  ///< world file whose provenance is replayed
    std::string output; ///< where to save the regenerated world; empty for none
    bool check = false; ///< compare the regenerated world with the input
};

/// Adds `replay` to `app`, filling `options`; returns the subcommand.
CLI::App* add_replay_command(CLI::App& app, Replay_options& options);

/// Replays with the modules of `registry`; returns 0, or 1 when --check finds a difference.
/// \throws when the file records no steps, a module is missing or a step is refused.
int run_replay(const Replay_options& options, const gen::Module_registry& registry);

} // namespace orbis::cli
