// SPDX-License-Identifier: MIT
// Keeps the render buffers of one World view and rebuilds a part only when its inputs changed.
#pragma once

#include "orbis/core/world_delta.hpp"
#include "orbis/render/live_range.hpp"
#include "orbis/render/mesh_buffers.hpp"
#include "orbis/render/tectonic_overlays.hpp"
#include "orbis/render/water_buffers.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace orbis {
class Layer_base;
class World;
} // namespace orbis

namespace orbis::render {

/// How many parts were rebuilt (what an editor would upload to the GPU again).
struct Rebuild_counts {
    int positions = 0;      ///< flattened position arrays read from the position layer
    int triangles = 0;      ///< Triangle_buffers builds
    int voronoi = 0;        ///< Voronoi_buffers builds
    int primal_edges = 0;   ///< primal Line_buffers builds
    int dual_edges = 0;     ///< dual Line_buffers builds
    int rivers = 0;         ///< River_buffers builds
    int tectonics = 0;      ///< Boundary_lines and Velocity_arrows builds
    int layer_colours = 0;  ///< Slot_colours computed from a layer
    int buffer_colours = 0; ///< colour arrays laid onto buffers
    int updates = 0;        ///< parts brought up to date in place by Buffer_cache::apply

    /// Sum of the geometry builds (triangles, Voronoi cells, both kinds of lines, rivers,
    /// tectonic overlays).
    int geometry() const {
        return triangles + voronoi + primal_edges + dual_edges + rivers + tectonics;
    }
    /// Sum of every count.
    int total() const { return positions + geometry() + layer_colours + buffer_colours + updates; }
    /// Equal when every count is equal.
    friend bool operator==(const Rebuild_counts&, const Rebuild_counts&) = default;
};

/// Whether `layer` can lift the surface (Buffer_cache::set_relief): a float, double or int32
/// vertex layer. False for nullptr.
bool is_relief_layer(const Layer_base* layer);
/// Why layer `name` cannot lift the surface, in words.
std::string relief_refusal(const std::string& name);

/// The buffers of one World view, rebuilt only when what they depend on changed.
///
/// Geometry depends on World::mesh_version() and the position layer's version (and the relief
/// and water layers' when they shape it); colours of a layer on the mesh version, the layer's
/// version, the Colour_options and, where water decides them (Colour_options::water), the
/// water layers' versions; colours laid onto buffers on the mesh version, the buffers' kind
/// (and shading) and the layer colours. Version stamps are unique in the process, so the cache
/// may be handed snapshots of the same World (undo) and rebuilds only what differs. Rebuilds
/// reuse the previous arrays' memory.
/// References returned stay valid until the next call that rebuilds the same part.
class Buffer_cache {
public:
    /// The triangles of `world` (flat and smooth are cached separately), indexed for apply()
    /// as they are built. With `normals` false, smooth triangles may come without normals
    /// (flat shading makes them while drawing); a later call that wants them adds them, which
    /// counts as a rebuild. \throws std::invalid_argument when the world has no position layer.
    /// O(faces) on rebuild.
    const Triangle_buffers& triangles(const World& world, Shading shading, bool normals = true);
    /// The Voronoi cells of `world`. \throws as triangles(). O(edges) on rebuild.
    const Voronoi_buffers& voronoi_cells(const World& world);
    /// The primal edge segments of `world`. \throws as triangles(). O(edges) on rebuild.
    const Line_buffers& primal_edges(const World& world);
    /// The dual edge segments of `world`. \throws as triangles(). O(edges) on rebuild.
    const Line_buffers& dual_edges(const World& world);

    /// Colours of layer `name` on triangles(world, shading) (see colours_on).
    /// \throws std::invalid_argument as colours_for_layer and colours_on.
    const std::vector<Colour>& triangle_colours(const World& world, Shading shading,
                                                std::string_view name,
                                                const Colour_options& options = {});
    /// Colours of vertex layer `name` on voronoi_cells(world).
    /// \throws std::invalid_argument as colours_for_layer and colours_on.
    const std::vector<Colour>& voronoi_colours(const World& world, std::string_view name,
                                               const Colour_options& options = {});
    /// Colours of primal edge layer `name` on primal_edges(world).
    /// \throws std::invalid_argument as colours_for_layer and colours_on.
    const std::vector<Colour>& primal_edge_colours(const World& world, std::string_view name,
                                                   const Colour_options& options = {});
    /// Colours of dual edge layer `name` on dual_edges(world).
    /// \throws std::invalid_argument as colours_for_layer and colours_on.
    const std::vector<Colour>& dual_edge_colours(const World& world, std::string_view name,
                                                 const Colour_options& options = {});

