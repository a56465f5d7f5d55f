// SPDX-License-Identifier: MIT
// Named colour maps from values to 8-bit sRGB colours, for map images and the editor.
#pragma once

#include "orbis/core/layer_hints.hpp"

#include <glm/vec3.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace orbis {

/// An 8-bit sRGB colour (r, g, b), as stored in PNG files and 8-bit textures.
using Srgb8 = glm::u8vec3;

/// The colour maps Orbis knows by name.
enum class Colour_map_kind {
    viridis,     ///< perceptually uniform sequential: dark purple, blue, green, yellow
    magma,       ///< perceptually uniform sequential: near black, purple, orange, pale yellow
    turbo,       ///< rainbow: dark blue, cyan, green, yellow, orange, dark red
    diverging,   ///< blue below the middle of the range, white at it, red above
    terrain,     ///< elevation in metres relative to sea level: sea blues, land greens to white
    categorical, ///< integer ids: a distinct colour per id, from a hash of the id
};

/// Matplotlib's viridis at `t` in [0, 1] (clamped; NaN counts as 0): dark purple (68, 1, 84)
/// at 0 to yellow (253, 231, 37) at 1, luminance increasing throughout. Piecewise linear in sRGB
/// through 33 evenly spaced samples of the published 256-entry table, within 2 units per
/// channel of it.
Srgb8 viridis(double t);

/// Matplotlib's magma at `t` in [0, 1] (clamped; NaN counts as 0): near black (0, 0, 4) at 0
/// through purple and orange-red to pale yellow (252, 253, 191) at 1, luminance increasing
/// throughout. Built like viridis from 33 samples of the published table.
Srgb8 magma(double t);

/// Google's Turbo rainbow at `t` in [0, 1] (clamped; NaN counts as 0): dark blue (48, 18, 59)
/// at 0 through blue, cyan, green, yellow and orange to dark red (122, 4, 3) at 1. Luminance
/// rises to the middle and falls again, so lightness alone does not order values. Built like
/// viridis from 33 samples of the published table.
Srgb8 turbo(double t);

/// The diverging map at `t` in [0, 1] (clamped; NaN counts as 0.5): dark blue at 0, near-white
/// at 0.5, dark red at 1, symmetric in luminance about 0.5.
Srgb8 diverging(double t);

/// The terrain map for an elevation of `metres` above sea level (negative below; NaN counts as
/// 0): dark blue at -6,000 m and deeper, light blue just below sea level; at and above sea level
/// green lowlands, tan and brown hills, grey rock from about 3,000 m, white from 4,500 m up.
Srgb8 terrain(double metres);

/// What covers a vertex, for the terrain map's water-aware colours.
enum class Surface {
    land,  ///< dry ground, even below sea level (an inland basin)
    ocean, ///< the world ocean
    lake,  ///< a lake, at its own level
};

/// The terrain map of a vertex that knows what covers it: water by its depth below
/// `water_level` (ocean in sea blues, lakes in slightly greener blues), land by its height with
/// ground below sea level shown as lowland. Elevation and level are metres above sea level.
Srgb8 terrain_surface(double elevation, Surface surface, double water_level);

/// A colour for the integer id `id`: a hash of the id picks hue, saturation and value (never
/// near black or white), so neighbouring ids get unrelated colours. Equal ids, equal colours,
/// on every platform; distinct ids may (rarely) get equal colours.
Srgb8 categorical(std::int64_t id);

/// Where `value` lies in [min, max] as a fraction clamped to [0, 1]; 0.5 when the range is
/// empty (min >= max) or not finite; NaN stays NaN.
double normalise(double value, double min, double max);

/// The colour of `value` under map `kind`: viridis, magma, turbo and diverging colour
/// normalise(value, min, max), terrain colours `value - sea_level` metres (min and max unused),
/// categorical colours the id std::llround(value) (exact for ids up to 2^53; non-finite values
/// count as id 0).
Srgb8 map_colour(Colour_map_kind kind, double value, double min, double max,
                 double sea_level = 0.0);

/// The map a layer is shown with unless the user picks another: the one its writer's hints
/// name (may be null), else categorical for integer layers (ids) and viridis otherwise. The
/// editor and orbis-cli map both use it.
Colour_map_kind default_colour_map(const Layer_hints* hints, bool integer);

/// The colour of value `id` of a categorical layer: its category's colour in `hints` (may be
/// null), else categorical(id).
Srgb8 category_colour(const Layer_hints* hints, std::int64_t id);

/// The name of `kind` ("viridis", "magma", "turbo", "diverging", "terrain", "categorical");
/// "unknown" for a value outside the enum.
std::string_view colour_map_name(Colour_map_kind kind);

/// The kind named `name` (as colour_map_name spells it, case-sensitive), or nothing.
std::optional<Colour_map_kind> colour_map_from_name(std::string_view name);

/// Every colour map's name, in the order of the enum (for option lists and messages).
std::span<const std::string_view> colour_map_names();

} // namespace orbis
