// SPDX-License-Identifier: MIT
// Checks shared by the sphere triangulation tests.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <gtest/gtest.h>

#include "orbis/core/mesh.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

namespace orbis::gen::testing {

/// Whether every triangle must turn counterclockwise around the origin: not when the points do
/// not surround it (a hemisphere, or 4 Fibonacci points, whose poles are antipodal). The
/// Delaunay test on every edge still catches a surface turned inside out.
enum class Origin { inside, anywhere };

/// Everything a spherical Delaunay triangulation of `points` must satisfy: 2 N - 4 triangles,
/// every point a vertex, consistent twins, one fan around each vertex, counterclockwise
/// triangles, and no edge that fails the exact Delaunay test.
::testing::AssertionResult is_sphere_delaunay(std::span<const glm::vec3> points,
                                              const Sphere_triangulation& t,
                                              Origin origin = Origin::inside);

/// Compares with another triangulation of the same points (CGAL's): equal as sets of triangles
/// up to rotation, except inside groups of exactly cocircular points, where each triangle that
/// only one side has must have an edge whose quad is exactly cocircular. `degenerate` receives
/// the number of triangles that differ.
::testing::AssertionResult same_up_to_cocircular(std::span<const glm::vec3> points,
                                                 const Sphere_triangulation& ours,
                                                 const Sphere_triangulation& theirs,
                                                 std::size_t* degenerate = nullptr);

/// Triangles rotated so that the smallest index comes first, then sorted.
std::vector<std::array<std::uint32_t, 3>> canonical_triangles(const Sphere_triangulation& t);
/// `triangles` rotated so that the smallest index comes first, then sorted.
std::vector<std::array<std::uint32_t, 3>>
canonical_triangles(std::vector<std::array<std::uint32_t, 3>> triangles);
/// The corners of every live face of `m` (Face::vertices order), in face order.
std::vector<std::array<std::uint32_t, 3>> mesh_triangles(const Mesh& m);

/// Uniformly distributed directions on the unit sphere (as floats), from a fixed seed.
std::vector<glm::vec3> random_sphere_points(std::uint32_t count, std::uint64_t seed);

} // namespace orbis::gen::testing
