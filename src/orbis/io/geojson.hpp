// SPDX-License-Identifier: MIT
// GeoJSON (RFC 7946) for GIS programs: the rivers, lakes and land masses the hydrology module
// found, and optionally every Voronoi cell with its vertex layers, in longitude and latitude,
// cut at the antimeridian.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/io/atomic_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace orbis::io {

/// A position in micro-degrees: longitude east in [-180e6, 180e6], latitude north in
/// [-90e6, 90e6]. Files get exactly these numbers with 6 decimals (about 0.1 m on Earth), and
/// holding them as integers keeps rings exactly closed and comparisons exact.
struct Lon_lat {
    std::int32_t lon = 0; ///< micro-degrees east of longitude 0 (+x)
    std::int32_t lat = 0; ///< micro-degrees north of the equator (+y is north)
    /// Same position.
    friend bool operator==(const Lon_lat&, const Lon_lat&) = default;
};

/// The longitude and latitude of the direction of `p`, rounded to micro-degrees, by the
/// convention of orbis/core/sphere_geometry.hpp (longitude atan2(-z, x)). A direction exactly
/// on the antimeridian (z = 0, x < 0) gets +180; one on the axis gets longitude 0.
Lon_lat lon_lat_of(const glm::dvec3& p);

/// A closed ring (first position == last, at least 4 positions): exteriors counterclockwise,
/// holes clockwise, with longitude to the right and latitude up.
using Geo_ring = std::vector<Lon_lat>;
/// An exterior ring followed by its holes.
using Geo_polygon = std::vector<Geo_ring>;
/// The parts of an area; parts touch only along the antimeridian's two edges of the map.
using Geo_multi_polygon = std::vector<Geo_polygon>;
/// A line of at least two distinct positions.
using Geo_line = std::vector<Lon_lat>;

/// The union of the Voronoi cells of the live vertices whose slot has inside[slot] != 0, in
/// longitude and latitude: one polygon per connected piece of the plane map. On a mesh whose
/// edges are all locally Delaunay (generated worlds) a cell is the vertex's Voronoi cell, its
/// corners the circumcentres of the faces around it, as the renderer draws it. Otherwise
/// (hand-edited meshes), where those cells would overlap, a face's corner is its circumcentre
/// when that lies inside the face and its centroid when not, and sides pass through edge
/// midpoints, so that cells never overlap on a mesh that is not folded. Sides are great-circle
/// arcs, given extra points where a straight line in longitude and latitude would stray more
/// than 0.001 degrees from them.
/// Rings crossing the antimeridian are cut there and closed along it; an area holding a pole
/// is closed along the map's top or bottom edge (latitude +-90); a ring that becomes a hole of
/// no exterior (an area covering the antimeridian, such as the ocean around a continent) gets
/// the whole map as its exterior. Precondition: the mesh is closed (every edge has two faces)
/// and `inside` has one entry per vertex slot. Cost: O(vertices + edges) plus, per hole, a
/// point-in-polygon test against each exterior.
Geo_multi_polygon cell_union(const World& world, std::span<const std::uint8_t> inside);

/// Which edges count as rivers.
struct River_selection {
    /// Rivers carry at least this many m³/s; when unset, min_discharge_fraction decides.
    std::optional<double> min_discharge = std::nullopt;
    /// Rivers carry at least this fraction of the world's largest discharge (used when
    /// min_discharge is unset): resolution-independent, and a dry and a wet world get about the
    /// same number of rivers. In (0, 1].
    double min_discharge_fraction = 0.01;
};

/// The discharge (m³/s) from which an edge is a river: `selection.min_discharge`, or the
/// fraction of the largest value of the World's "discharge" layer (0 when it holds no positive
/// value). \throws std::invalid_argument when the World has no float edge_primal_directed layer
/// "discharge", or the selection is not finite and positive (the fraction at most 1).
double river_threshold(const World& world, const River_selection& selection = {});

/// One river: a chain of edges carrying at least the threshold, from a source, confluence or
/// lake outlet down to the next confluence, mouth, sink or lake shore.
struct River {
    /// The line along the vertices, one part unless the river crosses the antimeridian.
    std::vector<Geo_line> geometry;
    /// The vertices from upstream to downstream.
    std::vector<Vertex> vertices;
    /// m³/s on the last edge (the largest along the river).
    double discharge = 0.0;
    /// Strahler order on the tree of all river edges: 1 for a river no river flows into; where
    /// two or more rivers of the highest incoming order k meet, k + 1; otherwise k.
    int strahler = 1;
    /// The "basin" layer's value at the first vertex; -1 when the World has no basin layer.
    std::int32_t basin = -1;
    /// Length along the sphere between the vertices, in the units of the positions (km for
    /// generated worlds).
    double length = 0.0;
};

