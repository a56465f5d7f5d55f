// SPDX-License-Identifier: MIT
// Tectonics in the view: plate boundaries as lines coloured by their kind, and plate motion as
// arrows at a thinned set of vertices.
#pragma once

#include "orbis/core/ids.hpp"
#include "orbis/core/layer.hpp"
#include "orbis/core/layer_hints.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/render/mesh_buffers.hpp"

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render {

/// \name The tectonics layers the view reads, by the names and kinds gen's plates and
/// tectonics modules write them with (orbis::render does not link orbis::gen). A layer of such
/// a name but another kind counts as missing.
///@{
/// int32 primal edge: gen::Plate_boundary, 0 (joined) where both ends share a plate
inline constexpr std::string_view plate_boundary_layer_name = "plate_boundary";
/// vec3 vertex: the plate's velocity at the vertex, km per million years, tangent
inline constexpr std::string_view velocity_layer_name = "velocity";
///@}

/// The plate_boundary layer of `world`, or nullptr when it is missing, of another kind or does
/// not match the mesh.
const Layer<std::int32_t, Layer_type::edge_primal>* plate_boundary_layer(const World& world);

/// The velocity layer of `world`, or nullptr when it is missing, of another kind or does not
/// match the mesh.
const Layer<glm::vec3, Layer_type::vertex>* velocity_layer(const World& world);

/// Plate boundaries: one line segment per boundary edge, coloured by its kind.
struct Boundary_lines {
    std::vector<glm::vec3> positions;  ///< segment ends in pairs (origin, dest)
    std::vector<Colour> colours;       ///< per end: the colour of the segment's kind
    std::vector<Edge> edge_of;         ///< per segment: its primal edge
    std::vector<std::int32_t> kind_of; ///< per segment: the layer's value on its edge
    /// The kinds drawn, ascending, with their names and colours (for the key).
    std::vector<Layer_category> kinds;
};

/// The plate boundaries of `m`: a segment along every live primal edge whose `kinds` value is
/// not 0 (joined: no boundary), between the positions of its ends (the surface as drawn,
/// relief included; the renderer lifts lines off it). A kind is coloured and named by its
/// category in `hints` (the plate_boundary layer's own, may be null), else by
/// categorical(kind) and "kind N". Cost O(edges).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots or `kinds`
/// does not match the mesh.
void plate_boundary_lines(const Mesh& m, std::span<const glm::vec3> positions,
                          const Layer<std::int32_t, Layer_type::edge_primal>& kinds,
                          const Layer_hints* hints, Boundary_lines& out);

/// The colour velocity arrows are drawn in: pale yellow reads on both terrain and ocean blues.
inline constexpr Colour velocity_arrow_colour{255, 244, 170, 255};

/// How many arrows the view draws at most, unless told otherwise: about 1,500 over the globe
/// (a cube-face grid of 6 · 16 · 16 cells), some 25 pixels apart on a full view of the planet.
inline constexpr std::size_t default_max_velocity_arrows = 2000;

/// Velocity arrows: per arrow a shaft and two head strokes, three segments.
struct Velocity_arrows {
    std::vector<glm::vec3> positions; ///< segment ends in pairs: shaft (tail, tip), then the
                                      ///< two head strokes (tip, barb)
    std::vector<Colour> colours;      ///< per end: velocity_arrow_colour
    std::vector<Vertex> vertex_of;    ///< per arrow: the vertex it starts at
    /// The motion an arrow's length stands for: an arrow is as long as the distance its vertex
    /// travels in this many million years (a 1-2-5 step). 0 when nothing moves.
    double million_years = 0.0;
    double fastest = 0.0; ///< the largest finite speed of the layer, km per million years
};

/// Segments and output positions of one arrow in Velocity_arrows.
inline constexpr std::size_t velocity_arrow_segments = 3;
inline constexpr std::size_t velocity_arrow_positions = 2 * velocity_arrow_segments;

/// The cube-face grid level velocity_arrows uses for at most `max_arrows` arrows: the
/// largest level whose sphere_curve_cells do not exceed it (0, six cells, at least).
int velocity_arrow_level(std::size_t max_arrows);

/// The 1-2-5 step (…, 0.5, 1, 2, 5, 10, …) at or below `x`; 0 for x not positive and finite.
double step_at_or_below(double x);

/// The velocity of `m` as arrows, at most one per cell of the cube-face grid of
/// velocity_arrow_level(max_arrows) (see sphere_curve_key): of the live vertices in a cell,
/// the one nearest the mean direction of the cell's vertices, so that arrows spread evenly
/// whatever the mesh's density. A vertex whose velocity is zero or not finite gets no arrow.
///
/// An arrow starts at its vertex's position (`positions`, the surface as drawn), lifted
/// radially by a thousandth of its distance from the centre, and runs along the velocity made
/// tangent there, as long as the vertex moves in `million_years` (chosen so that the fastest
/// arrow spans at most the mean spacing of the arrows, see Velocity_arrows). The head's two
/// strokes, at about 27 degrees either side of the shaft in the tangent plane, are a quarter of
/// the arrow long, but at least a fifth of the spacing and at most half the arrow. Positions
/// are in the units of the velocity per million years (kilometres for a world in kilometres).
///
/// Cost O(vertices · level) time, O(vertex slots) scratch memory.
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots or
/// `velocity` does not match the mesh.
void velocity_arrows(const Mesh& m, std::span<const glm::vec3> positions,
                     const Layer<glm::vec3, Layer_type::vertex>& velocity, std::size_t max_arrows,
                     Velocity_arrows& out);

} // namespace orbis::render
