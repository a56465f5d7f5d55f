// SPDX-License-Identifier: MIT
// What the viewport draws of a World: the display modes and the CPU buffers they need.
#pragma once

#include "orbis/render/buffer_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render {

/// The display modes and the layer shown; modes combine freely.
struct View_options {
    bool triangles = true;           ///< primal triangles, filled
    Shading shading = Shading::flat; ///< of the triangles (face layers always draw flat)
    bool wireframe = false;          ///< primal edges
    bool voronoi_cells = false;      ///< dual Voronoi cells, filled
    bool voronoi_outlines = false;   ///< dual Voronoi cell outlines, dark
    bool dual_edges = false;         ///< dual edges, in colour (a dual edge layer's when shown)
    bool points = false;             ///< vertices as points
    bool boundary = true;            ///< boundary edges in red (open meshes only)
    bool arrows = false;             ///< a vec3 / dvec3 vertex `layer` also as arrows
    bool lighting = true;            ///< shade by the light; off: the exact layer colours
    std::string layer;               ///< the typed layer that colours the view; empty: none
    Colour_options colours;          ///< how `layer` turns into colours
    std::string relief;              ///< a scalar vertex layer that lifts the surface; empty: none
    double relief_scale = 0.0;       ///< lift per unit of `relief`, relative to the radius
    /// Show water where the World has the hydrology layers (ocean, lake, water_level):
    /// terrain colours by what covers a vertex (Colour_options::water), and with the
    /// `elevation` relief the ocean flat at sea level and every lake flat at its level.
    bool water = true;
    bool rivers = false;                ///< rivers along the edges of the `discharge` layer
    double river_min_discharge = 100.0; ///< m³/s an edge needs to be drawn as a river (> 0)
    bool plate_boundaries = false;      ///< boundary edges of the `plate_boundary` layer, by kind
    bool velocity_arrows = false; ///< arrows of the `velocity` layer at a thinned set of vertices
    std::size_t max_velocity_arrows = default_max_velocity_arrows; ///< at most this many arrows

    /// Equal when every setting is equal.
    friend bool operator==(const View_options&, const View_options&) = default;
};

/// One drawable part: geometry and colours, with stamps that change whenever they do.
///
/// When only some outputs changed since an earlier stamp (an edit applied in place), `dirt`
/// lists them and the base stamps say which earlier state they are relative to: a GPU copy of
/// the base may be patched instead of uploaded whole.
template <class Buffers>
struct Scene_part {
    const Buffers* geometry = nullptr;            ///< nothing: the part is not drawn
    const std::vector<Colour>* colours = nullptr; ///< nothing: the part's uniform colour
    std::uint64_t geometry_stamp = 0;             ///< new value: geometry must be uploaded
    std::uint64_t colour_stamp = 0;               ///< new value: colours must be uploaded
    std::uint64_t base_geometry_stamp = 0; ///< nonzero: geometry differs from it only at dirt
    std::uint64_t base_colour_stamp = 0;   ///< nonzero: colours differ from it only at dirt
    const Buffer_dirt* dirt = nullptr;     ///< the outputs that changed since the bases
};

/// Positions (and optional per-position colours) drawn as points or line segments.
struct Point_buffers {
    std::vector<glm::vec3> positions; ///< points, or segment ends in pairs
    std::vector<Vertex> vertex_of;    ///< for points: the vertex of each position
};

/// Everything the viewport draws for one World and View_options. The pointers stay valid until
/// the next Scene_builder::build (the mesh's: while the World built from lives too).
struct Scene {
    /// The mesh of the World built from, valid while that World lives unchanged (an edit in
    /// place would leave the triangles naming faces it no longer has): shared-vertex triangles
    /// keep no indices (Triangle_buffers::with_indices), and an upload reads them from it.
    const Mesh* mesh = nullptr;
    /// Where each face of `mesh` is in the triangles, when known: an upload of triangles
    /// without indices then reads the mesh face by face (see smooth_indices_by_face). Empty,
    /// and not read, for triangles in slot order (Triangle_buffers::in_slot_order).
    const Triangle_index* triangle_index = nullptr;
    Scene_part<Triangle_buffers> triangles;      ///< primal triangles
    Scene_part<Voronoi_buffers> voronoi;         ///< Voronoi cell fans
    Scene_part<Line_buffers> primal_edges;       ///< wireframe
    Scene_part<Line_buffers> dual_edges;         ///< dual edges (and cell outlines)
    Scene_part<Point_buffers> points;            ///< live vertices
    Scene_part<Point_buffers> boundary;          ///< boundary edge segments
    Scene_part<Point_buffers> arrows;            ///< one segment per vertex along a vector layer
    Scene_part<River_buffers> rivers;            ///< river ribbons (colours: river_colour)
    Scene_part<Boundary_lines> plate_boundaries; ///< plate boundary segments, by kind
    Scene_part<Velocity_arrows> velocity_arrows; ///< plate motion arrows
    /// Shade the triangles flat, with each face's normal made while drawing from the slope of
    /// its positions: the triangles are then the shared-vertex (smooth) buffers unless a face
    /// layer colours them, a third of the memory of three corners per face.
    bool flat_shading = false;
    bool voronoi_outlines = false;    ///< draw dual_edges dark, as outlines
    bool dual_edges_coloured = false; ///< draw dual_edges in colour
    std::string layer_error;          ///< why the layer colours nothing, if it does not
    std::string river_error;          ///< why rivers asked for are not drawn
    std::string tectonics_error;      ///< why plate boundaries or arrows asked for are not drawn
    double radius = 1.0;              ///< the largest vertex distance from the centre
};

