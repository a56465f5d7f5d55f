// SPDX-License-Identifier: MIT
// Water in the view: which vertices the hydrology layers cover, and rivers as ribbons of
// triangles along the edges that carry enough discharge.
#pragma once

#include "orbis/core/colour_map.hpp"
#include "orbis/core/ids.hpp"
#include "orbis/core/layer.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/render/mesh_buffers.hpp"

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render {

/// \name The hydrology layers the view reads, by the names and kinds gen's hydrology module
/// writes them with (orbis::render does not link orbis::gen). A layer of such a name but
/// another kind counts as missing.
///@{
inline constexpr std::string_view ocean_layer_name = "ocean";             ///< bool vertex
inline constexpr std::string_view lake_layer_name = "lake";               ///< int32 vertex, -1 none
inline constexpr std::string_view water_level_layer_name = "water_level"; ///< float vertex, m
/// float directed primal edge, m³/s, on the edge from each draining vertex to its receiver
inline constexpr std::string_view discharge_layer_name = "discharge";
/// The relief layer that water levels are measured against (metres above sea level).
inline constexpr std::string_view elevation_layer_name = "elevation";
///@}

/// The colour rivers are drawn in.
inline constexpr Colour river_colour{36, 96, 196, 255};

/// What covers the vertices of a World: its ocean, lake and water_level layers, all three or
/// none.
struct Water_layers {
    const Layer<bool, Layer_type::vertex>* ocean = nullptr;
    const Layer<std::int32_t, Layer_type::vertex>* lake = nullptr;
    const Layer<float, Layer_type::vertex>* level = nullptr;

    /// True when the World has all three layers.
    explicit operator bool() const { return ocean && lake && level; }
    /// What covers vertex `v`: ocean wins over a lake. Precondition: *this.
    Surface surface(Vertex v) const {
        if ((*ocean)[v]) return Surface::ocean;
        return (*lake)[v] >= 0 ? Surface::lake : Surface::land;
    }
    /// True on the ocean and on lakes. Precondition: *this.
    bool wet(Vertex v) const { return surface(v) != Surface::land; }
    /// The layers' versions (zeros without them), to key caches on.
    std::array<std::uint64_t, 3> versions() const;
};

/// The water layers of `world`, or none when one of them is missing or of another kind.
Water_layers water_layers(const World& world);

/// The discharge layer of `world`, or nullptr when it is missing or of another kind.
const Layer<float, Layer_type::edge_primal_directed>* discharge_layer(const World& world);

/// Rivers: one ribbon per river edge, two triangles on each side of the edge, for indexed
/// drawing.
struct River_buffers {
    /// Per output vertex: position, just above the surface the positions describe.
    std::vector<glm::vec3> positions;
    /// Per output vertex: unit normal, pointing away from the centre (water lies level).
    std::vector<glm::vec3> normals;
    /// Three output vertex indices per triangle, counterclockwise seen from outside.
    std::vector<std::uint32_t> indices;
    /// Per output vertex: river_colour.
    std::vector<Colour> colours;
    /// Per ribbon: the directed edge it runs along, downstream.
    std::vector<Edge> edge_of;
    /// Per ribbon: the discharge along it, m³/s.
    std::vector<float> discharge;
};

/// Output vertices and triangles of one ribbon in River_buffers.
inline constexpr std::size_t river_ribbon_vertices = 6;
inline constexpr std::size_t river_ribbon_triangles = 4;

/// The width of a river ribbon relative to the length of its edge: 0.1 at `min_discharge`,
/// growing with the logarithm of discharge / min_discharge to 0.5 at a hundred times it.
/// 0 below min_discharge or for non-finite values. Precondition: min_discharge > 0.
double river_width_fraction(double discharge, double min_discharge);

/// The rivers of `m`: a ribbon along every live directed primal edge whose `discharge` is at
/// least `min_discharge` (m³/s), except edges with both ends wet under `water` (lakes and the
/// ocean are drawn as water already; pass none to draw every edge).
///
/// Ribbon k has output vertices 6k to 6k + 5: left, centre and right of its upstream end, then
/// of its downstream end, centres at the edge's vertices. A river is river_width_fraction of
/// an edge length wide: at its downstream end that of the discharge it carries, on the scale
/// of the edge leaving its dest vertex; at its upstream end that of the largest river flowing
/// in (of min_discharge at a source), on the scale of its own edge. Where a river meets the
/// edge its water leaves by, the ends are mitred (cut along the bisector) when the river turns
/// by at most a right angle, so that the main stream runs on without gaps: its downstream
/// corners are the next ribbon's upstream corners, seen from above. Corners lie on the planes
/// of the faces left and right of the edge, lifted radially by 1% of their end's edge length
/// so that rivers do not fight the surface for depth. `positions` is indexed by vertex slot
/// (the surface as drawn, relief included).
///
/// Cost O(edges) time, O(vertex slots) scratch memory.
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots,
/// `discharge` does not match the mesh or min_discharge is not positive.
void river_ribbons(const Mesh& m, std::span<const glm::vec3> positions,
                   const Layer<float, Layer_type::edge_primal_directed>& discharge,
                   double min_discharge, const Water_layers& water, River_buffers& out);

} // namespace orbis::render
