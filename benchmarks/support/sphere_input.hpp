#pragma once

// The fixed input shared by every mesh benchmark (Orbis's own and the OpenMesh/CGAL anchors), so
// that all of them build, traverse and edit exactly the same triangulation.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace orbis::bench {

/// Points of a Fibonacci sphere and their Delaunay triangles (vertex i is points[i]).
struct Sphere_input {
    /// Unit-sphere points, each coordinate exactly representable as float.
    std::vector<std::array<double, 3>> points;
    /// Triangles as indices into points, counterclockwise seen from outside.
    std::vector<std::array<std::uint32_t, 3>> faces;
};

/// Fibonacci sphere (seed 001 formula in double: y = 1 - 2i/(N-1), r = sqrt(1-y^2),
/// theta = i*2pi(2-phi), p = (cos(theta) r, y, sin(theta) r); with perturbation P: i replaced by
/// min(i + u_i, N-1), u_i uniform [0,P) from splitmix64 seeded with `seed`), then rounded to float
/// and back to double, triangulated with CGAL's Delaunay_triangulation_on_sphere_2 (with
/// Projection_on_sphere_traits_3: exact predicates on the points scaled onto the sphere); faces CCW
/// seen from outside, in the order CGAL's finite faces iterator produces them. Cached per (N,
/// perturbation) within the process.
const Sphere_input& sphere_input(std::uint32_t n, double perturbation = 0.0,
                                 std::uint64_t seed = 1);

/// The same faces in a shuffled order (Fisher-Yates, fixed seed) with each triangle cyclically
/// rotated at random.
std::vector<std::array<std::uint32_t, 3>> shuffled_faces(const Sphere_input& in,
                                                         std::uint64_t seed = 7);

/// The points of sphere_input() alone, computed afresh (for timing the point generation).
std::vector<std::array<double, 3>>
fibonacci_sphere_points(std::uint32_t n, double perturbation = 0.0, std::uint64_t seed = 1);

/// The faces of sphere_input() for arbitrary unit-sphere points, computed afresh with CGAL's
/// Delaunay_triangulation_on_sphere_2 (for timing the triangulation plus face-list extraction).
std::vector<std::array<std::uint32_t, 3>>
sphere_delaunay_faces(const std::vector<std::array<double, 3>>& points);

/// Prints "orbis bench: <message>" to stderr and aborts when `ok` is false; benchmarks must not
/// report figures for wrong results.
void require(bool ok, std::string_view message);

/// splitmix64 for all random picks in the benchmarks (portable, deterministic).
struct Splitmix64 {
    /// The generator state; the seed is the initial state.
    std::uint64_t state;
    /// Next 64 random bits.
    std::uint64_t next();
    /// Uniform integer in [0, n) by multiply-shift of 32 random bits (bias below 2^-32 * n, and
    /// the same picks on every platform, unlike std::uniform_int_distribution).
    std::uint32_t below(std::uint32_t n);
    /// Uniform double in [0, 1) from the top 53 bits.
    double unit();
};

} // namespace orbis::bench
