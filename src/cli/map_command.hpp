// SPDX-License-Identifier: MIT
// orbis-cli map: a vertex layer of a world file drawn as an equirectangular PNG, with rivers,
// lakes and coastlines over it if asked.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orbis::cli {

/// What `orbis-cli map` was asked to draw.
struct Map_command_options {
    std::string input;                    ///< world file
    std::string layer = "elevation";      ///< scalar vertex layer
    std::string output;                   ///< PNG file
    std::uint32_t width = 2048;           ///< pixels; the height is half
    std::string colour_map;               ///< empty: chosen from the layer
    std::vector<double> range;            ///< empty or {min, max}
    std::optional<bool> hillshade;        ///< unset: on for terrain maps
    bool rivers = false;                  ///< draw the rivers over the layer
    bool lakes = false;                   ///< fill the lakes over the layer
    bool coastlines = false;              ///< draw the coasts over the layer
    std::optional<double> min_discharge;  ///< m³/s; overrides the fraction
    double min_discharge_fraction = 0.01; ///< of the largest discharge
};

/// Adds `map` to `app`, filling `options`; returns the subcommand.
CLI::App* add_map_command(CLI::App& app, Map_command_options& options);
/// Loads the world, draws the map and saves it; returns the exit code. \throws on failure.
int run_map(const Map_command_options& options);

} // namespace orbis::cli