/// The rivers of `world`: directed edges whose "discharge" is at least `min_discharge` (and
/// positive), chained between sources, confluences, mouths and sinks. Edges inside one lake
/// (both ends in the same lake) and edges leaving the ocean count for the Strahler orders but
/// are not drawn, so rivers stop at a lake's shore and start again at its outlet.
/// \throws std::invalid_argument when the World has no discharge or position layer, a
/// "basin" or "lake" or "ocean" layer of another type, or the river edges form a cycle.
/// Cost: O(vertices + edges).
std::vector<River> river_features(const World& world, double min_discharge);

/// One lake: the union of the cells of the vertices with its id in the "lake" layer.
struct Lake {
    std::int32_t id = 0;        ///< the lake id
    double level = 0.0;         ///< the "water_level" (m) of its first vertex; NaN without one
    double area = 0.0;          ///< of its Voronoi cells, in squared units of the positions
    Geo_multi_polygon geometry; ///< islands are holes
};

/// The lakes of `world` by id (ids without any vertex are left out).
/// \throws std::invalid_argument when the World has no int32 vertex layer "lake" or no
/// positions, or when the mesh is open. Cost: O(vertices + edges).
std::vector<Lake> lake_features(const World& world);

/// One land mass: a connected set of vertices not on the ocean (lakes included).
struct Land_mass {
    std::int32_t id = 0;        ///< 0 for the largest, then by decreasing area
    double area = 0.0;          ///< of its Voronoi cells, in squared units of the positions
    std::size_t vertices = 0;   ///< number of vertices
    Geo_multi_polygon geometry; ///< its coast; a land mass holding a pole is closed at the pole
};

/// The land masses of `world`: connected components (through mesh edges) of the vertices
/// where the bool vertex layer "ocean" is false, largest first. \throws std::invalid_argument
/// when the World has no "ocean" layer or no positions, or when the mesh is open.
/// Cost: O(vertices + edges).
std::vector<Land_mass> land_features(const World& world);

/// What write_geojson writes.
struct Geojson_options {
    bool rivers = true;                ///< rivers.geojson (needs "discharge")
    bool lakes = true;                 ///< lakes.geojson (needs "lake")
    bool coastlines = true;            ///< coastlines.geojson (needs "ocean")
    bool cells = false;                ///< cells.geojson: every cell with every vertex layer
    River_selection river_selection{}; ///< which edges are rivers
    Sync sync = Sync::full;            ///< passed to write_file_atomically
};

/// What write_geojson wrote.
struct Geojson_report {
    std::vector<std::filesystem::path> files; ///< in the order rivers, lakes, coastlines, cells
    std::size_t rivers = 0;                   ///< features in rivers.geojson
    std::size_t lakes = 0;                    ///< features in lakes.geojson
    std::size_t land_masses = 0;              ///< features in coastlines.geojson
    std::size_t cells = 0;                    ///< features in cells.geojson
    double min_discharge = 0.0;               ///< the river threshold used (m³/s)
};

/// Writes the chosen kinds as GeoJSON files into `folder` (created when missing), each file a
/// FeatureCollection of one geometry type so that GIS programs read it as one typed layer:
/// rivers.geojson (MultiLineString; properties discharge, strahler, basin, length_km),
/// lakes.geojson (MultiPolygon; lake, level, area_km2), coastlines.geojson (MultiPolygon of
/// each land mass; land_mass, area_km2, vertices) and cells.geojson (MultiPolygon of each
/// Voronoi cell; vertex and every typed vertex layer by name, vectors as arrays, non-finite
/// values as null, plus NAME_name for layers whose hints name their values). Lengths and areas
/// assume positions in km. Each file is replaced atomically.
/// \throws std::invalid_argument when a layer a chosen kind needs is missing or of another
/// type (see the *_features functions), or nothing is chosen; File_error when `folder` is not
/// a folder or a file cannot be written. Cost: O(vertices + edges); cells.geojson is built in
/// memory before it is written and takes about 650 bytes per vertex for a generated world of
/// 375,000 vertices and 15 vertex layers (more per vertex on coarse meshes, whose long cell
/// sides get extra points). Cells too small for 6 decimals are left out.
Geojson_report write_geojson(const World& world, const std::filesystem::path& folder,
                             const Geojson_options& options = {});

} // namespace orbis::io
