// Anchor benchmarks on OpenMesh 9 (TriMesh_ArrayKernelT<> with default traits): the same workloads,
// input and random picks as Orbis's mesh benchmark, so that one run compares them side by side.
// Stateful workloads run one operation sequence per iteration on a fresh copy made outside the
// timed region (manual timing); every result is validated once per benchmark and configuration.

#include "openmesh_edits.hpp"
#include "workloads.hpp"

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace orbis::bench;
using namespace orbis::bench::openmesh;

// Bytes of one property array. OpenMesh knows the element size only of the types it can
// serialise, which excludes the empty default-trait data types (1 B each, as sizeof says).
double property_bytes(const OpenMesh::BaseProperty& property) {
    const auto elements = static_cast<double>(property.n_elements());
    if (property.element_size() != OpenMesh::BaseProperty::UnknownSize)
        return elements * static_cast<double>(property.element_size());
    if (dynamic_cast<const OpenMesh::PropertyT<Mesh::VertexData>*>(&property) != nullptr)
        return elements * sizeof(Mesh::VertexData);
    if (dynamic_cast<const OpenMesh::PropertyT<Mesh::HalfedgeData>*>(&property) != nullptr)
        return elements * sizeof(Mesh::HalfedgeData);
    if (dynamic_cast<const OpenMesh::PropertyT<Mesh::EdgeData>*>(&property) != nullptr)
        return elements * sizeof(Mesh::EdgeData);
    if (dynamic_cast<const OpenMesh::PropertyT<Mesh::FaceData>*>(&property) != nullptr)
        return elements * sizeof(Mesh::FaceData);
    require(false, "OpenMesh property of unknown size: " + property.name());
    return 0.0;
}

// The per-vertex storage as anchor-benchmarks.md counts it: element arrays times their sizes.
void report_storage(benchmark::State& state, const Mesh& mesh) {
    const double v = static_cast<double>(mesh.n_vertices());
    const double connectivity = v * sizeof(Mesh::Vertex) +
                                static_cast<double>(mesh.n_edges()) * sizeof(Mesh::Edge) +
                                static_cast<double>(mesh.n_faces()) * sizeof(Mesh::Face);
    const double points = v * sizeof(Mesh::Point);
    // Every property array, the points included.
    double properties = 0.0;
    for (auto range : {std::pair(mesh.vprops_begin(), mesh.vprops_end()),
                       std::pair(mesh.hprops_begin(), mesh.hprops_end()),
                       std::pair(mesh.eprops_begin(), mesh.eprops_end()),
                       std::pair(mesh.fprops_begin(), mesh.fprops_end())})
        for (auto p = range.first; p != range.second; ++p)
            if (*p != nullptr) properties += property_bytes(**p);
    state.counters["B_per_v_connectivity"] = connectivity / v;
    state.counters["B_per_v_conn_points"] = (connectivity + points) / v;
    state.counters["B_per_v_all_arrays"] = (connectivity + properties) / v;
}

void build_workload(benchmark::State& state, const Faces& faces, const char* name) {
    const Sphere_input& in = input_of(state);
    for (auto _ : state) {
        std::optional<Mesh> mesh(std::in_place);
        const auto start = Clock::now();
        const std::size_t refused = build_mesh(*mesh, in.points, faces);
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(*mesh);
        require(refused == 0, "OpenMesh refused a face");
        if (first_time(name, state)) validate(*mesh, in.points.size(), faces.size(), name);
        report_storage(state, *mesh);
    }
}

void openmesh_build_input_order(benchmark::State& state) {
    build_workload(state, input_of(state).faces, __func__);
}

void openmesh_build_shuffled(benchmark::State& state) {
    build_workload(state, orbis::bench::shuffled_faces(input_of(state)), __func__);
}

void openmesh_one_ring(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& mesh = built_mesh(in);
    // Each vertex index is summed once per incident face, so the sum over all rings is known.
    std::uint64_t expected = 0;
    for (const auto& f : in.faces)
        expected += std::uint64_t{f[0]} + f[1] + f[2];
    const double visits = 2.0 * static_cast<double>(mesh.n_edges());
    double seconds = 0.0;
    for (auto _ : state) {
        const auto start = Clock::now();
        std::uint64_t sum = 0;
        for (const auto v : mesh.vertices())
            for (const auto w : mesh.vv_range(v))
                sum += static_cast<std::uint64_t>(w.idx());
        benchmark::DoNotOptimize(sum);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        require(sum == expected, "OpenMesh one-ring: wrong neighbour index sum");
    }
    state.counters["ns_per_visit"] =
        seconds * 1e9 / (visits * static_cast<double>(state.iterations()));
}

