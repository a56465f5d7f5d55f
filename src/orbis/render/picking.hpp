// SPDX-License-Identifier: MIT
// Picking: which face, vertex and edge of a World's sphere mesh a view ray points at.
#pragma once

#include "orbis/core/ids.hpp"
#include "orbis/core/world.hpp"

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::render {

/// A ray in world space (the sphere is centred at the origin): origin + t * direction, t >= 0.
struct Ray {
    glm::dvec3 origin{0.0};    ///< where the ray starts (the camera)
    glm::dvec3 direction{0.0}; ///< where it goes; need not be unit length, must not be zero
};

/// What a ray hit: the face, its corner and its edge nearest to the hit point.
struct Pick {
    Face face;                   ///< the face hit
    Vertex vertex;               ///< the corner of `face` nearest to `point` (largest barycentric)
    Edge edge;                   ///< the edge of `face` nearest to `point`, with left(edge) == face
    glm::dvec3 point{0.0};       ///< the hit point on the plane of `face`
    glm::dvec3 barycentric{0.0}; ///< weights of the corners of `face` in Face::vertices order
    double t = 0.0;              ///< ray parameter of `point`
};

/// Finds the face of a World's closed sphere mesh that a ray hits first from outside.
///
/// Model: every face (a, b, c) owns the cone of directions {x : det[a;b;x], det[b;c;x],
/// det[c;a;x] >= 0}; on a spherical Delaunay mesh (or any mesh whose faces turn counterclockwise
/// seen from outside) these cones tile space, so the surface is star-shaped around the origin.
/// The ray is walked through these cones, entering where it meets the sphere of the largest
/// vertex radius, until it crosses the plane of the face whose cone it is in. The face finally
/// returned is decided exactly: it is the face whose cone contains the reported hit point by the
/// exact orientation predicate (orbis::detail::orientation_on_sphere), no tolerances. When the
/// point lies on the boundary of several cones (exactly on an edge's plane or a vertex's
/// direction), the lowest face id among the faces containing it is returned. Edits can fold faces
/// (clockwise seen from outside, e.g. after collapses); their cones overlap others, and a pick
/// there is still a live face containing the point exactly, the lowest id among the neighbours
/// tested.
///
/// Index: a cube map of face ids (about 32 vertices per cell) gives the walk a start near the
/// entry direction. It only affects speed: every entry is checked with Mesh::contains, and the
/// exact walk from there does not trust the entry to be near, so a stale index after edits stays
/// correct. update() rebuilds it (O(vertices)) when the mesh or the position layer changed since
/// the last build, which keeps picks fast and the entry radius right: split and collapse place
/// vertices by slerp, inside the old largest radius, so only position edits that move a vertex
/// outward make a pick without update() wrong (it could start inside the surface). Walks are
/// capped; past the cap a linear scan over all faces answers instead.
class Picker {
public:
    /// An empty picker; every pick misses until update() sees a world with positions.
    Picker() = default;
    /// A picker for `world` (see update). O(vertices).
    explicit Picker(const World& world);

    /// Rebuilds the index when `world`'s mesh or position layer changed since the last build;
    /// returns whether it rebuilt. O(1) when nothing changed, else O(vertices), ~25 ms per
    /// million vertices on two threads. Needed for correctness only after positions moved beyond
    /// max_radius().
    bool update(const World& world);

    /// The first face of `world` that `ray` hits from its front side, or nothing when the ray
    /// misses, the world has no position layer or no face. `hint` (e.g. the previous pick's face)
    /// is tried as the start of the walk when it is live, which makes coherent hover picks
    /// cheaper. Precondition: ray.direction is not zero and ray.origin lies outside the surface.
    /// Cost: microseconds (O(walk length)), O(faces) only in the capped fallback.
    std::optional<Pick> pick(const World& world, const Ray& ray, Face hint = no_face) const;

    /// The face whose cone contains direction `x`, decided exactly (lowest id on ties), walking
    /// from `start` (any face; checked) or from the index. Nothing when the mesh has no face.
    /// Precondition: x is not zero, each coordinate 0 or of magnitude in [2^-600, 2^600].
    std::optional<Face> locate(const World& world, const glm::dvec3& x, Face start = no_face) const;

    /// The largest vertex radius seen at the last rebuild.
    double max_radius() const { return max_radius_; }

private:
    Face index_face(const Mesh& mesh, const glm::dvec3& x) const;
    std::uint32_t cell_of(const glm::dvec3& x) const;

    std::vector<std::uint32_t> cells_; // per cube-map cell: a face at a vertex in the cell
    std::uint32_t resolution_ = 0;     // cells per cube side and axis
    double max_radius_ = 0.0;
    std::uint64_t mesh_version_ = 0;
    std::uint64_t position_version_ = 0;
    bool built_ = false;
};

} // namespace orbis::render
