// SPDX-License-Identifier: MIT
// CPU-side vertex and index arrays of a mesh, its Voronoi dual and their colours, for GPU upload.
#pragma once

#include "orbis/core/layer_hints.hpp"

#include "orbis/core/colour_map.hpp"
#include "orbis/core/ids.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/render/triangle_clusters.hpp"

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace orbis {
class World;
struct World_delta;
} // namespace orbis

namespace orbis::render {

class Live_range_cache;
struct Triangle_index;

/// An 8-bit sRGB colour with alpha, the layout of an RGBA8 vertex attribute.
using Colour = glm::u8vec4;

/// The colour of elements that have no value to show (deleted slots): transparent black.
inline constexpr Colour no_colour{0, 0, 0, 0};

/// How triangle normals are laid out.
enum class Shading {
    flat,   ///< three corners of its own per triangle, each with the face normal
    smooth, ///< one shared corner per live vertex, with the area-weighted mean of its face normals
};

/// Triangles of the primal mesh, one per live face: smooth ones for indexed drawing, flat ones
/// as plain arrays (their corners are in order, so an index array would only count 0, 1, 2...).
///
/// A build lays triangles out along the sphere's space-filling curve
/// (orbis/core/sphere_curve.hpp), not in index order, so that the triangles of one region lie
/// together and an edit's patch goes to the GPU in a few runs; face_of says which face each
/// draws (unless they are in slot order, below). Smooth output vertices are the vertex slots
/// themselves (output o draws vertex slot o; a dead slot's entries are drawn by no triangle), so
/// that no map between the two is kept (at ten million vertices, two arrays of 40 MB); flat ones
/// say their vertex in vertex_of.
///
/// Smooth triangles built without indices may instead be laid out by face slot (in_slot_order):
/// triangle t draws face slot t, or nothing while that slot is free. That order is chosen only
/// when the mesh's slots already keep regions together, as in a world numbered along the curve
/// (the sphere module numbers its triangles by their corners), and it keeps no face_of and no
/// Triangle_index: at ten million vertices, 150 MB less.
///
/// Flat triangles keep one normal per triangle rather than per corner, a third of the memory
/// (at ten million vertices, half a gigabyte); normal_of() reads either layout, and
/// triangle_corners() the corners of either, with or without indices.
struct Triangle_buffers {
    /// The layout these arrays were built with.
    Shading shading = Shading::flat;
    /// Per output vertex: position.
    std::vector<glm::vec3> positions;
    /// Smooth: per output vertex, its unit normal, or empty when built without normals (see
    /// with_normals). Flat: per triangle, the unit normal all three of its corners share.
    std::vector<glm::vec3> normals;
    /// False for smooth triangles built without normals, for views that light each face by a
    /// normal made while drawing; edits then keep `normals` empty. Always true for flat ones.
    bool with_normals = true;
    /// Smooth: three output vertex indices per triangle, counterclockwise seen from outside,
    /// or empty when built without them (see with_indices). Flat: empty, because corner k of
    /// triangle t is output 3t + k (counterclockwise too).
    std::vector<std::uint32_t> indices;
    /// False for smooth triangles built without indices: a triangle's indices are then its
    /// face's corners in the mesh (smooth_indices()), so that a viewer that keeps them on the
    /// GPU holds no second copy (at ten million vertices, 216 MB). Always true for flat ones.
    bool with_indices = true;
    /// Flat: per output vertex, the mesh vertex it stands for. Smooth: empty (see vertex_at).
    std::vector<Vertex> vertex_of;
    /// Per triangle: the mesh face it draws (no_face once gone). Empty in slot order.
    std::vector<Face> face_of;
    /// True when triangle t draws face slot t (see above); only for smooth triangles without
    /// indices. Edits then grow the triangles with the face slots and never shrink them.
    bool in_slot_order = false;
    /// In slot order, how many triangles there are (face slots, drawn or not); else unused.
    std::size_t slot_triangles = 0;
    /// Bounds of each run of cluster_triangles triangles (see triangle_clusters), kept by
    /// triangles() and update_triangles(), for frames that skip what the eye cannot see.
    std::vector<Triangle_cluster> clusters;

