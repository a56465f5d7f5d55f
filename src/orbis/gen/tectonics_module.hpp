// SPDX-License-Identifier: MIT
// The `tectonics` module: rigid plates turning about Euler poles, advanced step by step on the
// living mesh, which flips, splits and collapses keep a Delaunay triangulation of the moving
// points (seed 002's "advance the simulation").
#pragma once

#include "orbis/core/layer_hints.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/gen/module.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <glm/vec3.hpp>

namespace orbis::gen {

/// Velocity of each vertex's plate at the vertex, km per million years, tangent to the sphere.
inline constexpr auto velocity_layer =
    Layer_info<glm::vec3, Layer_type::vertex>("velocity").interpolation(Interpolation::lerp);

/// Age of the crust at each vertex, million years: 0 where a ridge makes new ocean floor.
inline constexpr auto crust_age_layer =
    Layer_info<float, Layer_type::vertex>("crust_age").interpolation(Interpolation::lerp);

/// Kind of crust, the values of crust_type_layer.
enum class Crust : std::int32_t {
    oceanic = 0,     ///< thin, dense; subducts, and its depth follows its age
    continental = 1, ///< thick, light; never subducts, collides
};

/// The Crust of each vertex, as int32 validated to [0, 1]; a vertex merged by a collapse or made
/// by a split takes the heavier side's kind.
inline constexpr auto crust_type_layer = Layer_info<std::int32_t, Layer_type::vertex>("crust_type")
                                             .initial(0)
                                             .min(0)
                                             .max(1)
                                             .validate(Validation::range)
                                             .interpolation(Interpolation::max_weight);

/// Name of the Dict layer with the simulation's state: {"time": My simulated so far, "steps",
/// "spacing": the target edge length in km and "vertices": the vertex count to keep, both fixed
/// by the first run, "collided": [{"a", "b",
/// "area"}] km² of continent lost to collision per pair of plates, "events": [{"time", "kind"
/// ("rift" or "suture"), "plate", "other"}]}.
inline constexpr std::string_view tectonics_dict_name = "tectonics";

/// Depth of oceanic crust of `age` million years below sea level, m (negative): half-space
/// cooling, about 2,600 m at a ridge plus 350 m times the square root of the age, levelling
/// off at 170 My as old ocean floor does.
double ocean_depth_for_age(double age);

/// The display hints of crust_type_layer: "oceanic" and "continental" with their colours.
Layer_hints crust_type_hints();

/// Parameters of `tectonics`; their ranges are declared with the module.
struct Tectonics_params {
    std::int64_t steps = 10; ///< steps to advance
    double dt = 1.0;         ///< million years per step
    /// Multiplies the plates' angular speeds (and rift_speed). The `plates` module draws speeds
    /// up to 11 cm/yr, the fast end of Earth's; half of them gives an ocean floor whose ages
    /// and depths look like Earth's (mean age about 60 My rather than 30).
    double speed = 0.5;
    /// Plate ids to split at the start of the run, separated by commas ("3,7"); empty for none.
    std::string rift;
    double rift_interval = 300.0; ///< mean My between spontaneous rifts of a large plate; 0 never
    double rift_min_area = 0.12;  ///< share of the vertices a plate needs to rift by itself
    double rift_speed = 0.006;    ///< radians per My at which rifted halves part
    double arc_uplift = 300.0;    ///< m per My at a subduction front's overriding side
    double collision_uplift = 400.0; ///< m per My where continents collide
    double erosion_time = 80.0;      ///< My over which continents lose 63% of their height above
                                     ///< their isostatic level
    double suture_area =
        3'000'000.0; ///< km² of continent lost to a collision before the plates weld
};

/// What one step did, for reports and benchmarks.
struct Tectonic_step_stats {
    double motion_ms = 0;   ///< moving the points (the rotations)
    double boundary_ms = 0; ///< plate boundaries: classifying, rifts, sutures, crust and relief
    double repair_ms = 0;   ///< flips, splits and collapses that keep the mesh Delaunay
    std::int64_t substeps = 0, flips = 0, splits = 0, collapses = 0;
    std::int64_t refused = 0; ///< collapses or splits the mesh refused or that would fold
    std::int64_t folded = 0;  ///< faces left folded after the step (0 unless something failed)
    std::int64_t moved = 0;   ///< moves of a vertex off its plate's path to untangle a fold
    /// 1 when a fold, or an edge the last Lawson pass could not flip, outlived the repairs and
    /// the mesh was rebuilt.
    std::int64_t rebuilt = 0;
    std::int64_t rifts = 0, sutures = 0;
};

/// Advances `world` by one step of `params.dt` (see Tectonics_module), drawing random numbers
/// for rifts from `world`'s generator. `rift_now` lists plates to split first. Returns what it
/// did. \throws std::runtime_error as Tectonics_module::run_with. Cost: O(vertices) for the
/// rotations and relief, plus O(boundary vertices) per sub-step for the repairs.
Tectonic_step_stats tectonic_step(World& world, const Tectonics_params& params,
                                  std::span<const std::int32_t> rift_now = {});

/// `tectonics`: moves the plates for `steps` steps of `dt` million years.
///
/// Each plate is rigid and turns about its Euler pole (the "plates" Dict's axis, and its angular
/// speed times `speed`). A step cuts the motion into sub-steps short enough that no point moves
/// more than three quarters of an edge relative to its neighbours across a boundary; in each, the
/// edges across plate boundaries are repaired on the living mesh: converging edges shorter than
/// half the local spacing lose the vertex that goes under (oceanic under continental, older oceanic
/// under younger; of two continents, the denser plate's) by a collapse into the other side,
/// diverging edges longer than about 1.75 times the spacing are split (where the plates part, a
/// ridge, the new vertex is ocean floor of age 0; where they slide past each other, a transform,
/// it interpolates its ends' crust), and Lawson flips keep every boundary quad Delaunay. After the
/// motion one Lawson pass over every edge restores the exact Delaunay condition that rounding of
/// the rotated points may have broken; in the rare step that ends with a face still folded or an
/// edge that could not be flipped, the mesh is rebuilt as the Delaunay triangulation of the
/// points (rebuild_delaunay: vertex ids survive, face and edge layers start over), so that no fold
/// outlives a step. Within a plate nothing changes shape (but for the rare vertex moved by at most
/// the target spacing to untangle a fold), so the work is at the boundaries.
///
/// Then the relief, its rates integrated in sub-steps of at most 1 My with the distances to the
/// fronts held where the step left them: the crust ages; oceanic crust relaxes to
/// ocean_depth_for_age (deeper toward a trench); the overriding side of a subduction front rises
/// (arcs, coastal ranges) in a band up to 300 km from the trench, highest at 150 km, continents
/// in collision rise within 500 km (orogeny, spreading inland), and continents erode toward a
/// low isostatic height. Colliding
/// plates weld (suture) once they have lost `suture_area` of continent to each other. Large plates
/// rift at random times (or when listed in `rift`): a great circle through a random point splits
/// them and the halves part.
///
/// Reads position, plate_id, the "plates" Dict and elevation; writes position, the mesh,
/// plate_id, "plates", elevation, velocity, crust_age, crust_type, plate_boundary and the
/// "tectonics" Dict. crust_type and crust_age are made on the first run when missing: crust
/// above -1,000 m is continental, and oceanic crust's age is read from its depth.
class Tectonics_module final : public Module_of<Tectonics_params> {
public:
    /// "tectonics".
    std::string_view name() const override { return "tectonics"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// steps, dt, speed, rift, rift_interval, rift_min_area, rift_speed, arc_uplift,
    /// collision_uplift, erosion_time, suture_area.
    const Parameter_list<Tectonics_params>& parameter_list() const override;
    /// Reads position, plate_id, "plates" and elevation; writes the mesh and the layers above.
    Layer_uses layers_for(const Tectonics_params& params) const override;
    /// Runs the steps; report {"steps", "time", "substeps", "flips", "splits", "collapses",
    /// "refused", "folded", "moved", "rebuilt", "rifts", "sutures", "vertices", "plates"};
    /// "rebuilt" counts the steps whose mesh was rebuilt. \throws std::runtime_error naming the
    /// module when position, plate_id, elevation or "plates" is missing, a plate id is out of
    /// range, or `rift` is not a list of plate ids.
    Dict run_with(World& world, const Tectonics_params& params,
                  const Progress& progress) const override;
};

} // namespace orbis::gen
