// Anchor benchmarks on CGAL 5.5: Surface_mesh<Epick::Point_3> for the mesh workloads (same input
// and random picks as Orbis's mesh benchmark), and Delaunay_triangulation_on_sphere_2 alone, the
// reference triangulator the Orbis sphere has to beat. Stateful workloads run one operation
// sequence per iteration on a fresh copy made outside the timed region (manual timing); every
// result is validated once per benchmark and configuration.

#include "cgal_edits.hpp"
#include "workloads.hpp"

#include <CGAL/Delaunay_triangulation_on_sphere_2.h>
#include <CGAL/Projection_on_sphere_traits_3.h>
#include <CGAL/boost/graph/iterator.h>
#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace orbis::bench;
using namespace orbis::bench::cgal;

// As in sphere_input.cpp: exact predicates on the float-rounded points projected onto the sphere.
using Sphere_triangulation =
    CGAL::Delaunay_triangulation_on_sphere_2<CGAL::Projection_on_sphere_traits_3<Kernel>>;

// The per-vertex storage as anchor-benchmarks.md counts it. Surface_mesh keeps its connectivity
// records private, so their sizes are those of the indices they hold: a vertex and a face store one
// halfedge, a halfedge its face, target vertex, next and previous halfedge.
void report_storage(benchmark::State& state, const Mesh& mesh) {
    const double v = static_cast<double>(mesh.num_vertices());
    const double connectivity =
        v * sizeof(Mesh::Halfedge_index) +
        static_cast<double>(mesh.num_halfedges()) *
            (sizeof(Mesh::Face_index) + sizeof(Mesh::Vertex_index) +
             2 * sizeof(Mesh::Halfedge_index)) +
        static_cast<double>(mesh.num_faces()) * sizeof(Mesh::Halfedge_index);
    const double points = v * sizeof(Point);
    // The removed flags of vertices, edges and faces are std::vector<bool>: one bit each.
    const double removed_flags =
        static_cast<double>(mesh.num_vertices() + mesh.num_edges() + mesh.num_faces()) / 8.0;
    state.counters["B_per_v_connectivity"] = connectivity / v;
    state.counters["B_per_v_conn_points"] = (connectivity + points) / v;
    state.counters["B_per_v_all_arrays"] = (connectivity + points + removed_flags) / v;
}

void cgal_dtos2_triangulation(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    std::vector<Point> points;
    points.reserve(in.points.size());
    for (const auto& p : in.points)
        points.emplace_back(p[0], p[1], p[2]);
    for (auto _ : state) {
        std::optional<Sphere_triangulation> triangulation(std::in_place);
        const auto start = Clock::now();
        triangulation->insert(points.begin(), points.end());
        state.SetIterationTime(seconds_since(start));
        require(triangulation->number_of_vertices() == points.size(),
                "CGAL DToS2 dropped input points");
        require(triangulation->number_of_faces() == in.faces.size() &&
                    triangulation->number_of_ghost_faces() == 0,
                "CGAL DToS2: a sphere of N points has 2N-4 faces");
        if (first_time(__func__, state))
            require(triangulation->is_valid(), "CGAL DToS2: is_valid failed");
    }
}

void build_workload(benchmark::State& state, const Faces& faces, const char* name) {
    const Sphere_input& in = input_of(state);
    for (auto _ : state) {
        std::optional<Mesh> mesh(std::in_place);
        const auto start = Clock::now();
        const std::size_t refused = build_mesh(*mesh, in.points, faces);
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(*mesh);
        require(refused == 0, "CGAL refused a face");
        if (first_time(name, state)) validate(*mesh, in.points.size(), faces.size(), name);
        report_storage(state, *mesh);
    }
}

void cgal_build_input_order(benchmark::State& state) {
    build_workload(state, input_of(state).faces, __func__);
}

void cgal_build_shuffled(benchmark::State& state) {
    build_workload(state, orbis::bench::shuffled_faces(input_of(state)), __func__);
}

