// SPDX-License-Identifier: MIT
#include "map_command.hpp"

#include <orbis/core/colour_map.hpp>
#include <orbis/io/equirectangular.hpp>
#include <orbis/io/formats.hpp>
#include <orbis/io/png.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace orbis::cli {

CLI::App* add_map_command(CLI::App& app, Map_command_options& o) {
    auto* cmd = app.add_subcommand(
        "map", "Draw a vertex layer of a world as an equirectangular PNG (longitude across, "
               "latitude down)");
    cmd->add_option("input", o.input, "World file (.orbis, .ply, .obj)")->required();
    cmd->add_option("--layer", o.layer, "Scalar vertex layer to draw")->capture_default_str();
    cmd->add_option("-o,--output", o.output, "PNG file to write (replaced atomically)")->required();
    cmd->add_option("-w,--width", o.width, "Image width in pixels; the height is half")
        ->check(CLI::Range(2u, 16384u))
        ->capture_default_str();
    std::string names;
    for (const auto name : colour_map_names())
        names += (names.empty() ? "" : ", ") + std::string(name);
    cmd->add_option("--colour-map", o.colour_map,
                    "Colour map: " + names +
                        " (default: the one the layer's module chose, else categorical for "
                        "integer layers and viridis for the rest)");
    cmd->add_option("--range", o.range, "Values at the ends of the colour map: MIN MAX")
        ->expected(2);
    cmd->add_option("--hillshade", o.hillshade,
                    "Shade by slope, lit from the north-west (default: on for terrain)");
    cmd->add_flag("--rivers", o.rivers,
                  "Draw the rivers over the layer, wider where they carry more water (needs the "
                  "hydrology module's layers)");
    cmd->add_flag("--lakes", o.lakes, "Fill the lakes over the layer");
    cmd->add_flag(
        "--water", [&o](std::int64_t) { o.rivers = o.lakes = true; }, "Same as --rivers --lakes");
    cmd->add_flag("--coastlines", o.coastlines, "Draw the coasts of the land masses as thin lines");
    auto* absolute = cmd->add_option("--min-discharge", o.min_discharge,
                                     "Rivers carry at least this many m³/s (overrides "
                                     "--min-discharge-fraction)")
                         ->check(CLI::PositiveNumber);
    cmd->add_option("--min-discharge-fraction", o.min_discharge_fraction,
                    "Rivers carry at least this fraction of the largest discharge, as in export")
        ->check(CLI::Range(1e-9, 1.0))
        ->capture_default_str()
        ->excludes(absolute);
    return cmd;
}

int run_map(const Map_command_options& o) {
    const World world = io::load_any(o.input);
    // Before drawing anything: a world without water should say what to run.
    const std::pair<bool, const char*> needs[] = {
        {o.rivers, "discharge"}, {o.lakes, "lake"}, {o.coastlines, "ocean"}};
    for (const auto& [wanted, layer] : needs)
        if (wanted && !world.find_layer(layer))
            throw std::runtime_error(o.input + ": no layer '" + layer +
                                     "' to draw water from; it comes from the hydrology module "
                                     "(add a \"hydrology\" step to the pipeline)");
    // A missing layer is left to render_equirectangular, whose message lists the layers.
    io::Map_options options =
        world.find_layer(o.layer) ? io::default_map_options(world, o.layer) : io::Map_options{};
    options.width = o.width;
    if (!o.colour_map.empty()) {
        const auto kind = colour_map_from_name(o.colour_map);
        if (!kind) throw std::invalid_argument("unknown colour map '" + o.colour_map + "'");
        options.colour_map = *kind;
    }
    if (o.range.size() == 2) options.range = io::Value_range{o.range[0], o.range[1]};
    options.hillshade = o.hillshade.value_or(options.colour_map == Colour_map_kind::terrain);
    io::Image image = io::render_equirectangular(world, o.layer, options);
    std::string drawn;
    if (o.rivers || o.lakes || o.coastlines) {
        io::Water_overlay water;
        water.rivers = o.rivers;
        water.lakes = o.lakes;
        water.coastlines = o.coastlines;
        water.river_selection = {o.min_discharge, o.min_discharge_fraction};
        io::draw_water(image, world, water);
        for (const auto& [wanted, name] :
             {std::pair{o.rivers, "rivers"}, std::pair{o.lakes, "lakes"},
              std::pair{o.coastlines, "coastlines"}})
            if (wanted) {
                drawn += drawn.empty() ? " with " : ", ";
                drawn += name;
            }
    }
    io::save_png(o.output, image);
    std::printf("%s: %s of %s, %u x %u%s\n", o.output.c_str(), o.layer.c_str(), o.input.c_str(),
                image.width, image.height, drawn.c_str());
    return 0;
}

} // namespace orbis::cli
