// SPDX-License-Identifier: MIT
// The `delaunay` module: Lawson edge flips that restore the Delaunay condition on the sphere.
#pragma once

#include "orbis/core/mesh.hpp"
#include "orbis/gen/module.hpp"

#include <cstddef>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::gen {

/// True when primal edge `e` is locally Delaunay: it has a face on both sides and the far
/// corner of one face is not strictly inside the other's circumcircle on the sphere (exact
/// `direction_orientation`, so points need not lie exactly on one sphere), or it lies on the
/// boundary. `positions` is indexed by vertex index.
bool is_locally_delaunay(const Mesh& mesh, std::span<const glm::vec3> positions, Edge e);

/// Number of primal edges that are not locally Delaunay (0 for a Delaunay mesh). O(edges).
std::size_t count_non_delaunay_edges(const Mesh& mesh, std::span<const glm::vec3> positions);

/// Number of faces that are not counterclockwise seen from outside (folded by moved vertices),
/// by the exact `orientation_on_sphere`. O(faces).
std::size_t count_folded_faces(const Mesh& mesh, std::span<const glm::vec3> positions);

/// What Lawson's rule says of a primal edge.
enum class Flip_decision {
    keep,    ///< locally Delaunay between counterclockwise faces
    flip,    ///< flip it
    blocked, ///< not Delaunay, but flipping would fold a face
};

/// Lawson's rule for edge a -> b with c left of it and d right of it (positions; only their
/// directions matter): keep a locally Delaunay edge between counterclockwise faces, flip one
/// that is not when the flip keeps both faces counterclockwise, and where faces are already
/// folded flip only when that leaves more counterclockwise faces (or as many, and the
/// in-circle test asks for it), so that repeated decisions untangle folds without looping.
Flip_decision lawson_decision(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                              const glm::vec3& d);

/// What lawson_flips did.
struct Lawson_result {
    std::size_t flips = 0; ///< edges flipped
    /// Non-Delaunay edges left at the end because flipping them would fold a face (vertices
    /// moved too far) or was refused, each counted once.
    std::size_t blocked = 0;
};

/// Flips non-Delaunay edges of `mesh` (Lawson), starting from `edges` and following every
/// edge a flip makes suspect, until each of those is locally Delaunay or blocked; blocked edges
/// are tried again in rounds while a round flips anything. A flip that
/// would turn a triangle inside out on the sphere (a non-convex quad, which only happens when
/// vertices moved so far that faces already fold) is not made. Layers follow the flips through
/// the Mesh_lock. `positions` is indexed by vertex index and must cover every vertex.
/// Terminates: every flip makes the triangulation strictly closer to Delaunay, and the number of
/// flips is capped at 64 per edge. Cost: O(flips + edges given), plus a pass over the blocked
/// edges per round of retries (each round but the last flips at least one).
Lawson_result lawson_flips(Mesh_lock& mesh, std::span<const glm::vec3> positions,
                           std::vector<Edge> edges);

/// lawson_flips starting from every edge of the mesh, in index order, without a list of them
/// to build and check first. Cost: O(flips + quad-edge slots, dead ones included).
Lawson_result lawson_flips(Mesh_lock& mesh, std::span<const glm::vec3> positions);

/// Replaces the connectivity of the locked mesh with the Delaunay triangulation of its live
/// vertices (delaunay_on_sphere of their `positions`, indexed by vertex slot): every vertex id,
/// the free list and vertex layers survive; faces and edges are numbered afresh and face and edge
/// layers start over from their initial values. The repair of last resort for folds that flips
/// cannot untangle. Returns false, with nothing changed, when delaunay_on_sphere refuses the live
/// points (fewer than 4, a non-finite coordinate, a point at the origin, two with the same
/// direction, all on one circle). Cost: O(V log V) and a new mesh.
bool rebuild_delaunay(Mesh_lock& mesh, std::span<const glm::vec3> positions);

/// `delaunay`: restores the Delaunay condition after vertices moved, by edge flips. Reads
/// `position`; changes only the mesh (layers follow every flip as their infos say).
///
/// Flips cannot always untangle faces folded by large moves. When some remain, the module
/// rebuilds the mesh (rebuild_delaunay): vertex ids and vertex layers survive, face and edge
/// layers are reset to their initial values, and the report says "rebuilt". When the points
/// cannot be triangulated (two with one direction) it reports what is left instead.
class Delaunay_module final : public Module_of<No_parameters> {
public:
    /// "delaunay".
    std::string_view name() const override { return "delaunay"; }
    /// What it does.
    std::string_view description() const override;
    /// None.
    const Parameter_list<No_parameters>& parameter_list() const override;
    /// Reads `position`; writes the mesh.
    Layer_uses layers_for(const No_parameters&) const override;
    /// Runs lawson_flips over every edge; report {"flips", "rebuilt", "non_delaunay"}, the
    /// last the non-Delaunay edges plus folded faces left (0 unless faces folded and the points
    /// could not be triangulated).
    /// \throws std::runtime_error when the World has no position layer.
    Dict run_with(World& world, const No_parameters&, const Progress& progress) const override;
};

} // namespace orbis::gen
