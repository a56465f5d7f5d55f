// SPDX-License-Identifier: MIT
#include "orbis/gen/sphere_module.hpp"

#include "orbis/core/chunked_array.hpp"
#include "orbis/core/face_soup.hpp"
#include "orbis/gen/curve_numbering.hpp"
#include "orbis/gen/fibonacci_sphere.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

namespace orbis::gen {

std::string_view Sphere_module::description() const {
    return "Fibonacci points on a sphere and their exact Delaunay triangulation, numbered along "
           "a space-filling curve; replaces the mesh, resets every layer and reseeds the random "
           "generator";
}

const Parameter_list<Sphere_params>& Sphere_module::parameter_list() const {
    static const auto list =
        Parameter_list<Sphere_params>()
            .add("count", &Sphere_params::count, 4, 50'000'000, "", "number of points (vertices)")
            .add("radius", &Sphere_params::radius, 1e-3, 1e9, "km", "sphere radius")
            .add("perturbation", &Sphere_params::perturbation, 0.0, 0.999, "",
                 "random offset of each point along the spiral, in [0, 1): "
                 "0 is the regular lattice")
            .add("seed", &Sphere_params::seed, 0, INT64_MAX, "",
                 "seed of the perturbation and of the World's random "
                 "generator");
    return list;
}

Layer_uses Sphere_module::layers_for(const Sphere_params&) const {
    return {.reads = {},
            .writes = {Layer_use::mesh(),
                       Layer_use::of(position_layer).with_hints(make_hints("Position", "km"))}};
}

Dict Sphere_module::run_with(World& world, const Sphere_params& params,
                             const Progress& progress) const {
    Fibonacci_params p;
    p.count = static_cast<std::uint32_t>(params.count);
    p.radius = static_cast<float>(params.radius);
    p.perturbation = static_cast<float>(params.perturbation);
    p.seed = static_cast<std::uint64_t>(params.seed);

    auto points = fibonacci_points(p);
    progress.report(name(), 0.1);
    // The sweep is sequential but for its first pass over the points; the points' curve order
    // needs no triangulation and keeps the second core busy meanwhile (its arrays, 8 bytes a
    // point, live through the sweep).
    Sphere_triangulation triangulation;
    Spatial_order order;
    parallel_tasks(2, [&](std::uint32_t task) {
        if (task == 0)
            triangulation = delaunay_on_sphere(points);
        else
            order = curve_order(points);
    });
    progress.report(name(), 0.6);
    number_along_curve(points, triangulation, order);
    Mesh mesh = build_from_closed_triangulation(p.count, triangulation.triangles,
                                                triangulation.opposite, parallel_parts(p.count));
    progress.report(name(), 0.8);

    world.lock_mesh().assign(std::move(mesh));
    {
        auto [position] = world.lock_layer(position_layer);
        parallel_chunks(position, [&](std::size_t first, std::span<glm::vec3> values) {
            std::copy_n(points.begin() + static_cast<std::ptrdiff_t>(first), values.size(),
                        values.begin());
        });
    }
    world.lock_random()->seed(p.seed);

    Dict report;
    report.set("vertices", std::int64_t(world.mesh().vertex_count()));
    report.set("faces", std::int64_t(world.mesh().face_count()));
    return report;
}

} // namespace orbis::gen
