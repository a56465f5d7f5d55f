// SPDX-License-Identifier: MIT
// Orbis's mesh workloads on the shared sphere input (benchmarks/support), with the same random
// picks as the OpenMesh and CGAL anchors (benchmarks/anchors), so one run compares them.
// Stateful workloads run one operation sequence per iteration on a fresh, unshared copy made
// outside the timed region (manual timing); results are validated once per configuration.

#include "workloads.hpp"

#include <orbis/core.hpp>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace {

using namespace orbis::bench;
using Faces = std::vector<std::array<std::uint32_t, 3>>;

void validate(const orbis::Mesh& m, std::size_t vertices, std::size_t faces, const char* what) {
    const std::string where = std::string("Orbis ") + what + ": ";
    require(m.vertex_count() == vertices, where + "wrong vertex count");
    require(m.face_count() == faces, where + "wrong face count");
    require(static_cast<long long>(m.vertex_count()) - static_cast<long long>(m.edge_count()) +
                    static_cast<long long>(m.face_count()) ==
                2,
            where + "V - E + F != 2");
    const auto problem = m.validate();
    require(!problem, where + problem.value_or(""));
}

void report_storage(benchmark::State& state, const orbis::Mesh& m) {
    const double v = static_cast<double>(m.vertex_count());
    // Compact: what the arrays hold (4 B per entry); allocated: whole chunks, slack included.
    const double compact = 4.0 * (m.vertex_slots() + m.face_slots() + 4.0 * m.edge_slots());
    state.counters["B_per_v_connectivity"] = compact / v;
    state.counters["B_per_v_allocated"] = static_cast<double>(m.connectivity_bytes()) / v;
}

// add_face in the given order, order-dependent refusals retried (orbis::add_faces).
orbis::Mesh add_faces(std::uint32_t vertices, const Faces& faces) {
    orbis::Mesh m;
    m.add_vertices(vertices);
    require(orbis::add_faces(m, faces).empty(), "Orbis add_face: faces can never be added");
    return m;
}

// The mesh the edit workloads start from, built the way Orbis builds a mesh from a face list:
// build_from_face_soup (the bulk path, which gives each vertex's edges consecutive ids).
const orbis::Mesh& built_mesh(const Sphere_input& in) {
    static std::map<const Sphere_input*, std::unique_ptr<orbis::Mesh>> cache;
    auto& slot = cache[&in];
    if (!slot) {
        slot = std::make_unique<orbis::Mesh>(
            orbis::build_from_face_soup(static_cast<std::uint32_t>(in.points.size()), in.faces)
                .mesh);
        validate(*slot, in.points.size(), in.faces.size(), "cached build");
    }
    return *slot;
}

// The same faces added one by one with add_face in the input order (the layout the other
// libraries get from their add_face).
const orbis::Mesh& add_face_mesh(const Sphere_input& in) {
    static std::map<const Sphere_input*, std::unique_ptr<orbis::Mesh>> cache;
    auto& slot = cache[&in];
    if (!slot) {
        slot = std::make_unique<orbis::Mesh>(
            add_faces(static_cast<std::uint32_t>(in.points.size()), in.faces));
        validate(*slot, in.points.size(), in.faces.size(), "cached add_face build");
    }
    return *slot;
}

void build_workload(benchmark::State& state, const Faces& faces, bool bulk, const char* name) {
    const Sphere_input& in = input_of(state);
    const auto n = static_cast<std::uint32_t>(in.points.size());
    for (auto _ : state) {
        std::optional<orbis::Mesh> m;
        const auto start = Clock::now();
        if (bulk)
            m.emplace(std::move(orbis::build_from_face_soup(n, faces).mesh));
        else
            m.emplace(add_faces(n, faces));
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(*m);
        if (first_time(name, state)) validate(*m, n, faces.size(), name);
        report_storage(state, *m);
    }
}

void orbis_build_input_order(benchmark::State& state) {
    build_workload(state, input_of(state).faces, false, __func__);
}
void orbis_build_shuffled(benchmark::State& state) {
    build_workload(state, orbis::bench::shuffled_faces(input_of(state)), false, __func__);
}
void orbis_build_soup_input_order(benchmark::State& state) {
    build_workload(state, input_of(state).faces, true, __func__);
}
void orbis_build_soup_shuffled(benchmark::State& state) {
    build_workload(state, orbis::bench::shuffled_faces(input_of(state)), true, __func__);
}

void one_ring(benchmark::State& state, const orbis::Mesh& m, const Sphere_input& in) {
    std::uint64_t expected = 0;
    for (const auto& f : in.faces)
        expected += std::uint64_t{f[0]} + f[1] + f[2];
    const double visits = 2.0 * static_cast<double>(m.edge_count());
    double seconds = 0.0;
    for (auto _ : state) {
        const auto start = Clock::now();
        std::uint64_t sum = 0;
        for (const orbis::Vertex v : m.vertices())
            for (const orbis::Vertex w : v.neighbors(m))
                sum += w.index();
        benchmark::DoNotOptimize(sum);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        require(sum == expected, "Orbis one-ring: wrong neighbour index sum");
    }
    state.counters["ns_per_visit"] =
        seconds * 1e9 / (visits * static_cast<double>(state.iterations()));
}

