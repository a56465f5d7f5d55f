// SPDX-License-Identifier: MIT
// Maps of a World: a scalar vertex layer drawn as an equirectangular (longitude-latitude) image,
// with rivers, lakes and coasts drawn over it.
#pragma once

#include "orbis/core/colour_map.hpp"
#include "orbis/core/world.hpp"
#include "orbis/io/geojson.hpp"
#include "orbis/io/png.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace orbis::io {

/// The values a colour map stretches over: `min` gets one end of the map, `max` the other.
struct Value_range {
    /// The value coloured as 0 (values below are clamped).
    double min = 0.0;
    /// The value coloured as 1 (values above are clamped).
    double max = 1.0;
};

/// Settings of render_equirectangular.
struct Map_options {
    /// Image width in pixels (the full 360 degrees of longitude); at least 1.
    std::uint32_t width = 2048;
    /// Image height in pixels (180 degrees of latitude); 0 means max(1, width / 2).
    std::uint32_t height = 0;
    /// How values become colours.
    Colour_map_kind colour_map = Colour_map_kind::viridis;
    /// The layer's display hints (may be null): categorical maps use their categories' colours.
    /// Must outlive the call.
    const Layer_hints* hints = nullptr;
    /// The values at the ends of viridis and diverging; nothing means the smallest and largest
    /// value of the layer over the live vertices (NaN ignored). Unused by terrain and
    /// categorical. Must be finite with min <= max.
    std::optional<Value_range> range = std::nullopt;
    /// The value of sea level for the terrain map, which colours `value - sea_level` as metres.
    double sea_level = 0.0;
    /// Shades the colours by the layer's own slope, lit from the north-west 45 degrees above
    /// the horizon, so that ridges and valleys stand out. Terrain maps shade land (values at or
    /// above sea level) only, since the sea surface is flat. Refused for categorical maps.
    bool hillshade = false;
    /// How much steeper than the data the hillshade draws slopes: slope = exaggeration *
    /// (change of value) / (planet_radius * angle in radians). Nothing means automatic: the
    /// steepest 2% of the shaded pixels are drawn at 45 degrees or more, whatever the units.
    std::optional<double> vertical_exaggeration = std::nullopt;
    /// The length of one radian on the ground, in the layer's units (Earth's radius in metres);
    /// used only with an explicit vertical_exaggeration.
    double planet_radius = 6'371'000.0;
    /// The colour of pixels whose value is NaN or whose direction no face covers (holes of open
    /// meshes, faces spanning more than a hemisphere, folded meshes).
    Srgb8 no_data = Srgb8(0);
    /// Threads that locate and colour the pixels (bands of rows); 0 means
    /// std::thread::hardware_concurrency(). The image does not depend on it, except where a
    /// pixel centre lies exactly on an edge and rounding can tip the result.
    unsigned threads = 0;
};

/// Draws the scalar vertex layer `layer_name` of `world` as an equirectangular map.
///
/// Convention: the sphere's up axis is +y. A direction (x, y, z) has latitude
/// asin(y / |p|), +90 degrees at (0, 1, 0), and longitude atan2(-z, x): 0 at +x, +90 degrees at
/// -z. So east turns counterclockwise seen from above the north pole and the map reads like a
/// globe seen from outside (not mirrored). Column 0 starts at longitude -180, the last column
/// ends at +180; row 0 starts at latitude +90. Pixels are sampled at their centres.
///
/// Each pixel's direction is located in a face by walking the mesh from the previous pixel's
/// face (exact orientation tests on orbis::position_layer, which need not lie on one sphere:
/// points are projected from the origin); the value is the face's corner values weighted by the
/// barycentric coordinates of the ray with the face's plane, or for categorical maps the value
/// of the corner with the largest weight (so every pixel shows exactly one vertex's id).
/// Deleted elements are skipped. Scalar layers of every value type (bool, int32, uint32, int64,
/// float, double) are accepted; values are read as double (categorical ids exactly as int64).
///
/// \throws std::invalid_argument naming the layer when it is missing, a Dict, not a vertex
/// layer or of a vector type; when the World has no vec3 vertex layer orbis::position_layer,
/// a live vertex has a zero or non-finite position, or the mesh has no face; when the options
/// are unusable (width 0, more than 2^28 pixels, a non-finite or reversed range, a non-finite
/// sea level, hillshade with a categorical map, a non-finite or negative exaggeration or a
/// non-positive planet radius).
/// Cost: O(pixels + faces) for meshes that are Delaunay-like (a folded mesh can cost
/// O(faces) for some pixels), plus 24 bytes per face slot of temporary memory for a compact
/// copy of the faces; for 2048 x 1024 from a million vertices about 0.25 s on two cores,
/// 0.45 s on one.
Image render_equirectangular(const World& world, std::string_view layer_name,
                             const Map_options& options = {});

/// The map of `layer` a viewer draws by default: the layer's hints, the colour map they choose
/// (or its value kind: integer layers are categorical), the hints' range when they give one, sea
/// level from the "terrain" Dict and hill shading on the terrain map. `hints` points into
/// `world`. \throws std::invalid_argument when `world` has no typed layer `layer`.
Map_options default_map_options(const World& world, std::string_view layer);

/// default_map_options with, for a continuous map (viridis, magma, turbo, diverging) whose hints
/// give no range, the range of the layer's finite values in `world` fixed, so that in a sequence
/// of frames a colour keeps its value. O(vertices).
Map_options fixed_map_options(const World& world, std::string_view layer);

/// What draw_water draws over a map.
struct Water_overlay {
    /// Rivers (river_features) as lines whose width grows with their discharge.
    bool rivers = true;
    /// Lakes (lake_features) filled, with a thin shore in the rivers' colour.
    bool lakes = true;
    /// The coasts of the land masses (land_features) as thin lines.
    bool coastlines = false;
    /// Which edges are rivers; the same default as the GeoJSON export.
    River_selection river_selection{};
    /// Pixels across the thinnest river; 0 means 1.25 * width / 2048 pixels, at least 1. A river
    /// carrying k times the threshold is k^(1/4) times as wide, at most 6 times.
    double river_width = 0.0;
    /// Colour of the rivers and the lakes' shores.
    Srgb8 river_colour = Srgb8(25, 70, 190);
    /// Colour of the lakes.
    Srgb8 lake_colour = Srgb8(70, 130, 215);
    /// Colour of the coastlines.
    Srgb8 coast_colour = Srgb8(20, 20, 20);
};

/// Draws the water of `world` over `image`, which must be an equirectangular map of the whole
/// sphere by render_equirectangular's convention (any size): rivers, then lakes over them (so
/// rivers stop at the shore), then coastlines. Lines are anti-aliased; lakes are filled where
/// a pixel's centre lies inside. The geometry is the GeoJSON export's, so the map previews the
/// files. 	hrows std::invalid_argument when a layer a chosen overlay needs is missing (see
/// river_features, lake_features, land_features), the image is empty or river_width is
/// negative or not finite. Cost: O(vertices + edges + covered pixels).
void draw_water(Image& image, const World& world, const Water_overlay& overlay = {});

} // namespace orbis::io