    /// How many triangles there are, drawn or not.
    std::size_t triangle_count() const { return in_slot_order ? slot_triangles : face_of.size(); }
    /// The face triangle `t` draws, or no_face when it draws nothing (its face is gone).
    /// Preconditions: `m` is the mesh these were built or last updated for; t < triangle_count().
    Face face_at(const Mesh& m, std::size_t t) const {
        if (!in_slot_order) return face_of[t];
        const Face f{static_cast<std::uint32_t>(t)};
        return t < m.face_slots() && m.contains(f) ? f : no_face;
    }
    /// The output vertex of corner `k` (0 to 2) of triangle `t`. Preconditions: t is a
    /// triangle, and the buffers hold their indices (with_indices; see triangle_corner()).
    std::uint32_t corner(std::size_t t, int k) const {
        return shading == Shading::flat ? static_cast<std::uint32_t>(3 * t + k)
                                        : indices[3 * t + k];
    }
    /// The vertex output `o` stands for: flat, vertex_of[o] (no_vertex once its face is gone);
    /// smooth, slot o, which may be dead (ask the mesh). Precondition: o < positions.size().
    Vertex vertex_at(std::size_t o) const {
        return shading == Shading::flat ? vertex_of[o] : Vertex{static_cast<std::uint32_t>(o)};
    }
    /// The unit normal output vertex `o` shades with. Precondition: o < positions.size().
    glm::vec3 normal_of(std::size_t o) const {
        return normals[shading == Shading::flat ? o / 3 : o];
    }
};

/// Line segments, two positions per segment, for GL_LINES.
struct Line_buffers {
    /// Per segment end: position (segment i is positions[2i] -> positions[2i + 1]).
    std::vector<glm::vec3> positions;
    /// Per segment: the edge it runs along, in the direction of the segment (a primal base edge
    /// from origin to dest, or a dual edge from its origin face to its dest face).
    std::vector<Edge> edge_of;
};

/// Voronoi cells: per cell a centre followed by its corners, drawn as a fan of triangles.
///
/// The cell of a vertex has one corner per face around it, at the face's circumcentre, in
/// counterclockwise order; the fan triangles are (centre, corner i, corner i + 1). On an open
/// mesh a boundary vertex gets a partial cell: its corners are the faces it has, and the fan
/// is not closed across the outside (no triangle joins two corners whose faces do not share an
/// edge at the vertex), so it has fewer triangles than corners. Vertices without faces get no
/// cell.
struct Voronoi_buffers {
    /// Per output vertex: position (the cell's vertex, then circumcentres).
    std::vector<glm::vec3> positions;
    /// Per output vertex: the cell's unit normal (the same for the whole cell, so it shades
    /// flat).
    std::vector<glm::vec3> normals;
    /// Three output vertex indices per fan triangle, counterclockwise seen from outside.
    std::vector<std::uint32_t> indices;
    /// Per cell: the mesh vertex it belongs to.
    std::vector<Vertex> cell_vertex;
    /// Per cell, plus one at the end: the first output vertex (the centre); cell c spans
    /// [cell_first[c], cell_first[c + 1]), so its corner count is that size minus one.
    std::vector<std::uint32_t> cell_first;
    /// Per output vertex: the face whose circumcentre it is, `no_face` for a centre.
    std::vector<Face> corner_face;
};

/// The cell that fan triangle `t` of `b` belongs to. Precondition: t < indices.size() / 3.
/// O(log cells).
std::size_t cell_of_triangle(const Voronoi_buffers& b, std::size_t t);

/// \name Geometry. `positions` is indexed by vertex slot (at least m.vertex_slots() entries);
/// only live elements are read and drawn, so deleted slots may hold anything.
///@{
/// The triangles of every live face, along the sphere's space-filling curve (see
/// Triangle_buffers). Cost O(faces).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots.
Triangle_buffers triangles(const Mesh& m, std::span<const glm::vec3> positions, Shading shading);
/// triangles() into `out`, reusing its arrays' memory (much faster for repeated builds of a
/// large mesh, which otherwise pay for fresh pages). With `normals` false, smooth triangles
/// come without normals (Triangle_buffers::with_normals). Same cost and refusals.
/// Precondition: `positions` is not out.positions (smooth_triangles() builds over those).
void triangles(const Mesh& m, std::span<const glm::vec3> positions, Shading shading,
               Triangle_buffers& out, bool normals = true);
/// Smooth triangles() over the positions `out` holds already (indexed by vertex slot, at least
/// m.vertex_slots() of them), which stay where they are: for a caller that keeps its positions
/// in `out` rather than have them copied there. Rewrites every other array of `out`.
/// With `index`, also makes it what index_triangles() would (the build knows where each face
/// went), reusing its memory. With `indices` false, out.indices is left empty (see
/// Triangle_buffers::with_indices), and the triangles are laid out in slot order when the
/// mesh's slots keep regions together (Triangle_buffers::in_slot_order; judged from the
/// culling bounds of slot-order clusters, which are then kept); `index` is then emptied.
/// Same cost as triangles(). \throws std::invalid_argument
/// when out.positions is shorter than the vertex slots.
void smooth_triangles(const Mesh& m, Triangle_buffers& out, bool normals = true,
                      Triangle_index* index = nullptr, bool indices = true);
/// The indices of smooth triangles [first, first + out.size() / 3) of `b`, as a build with
/// indices writes them: the corners of each triangle's face in `m`, and 0, 0, 0 (a point,
/// which draws nothing) for a triangle whose face is gone. Preconditions: `b` is smooth, `m`
/// is the mesh it was built or last updated for, and the range lies within its triangles.
/// O(out.size()), on up to eight threads when large.
void smooth_indices(const Mesh& m, const Triangle_buffers& b, std::size_t first,
                    std::span<std::uint32_t> out);
/// smooth_indices() of every triangle of `b` (out.size() == 3 · b.triangle_count()), reading
/// the mesh face by face in slot order through `index`, b's index, rather than in the
/// triangles' order: the mesh keeps a face's quad-edges together, so this reads it in order.
/// Triangles in slot order are read so anyway, and `index` is not read.
/// O(face slots + triangles), on up to eight threads.
void smooth_indices_by_face(const Mesh& m, const Triangle_buffers& b, const Triangle_index& index,
                            std::span<std::uint32_t> out);
/// The output vertices of the three corners of triangle `t` of `b`, whether or not `b` holds
/// its indices (see Triangle_buffers::corner; without them, a triangle whose face is gone is
/// 0, 0, 0). Precondition: `m` is the mesh `b` was built or last updated for, and t is a
/// triangle.
std::array<std::uint32_t, 3> triangle_corners(const Mesh& m, const Triangle_buffers& b,
                                              std::size_t t);
/// Gives smooth triangles `b` built without normals their normals, as triangles() computes
/// them; nothing for flat ones or ones that have them. Cost O(vertices × valence).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots.
void add_smooth_normals(const Mesh& m, std::span<const glm::vec3> positions, Triangle_buffers& b);
/// One segment per live primal edge, from origin to dest of the base edge. Cost O(edges).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots.
Line_buffers primal_edges(const Mesh& m, std::span<const glm::vec3> positions);
/// The circumcentre of every live face (unused slots zero), indexed by face slot: the
/// direction normalize(cross(b - a, c - a)), turned outward, scaled to the mean length of the
/// corners (the sphere's radius when they lie on one). Cost O(faces).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots.
std::vector<glm::vec3> circumcentres(const Mesh& m, std::span<const glm::vec3> positions);
/// The Voronoi cell of every live vertex with faces (see Voronoi_buffers). Cost O(edges).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots.
Voronoi_buffers voronoi_cells(const Mesh& m, std::span<const glm::vec3> positions);
/// voronoi_cells() into `out`, reusing its arrays' memory. Same cost and refusals.
void voronoi_cells(const Mesh& m, std::span<const glm::vec3> positions, Voronoi_buffers& out);
/// One segment per live primal edge with faces on both sides, between the circumcentres of its
/// right and left faces (along the dual edge rot(base)); boundary edges are skipped.
/// Cost O(edges). \throws std::invalid_argument when `positions` is shorter than the slots.
Line_buffers dual_edges(const Mesh& m, std::span<const glm::vec3> positions);

/// Where the triangles of a Triangle_buffers are, for updating them in place.
struct Triangle_index {
    std::vector<std::uint32_t> triangle_of_face; ///< per face slot: its triangle, or UINT32_MAX
};

/// Which outputs an in-place update rewrote, for partial uploads to the GPU.
struct Buffer_dirt {
    std::vector<std::uint32_t> vertices;  ///< output vertices rewritten (ascending, unique)
    std::vector<std::uint32_t> triangles; ///< triangles whose indices were written (ascending)
};

/// The index of `b`, as built by triangles() or kept by update_triangles(); empty for triangles
/// in slot order, which need none. O(outputs).
Triangle_index index_triangles(const Triangle_buffers& b, const Mesh& m);

/// Brings `b` (and `index`) in place up to mesh `m` with `positions` after edits that changed
/// only `vertices` (position, faces, existence) and `faces` (corners, existence): the faces
/// listed and the faces around the vertices listed are rewritten, new faces are appended (and
/// flat corners; smooth outputs grow with the vertex slots), deleted faces become degenerate
/// triangles (all corners at one point, face_of no_face, flat vertex_of no_vertex) that draw
/// nothing, and smooth normals are recomputed around every rewritten corner. Triangles in slot
/// order instead grow with the face slots (face i stays triangle i; `index` is not used). The
/// result draws what triangles() would draw, in another order. Returns what was rewritten. Cost
/// O(listed elements × valence). \throws std::invalid_argument when `positions` is shorter than the
/// vertex slots.
Buffer_dirt update_triangles(const Mesh& m, std::span<const glm::vec3> positions,
                             std::span<const Vertex> vertices, std::span<const Face> faces,
                             Triangle_buffers& b, Triangle_index& index);

/// The outputs of `b` that show the listed vertices and faces, for recolouring them after an
/// edit that changed values but no geometry (a brush dab): flat, the corners of the listed faces
/// and of every face around a listed vertex; smooth, the listed vertices' outputs. Rewrites
/// nothing; elements without outputs are skipped. Precondition: `index` is b's index and `m` the
/// mesh b was built from. Cost O(listed elements × valence).
Buffer_dirt outputs_showing(const Mesh& m, std::span<const Vertex> vertices,
                            std::span<const Face> faces, const Triangle_buffers& b,
                            const Triangle_index& index);

/// Where the segments of a Line_buffers are, for updating them in place.
struct Line_index {
    std::vector<std::uint32_t> segment_of_quad; ///< per quad-edge: its segment, or UINT32_MAX
};

/// The index of `b`, as built by primal_edges() / dual_edges() or kept by update_lines().
/// O(segments).
Line_index index_lines(const Line_buffers& b, const Mesh& m);

/// update_triangles for segments: brings primal (`dual` false) or dual edge segments `b` in
/// place up to mesh `m` after edits that changed only the listed vertices, faces and edges
/// (edges created or deleted must be listed, or be at a listed live vertex). Rewrites the
/// segments of listed edges, of the edges at listed vertices and of listed faces (dual: also
/// of every face around a listed vertex, whose circumcentre may have moved); appends new ones;
/// gone ones become zero-length segments with edge_of no_edge. Returns the segment ends
/// rewritten. Cost O(listed elements × valence).
/// \throws std::invalid_argument when `positions` is shorter than the vertex slots.
Buffer_dirt update_lines(const Mesh& m, std::span<const glm::vec3> positions,
                         std::span<const Vertex> vertices, std::span<const Face> faces,
                         std::span<const Edge> edges, bool dual, Line_buffers& b,
                         Line_index& index);

/// The world's orbis::position_layer as one array indexed by vertex slot. O(vertex slots).
/// \throws std::invalid_argument when the world has no position layer.
std::vector<glm::vec3> vertex_positions(const World& world);
///@}

/// How layer values turn into colours.
struct Colour_options {
    /// The map for scalar layers; nothing: categorical for integer and bool layers, viridis
    /// for float and double ones. Ignored for vector layers, which are shown as RGB(A).
    std::optional<Colour_map_kind> map;
    /// The values mapped to the ends of the map (per component for vectors); nothing: the
    /// smallest and largest finite value over the live elements.
    std::optional<std::pair<double, double>> range;
    /// Sea level for the terrain map.
    double sea_level = 0.0;
    /// Named values of a categorical layer (its module's hints): with the categorical map, a
    /// value listed here gets its category's colour, others the hashed one.
    std::vector<Layer_category> categories = {};
    /// With the terrain map, colour a scalar vertex layer by what covers each vertex when the
    /// World has the water layers (see water_layers in water_buffers.hpp): terrain_surface of
    /// the value and the vertex's water level, both relative to sea_level, so that a dry basin
    /// below sea level is land and a lake is water at any height. False, or without those
    /// layers: by the value alone.
    bool water = true;