/// Builds Scenes, rebuilding only what changed (see Buffer_cache). Not thread-safe: one build
/// at a time, and the previous Scene's pointers die with the next build.
class Scene_builder {
public:
    /// The parts `options` asks for, coloured by options.layer where its kind fits the part
    /// (vertex layers: triangles, cells and points; face layers: flat triangles; primal edge
    /// layers: the wireframe; dual edge layers: dual edges). A layer that cannot be shown
    /// (missing, Dict, vec2) leaves the parts uncoloured and says why in layer_error.
    /// Rivers come from the `discharge` layer (see Buffer_cache::rivers); without one, or with
    /// a river_min_discharge that is not positive, they are left out and river_error says why.
    /// Plate boundaries and velocity arrows come from the `plate_boundary` and `velocity`
    /// layers (see Buffer_cache::plate_boundaries, Buffer_cache::velocity_arrows); without
    /// them they are left out and tectonics_error says why.
    /// With a `delta` from the state of the previous build, triangles and their colours are
    /// updated in place (see Buffer_cache::apply) and marked with dirt; a delta from another
    /// state is ignored (everything that changed rebuilds).
    /// \throws std::invalid_argument when the world has no position layer.
    /// Cost: O(elements) for each part whose mesh, positions, layer or options changed;
    /// O(changed elements) for triangles updated in place.
    Scene build(const World& world, const View_options& options,
                const World_delta* delta = nullptr);

    /// What the last build rebuilt.
    const Rebuild_counts& last_rebuilds() const { return rebuilt_; }

private:
    // Per part: the buffers last handed out and their stamps.
    struct Stamps {
        const void* geometry = nullptr;
        const void* colours = nullptr;
        std::uint64_t geometry_stamp = 0;
        std::uint64_t colour_stamp = 0;
    };
    enum class Change { none, in_place, rebuilt };
    template <class Buffers>
    void stamp(Scene_part<Buffers>& part, Change geometry, Change colours, Stamps& stamps);
    void refresh_points(const World& world, bool want_points, const World_delta* delta);
    void rebuild_boundary(const World& world);
    // Builds the arrows of vector layer `name` if they are stale; the reason when refused.
    const std::string* build_arrows(const World& world, const std::string& name, bool& rebuilt);
    void add_rebuilds();

    Buffer_cache cache_;
    Rebuild_counts rebuilt_;
    std::uint64_t next_stamp_ = 1;
    Stamps triangle_stamps_, voronoi_stamps_, primal_stamps_, dual_stamps_, point_stamps_,
        boundary_stamps_, river_stamps_, plate_boundary_stamps_, velocity_stamps_;
    // Points, boundary segments and the radius depend on the mesh and the positions only;
    // points are built only while shown.
    std::uint64_t points_mesh_version_ = 0;
    std::uint64_t points_position_version_ = 0;
    bool points_built_ = false;
    bool points_rebuilt_ = false;
    Point_buffers points_;
    Point_buffers boundary_;
    // Arrows depend on the mesh, the positions and the vector layer.
    Stamps arrow_stamps_;
    std::string arrows_layer_;
    std::uint64_t arrows_mesh_version_ = 0;
    std::uint64_t arrows_position_version_ = 0;
    std::uint64_t arrows_layer_version_ = 0;
    Point_buffers arrows_;
    std::vector<Colour> arrow_colours_;
    double radius_ = 1.0;
};

} // namespace orbis::render
