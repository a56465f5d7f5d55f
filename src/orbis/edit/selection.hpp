// SPDX-License-Identifier: MIT
// The editor's selections (disc, lasso, faces) and the operations on them, without a window.
#pragma once

#include "orbis/core/ids.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::edit {

/// A set of vertices (they also stand for their Voronoi cells) and of faces; both sorted and
/// unique. Operations work on its vertex set (the vertices and the corners of the faces) or on
/// its face set (the faces and the faces whose corners are all selected vertices).
struct Selection {
    /// Selected vertices, sorted, unique.
    std::vector<Vertex> vertices;
    /// Selected faces, sorted, unique.
    std::vector<Face> faces;

    /// True when nothing is selected.
    bool empty() const { return vertices.empty() && faces.empty(); }
    /// Same vertices and same faces.
    friend bool operator==(const Selection&, const Selection&) = default;
};

/// The vertices whose position lies within geodesic distance `radius_km` of the direction of
/// `centre` (angle × the sphere's radius, read at the vertex nearest to `centre`), sorted.
/// `hint`, a vertex near `centre`, shortens the walk there. Empty for a world without positions,
/// a zero or non-finite centre, or a negative or non-finite radius. Assumes a Delaunay mesh (the
/// vertices inside a circle are then connected). Cost: O(result) after a greedy walk from the
/// hint, O(sqrt(vertices)) without one.
std::vector<Vertex> select_disc(const World& world, const glm::dvec3& centre, double radius_km,
                                Vertex hint = no_vertex);

/// The vertices inside the spherical polygon `lasso` (its points' directions, in order, joined
/// by great-circle arcs, closed implicitly), of the two regions it bounds the smaller one, by
/// the even-odd rule when it crosses itself; sorted. Refused (empty, no exception): fewer than
/// 3 usable points, no positions. Cost: when the lasso fits in a cap of under 89° (anything drawn
/// on one side of the globe), O(vertices in that cap + lasso size) after a greedy walk;
/// otherwise O(vertices × lasso size).
std::vector<Vertex> select_lasso(const World& world, const std::vector<glm::dvec3>& lasso);

/// The faces all of whose corners are in `vertices` (sorted, unique), sorted.
/// Cost: O(vertices × valence × log(vertices)).
std::vector<Face> faces_of(const World& world, const std::vector<Vertex>& vertices);

/// The union of both selections (the UI's Shift). O(size of both).
Selection unite(const Selection& a, const Selection& b);
/// `a` without the elements of `b` (the UI's Ctrl). O(size of both).
Selection subtract(const Selection& a, const Selection& b);

/// Minimum, mean and maximum of one scalar layer over the selected elements.
struct Layer_summary {
    /// The layer's name.
    std::string layer;
    /// Smallest value (as double).
    double min = 0;
    /// Mean value.
    double mean = 0;
    /// Largest value.
    double max = 0;
    /// Number of elements counted (NaN values are left out).
    std::size_t count = 0;
    /// Layer_type::vertex or Layer_type::face.
    Layer_type type = Layer_type::vertex;
};

/// What a selection holds and covers.
struct Selection_stats {
    /// Number of selected vertices.
    std::size_t vertices = 0;
    /// Number of selected faces.
    std::size_t faces = 0;
    /// The area covered: vertex_area_km2 when vertices are selected, else face_area_km2.
    double area_km2 = 0;
    /// Sum of the selected vertices' Voronoi cell areas on the sphere (cells bounded by the
    /// circumcentres of the faces around each vertex), km².
    double vertex_area_km2 = 0;
    /// Sum of the selected faces' spherical triangle areas, km².
    double face_area_km2 = 0;
    /// One entry per scalar vertex layer (over the selected vertices, if any) and per scalar
    /// face layer (over the selected faces, if any), in name order.
    std::vector<Layer_summary> layers;
};

/// Counts, area and per-layer statistics of `selection` (ids must be live in the mesh).
/// Areas are 0 without a position layer. Cost: O(selected elements × (valence + layers)).
Selection_stats selection_stats(const World& world, const Selection& selection);