void cgal_one_ring(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& mesh = built_mesh(in);
    // Each vertex index is summed once per incident face, so the sum over all rings is known.
    std::uint64_t expected = 0;
    for (const auto& f : in.faces)
        expected += std::uint64_t{f[0]} + f[1] + f[2];
    const double visits = static_cast<double>(mesh.number_of_halfedges());
    double seconds = 0.0;
    for (auto _ : state) {
        const auto start = Clock::now();
        std::uint64_t sum = 0;
        for (const Mesh::Vertex_index v : mesh.vertices())
            for (const Mesh::Vertex_index w : CGAL::vertices_around_target(mesh.halfedge(v), mesh))
                sum += w.idx();
        benchmark::DoNotOptimize(sum);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        require(sum == expected, "CGAL one-ring: wrong neighbour index sum");
    }
    state.counters["ns_per_visit"] =
        seconds * 1e9 / (visits * static_cast<double>(state.iterations()));
}

void cgal_flips(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& original = built_mesh(in);
    double seconds = 0.0;
    std::uint32_t rejected = 0;
    for (auto _ : state) {
        Mesh mesh(original);
        const auto start = Clock::now();
        rejected = flip_random_edges(mesh, operation_count);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state))
            validate(mesh, in.points.size(), in.faces.size(), "after flips");
    }
    state.counters["flips_per_s"] =
        operation_count * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
}

// CGAL has no triangle edge split: split_edge makes a quad on each side (hnew runs from the old
// source to the new vertex m and is followed by h), and two face splits connect m to the opposite
// vertices, giving the same 2-to-4 split as OpenMesh's split(e, p).
void split_at_midpoint(Mesh& mesh, Mesh::Edge_index e) {
    const Mesh::Halfedge_index h = mesh.halfedge(e);
    const Point midpoint = CGAL::midpoint(mesh.point(mesh.source(h)), mesh.point(mesh.target(h)));
    const Mesh::Halfedge_index hnew = CGAL::Euler::split_edge(h, mesh);
    mesh.point(mesh.target(hnew)) = midpoint;
    CGAL::Euler::split_face(hnew, mesh.next(h), mesh);
    CGAL::Euler::split_face(mesh.opposite(h), mesh.next(mesh.opposite(hnew)), mesh);
}

void cgal_splits(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& original = built_mesh(in);
    double seconds = 0.0;
    for (auto _ : state) {
        Mesh mesh(original);
        Splitmix64 random{split_seed};
        const auto start = Clock::now();
        for (std::uint32_t done = 0; done < operation_count; ++done)
            split_at_midpoint(
                mesh, Mesh::Edge_index(random.below(static_cast<std::uint32_t>(mesh.num_edges()))));
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state))
            validate(mesh, in.points.size() + operation_count,
                     in.faces.size() + 2 * operation_count, "after splits");
    }
    state.counters["splits_per_s"] =
        operation_count * static_cast<double>(state.iterations()) / seconds;
}

void cgal_collapses(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& original = built_mesh(in);
    const auto target =
        std::min<std::uint32_t>(operation_count, static_cast<std::uint32_t>(in.points.size() / 2));
    double seconds = 0.0;
    Collapse_counts counts;
    for (auto _ : state) {
        Mesh mesh(original);
        const auto start = Clock::now();
        counts = collapse_random_edges(mesh, target);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state)) {
            mesh.collect_garbage();
            validate(mesh, in.points.size() - target, in.faces.size() - 2 * std::size_t{target},
                     "after collapses");
        }
    }
    state.counters["collapses_per_s"] = target * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = counts.rejected;
    state.counters["deleted_picks"] = counts.deleted_picks;
}

void cgal_copy(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& original = built_mesh(in);
    for (auto _ : state) {
        std::optional<Mesh> copy;
        const auto start = Clock::now();
        copy.emplace(original);
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(*copy);
        if (first_time(__func__, state)) validate(*copy, in.points.size(), in.faces.size(), "copy");
    }
}

} // namespace

BENCHMARK(cgal_dtos2_triangulation)->Apply(stateful);
BENCHMARK(cgal_build_input_order)->Apply(stateful);
BENCHMARK(cgal_build_shuffled)->Apply(stateful);
BENCHMARK(cgal_one_ring)->Apply(sphere_args);
BENCHMARK(cgal_flips)->Apply(stateful);
BENCHMARK(cgal_splits)->Apply(stateful);
BENCHMARK(cgal_collapses)->Apply(stateful);
BENCHMARK(cgal_copy)->Apply(sphere_args);

ORBIS_BENCHMARK_MAIN()
