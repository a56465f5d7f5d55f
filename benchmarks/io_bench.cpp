// SPDX-License-Identifier: MIT
// Saving and loading a 1,000,000-vertex world (position layer + four float layers), as a world
// file (uncompressed and zstd), against a plain memcpy of the same bytes (the limit) and
// OpenMesh writing and reading the same mesh as binary PLY. Files go to a folder on the same
// disk as the build (ORBIS_BENCH_DIR, default /tmp); saves are timed with Sync::none (to the
// page cache) and Sync::full (with fsync: the disk's speed). Counter bytes_per_second: the
// world file's size over the time.

#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include "world_input.hpp"
#include <orbis/io/world_file.hpp>

#include <OpenMesh/Core/IO/MeshIO.hh>
#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {

using namespace orbis;
namespace fs = std::filesystem;

fs::path bench_dir() {
    const char* d = std::getenv("ORBIS_BENCH_DIR");
    return d ? fs::path(d) : fs::temp_directory_path();
}

const World& world_of(const benchmark::State& state) {
    return bench::benchmark_world(static_cast<std::uint32_t>(state.range(0)));
}

std::size_t file_bytes(const benchmark::State& state) {
    static std::map<std::int64_t, std::size_t> cache;
    auto& n = cache[state.range(0)];
    if (!n) n = io::write_world(world_of(state)).size();
    return n;
}

void throughput(benchmark::State& state, std::size_t bytes) {
    state.counters["bytes_per_second"] =
        benchmark::Counter(static_cast<double>(bytes) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
    state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_memcpy(benchmark::State& state) {
    const std::size_t n = file_bytes(state);
    std::vector<std::byte> a(n, std::byte{1}), b(n);
    for (auto _ : state) {
        std::memcpy(b.data(), a.data(), n);
        benchmark::DoNotOptimize(b.data());
        benchmark::ClobberMemory();
    }
    throughput(state, n);
}

void BM_save(benchmark::State& state) {
    const World& w = world_of(state);
    const bool compress = state.range(1) != 0;
    const bool sync = state.range(2) != 0;
    const fs::path p = bench_dir() / "orbis_bench_save.orbis";
    for (auto _ : state)
        io::save_world(w, p,
                       {.compress = compress, .sync = sync ? io::Sync::full : io::Sync::none});
    throughput(state, fs::file_size(p));
    fs::remove(p);
}

void BM_load(benchmark::State& state) {
    const World& w = world_of(state);
    const bool compress = state.range(1) != 0;
    const fs::path p = bench_dir() / "orbis_bench_load.orbis";
    io::save_world(w, p, {.compress = compress, .sync = io::Sync::none});
    for (auto _ : state) {
        World loaded = io::load_world(p);
        benchmark::DoNotOptimize(loaded);
    }
    if (!(io::load_world(p) == w)) throw std::runtime_error("load gave another world");
    throughput(state, fs::file_size(p));
    fs::remove(p);
}

using Om = OpenMesh::TriMesh_ArrayKernelT<>;

const Om& openmesh_of(const benchmark::State& state) {
    static std::map<std::int64_t, std::unique_ptr<Om>> cache;
    auto& slot = cache[state.range(0)];
    if (!slot) {
        const World& w = world_of(state);
        slot = std::make_unique<Om>();
        const auto* position = w.layer(position_layer);
        std::vector<Om::VertexHandle> handles(w.mesh().vertex_slots());
        for (const Vertex v : w.mesh().vertices()) {
            const glm::vec3 p = (*position)[v];
            handles[v.index()] = slot->add_vertex(Om::Point(p.x, p.y, p.z));
        }
        for (const Face f : w.mesh().faces()) {
            std::vector<Om::VertexHandle> corners;
            for (const Vertex v : f.vertices(w.mesh()))
                corners.push_back(handles[v.index()]);
            slot->add_face(corners);
        }
    }
    return *slot;
}

void BM_openmesh_ply_save(benchmark::State& state) {
    const Om& m = openmesh_of(state);
    const fs::path p = bench_dir() / "orbis_bench_openmesh.ply";
    for (auto _ : state)
        if (!OpenMesh::IO::write_mesh(m, p.string(), OpenMesh::IO::Options::Binary))
            throw std::runtime_error("OpenMesh could not write");
    state.counters["ply_MB"] = static_cast<double>(fs::file_size(p)) / 1e6;
    throughput(state, file_bytes(state)); // the world file's bytes, for comparison
    fs::remove(p);
}

void BM_openmesh_ply_load(benchmark::State& state) {
    const Om& m = openmesh_of(state);
    const fs::path p = bench_dir() / "orbis_bench_openmesh_load.ply";
    OpenMesh::IO::write_mesh(m, p.string(), OpenMesh::IO::Options::Binary);
    for (auto _ : state) {
        Om loaded;
        OpenMesh::IO::Options options = OpenMesh::IO::Options::Binary;
        if (!OpenMesh::IO::read_mesh(loaded, p.string(), options))
            throw std::runtime_error("OpenMesh could not read");
        benchmark::DoNotOptimize(loaded);
    }
    throughput(state, file_bytes(state));
    fs::remove(p);
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgName("n")->Arg(1'000'000)->Repetitions(5)->ReportAggregatesOnly(true)->Unit(
        benchmark::kMillisecond);
}

BENCHMARK(BM_memcpy)->Apply(sizes);
BENCHMARK(BM_save)
    ->ArgNames({"n", "zstd", "fsync"})
    ->Args({1'000'000, 0, 0})
    ->Args({1'000'000, 0, 1})
    ->Args({1'000'000, 1, 0})
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_load)
    ->ArgNames({"n", "zstd"})
    ->Args({1'000'000, 0})
    ->Args({1'000'000, 1})
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_openmesh_ply_save)->Apply(sizes);
BENCHMARK(BM_openmesh_ply_load)->Apply(sizes);

} // namespace

ORBIS_BENCHMARK_MAIN()
