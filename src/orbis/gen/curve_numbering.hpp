// SPDX-License-Identifier: MIT
// Numbering a fresh triangulation's vertices and triangles along the sphere's space-filling
// curve. A Fibonacci sphere numbers its points along a spiral, so a chunk of 4,096 mesh records
// or layer values is a thin ring around the whole sphere, and anything that works along a line
// on the sphere (a plate boundary, a brush stroke, a river) touches every chunk: it misses the
// cache at every step, and a copy-on-write World copies nearly every chunk it writes.
#pragma once

#include "orbis/gen/spatial_order.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

#include <glm/vec3.hpp>

#include <span>
#include <vector>

namespace orbis::gen {

/// The points' new numbers along the sphere's space-filling curve (orbis/core/sphere_curve.hpp;
/// cells of 16 to 64 points, the old order within a cell): the half of number_along_curve that
/// needs no triangulation, so that it can run while the points are triangulated. O(points), on
/// up to two threads (parallel_ranges).
Spatial_order curve_order(std::span<const glm::vec3> points);

/// Renames the points by `order` (curve_order of these points) and the triangulation's
/// vertices to match, then reorders its triangles by their lowest corner, keeping each
/// triangle's corners in turn and `opposite` pointing at the same twins. The triangulation
/// stays the same set of triangles on the same points; only the names change. Deterministic;
/// O(points + triangles), on up to two threads (parallel_ranges). Precondition:
/// `triangulation` is of `points`.
void number_along_curve(std::vector<glm::vec3>& points, Sphere_triangulation& triangulation,
                        const Spatial_order& order);

/// number_along_curve with the order computed first.
void number_along_curve(std::vector<glm::vec3>& points, Sphere_triangulation& triangulation);

} // namespace orbis::gen
