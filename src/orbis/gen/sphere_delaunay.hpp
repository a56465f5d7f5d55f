// SPDX-License-Identifier: MIT
// Exact Delaunay triangulation of points on a sphere (= their convex hull), and its reference.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::gen {

/// A closed triangulation of a point set, as flat arrays (the layout of delaunator).
///
/// Triangles are counterclockwise seen from outside. Half-edge h = 3 t + i goes from
/// triangles[t][i] to triangles[t][(i + 1) % 3]; opposite[h] is its twin, the half-edge of the
/// neighbouring triangle that runs the other way. A closed surface has no unpaired half-edge.
struct Sphere_triangulation {
    /// Vertex indices into the input points, three per triangle.
    std::vector<std::array<std::uint32_t, 3>> triangles;
    /// Twin of every half-edge; size 3 * triangles.size().
    std::vector<std::uint32_t> opposite;
};

/// The Delaunay triangulation of points on a sphere centred at the origin: 2 N - 4 triangles
/// using every point.
///
/// Exact: every edge is locally Delaunay under `direction_orientation` (sphere_predicates.hpp),
/// the exact orientation of the four points' radial projections onto the sphere. This is the
/// convex hull of those projections, and the convex hull of the points themselves when they lie
/// exactly on one sphere. Working with directions keeps every point a vertex even though float
/// rounding puts points off the sphere (a point with a close neighbour can end up strictly
/// inside the hull of the float points). Where four points are exactly cocircular either
/// diagonal may appear. Triangles come out in sweep order (bands of latitude about the topmost
/// point), which keeps neighbours close in memory.
///
/// Throws std::invalid_argument, naming the point index, for fewer than 4 points, non-finite
/// coordinates, a point at the origin, two points with the same direction (duplicates), or all
/// points on one circle of the sphere.
///
/// Cost: O(N) expected when y does not increase with the index after the topmost point at
/// index 0 (as with `fibonacci_points`), otherwise O(N log N) for a sort first; ~0.2-0.4 us per
/// point. Memory: the output plus ~45 bytes per point while running.
Sphere_triangulation delaunay_on_sphere(std::span<const glm::vec3> points);

/// The same triangulation computed by CGAL's Delaunay_triangulation_on_sphere_2: the checked
/// reference for `delaunay_on_sphere`.
///
/// CGAL runs its own incremental algorithm (spatial sort, point location, conflict regions)
/// with its exact orientation test and our exact `direction_orientation` as the in-circle test;
/// its tolerances for points off the sphere and near-duplicates are switched off, since no
/// inexact construction is involved. Exactly cocircular quads are resolved by CGAL's symbolic
/// perturbation. Throws std::invalid_argument, naming the point index, for fewer than 4 points,
/// non-finite coordinates, a point at the origin or two points with the same direction.
/// Cost: O(N log N), several times slower than `delaunay_on_sphere`.
Sphere_triangulation delaunay_on_sphere_cgal(std::span<const glm::vec3> points);

/// Number of edges that are not locally Delaunay: edge (a, b) with triangles (a, b, c) and
/// (b, a, d) counts when `direction_orientation(a, b, c, d) > 0`, i.e. d lies strictly inside
/// the circumcircle of a, b, c on the sphere. Exactly cocircular quads count as Delaunay.
/// 0 for a Delaunay triangulation.
///
/// Throws std::invalid_argument if `t` is malformed (sizes, indices out of range, twins that are
/// not mutual) or a point is not finite or at the origin. Cost O(N).
std::size_t count_non_delaunay_edges(std::span<const glm::vec3> points,
                                     const Sphere_triangulation& t);

} // namespace orbis::gen
