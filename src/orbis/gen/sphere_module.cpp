// SPDX-License-Identifier: MIT
#include "orbis/gen/sphere_module.hpp"

#include "orbis/core/chunked_array.hpp"
#include "orbis/core/face_soup.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

namespace orbis::gen {

std::string_view Sphere_module::description() const {
    return "Fibonacci points on a sphere and their exact Delaunay triangulation; replaces the "
           "mesh, writes 'position' (vec3, vertex, slerp), reseeds the random generator";
}

std::vector<Parameter> Sphere_module::parameters() const {
    return {
        {"count", Parameter_kind::integer, std::int64_t(100'000), 4, 50'000'000,
         "number of points (vertices)"},
        {"radius", Parameter_kind::real, 6371.0, 1e-3, 1e9, "sphere radius in kilometres"},
        {"perturbation", Parameter_kind::real, 0.5, 0.0, 0.999,
         "random offset of each point along the spiral, in [0, 1): 0 is the regular lattice"},
        {"seed", Parameter_kind::integer, std::int64_t(1), 0, 9.2e18,
         "seed of the perturbation and of the World's random generator"},
    };
}

Dict Sphere_module::run(World& world, const Dict& params, const Progress& progress) const {
    Fibonacci_params p;
    p.count = static_cast<std::uint32_t>(params.at("count").as<std::int64_t>());
    p.radius = static_cast<float>(params.at("radius").as<double>());
    p.perturbation = static_cast<float>(params.at("perturbation").as<double>());
    p.seed = static_cast<std::uint64_t>(params.at("seed").as<std::int64_t>());

    const auto points = fibonacci_points(p);
    progress.report(name(), 0.1);
    const auto triangulation = delaunay_on_sphere(points);
    progress.report(name(), 0.6);
    Mesh mesh =
        build_from_closed_triangulation(p.count, triangulation.triangles, triangulation.opposite);
    progress.report(name(), 0.8);

    world.lock_mesh().assign(std::move(mesh));
    {
        auto [position] = world.lock_layer(position_layer);
        for (std::size_t c = 0; c < position.layer().chunk_count(); ++c) {
            const auto values = position.chunk(c);
            const std::size_t first = c * Chunked_array<glm::vec3>::chunk_size;
            for (std::size_t i = 0; i < values.size(); ++i)
                values[i] = points[first + i];
        }
    }
    world.lock_random()->seed(p.seed);

    Dict report;
    report.set("vertices", std::int64_t(world.mesh().vertex_count()));
    report.set("faces", std::int64_t(world.mesh().face_count()));
    return report;
}

} // namespace orbis::gen
