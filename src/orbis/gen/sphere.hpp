// SPDX-License-Identifier: MIT
// The first world shape: a Fibonacci sphere, triangulated and built into a Mesh (seed 001).
#pragma once

#include "orbis/core/layer_info.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/fibonacci_sphere.hpp"

#include <vector>

#include <glm/vec3.hpp>

namespace orbis::gen {

/// A sphere mesh and the positions of its vertices.
struct Sphere {
    /// The Delaunay triangulation of `positions`; vertex i is point i.
    Mesh mesh;
    /// fibonacci_points(params).
    std::vector<glm::vec3> positions;
};

/// Fibonacci points, their exact spherical Delaunay triangulation and the mesh built from it.
/// Every point is a vertex with edges. Refuses what fibonacci_points refuses.
/// Cost: O(count), about 0.3 s per million points on this project's 2-core machine.
Sphere make_sphere(const Fibonacci_params& params);

/// A World holding make_sphere(params): the mesh, and the points in orbis::position_layer; its
/// random generator is seeded with params.seed.
World make_sphere_world(const Fibonacci_params& params);

} // namespace orbis::gen
