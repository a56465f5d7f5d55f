// SPDX-License-Identifier: MIT
// Brushes: dabs that raise, lower, smooth, flatten, set or add noise to a layer inside a disc.
#pragma once

#include "orbis/core/ids.hpp"
#include "orbis/core/world.hpp"
#include "orbis/edit/sphere_search.hpp" // nearest_vertex, vertices_within: declared there

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace orbis::edit {

/// What a dab does to the values under it.
enum class Brush_mode {
    raise,   ///< adds strength x weight
    lower,   ///< subtracts strength x weight
    smooth,  ///< moves each value towards the mean of its neighbours by strength x weight
    flatten, ///< moves each value towards Brush::value by strength x weight
    set,     ///< paints Brush::value on the whole disc (falloff and strength ignored)
    noise,   ///< adds strength x weight x fractal noise in [-1, 1] (the same field for a seed)
};

/// How a dab's weight falls from 1 at the centre to 0 at the radius.
enum class Falloff {
    smooth,   ///< 1 - 3x^2 + 2x^3: flat at the centre and at the rim
    linear,   ///< 1 - x: a cone
    constant, ///< 1 everywhere inside: a cylinder
    sharp,    ///< (1 - x)^2: a peak
};

/// The name of a mode ("raise", "lower", "smooth", "flatten", "set", "noise").
const char* brush_mode_name(Brush_mode mode);
/// The mode named `name` (as brush_mode_name spells it), or nothing for an unknown name.
std::optional<Brush_mode> brush_mode_from_name(std::string_view name);
/// The name of a falloff ("smooth", "linear", "constant", "sharp").
const char* falloff_name(Falloff falloff);
/// The falloff named `name` (as falloff_name spells it), or nothing for an unknown name.
std::optional<Falloff> falloff_from_name(std::string_view name);

/// Weight of falloff `f` at distance fraction `x`: 1 at 0, 0 at 1 (constant: 1 on all of
/// [0, 1]); x below 0 counts as 0, and beyond 1 (or NaN) the weight is 0.
double falloff_weight(Falloff f, double x);

/// One brush's settings; check_brush says whether they can paint a given World.
struct Brush {
    /// What a dab does.
    Brush_mode mode = Brush_mode::raise;
    /// A scalar vertex or face layer of the world.
    std::string layer;
    /// Geodesic radius on the sphere, in kilometres.
    double radius_km = 200.0;
    /// raise/lower/noise: change at the centre per dab, in the layer's units; smooth/flatten:
    /// fraction in [0, 1] moved per dab; set: ignored.
    double strength = 100.0;
    /// How the weight falls off from the centre (set ignores it).
    Falloff falloff = Falloff::smooth;
    /// set: the value painted (no interpolation, integer layers too); flatten: the target (the
    /// UI passes value_at() at the stroke's start).
    double value = 0.0;
    /// noise: feature size in kilometres; 0 means the radius.
    double noise_scale_km = 0.0;
    /// noise: the seed of the field.
    std::uint64_t seed = 1;
};

/// Why `brush` cannot paint `world`, in words for a status bar, or nothing when it can. Refused:
/// no such layer, a Dict layer, a vector layer, an edge layer, a bool layer in a mode other than
/// raise/lower/set, radius not finite or <= 0, strength not finite (or outside [0, 1] for
/// smooth/flatten), noise scale not finite or < 0, a set/flatten value that is not finite or not
/// representable in an integer or bool layer, no vertex position layer, no vertex.
std::optional<std::string> check_brush(const World& world, const Brush& brush);

/// What one dab did.
struct Dab_result {
    /// Vertices whose value changed (vertex layers), or the corners of the changed faces (face
    /// layers: the view recolours around them); each once, in no particular order.
    std::vector<Vertex> vertices;
    /// Faces whose value changed (face layers); each once, in no particular order.
    std::vector<Face> faces;
    /// Values held at the layer's range (its Layer_info min/max intersected with the limits of
    /// the value type); they may still have changed, up to the bound.
    std::size_t clamped = 0;
};

/// Applies one dab of `brush` centred at the direction of `centre` (any finite non-zero point,
/// e.g. the pick point). Distance is the angle between directions times |position| of the vertex
/// nearest the centre, so there is no seam at the poles or the antimeridian. Vertex layers: the
/// vertices within the radius; face layers: the faces whose corner centroid is within it. Smooth
/// and flatten read the values as they were before the dab, so the order of elements does not
/// matter; integer layers round to nearest; results are clamped to the layer's range; a result
/// that is NaN leaves the value as it was. Writes through World::lock_layer (copy-on-write, and
/// only when something changes). `hint`: a vertex near the centre where the search starts.
/// Cost: O(elements in the disc) plus the walk to the centre (O(sqrt n) without a good hint).
/// \throws std::invalid_argument with check_brush's reason (or for a zero/non-finite centre),
/// and then the World is unchanged; Layer_error when the layer is locked.
Dab_result apply_dab(World& world, const Brush& brush, const glm::dvec3& centre,
                     Vertex hint = no_vertex);

/// The layer's value at the vertex (vertex layer) or face (face layer, by corner centroid among
/// the faces around the nearest vertex and its neighbours) nearest `centre`: flatten's target.
/// Nothing when check_brush refuses the layer or the centre is zero or not finite.
std::optional<double> value_at(const World& world, const std::string& layer,
                               const glm::dvec3& centre, Vertex hint = no_vertex);

/// Points along the great-circle arc from `from` to `to` (`from` excluded, `to` included, exactly)
/// at most `spacing_km` apart along the arc and at the radius of `to`: where a stroke's dabs go
/// as the mouse moves. Empty when from == to. At most 65,536 points: a longer arc gets a wider
/// spacing, so that a tiny spacing cannot exhaust memory. Antipodal ends take an arbitrary great
/// circle. \throws std::invalid_argument when spacing_km is not finite and > 0 or a point is
/// zero or not finite.
std::vector<glm::dvec3> stroke_points(const glm::dvec3& from, const glm::dvec3& to,
                                      double spacing_km);

} // namespace orbis::edit