/// What an operation did: the elements the view must update, the count, the selection after.
struct Selection_edit {
    /// Mesh edits made (splits + collapses + flips), or values written by set/smooth.
    std::size_t operations = 0;
    /// Edges split by refine.
    std::size_t splits = 0;
    /// Edges collapsed by coarsen.
    std::size_t collapses = 0;
    /// Edges flipped to restore the Delaunay condition.
    std::size_t flips = 0;
    /// Collapses skipped because the mesh refused them or they would fold a face.
    std::size_t skipped = 0;
    /// Vertices created, moved, given other neighbours or other values (sorted, unique; deleted
    /// ones included, so that a view drops them).
    std::vector<Vertex> vertices;
    /// Faces created, deleted, reshaped or given other values (sorted, unique).
    std::vector<Face> faces;
    /// Primal base edges created, deleted or given other ends (sorted, unique).
    std::vector<Edge> edges;
    /// The selection after the operation: refine's new vertices join it, coarsen's deleted
    /// ones leave it; its faces are recomputed (faces_of) when it had any.
    Selection selection;
};

/// Why refine(world, selection, target_km) would be refused, in words, or nothing: an empty or
/// out-of-date selection, no positions, a target that is not a number > 0, nothing longer than
/// the target, a result estimated above 20 million vertices, or a vertex layer that would
/// change outside the selection (reset_all / remove_layer rules). Cost: O(selection × valence).
std::optional<std::string> check_refine(const World& world, const Selection& selection,
                                        double target_km);
/// Splits the edges with both ends in the selection's vertex set that are longer than
/// target_km, longest first, at their middle (World::lock_mesh().split, so every layer follows
/// its rules), until none is; then restores the Delaunay condition by flips of edges whose ends
/// are both selected or new. Vertices outside keep their positions and layer values. New
/// vertices join the selection. \throws std::invalid_argument with check_refine's reason, the
/// World then unchanged (also when a layer refuses a value midway). Cost: O(new vertices ×
/// (log + valence) + selection).
Selection_edit refine(World& world, const Selection& selection, double target_km);

/// Why coarsen(world, selection, target_km) would be refused, or nothing (as check_refine, with
/// "nothing in the selection is shorter than ..."). Cost: O(selection × valence).
std::optional<std::string> check_coarsen(const World& world, const Selection& selection,
                                         double target_km);
/// Collapses the edges with both ends in the selection's vertex set that are shorter than
/// target_km, shortest first, into their midpoints (t = 0.5); collapses the mesh refuses
/// (Mesh::check_collapse) or that would fold a face are skipped and counted. Never moves or
/// deletes a vertex outside the selection. Then flips inside as refine does. Deleted vertices
/// leave the selection. \throws std::invalid_argument as refine. Cost: O(collapses × valence ×
/// log + selection).
Selection_edit coarsen(World& world, const Selection& selection, double target_km);

/// Why restore_delaunay would be refused (empty or out-of-date selection, no positions, every
/// edge inside already Delaunay), or nothing. Cost: O(selection × valence).
std::optional<std::string> check_restore_delaunay(const World& world, const Selection& selection);
/// Flips edges with both ends in the selection's vertex set until each is locally Delaunay
/// (exact predicates; a flip that would fold a face is not made).
/// \throws std::invalid_argument as refine. Cost: O(selection × valence + flips).
Selection_edit restore_delaunay(World& world, const Selection& selection);

/// Why set_values would be refused, or nothing: an empty or out-of-date selection, a missing,
/// Dict, edge or vector layer, a value that is not finite, not an integer for an integer layer,
/// or outside the layer's [min, max] (whether or not it validates), or nothing of the layer's
/// kind in the selection. O(selection).
std::optional<std::string> check_set_values(const World& world, const Selection& selection,
                                            const std::string& layer, double value);
/// Sets scalar vertex or face layer `layer` to `value` on the selection's vertex set or face
/// set; other values are unchanged. \throws std::invalid_argument with check_set_values's
/// reason (World unchanged). O(selection).
Selection_edit set_values(World& world, const Selection& selection, const std::string& layer,
                          double value);

/// Why smooth_values would be refused, or nothing: as check_set_values without the value, and
/// iterations outside [1, 1000]. O(selection).
std::optional<std::string> check_smooth_values(const World& world, const Selection& selection,
                                               const std::string& layer, int iterations);
/// Moves each selected value of scalar vertex or face layer `layer` halfway toward the mean of
/// its neighbours (vertices across edges, faces across edges), `iterations` times, all values
/// of an iteration from the previous one; unselected neighbours take part with fixed values,
/// unselected values are unchanged. Integer layers round, bool layers take the majority.
/// \throws std::invalid_argument (World unchanged). O(iterations × selection × valence).
Selection_edit smooth_values(World& world, const Selection& selection, const std::string& layer,
                             int iterations);

} // namespace orbis::edit
