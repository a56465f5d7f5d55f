// SPDX-License-Identifier: MIT
#include "export_command.hpp"

#include <orbis/io/formats.hpp>
#include <orbis/io/geojson.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string_view>

namespace orbis::cli {

namespace {

constexpr std::string_view all_kinds[] = {"rivers", "lakes", "coastlines", "cells"};

// The layer each kind needs and what writes it, so that a world without them gets told what to
// run instead of a message about a layer type.
struct Need {
    std::string_view kind, layer, writer;
};
constexpr Need needs[] = {
    {"rivers", "discharge", "the hydrology module"},
    {"lakes", "lake", "the hydrology module"},
    {"coastlines", "ocean", "the hydrology module"},
};

} // namespace

CLI::App* add_export_command(CLI::App& app, Export_options& o) {
    auto* cmd = app.add_subcommand(
        "export", "Write a world's rivers, lakes, coastlines and (optionally) Voronoi cells as "
                  "GeoJSON for GIS programs (QGIS, GDAL, geopandas), in longitude and latitude");
    cmd->add_option("input", o.input, "World file (.orbis, .ply, .obj)")->required();
    cmd->add_option("--geojson", o.geojson,
                    "Folder to write the files into (created when missing; files there are "
                    "replaced atomically): rivers.geojson, lakes.geojson, coastlines.geojson, "
                    "cells.geojson")
        ->required();
    cmd->add_option("--kinds", o.kinds,
                    "What to write, comma-separated: rivers, lakes, coastlines, cells "
                    "(default: rivers,lakes,coastlines; these need the hydrology module's layers)")
        ->delimiter(',')
        ->check(CLI::IsMember({"rivers", "lakes", "coastlines", "cells"}));
    cmd->add_flag("--cells", o.cells,
                  "Also write cells.geojson: every Voronoi cell as a polygon with the values of "
                  "every vertex layer (vectors as arrays); about 0.5 to 1 kB per vertex");
    auto* absolute = cmd->add_option("--min-discharge", o.min_discharge,
                                     "Rivers carry at least this many m³/s (overrides "
                                     "--min-discharge-fraction)")
                         ->check(CLI::PositiveNumber);
    cmd->add_option("--min-discharge-fraction", o.min_discharge_fraction,
                    "Rivers carry at least this fraction of the largest discharge")
        ->check(CLI::Range(1e-9, 1.0))
        ->capture_default_str()
        ->excludes(absolute);
    cmd->footer("Coordinates are [longitude, latitude] in degrees with 6 decimals (RFC 7946): "
                "longitude 0 at +x, east towards -z, north at +y. Features crossing the "
                "antimeridian are cut there; areas around a pole are closed along the map's "
                "edge. See docs/gis-export.md.");
    return cmd;
}

int run_export(const Export_options& o) {
    std::vector<std::string> kinds = o.kinds;
    if (kinds.empty()) kinds = {"rivers", "lakes", "coastlines"};
    if (o.cells) kinds.emplace_back("cells");
    const auto chosen = [&](std::string_view kind) {
        return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
    };

    const World world = io::load_any(o.input);
    for (const Need& need : needs)
        if (chosen(need.kind) && !world.find_layer(need.layer))
            throw std::runtime_error(
                o.input + ": no layer '" + std::string(need.layer) + "' for the " +
                std::string(need.kind) + "; it comes from " + std::string(need.writer) +
                " (add a \"hydrology\" step to the pipeline and run orbis-cli generate), or "
                "choose other kinds with --kinds");

    io::Geojson_options options;
    options.rivers = chosen("rivers");
    options.lakes = chosen("lakes");
    options.coastlines = chosen("coastlines");
    options.cells = chosen("cells");
    options.river_selection = {o.min_discharge, o.min_discharge_fraction};
    const io::Geojson_report report = io::write_geojson(world, o.geojson, options);

    std::size_t file = 0;
    for (const std::string_view kind : all_kinds) {
        if (!chosen(kind)) continue;
        const std::string path = report.files[file++].string();
        if (kind == "rivers")
            std::printf("%s: %zu rivers (discharge >= %.6g m³/s)\n", path.c_str(), report.rivers,
                        report.min_discharge);
        else if (kind == "lakes")
            std::printf("%s: %zu lakes\n", path.c_str(), report.lakes);
        else if (kind == "coastlines")
            std::printf("%s: %zu land masses\n", path.c_str(), report.land_masses);
        else
            std::printf("%s: %zu cells\n", path.c_str(), report.cells);
    }
    return 0;
}

} // namespace orbis::cli