void openmesh_flips(benchmark::State& state) {
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

void openmesh_splits(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& original = built_mesh(in);
    double seconds = 0.0;
    for (auto _ : state) {
        Mesh mesh(original);
        Splitmix64 random{split_seed};
        const auto start = Clock::now();
        for (std::uint32_t done = 0; done < operation_count; ++done) {
            const OpenMesh::EdgeHandle e(
                static_cast<int>(random.below(static_cast<std::uint32_t>(mesh.n_edges()))));
            const OpenMesh::HalfedgeHandle h = mesh.halfedge_handle(e, 0);
            const Mesh::Point midpoint =
                (mesh.point(mesh.from_vertex_handle(h)) + mesh.point(mesh.to_vertex_handle(h))) *
                0.5f;
            mesh.split(e, midpoint);
        }
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

void openmesh_collapses(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const Mesh& original = built_mesh(in);
    const auto target =
        std::min<std::uint32_t>(operation_count, static_cast<std::uint32_t>(in.points.size() / 2));
    double seconds = 0.0;
    Collapse_counts counts;
    for (auto _ : state) {
        Mesh mesh(original);
        request_status(mesh);
        const auto start = Clock::now();
        counts = collapse_random_edges(mesh, target);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state)) {
            mesh.garbage_collection();
            validate(mesh, in.points.size() - target, in.faces.size() - 2 * std::size_t{target},
                     "after collapses");
        }
    }
    state.counters["collapses_per_s"] = target * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = counts.rejected;
    state.counters["deleted_picks"] = counts.deleted_picks;
}

void openmesh_copy(benchmark::State& state) {
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

// What a user would write without Orbis: points, CGAL's spherical Delaunay triangulation with
// vertex indices, the face list, and an OpenMesh mesh built from it.
void baseline_cgal_dtos2_plus_openmesh(benchmark::State& state) {
    const auto n = static_cast<std::uint32_t>(state.range(0));
    const double perturbation = static_cast<double>(state.range(1)) / 100.0;
    double points_seconds = 0.0;
    double triangulation_seconds = 0.0;
    double build_seconds = 0.0;
    for (auto _ : state) {
        std::optional<Mesh> mesh(std::in_place);
        const auto start = Clock::now();
        const auto points = orbis::bench::fibonacci_sphere_points(n, perturbation);
        const auto points_done = Clock::now();
        const auto faces = orbis::bench::sphere_delaunay_faces(points);
        const auto faces_done = Clock::now();
        const std::size_t refused = build_mesh(*mesh, points, faces);
        const auto built = Clock::now();
        state.SetIterationTime(std::chrono::duration<double>(built - start).count());
        points_seconds += std::chrono::duration<double>(points_done - start).count();
        triangulation_seconds += std::chrono::duration<double>(faces_done - points_done).count();
        build_seconds += std::chrono::duration<double>(built - faces_done).count();
        require(refused == 0, "baseline: OpenMesh refused a face");
        if (first_time(__func__, state)) {
            const Sphere_input& reference = input_of(state);
            require(points == reference.points && faces == reference.faces,
                    "baseline: the triangulation differs from sphere_input()");
            validate(*mesh, n, faces.size(), "baseline");
        }
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["points_ms"] = points_seconds * 1e3 / iterations;
    state.counters["dtos2_and_face_list_ms"] = triangulation_seconds * 1e3 / iterations;
    state.counters["openmesh_build_ms"] = build_seconds * 1e3 / iterations;
}

} // namespace

BENCHMARK(openmesh_build_input_order)->Apply(stateful);
BENCHMARK(openmesh_build_shuffled)->Apply(stateful);
BENCHMARK(openmesh_one_ring)->Apply(sphere_args);
BENCHMARK(openmesh_flips)->Apply(stateful);
BENCHMARK(openmesh_splits)->Apply(stateful);
BENCHMARK(openmesh_collapses)->Apply(stateful);
BENCHMARK(openmesh_copy)->Apply(sphere_args);
BENCHMARK(baseline_cgal_dtos2_plus_openmesh)->Apply(stateful);

ORBIS_BENCHMARK_MAIN()