// The mesh as add_face builds it from the input order.
void orbis_one_ring_add_face(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    one_ring(state, add_face_mesh(in), in);
}

// The mesh as build_from_face_soup lays it out (each vertex's edges together).
void orbis_one_ring(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    one_ring(state, built_mesh(in), in);
}

void orbis_flips(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const orbis::Mesh& original = built_mesh(in);
    double seconds = 0.0;
    std::uint32_t rejected = 0;
    for (auto _ : state) {
        orbis::Mesh m = original.deep_copy();
        Splitmix64 random{flip_seed};
        const auto edges = static_cast<std::uint32_t>(m.edge_count());
        rejected = 0;
        const auto start = Clock::now();
        for (std::uint32_t done = 0; done < operation_count;) {
            if (m.try_flip(orbis::Edge{2 * random.below(edges)}))
                ++rejected;
            else
                ++done;
        }
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state))
            validate(m, in.points.size(), in.faces.size(), "after flips");
    }
    state.counters["flips_per_s"] =
        operation_count * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
}

void orbis_splits(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const orbis::Mesh& original = built_mesh(in);
    double seconds = 0.0;
    for (auto _ : state) {
        orbis::Mesh m = original.deep_copy();
        Splitmix64 random{split_seed};
        const auto start = Clock::now();
        for (std::uint32_t done = 0; done < operation_count; ++done)
            m.split(orbis::Edge{2 * random.below(static_cast<std::uint32_t>(m.edge_count()))},
                    0.5f);
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state))
            validate(m, in.points.size() + operation_count, in.faces.size() + 2 * operation_count,
                     "after splits");
    }
    state.counters["splits_per_s"] =
        operation_count * static_cast<double>(state.iterations()) / seconds;
}

void orbis_collapses(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const orbis::Mesh& original = built_mesh(in);
    const auto target =
        std::min<std::uint32_t>(operation_count, static_cast<std::uint32_t>(in.points.size() / 2));
    double seconds = 0.0;
    std::uint32_t rejected = 0, deleted_picks = 0;
    for (auto _ : state) {
        orbis::Mesh m = original.deep_copy();
        Splitmix64 random{collapse_seed};
        const auto edges = static_cast<std::uint32_t>(m.edge_count());
        rejected = deleted_picks = 0;
        const auto start = Clock::now();
        for (std::uint32_t done = 0; done < target;) {
            const orbis::Edge e{2 * random.below(edges)};
            if (!m.contains(e)) {
                ++deleted_picks;
                continue;
            }
            if (m.try_collapse(e, 0.5f))
                ++rejected;
            else
                ++done;
        }
        const double elapsed = seconds_since(start);
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        if (first_time(__func__, state))
            validate(m, in.points.size() - target, in.faces.size() - 2 * std::size_t{target},
                     "after collapses");
    }
    state.counters["collapses_per_s"] = target * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
    state.counters["deleted_picks"] = deleted_picks;
}

// A full copy that shares nothing: comparable with the other libraries' copy constructors.
void orbis_deep_copy(benchmark::State& state) {
    const orbis::Mesh& original = built_mesh(input_of(state));
    for (auto _ : state) {
        std::optional<orbis::Mesh> copy;
        const auto start = Clock::now();
        copy.emplace(original.deep_copy());
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(*copy);
        if (first_time(__func__, state)) require(*copy == original, "deep copy differs");
    }
}

// The copy an undo snapshot makes: chunks are shared, nothing is copied until written.
void orbis_snapshot(benchmark::State& state) {
    const orbis::Mesh& original = built_mesh(input_of(state));
    for (auto _ : state) {
        std::optional<orbis::Mesh> copy;
        const auto start = Clock::now();
        copy.emplace(original);
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(*copy);
    }
}

} // namespace

BENCHMARK(orbis_build_input_order)->Apply(stateful);
BENCHMARK(orbis_build_shuffled)->Apply(stateful);
BENCHMARK(orbis_build_soup_input_order)->Apply(stateful);
BENCHMARK(orbis_build_soup_shuffled)->Apply(stateful);
BENCHMARK(orbis_one_ring)->Apply(sphere_args);
BENCHMARK(orbis_one_ring_add_face)->Apply(sphere_args);
BENCHMARK(orbis_flips)->Apply(stateful);
BENCHMARK(orbis_splits)->Apply(stateful);
BENCHMARK(orbis_collapses)->Apply(stateful);
BENCHMARK(orbis_deep_copy)->Apply(sphere_args);
BENCHMARK(orbis_snapshot)->Apply(sphere_args);

ORBIS_BENCHMARK_MAIN()
