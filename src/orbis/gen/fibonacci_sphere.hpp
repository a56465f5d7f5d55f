// SPDX-License-Identifier: MIT
// Points on a sphere along the golden spiral (seed 001, "Fibonacci spheres").
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::gen {

/// Parameters of `fibonacci_points`.
struct Fibonacci_params {
    /// Number of points; at least 4.
    std::uint32_t count = 0;
    /// Sphere radius; finite and > 0.
    float radius = 1.f;
    /// Largest random offset added to each point's index, in [0, 1); 0 gives the regular spiral.
    float perturbation = 0.f;
    /// Seed of the offsets; equal seeds give equal points on every platform.
    std::uint64_t seed = 0;
};

/// Points i = 0..count-1 of the Fibonacci sphere (seed post 001's formula, in double, stored as
/// float): ii = min(i + offset_i, count - 1) with offset_i uniform in [0, perturbation) from a
/// seeded generator of our own, y = 1 - 2 ii / (count - 1), r = sqrt(1 - y^2),
/// theta = ii * 2 pi (2 - phi), point = (cos(theta) r, y, sin(theta) r) * radius.
///
/// Point 0 is the north pole (0, radius, 0) when unperturbed and the last point always the south
/// pole; y never increases with the index, which `delaunay_on_sphere` exploits. The offsets come
/// from splitmix64, so they are the same on every platform; the trigonometry is std::cos and
/// std::sin in double, so a C library with a different last bit could, rarely, move a point by
/// one float step. Throws std::invalid_argument if count < 4, perturbation is outside [0, 1)
/// or radius is not finite and > 0. Cost O(count), ~30-50 ns per point.
std::vector<glm::vec3> fibonacci_points(const Fibonacci_params& params);

} // namespace orbis::gen
