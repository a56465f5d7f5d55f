// SPDX-License-Identifier: MIT
// The `plates` module: tectonic plates grown over the mesh, their motions, and boundary kinds.
#pragma once

#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/module.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::gen {

/// Kind of a primal edge between plates, relative to the edge's base() direction
/// (origin -> dest), so that an undirected edge layer can say which side goes under.
enum class Plate_boundary : std::int32_t {
    joined = 0,            ///< both ends on the same plate (or not classified since an edit)
    ridge = 1,             ///< the plates move apart
    subducting_origin = 2, ///< converging; the plate of base().origin goes under the other
    subducting_dest = 3,   ///< converging; the plate of base().dest goes under the other
    transform = 4,         ///< the plates slide past each other
    collision = 5,         ///< converging continental plates; neither goes under
};

/// Plate of each vertex, an index into read_plates(); -1 for none. Split and collapse give new
/// and merged vertices the plate of the heavier side, so plates stay whole under edits.
inline constexpr auto plate_id_layer = Layer_info<std::int32_t, Layer_type::vertex>("plate_id")
                                           .initial(-1)
                                           .interpolation(Interpolation::max_weight);

/// Plate_boundary of each primal edge, as an int32 validated to [0, 5]. An edge whose ends
/// change (flip, split, collapse) and every edge an edit creates reset to joined, because the
/// kind depends on both ends and their positions: it stays wrong until classify_plate_boundaries
/// runs again, which modules that edit the mesh are expected to call.
inline constexpr auto plate_boundary_layer =
    Layer_info<std::int32_t, Layer_type::edge_primal>("plate_boundary")
        .initial(static_cast<std::int32_t>(Plate_boundary::joined))
        .min(0)
        .max(5)
        .validate(Validation::range)
        .on_mesh_change(On_mesh_change::reset_affected)
        .interpolation(Interpolation::reset_affected);

/// Name of the Dict layer holding the plates: {"count": K, "plates": [{"type": "continental" or
/// "oceanic", "axis": vec3, "angular_speed": double, "density": double}, ...]}.
inline constexpr std::string_view plates_dict_name = "plates";

/// One plate: crust type and motion, a rotation about an axis through the sphere's centre.
struct Plate {
    bool continental = false; ///< continental crust (does not subduct) or oceanic
    glm::dvec3 axis{0, 0, 1}; ///< unit rotation axis; motion is counterclockwise about it
    double angular_speed = 0; ///< radians per million years (negative turns the other way)
    double density = 3.0;     ///< g/cm³; of two converging oceanic plates the denser subducts
    /// Same type, axis, speed and density.
    friend bool operator==(const Plate&, const Plate&) = default;
};

/// The plates in the World's "plates" Dict layer, axes normalised.
/// \throws std::runtime_error naming the layer, the plate and the field when the layer is
/// missing, "count" disagrees with the array, a type is neither "continental" nor "oceanic", an
/// axis is zero or not finite, a speed is not finite or a density not finite and positive.
std::vector<Plate> read_plates(const World& world);

/// Replaces "count" and "plates" in the "plates" Dict layer (created if missing) with `plates`;
/// other keys stay.
void write_plates(World& world, std::span<const Plate> plates);

/// Ratio of normal to tangential relative motion below which classify_plate_boundaries calls
/// a boundary a transform (see there).
inline constexpr double default_transform_ratio = 0.5;

/// Writes the Plate_boundary of every live primal edge to plate_boundary_layer (dead slots get
/// joined) and returns how many edges got each kind, indexed by Plate_boundary.
///
/// Rule, for a base edge b = (a -> c) whose ends lie on different plates A (origin side) and B:
/// p is the unit midpoint of the normalised end positions; a plate's velocity at p is
/// angular_speed * (axis × p); v = velocity of B minus velocity of A; n is the unit tangent at p
/// pointing from a towards c, and s the tangent along the boundary (p × n). With normal motion
/// N = dot(v, n) and tangential motion T = |dot(v, s)|, the edge is a transform when
/// |N| <= transform_ratio * T (so also when the plates move alike, and for an edge whose ends
/// have no usable direction: zero, antipodal or not finite), else a ridge when N > 0
/// (B moves away from A), else the plates converge: two continental plates collide, an oceanic
/// plate subducts under a continental one, and of two oceanic plates the denser subducts (A on a
/// tie, which only hand-made plates have). n follows each edge, not the border as a whole: where
/// plates slide purely along a border, only the edges within atan(transform_ratio) (27 degrees
/// by default) of the border's normal read as transform, and the more slanted ones alternate
/// between ridge and convergence (about 43% transform, 28% each of the others on a 100,000
/// vertex sphere).
/// Reads position, plate_id and read_plates. Cost: O(edges), plus the copy-on-write of the
/// layer's chunks. \throws std::runtime_error when position or plate_id is missing, read_plates
/// throws, transform_ratio is negative or not finite, or an end of a live edge has a plate_id
/// outside [0, plate count) (the message names the vertex).
std::array<std::size_t, 6>
classify_plate_boundaries(World& world, double transform_ratio = default_transform_ratio);

