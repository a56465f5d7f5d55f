// SPDX-License-Identifier: MIT
// orbis-cli export: a world's rivers, lakes, coastlines and cells as files for GIS programs.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace orbis::cli {

/// What `orbis-cli export` was asked to write.
struct Export_options {
    std::string input;                    ///< world file
    std::string geojson;                  ///< folder for the GeoJSON files
    std::vector<std::string> kinds;       ///< rivers, lakes, coastlines, cells
    bool cells = false;                   ///< also write cells.geojson
    std::optional<double> min_discharge;  ///< m³/s; overrides the fraction
    double min_discharge_fraction = 0.01; ///< of the largest discharge
};

/// Adds `export` to `app`, filling `options`; returns the subcommand.
CLI::App* add_export_command(CLI::App& app, Export_options& options);
/// Loads the world, writes the files and prints what they hold; returns the exit code.
/// \throws on failure (a missing layer names the module that writes it).
int run_export(const Export_options& options);

} // namespace orbis::cli
