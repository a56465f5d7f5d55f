// SPDX-License-Identifier: MIT
// Rigid plates moved for one time step on the living mesh: the rotations, and the flips, splits
// and collapses at the plate boundaries that keep the points a Delaunay triangulation.
#pragma once

#include "orbis/gen/plates_module.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

namespace orbis::gen {

/// What move_plates did.
struct Plate_motion {
    std::int64_t substeps = 0, flips = 0, splits = 0, collapses = 0;
    std::int64_t refused = 0; ///< collapses or splits the mesh refused or that would fold a face
    std::int64_t folded = 0;  ///< faces left folded at the plate boundaries
    std::int64_t moved = 0;   ///< moves of a vertex off its plate's path to untangle a fold
    /// 1 when a fold, or an edge the last Lawson pass could not flip, outlived the repairs and
    /// the mesh was rebuilt.
    std::int64_t rebuilt = 0;
    double motion_ms = 0; ///< rotating the points
    double repair_ms = 0; ///< the mesh repairs
    /// Vertices made by ridge splits that are still alive, with their age at the end of the
    /// step (My since the sub-step that made them).
    std::vector<std::pair<std::uint32_t, float>> new_crust;
    /// Continental area (km²) that collisions removed, per pair of plates (smaller id first).
    std::map<std::pair<std::int32_t, std::int32_t>, double> collided;
    /// Vertex slots that end the step with a neighbour on another plate.
    std::vector<std::uint32_t> boundary;
};

/// How far and at what resolution move_plates moves.
struct Motion_settings {
    double dt = 1.0;            ///< million years
    double radius = 6371.0;     ///< the sphere's, km
    double spacing = 0;         ///< target edge length, km
    double target_vertices = 0; ///< vertex count to keep (0: no preference)
};

/// Moves every vertex of `world` with its plate (plate_id into `plates`) for `settings.dt`
/// million years, and repairs the mesh as it goes (see Tectonics_module): the
/// motion is cut into sub-steps of at most three quarters of the local spacing of relative motion
/// across any boundary; each sub-step flips boundary quads to Delaunay, removes by a collapse the
/// vertex that goes under where a converging edge is shorter than half the local spacing, splits
/// diverging edges longer than about 1.75 times it (more when the mesh has more vertices than
/// `target_vertices`, fewer when less, so that the count holds; so is any edge across a boundary
/// longer than 2.5 times `spacing`; where the plates part, a ridge, the new vertex is oceanic, of
/// age 0, on one of the two plates, alternately; where they slide past each other it interpolates
/// its ends' crust; no split may fold a face), and untangles any face folded at a boundary (by
/// flips and collapses, and in late rounds by moving a corner, by at most `spacing`, to where
/// every face around it unfolds). Ends with a Lawson pass over every edge; if a face is still
/// folded after it, or an edge could not be flipped, the mesh is rebuilt as the Delaunay
/// triangulation of the points (rebuild_delaunay; `rebuilt` says so). Writes
/// position, the mesh (every layer follows the edits, but a rebuild resets face and edge layers)
/// and the plate_id of new vertices. Reads crust_type and crust_age (to choose which side goes
/// under) when present. Preconditions: plate_id is in range for every live vertex. Cost: O(vertices
/// + edges) once, plus O(boundary vertices) per sub-step.
Plate_motion move_plates(World& world, std::span<const Plate> plates,
                         const Motion_settings& settings);

/// Velocity of `plate` at the point `p` (km from the centre), km per million years.
glm::dvec3 plate_velocity(const Plate& plate, const glm::dvec3& p);

} // namespace orbis::gen