/// Parameters of `plates`; their ranges are declared with the module.
struct Plates_params {
    std::int64_t count = 12;            ///< number of plates
    double continental_fraction = 0.35; ///< share of the area on continental plates
    double max_speed = 0.017;           ///< largest angular speed, radians per million years
    double irregularity = 0.5;          ///< chance a claimed vertex waits a round
    std::int64_t meander = 8;           ///< most rounds a vertex in slow terrain waits
    double transform_ratio = default_transform_ratio; ///< see classify_plate_boundaries
};

/// Parameters of `plate_boundaries`.
struct Plate_boundaries_params {
    double transform_ratio = default_transform_ratio; ///< see classify_plate_boundaries
};

/// The display hints of plate_boundary_layer: one named colour per Plate_boundary kind.
Layer_hints plate_boundary_hints();

/// The display hints of plate_id_layer for `count` plates: "Plate 1" ... with the categorical
/// colours of their ids.
Layer_hints plate_id_hints(std::size_t count);

/// `plates`: splits the surface into `count` tectonic plates and gives them motions.
///
/// Seeds are distinct live vertices drawn from the World's generator. Plates grow in rounds
/// over the mesh graph: the vertices due in a round are shuffled, then each claims its free
/// neighbours for its plate; a claimed vertex is due in the next round, or later by one round
/// each time a draw with probability `irregularity` says so (at most 62 rounds). Shuffling gives
/// contested vertices to random plates rather than to the first seeds; the waits keep the
/// expected pace of every plate the same and make borders more ragged than the bisectors of
/// plain breadth-first growth (5% longer at irregularity 0.9). A component of the mesh no seed
/// reaches (e.g. an isolated vertex) joins one plate drawn at random, which is then not connected;
/// a connected mesh gives connected plates. On top of that, a vertex where a low-frequency noise
/// field is high waits up to `meander` extra rounds, so fronts fall behind in "slow terrain" and
/// borders bend at the scale of continents instead of running as near-straight bisectors
/// between the seeds (at meander 16, a fifth of the vertices end on another plate).
///
/// Plates are then visited in random order and each becomes continental when that brings the
/// continental area (the planar area of the faces, a third to each corner; vertex counts on a
/// mesh without faces) closer to continental_fraction of the total, so the fraction is one of
/// area, met as closely as whole plates allow. Each plate gets an axis uniform on the sphere,
/// an angular speed uniform in [0, max_speed] and a density uniform in [2.6, 2.8] (continental)
/// or [2.9, 3.1] (oceanic). All draws use raw 64-bit outputs of the generator with the
/// module's own bounded draw, so a seed gives the same world with every standard library.
///
/// Writes plate_id_layer, the "plates" Dict (write_plates) and plate_boundary_layer
/// (classify_plate_boundaries with `transform_ratio`).
class Plates_module final : public Module_of<Plates_params> {
public:
    /// "plates".
    std::string_view name() const override { return "plates"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// count, continental_fraction, max_speed, irregularity, meander, transform_ratio.
    const Parameter_list<Plates_params>& parameter_list() const override;
    /// Reads position; writes plate_id, plate_boundary and "plates".
    Layer_uses layers_for(const Plates_params&) const override;
    /// Grows and classifies the plates; report {"plates", "ridge", "subduction", "transform",
    /// "collision"} (edge counts; subduction counts both sides). Cost: O(vertices + edges) time
    /// and about 40 bytes per vertex of scratch memory.
    /// \throws std::runtime_error naming the module when the World has no position layer or no
    /// vertex, or count exceeds the live vertices or lies outside [1, 1000].
    Dict run_with(World& world, const Plates_params& params,
                  const Progress& progress) const override;
};

/// `plate_boundaries`: classifies the plate boundaries again (classify_plate_boundaries), for
/// after modules that edit the mesh (`refine`, `delaunay`), whose new and changed edges read
/// `joined` until then. Reads position, plate_id and the "plates" Dict; writes plate_boundary.
class Plate_boundaries_module final : public Module_of<Plate_boundaries_params> {
public:
    /// "plate_boundaries".
    std::string_view name() const override { return "plate_boundaries"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// transform_ratio.
    const Parameter_list<Plate_boundaries_params>& parameter_list() const override;
    /// Reads the mesh, position, plate_id and "plates"; writes plate_boundary.
    Layer_uses layers_for(const Plate_boundaries_params&) const override;
    /// Classifies; report {"ridge", "subduction", "transform", "collision"}. O(edges).
    Dict run_with(World& world, const Plate_boundaries_params& params,
                  const Progress& progress) const override;
};

} // namespace orbis::gen
