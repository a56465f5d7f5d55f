// SPDX-License-Identifier: MIT
#include "orbis/gen/sphere.hpp"

#include "orbis/core/face_soup.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

namespace orbis::gen {

Sphere make_sphere(const Fibonacci_params& params) {
    Sphere s;
    s.positions = fibonacci_points(params);
    const auto t = delaunay_on_sphere(s.positions);
    s.mesh = build_from_closed_triangulation(params.count, t.triangles, t.opposite,
                                             parallel_parts(params.count));
    return s;
}

World make_sphere_world(const Fibonacci_params& params) {
    Sphere s = make_sphere(params);
    World world(params.seed);
    world.lock_mesh().assign(std::move(s.mesh));
    auto [position] = world.lock_layer(position_layer);
    for (std::uint32_t i = 0; i < s.positions.size(); ++i)
        position[Vertex{i}] = s.positions[i];
    return world;
}

} // namespace orbis::gen