    /// Equal when every setting is equal.
    friend bool operator==(const Colour_options&, const Colour_options&) = default;
};

/// One colour per slot of a layer (deleted slots get no_colour), with the layer kind so that
/// the colours can be laid onto matching buffers.
struct Slot_colours {
    /// The kind of the layer the colours come from, which decides what a slot is: a vertex, a
    /// face, or (see Layer::slot) a quad-edge or a directed edge of the primal or dual mesh.
    Layer_type type = Layer_type::vertex;
    /// Per slot: its colour.
    std::vector<Colour> colours;
    /// The values mapped to the ends of the map (what Colour_options::range was, or the live
    /// minimum and maximum found); [0, 1] for maps that ignore the range.
    std::pair<double, double> range{0.0, 1.0};
};

/// \name Colours of a layer. Scalars go through map_colour (integers and bool as ids under
/// the categorical map by default); vec3/dvec3 are RGB and vec4/dvec4 RGBA, each component
/// normalised by the range; vec2/dvec2 are refused. Cost O(slots).
///@{
/// Colours of the vertex layer `name`.
/// \throws std::invalid_argument naming the layer when it is missing, not a vertex layer or of
/// a refused value type.
Slot_colours colours_for_vertices(const World& world, std::string_view name,
                                  const Colour_options& options = {});
/// Colours of the face layer `name`. \throws std::invalid_argument as colours_for_vertices.
Slot_colours colours_for_faces(const World& world, std::string_view name,
                               const Colour_options& options = {});
/// Colours of the primal or dual, directed or undirected edge layer `name`.
/// \throws std::invalid_argument as colours_for_vertices.
Slot_colours colours_for_edges(const World& world, std::string_view name,
                               const Colour_options& options = {});
/// Colours of the typed layer `name`, whatever its kind. An automatic range is found through
/// `ranges` when given (see Live_range_cache), else by a pass over the layer.
/// \throws std::invalid_argument as colours_for_vertices.
Slot_colours colours_for_layer(const World& world, std::string_view name,
                               const Colour_options& options = {},
                               Live_range_cache* ranges = nullptr);
/// Recolours `slots` of `colours` (made by colours_for_layer for the same layer and options)
/// after their values or elements changed: live slots get their value's colour under
/// colours.range, dead ones no_colour; the arrays grow with the layer. Returns false, changing
/// nothing, when the range was found from the values (no options.range) and the live values'
/// range is no longer colours.range: then only a full colours_for_layer is right. An automatic
/// range is checked through `ranges` when given, told by `delta` (the edit that changed the
/// slots) which elements may have come or gone (see Live_range_cache::range): O(slots) plus
/// what the edit touched; without `ranges` the check is a pass over the layer, O(elements).
/// Maps that ignore the range skip the check.
/// \throws std::invalid_argument as colours_for_layer, or when the layer's kind or value type
/// differs from the colours'.
bool recolour_slots(const World& world, std::string_view name, const Colour_options& options,
                    std::span<const std::size_t> slots, Slot_colours& colours,
                    Live_range_cache* ranges = nullptr, const World_delta* delta = nullptr);
///@}

/// \name Colours laid onto buffers: one Colour per output vertex (per segment end for lines).
///@{
/// Vertex colours on triangle corners (interpolated across each triangle), or face colours
/// (flat shading only, every corner of a triangle its face's colour). Degenerate triangles
/// left by update_triangles get no_colour.
/// \throws std::invalid_argument for face colours on smooth triangles or edge colours.
std::vector<Colour> colours_on(const Triangle_buffers& b, const Slot_colours& c);
/// colours_on(b, c) for the outputs `outputs` only, written into `out` (grown to the outputs
/// of `b`). \throws std::invalid_argument as colours_on.
void colours_on(const Triangle_buffers& b, const Slot_colours& c,
                std::span<const std::uint32_t> outputs, std::vector<Colour>& out);
/// Vertex colours on Voronoi cells, one flat colour per cell.
/// \throws std::invalid_argument for other than vertex colours.
std::vector<Colour> colours_on(const Voronoi_buffers& b, const Slot_colours& c);
/// Edge colours on segments. Undirected layers give both ends of a segment its edge's colour.
/// Directed layers colour each end by the direction that leaves it: the start of segment i
/// gets the value of edge_of[i], the end the value of edge_of[i].sym(), so a line shades from
/// one direction's colour to the other's (use flat interpolation to show only the first).
/// \throws std::invalid_argument when the layer's edges (primal or dual) differ from the
/// segments' or the colours are not of an edge layer.
std::vector<Colour> colours_on(const Line_buffers& b, const Slot_colours& c);
/// colours_on(b, c) for the segment ends `outputs` only, written into `out` (grown to the
/// segment ends of `b`). \throws std::invalid_argument as colours_on.
void colours_on(const Line_buffers& b, const Slot_colours& c,
                std::span<const std::uint32_t> outputs, std::vector<Colour>& out);
///@}

} // namespace orbis::render
