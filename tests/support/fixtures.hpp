// SPDX-License-Identifier: MIT
// Test shapes as triangle lists, and helpers to build them in many face orders.
#pragma once

#include <orbis/core.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace orbis::test {

/// A triangle list with its vertex count and expected Euler characteristic.
struct Shape {
    std::string name;
    std::uint32_t vertex_count = 0;
    std::vector<Triangle> triangles;
    int euler = 2; ///< V - E + F
};

/// Four vertices, four faces.
Shape tetrahedron();
/// Six vertices, eight faces.
Shape octahedron();
/// An icosahedron subdivided `level` times (12, 42, 162, ... vertices).
Shape icosphere(int level);
/// A torus grid of `n` x `m` quads, each split in two (Euler characteristic 0).
Shape torus(int n, int m);
/// A triangulated disc: a centre and `rings` rings of 6k vertices (Euler characteristic 1).
Shape disc(int rings);
/// A closed Fibonacci-like sphere for `n` points built from the icosphere at a suitable level
/// is not needed; the gen tests cover Fibonacci spheres.

/// The triangles in a random order, each rotated by a random amount (same orientation).
std::vector<Triangle> shuffled(const std::vector<Triangle>& triangles, std::mt19937_64& rng);

/// Builds `shape` by add_face in the given order, retrying refused faces like a face soup.
Mesh build(const Shape& shape, const std::vector<Triangle>& order);
/// Builds `shape` in its own order.
Mesh build(const Shape& shape);

/// V - E + F of a mesh.
int euler_characteristic(const Mesh& m);

/// A point in space, for checking traversal against geometry.
using Point = std::array<double, 3>;
/// Positions of octahedron(): vertex 0 = +x, 1 = -x, 2 = +y, 3 = -y, 4 = +z, 5 = -z.
std::vector<Point> octahedron_positions();
/// Positions of disc(rings) in the plane z = 0 (a hexagonal grid of unit spacing); its triangles
/// are counterclockwise seen from +z.
std::vector<Point> disc_positions(int rings);

/// For each half-edge 3t+i (triangles[t][i] -> triangles[t][(i+1)%3]) the half-edge running the
/// other way, or UINT32_MAX where there is none (the boundary of open input).
std::vector<std::uint32_t> twin_half_edges(const std::vector<Triangle>& triangles);
/// `t` rotated (same orientation) so that its smallest index comes first.
Triangle canonical(Triangle t);
/// The triangles, each canonical, sorted: compares triangle lists up to order and rotation.
std::vector<Triangle> canonical_sorted(std::vector<Triangle> triangles);
/// The corners of `f` as indices, counterclockwise, starting at `f.edge(m).origin(m)`.
Triangle corners(const Mesh& m, Face f);
/// The corners of every live face of `m`, as canonical_sorted.
std::vector<Triangle> face_corners(const Mesh& m);

} // namespace orbis::test