    /// Displaces every position radially by the value of vertex layer `layer` times `scale`
    /// (p becomes p · (1 + scale · value); non-finite values do not move it), so that lighting
    /// shows relief; an empty name turns it off. With `water`, when `layer` is the elevation
    /// layer and the World has the water layers (see water_layers), ocean and lake vertices
    /// are lifted by their water_level instead, so that the ocean lies flat at sea level and
    /// each lake flat at its own level; the geometry then also follows those layers' versions.
    /// Changing any setting rebuilds all geometry on the next request.
    /// \throws std::invalid_argument from those requests when the layer is missing or not a
    /// scalar vertex layer.
    void set_relief(std::string_view layer, double scale, bool water = false);

    /// The positions every part is built from, indexed by vertex slot: the position layer,
    /// displaced by the relief. The reference stays valid until the next call that builds
    /// anything (smooth triangles take the array over). \throws as triangles(). O(vertices)
    /// on rebuild.
    const std::vector<glm::vec3>& surface_positions(const World& world);

    /// The rivers of `world` on the surface of surface_positions(world): a ribbon along every
    /// edge whose discharge is at least `min_discharge` m³/s (see river_ribbons); with `water`,
    /// none where both ends are under the ocean or a lake. Rebuilt when the geometry, the
    /// discharge layer, the settings or (with `water`) the water layers change.
    /// \throws std::invalid_argument as triangles(), when the World has no float directed
    /// primal edge layer "discharge", or when min_discharge is not positive. O(edges) on
    /// rebuild.
    const River_buffers& rivers(const World& world, double min_discharge, bool water);

    /// The plate boundaries of `world` on the surface of surface_positions(world), coloured by
    /// the plate_boundary layer's hints (see plate_boundary_lines). Rebuilt when the geometry,
    /// the layer or its hints change.
    /// \throws std::invalid_argument as triangles() and when the World has no int32 primal
    /// edge layer "plate_boundary". O(edges) on rebuild.
    const Boundary_lines& plate_boundaries(const World& world);

    /// At most `max_arrows` arrows of the velocity layer of `world` on the surface of
    /// surface_positions(world) (see velocity_arrows). Rebuilt when the geometry, the layer or
    /// max_arrows change.
    /// \throws std::invalid_argument as triangles() and when the World has no vec3 vertex
    /// layer "velocity". O(vertices) on rebuild.
    const Velocity_arrows& velocity_arrows(const World& world, std::size_t max_arrows);

    /// Brings the triangles (flat and smooth), the primal and dual edge segments and their
    /// colours up to `world` in place when they were built for the state `delta` starts from:
    /// only the listed elements and what is around them are rewritten (see update_triangles,
    /// update_lines). Layer colours are recoloured where they changed, unless an automatic
    /// range changed (then the next colour call recomputes them); the range is checked on the
    /// layer chunks the edit touched (see Live_range_cache). Voronoi cells are left to rebuild
    /// on their next request. Returns whether a part was updated. Cost O(listed elements ×
    /// valence + layer chunks); parts are indexed for it when they are built.
    bool apply(const World& world, const World_delta& delta);
    /// Where the faces are in triangles(world, shading) as last built or updated, or nothing
    /// when that index is not current.
    const Triangle_index* triangle_index(Shading shading) const;
    /// What the last apply() rewrote in the triangles of `shading` and their colours, or
    /// nothing when they were rebuilt or not updated since.
    const Buffer_dirt* dirt(Shading shading) const;
    /// True when dirt(shading) lists outputs whose geometry the last apply() rewrote; false when
    /// only values changed and just the colours there need uploading (or there is no dirt).
    bool geometry_patched(Shading shading) const;
    /// True when the last apply() updated the colours on the triangles of `shading` in place
    /// (so that only dirt(shading) needs uploading), and they were not rebuilt since.
    bool colours_updated(Shading shading) const;
    /// What the last apply() rewrote in the primal (`dual` false) or dual edge segments, or
    /// nothing when they were rebuilt or not updated since.
    const Buffer_dirt* line_dirt(bool dual) const;
    /// True when the last apply() updated the colours on those segments in place.
    bool line_colours_updated(bool dual) const;

    /// What the last call above rebuilt (zero everywhere when it found everything current).
    const Rebuild_counts& last_rebuilds() const { return last_; }
    /// What every call since construction (or clear()) rebuilt.
    const Rebuild_counts& total_rebuilds() const { return total_; }
    /// Forgets every buffer and count.
    void clear() { *this = Buffer_cache(); }

private:
    // The inputs a geometry part was built from; `built` is false until the first build.
    struct Geometry_key {
        bool built = false;
        std::uint64_t mesh_version = 0;
        std::uint64_t position_version = 0;
        std::uint64_t relief_version = 0; // of the relief layer, 0 without relief
        // Of the water layers while they flatten the relief, zeros otherwise.
        std::array<std::uint64_t, 3> water_versions{};
        friend bool operator==(const Geometry_key&, const Geometry_key&) = default;
    };
    // Parts of the cache, one per kind of output.
    enum Target : std::size_t {
        flat_triangles,
        smooth_triangles,
        voronoi,
        primal_lines,
        dual_lines,
        target_count
    };
    struct Layer_entry {
        std::string name;
        std::uint64_t mesh_version = 0;
        std::uint64_t layer_version = 0;
        Colour_options options;
        // Of the water layers when they decide the colours (see Colour_options::water).
        std::array<std::uint64_t, 3> water_versions{};
        std::uint64_t serial = 0; // 0: never built
        Slot_colours colours;
    };
    struct Colour_entry {
        std::uint64_t mesh_version = 0;
        std::uint64_t layer_serial = 0; // 0: never built
        std::vector<Colour> colours;
        // The layer's slot colours serve as they are (vertex colours on smooth triangles, whose
        // outputs are the vertex slots): `colours` is left empty.
        bool slots_serve = false;
    };

