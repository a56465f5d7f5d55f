// SPDX-License-Identifier: MIT
// Search primitives brush and selection share but do not publish: the position layer, the walk to
// the vertex nearest a direction, and the flood over the mesh from there.
#pragma once

#include "orbis/core/sphere_geometry.hpp"
#include "orbis/core/world.hpp"
#include "orbis/edit/detail/id_set.hpp"

#include <glm/vec3.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace orbis::edit::detail {

/// The layer vertex positions live in.
using Positions = Layer<glm::vec3, Layer_type::vertex>;

/// The position layer, or nullptr when the world has none of the right type (no exception).
const Positions* positions_of(const World& world);

/// True when `p` is finite and not the origin, i.e. has a direction.
bool usable_point(const glm::dvec3& p);

/// The vertex whose direction is nearest the unit direction `dir`, by a greedy walk over
/// neighbours from `hint` (else vertex 0, else the first live vertex with edges). Exact on a
/// Delaunay mesh; elsewhere it looks over the second ring before stopping at a local minimum.
/// no_vertex for an empty mesh. Cost: O(edges walked), ~O(sqrt n) from a far start.
Vertex walk_to_nearest(const Mesh& m, const Positions& pos, const glm::dvec3& dir, Vertex hint);

/// Where a search on the sphere stands: the vertex nearest a direction, that unit direction,
/// and the sphere's radius there (|position| of the vertex), which turns angles into kilometres.
struct Anchor {
    /// The world's mesh.
    const Mesh* mesh = nullptr;
    /// The world's position layer.
    const Positions* positions = nullptr;
    /// The vertex nearest `dir`.
    Vertex vertex;
    /// The unit direction searched from.
    glm::dvec3 dir{0.0};
    /// |position| of `vertex`: kilometres per radian of angle.
    double km_per_radian = 0.0;

    /// The position of `v` in double precision.
    glm::dvec3 position(Vertex v) const { return glm::dvec3((*positions)[v]); }
    /// Geodesic distance from `dir` to the direction of `p`, in km (0 for the origin).
    double distance_km(const glm::dvec3& p) const { return angle_between(p, dir) * km_per_radian; }
};

/// The anchor at the direction of `centre`, walking from `hint`; nothing when `centre` is zero
/// or not finite, there is no position layer or no vertex. Cost: as walk_to_nearest.
std::optional<Anchor> anchor_at(const World& world, const glm::dvec3& centre, Vertex hint);

/// About how many vertices a disc of `radius_km` around `a` holds (a little more), to size a
/// flood's tables once.
std::size_t expected_vertices(const Anchor& a, double radius_km);

/// `start` and every vertex reached from it over edges through vertices `accept` takes, in
/// breadth-first order; empty when `accept(start)` is false. accept is asked once per vertex, so
/// it may record what it computed. `expected`: about how many it will take (sizes the tables).
/// A region whose vertices are not connected to each other (not Delaunay) may be found only in
/// part. Cost: O(taken × valence).
template <class Accept>
std::vector<Vertex> flood(const Mesh& m, Vertex start, std::size_t expected, Accept&& accept) {
    std::vector<Vertex> order;
    if (!start.valid() || !accept(start)) return order;
    order.reserve(expected);
    Id_set seen(expected + expected / 4);
    seen.insert(start.index());
    order.push_back(start);
    // `order` is also the queue: everything before `i` has had its neighbours looked at.
    for (std::size_t i = 0; i < order.size(); ++i) {
        const Vertex v = order[i];
        for (const Vertex n : v.neighbors(m))
            if (seen.insert(n.index()) && accept(n)) order.push_back(n);
    }
    return order;
}

/// The vertices within geodesic distance `radius_km` (as Anchor::distance_km) of `a`, by a flood
/// from a.vertex; the nearest first. Cost: O(result × valence).
std::vector<Vertex> vertices_within(const Anchor& a, double radius_km);

/// The vertices whose direction is within `angle` radians (at most pi) of a.dir, by a flood
/// from a.vertex, tested by the chord (no trigonometry per vertex): what a lasso's bounding cap
/// holds. Cost: O(result × valence).
std::vector<Vertex> vertices_in_cap(const Anchor& a, double angle);

} // namespace orbis::edit::detail
