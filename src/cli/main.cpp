// SPDX-License-Identifier: MIT
// orbis-cli: command-line access to Orbis. For now: generate a Fibonacci sphere and report on it.
#include <orbis/core.hpp>
#include <orbis/gen/fibonacci_sphere.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/gen/sphere_delaunay.hpp>

#include <CLI/CLI.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Sphere_options {
    std::uint32_t points = 1'000'000;
    float perturbation = 0.f;
    std::uint64_t seed = 1;
    float radius = 1.f;
    bool check_cgal = false;
};

// Generates the sphere step by step (so each step can be timed) and prints what a user wants to
// know about it. Returns the process exit code.
int run_sphere(const Sphere_options& o) {
    const orbis::gen::Fibonacci_params params{o.points, o.radius, o.perturbation, o.seed};

    const auto t0 = Clock::now();
    const auto positions = orbis::gen::fibonacci_points(params);
    const double points_ms = ms_since(t0);
    const auto t1 = Clock::now();
    const auto triangulation = orbis::gen::delaunay_on_sphere(positions);
    const double triangulation_ms = ms_since(t1);
    const auto t2 = Clock::now();
    const orbis::Mesh mesh = orbis::build_from_closed_triangulation(
        o.points, triangulation.triangles, triangulation.opposite);
    const double mesh_ms = ms_since(t2);

    int min_valence = INT32_MAX, max_valence = 0;
    double valence_sum = 0;
    for (const orbis::Vertex v : mesh.vertices()) {
        const int k = v.valence(mesh);
        min_valence = std::min(min_valence, k);
        max_valence = std::max(max_valence, k);
        valence_sum += k;
    }
    double min_length = INFINITY, max_length = 0, length_sum = 0;
    for (const orbis::Edge e : mesh.edges()) {
        const double l = glm::distance(glm::dvec3(positions[e.origin(mesh).index()]),
                                       glm::dvec3(positions[e.dest(mesh).index()]));
        min_length = std::min(min_length, l);
        max_length = std::max(max_length, l);
        length_sum += l;
    }

    const auto problem = mesh.validate();
    const std::size_t non_delaunay = orbis::gen::count_non_delaunay_edges(positions, triangulation);
    const std::size_t missing = o.points - mesh.vertex_count();
    const long long euler = static_cast<long long>(mesh.vertex_count()) -
                            static_cast<long long>(mesh.edge_count()) +
                            static_cast<long long>(mesh.face_count());

    std::printf("Fibonacci sphere: %u points, radius %g, perturbation %g, seed %llu\n", o.points,
                double(o.radius), double(o.perturbation), static_cast<unsigned long long>(o.seed));
    std::printf("  vertices %zu, edges %zu, faces %zu, V - E + F = %lld\n", mesh.vertex_count(),
                mesh.edge_count(), mesh.face_count(), euler);
    std::printf("  valence min %d, mean %.3f, max %d\n", min_valence,
                valence_sum / double(mesh.vertex_count()), max_valence);
    std::printf("  edge length min %.6g, mean %.6g, max %.6g\n", min_length,
                length_sum / double(mesh.edge_count()), max_length);
    std::printf("  connectivity %.1f bytes per vertex (%.1f MiB)\n",
                double(mesh.connectivity_bytes()) / double(mesh.vertex_count()),
                double(mesh.connectivity_bytes()) / (1024.0 * 1024.0));
    std::printf("  time: points %.1f ms, triangulation %.1f ms, mesh %.1f ms, total %.1f ms\n",
                points_ms, triangulation_ms, mesh_ms, points_ms + triangulation_ms + mesh_ms);
    std::printf("  checks: mesh %s; %zu points missing; %zu edges not locally Delaunay\n",
                problem ? problem->c_str() : "valid", missing, non_delaunay);

    bool ok = !problem && missing == 0 && non_delaunay == 0 && euler == 2;
    if (o.check_cgal) {
        const auto t3 = Clock::now();
        const auto reference = orbis::gen::delaunay_on_sphere_cgal(positions);
        const double cgal_ms = ms_since(t3);
        auto canonical = [](std::vector<std::array<std::uint32_t, 3>> tris) {
            for (auto& t : tris)
                std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
            std::sort(tris.begin(), tris.end());
            return tris;
        };
        const bool same = canonical(reference.triangles) == canonical(triangulation.triangles);
        std::printf("  CGAL Delaunay_triangulation_on_sphere_2: %.1f ms, %s triangulation\n",
                    cgal_ms, same ? "the same" : "a DIFFERENT");
        ok = ok && same;
    }
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"orbis-cli: generate, inspect and convert Orbis worlds"};
    app.require_subcommand(1);

    Sphere_options sphere;
    auto* sphere_cmd = app.add_subcommand(
        "sphere", "Generate a Fibonacci sphere, triangulate it and print its statistics");
    sphere_cmd->add_option("-n,--points", sphere.points, "Number of points (at least 4)")
        ->check(CLI::Range(4u, 1u << 29));
    sphere_cmd
        ->add_option("-p,--perturbation", sphere.perturbation,
                     "Random offset of each point along the spiral, in [0, 1)")
        ->check(CLI::Range(0.f, 0.999999f));
    sphere_cmd->add_option("-s,--seed", sphere.seed, "Seed of the perturbation");
    sphere_cmd->add_option("-r,--radius", sphere.radius, "Sphere radius")
        ->check(CLI::PositiveNumber);
    sphere_cmd->add_flag("--check-cgal", sphere.check_cgal,
                         "Also triangulate with CGAL and compare the triangulations");

    CLI11_PARSE(app, argc, argv);
    try {
        if (*sphere_cmd) return run_sphere(sphere);
    } catch (const std::exception& e) {
        std::cerr << "orbis-cli: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