    Geometry_key key_of(const World& world) const;
    const std::vector<glm::vec3>& positions(const World& world);
    const Layer_entry& layer_colours(const World& world, std::string_view name,
                                     const Colour_options& options, Target target);
    template <class Buffers>
    const std::vector<Colour>& colours(const World& world, Target target, const Buffers& buffers,
                                       std::string_view name, const Colour_options& options);
    void begin_call() { last_ = {}; }
    void count(int Rebuild_counts::*part);

    void update_triangle_colours(const World& world, Target target, const World_delta& delta,
                                 const std::vector<std::uint32_t>& faces);
    void update_line_colours(const World& world, Target target, const World_delta& delta);
    // The layer whose colours `target` holds when they were made for the state `delta` starts
    // from (recolouring the changed slots then brings them up to date); nullptr otherwise.
    const Layer_base* colours_at_start(const World& world, Target target,
                                       const World_delta& delta) const;
    // Marks the colours of `target` current after they were recoloured in place.
    void mark_recoloured(const World& world, Target target, const Layer_base& base);

    // Whether water flattens the relief of `world` now.
    bool water_flattens(const World& world) const;

    std::string relief_layer_;
    double relief_scale_ = 0.0;
    bool relief_water_ = false;
    // What the rivers were built from.
    struct River_key {
        Geometry_key geometry;
        std::uint64_t discharge_version = 0;
        double min_discharge = 0.0;
        bool water = false;
        std::array<std::uint64_t, 3> water_versions{};
        friend bool operator==(const River_key&, const River_key&) = default;
    };
    River_key river_key_;
    River_buffers rivers_;
    // What the tectonic overlays were built from (`layer_version` 0: not built).
    struct Overlay_key {
        Geometry_key geometry;
        std::uint64_t layer_version = 0;
        std::size_t max_arrows = 0;
        Layer_hints hints;
        friend bool operator==(const Overlay_key&, const Overlay_key&) = default;
    };
    Overlay_key boundary_key_;
    Boundary_lines boundaries_;
    Overlay_key arrow_key_;
    Velocity_arrows arrows_;
    Geometry_key positions_key_;
    // Per shading (flat, smooth): where triangles are, what apply() rewrote, whether the index
    // and the dirt describe the current buffers, and whether colours followed in place.
    std::array<Triangle_index, 2> index_;
    std::array<Buffer_dirt, 2> dirt_;
    std::array<bool, 2> index_valid_{};
    std::array<bool, 2> dirt_valid_{};
    std::array<bool, 2> geometry_patched_{};
    std::array<bool, 2> colours_updated_{};
    // The same for the primal and dual edge segments.
    std::array<Line_index, 2> line_index_;
    std::array<Buffer_dirt, 2> line_dirt_;
    std::array<bool, 2> line_index_valid_{};
    std::array<bool, 2> line_dirt_valid_{};
    std::array<bool, 2> line_colours_updated_{};
    // The surface positions (see surface_positions), here until smooth triangles are built:
    // their outputs are the vertex slots, so from then on their positions array is the surface
    // (one array of 12 bytes a slot instead of two) and surface_in_smooth_ is true.
    std::vector<glm::vec3> surface_;
    bool surface_in_smooth_ = false;
    std::vector<glm::vec3>& surface() {
        return surface_in_smooth_ ? triangles_[1].positions : surface_;
    }
    // Marks the smooth triangles stale when they hold the surface, before it is rewritten
    // without them.
    void forget_smooth_surface();
    std::array<Geometry_key, target_count> keys_;
    std::array<Triangle_buffers, 2> triangles_; // flat, smooth
    Voronoi_buffers voronoi_;
    Line_buffers primal_;
    Line_buffers dual_;
    // One layer's colours are kept per target, so that showing the same layer on cells and
    // triangles does not recompute it, and different layers per target do not evict each other.
    std::array<Layer_entry, target_count> layers_;
    std::array<Colour_entry, target_count> colours_;
    // The automatic range of the layer coloured last, so that an edit reads only the chunks it
    // touched to see whether the range moved (one for all targets: they show one layer).
    Live_range_cache ranges_;
    std::uint64_t next_serial_ = 1;
    Rebuild_counts last_;
    Rebuild_counts total_;
};

} // namespace orbis::render
