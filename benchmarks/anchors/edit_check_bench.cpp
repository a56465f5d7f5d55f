// SPDX-License-Identifier: MIT
// Checking an edit, then making it (issue 19, "Checking twice"): random flips and collapses on
// the shared sphere input, Orbis's idioms (try_*, check_* then the edit, plan_* then the edit
// from the plan, and the old double check for reference) side by side with CGAL's and OpenMesh's
// (is_*_ok then the edit, their only way) in one process, so that
// --benchmark_enable_random_interleaving=true interleaves the libraries' repetitions. Every
// library makes the same picks (the seeds of workloads.hpp) and every Orbis idiom must end with
// the same mesh (checked with == once per configuration), so the figures compare the same work.
// Besides the wall time (the reported time), each workload reports `cpu_ms`, the thread's CPU
// time for the same region: on a shared machine it moves less when other processes compete.

#include "cgal_edits.hpp"
#include "openmesh_edits.hpp"
#include "workloads.hpp"

#include <orbis/core.hpp>

#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace {

using namespace orbis::bench;

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Wall and thread CPU time of one timed region; stop() reports the wall time as the iteration's
// time and the CPU time as the `cpu_ms` counter (one iteration per repetition, so the median of
// the counters is the median over repetitions).
class Region {
public:
    Region()
        : wall_(Clock::now())
        , cpu_(thread_cpu_seconds()) {}
    double stop(benchmark::State& state) const {
        const double cpu = thread_cpu_seconds() - cpu_;
        const double wall = seconds_since(wall_);
        state.SetIterationTime(wall);
        state.counters["cpu_ms"] = cpu * 1e3;
        return wall;
    }

private:
    Clock::time_point wall_;
    double cpu_;
};

// ---- Orbis ----------------------------------------------------------------------------------

const orbis::Mesh& orbis_mesh(const Sphere_input& in) {
    static std::map<const Sphere_input*, std::unique_ptr<orbis::Mesh>> cache;
    auto& slot = cache[&in];
    if (!slot) {
        slot = std::make_unique<orbis::Mesh>(
            orbis::build_from_face_soup(static_cast<std::uint32_t>(in.points.size()), in.faces)
                .mesh);
        require(!slot->validate(), "Orbis: the cached build is invalid");
    }
    return *slot;
}

// The first Orbis result of a workload and configuration; every other idiom must match it.
void require_same_result(const std::string& workload, const benchmark::State& state,
                         const orbis::Mesh& m) {
    static std::map<std::string, orbis::Mesh> first;
    const std::string key =
        workload + "/" + std::to_string(state.range(0)) + "/" + std::to_string(state.range(1));
    const auto [it, inserted] = first.try_emplace(key, m);
    if (inserted) {
        const auto problem = m.validate();
        require(!problem, "Orbis " + workload + ": " + problem.value_or(""));
    } else {
        require(it->second == m, "Orbis " + workload + ": the idioms' meshes differ");
    }
}

// How an Orbis caller asks for an edit.
enum class Idiom {
    try_edit,        // try_flip / try_collapse: one call, refusal as a value
    check_then_edit, // check_* first, then flip / collapse (the idiom of CGAL and OpenMesh)
    plan,            // plan_* first, then the edit from the plan
    check_twice,     // a full check, then try_* checking again: what check_then_edit cost before
                     // check_* remembered its plan (plan_* does not remember, so try_* re-checks)
};

const char* idiom_name(Idiom idiom) {
    switch (idiom) {
    case Idiom::try_edit:
        return "try";
    case Idiom::check_then_edit:
        return "check_then_edit";
    case Idiom::plan:
        return "plan";
    case Idiom::check_twice:
        return "check_twice";
    }
    return "";
}

std::uint32_t collapse_target(const Sphere_input& in) {
    return std::min<std::uint32_t>(operation_count,
                                   static_cast<std::uint32_t>(in.points.size() / 2));
}

// Runs `edit` on a fresh unshared copy per repetition; `name` is the benchmark's, `workload`
// the group whose meshes must all end the same.
template <class Edit>
void orbis_workload(benchmark::State& state, const char* name, const char* workload,
                    const char* counter, std::uint32_t operations, Edit edit) {
    const Sphere_input& in = input_of(state);
    const orbis::Mesh& original = orbis_mesh(in);
    double seconds = 0.0;
    std::uint32_t rejected = 0;
    for (auto _ : state) {
        orbis::Mesh m = original.deep_copy();
        const Region region;
        rejected = edit(m, operations);
        seconds += region.stop(state);
        if (first_time(name, state)) require_same_result(workload, state, m);
    }
    state.counters[counter] = operations * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
}

// One edit the way `idiom` asks for it; true when refused. The loops below are templates on the
// idiom and not inlined, so that each idiom's loop is a function of its own (callgrind
// --toggle-collect can count it alone; benchmarks/README.md).
template <Idiom idiom>
bool flip(orbis::Mesh& m, orbis::Edge e) {
    if constexpr (idiom == Idiom::try_edit) {
        return m.try_flip(e).has_value();
    } else if constexpr (idiom == Idiom::check_then_edit) {
        if (m.check_flip(e)) return true;
        m.flip(e);
        return false;
    } else if constexpr (idiom == Idiom::plan) {
        const orbis::Flip_plan plan = m.plan_flip(e);
        if (plan.refusal()) return true;
        m.flip(plan);
        return false;
    } else {
        return m.plan_flip(e).refusal().has_value() || m.try_flip(e).has_value();
    }
}

template <Idiom idiom, class Target>
bool collapse(Target& m, orbis::Edge e) {
    if constexpr (idiom == Idiom::try_edit) {
        return m.try_collapse(e, 0.5f).has_value();
    } else if constexpr (idiom == Idiom::check_then_edit) {
        return m->check_collapse(e, 0.5f).has_value() || m.try_collapse(e, 0.5f).has_value();
    } else if constexpr (idiom == Idiom::plan) {
        return m.try_collapse(m->plan_collapse(e, 0.5f)).has_value();
    } else {
        return m->plan_collapse(e, 0.5f).refusal().has_value() ||
               m.try_collapse(e, 0.5f).has_value();
    }
}

// Mesh_lock reads its mesh through ->; this gives a bare Mesh the same face.
struct Bare {
    orbis::Mesh& m;
    const orbis::Mesh* operator->() const { return &m; }
    auto try_collapse(orbis::Edge e, float t) { return m.try_collapse(e, t); }
    auto try_collapse(const orbis::Collapse_plan& p) { return m.try_collapse(p); }
};

template <Idiom idiom>
[[gnu::noinline]] std::uint32_t orbis_flip_loop(orbis::Mesh& m, std::uint32_t count) {
    Splitmix64 random{flip_seed};
    const auto edges = static_cast<std::uint32_t>(m.edge_count());
    std::uint32_t rejected = 0;
    for (std::uint32_t done = 0; done < count;)
        flip<idiom>(m, orbis::Edge{2 * random.below(edges)}) ? ++rejected : ++done;
    return rejected;
}

// Collapses on a bare mesh (Bare) or through a World's Mesh_lock.
template <Idiom idiom, class Target>
[[gnu::noinline]] std::uint32_t orbis_collapse_loop(Target& m, std::uint32_t edges,
                                                    std::uint32_t count) {
    Splitmix64 random{collapse_seed};
    std::uint32_t rejected = 0;
    for (std::uint32_t done = 0; done < count;) {
        const orbis::Edge e{2 * random.below(edges)};
        if (!m->contains(e)) continue; // picked an edge an earlier collapse deleted
        collapse<idiom>(m, e) ? ++rejected : ++done;
    }
    return rejected;
}

template <Idiom idiom>
void flips_orbis(benchmark::State& state) {
    const std::string name = std::string("flips_orbis_") + idiom_name(idiom);
    orbis_workload(state, name.c_str(), "flips", "flips_per_s", operation_count,
                   [](orbis::Mesh& m, std::uint32_t n) { return orbis_flip_loop<idiom>(m, n); });
}

template <Idiom idiom>
void collapses_orbis(benchmark::State& state) {
    const std::string name = std::string("collapses_orbis_") + idiom_name(idiom);
    orbis_workload(state, name.c_str(), "collapses", "collapses_per_s",
                   collapse_target(input_of(state)), [](orbis::Mesh& m, std::uint32_t n) {
                       Bare bare{m};
                       return orbis_collapse_loop<idiom>(
                           bare, static_cast<std::uint32_t>(m.edge_count()), n);
                   });
}

// The same collapses through a World without layers (Mesh_lock, as the editor and the modules
// edit): what the lock adds to the bare mesh's edit. check_then_edit is the editor's selection
// path (Mesh::check_collapse on the lock's mesh, then Mesh_lock::try_collapse); check_twice is
// what Mesh_lock::try_collapse alone cost before it planned (its check, then the mesh's own).
template <Idiom idiom>
void collapses_orbis_world(benchmark::State& state) {
    const std::string name = std::string("collapses_orbis_world_") + idiom_name(idiom);
    const Sphere_input& in = input_of(state);
    const orbis::Mesh& original = orbis_mesh(in);
    const std::uint32_t target = collapse_target(in);
    const auto edges = static_cast<std::uint32_t>(original.edge_count());
    double seconds = 0.0;
    std::uint32_t rejected = 0;
    for (auto _ : state) {
        orbis::World world;
        world.lock_mesh().assign(original.deep_copy());
        const Region region;
        {
            orbis::Mesh_lock lock = world.lock_mesh();
            rejected = orbis_collapse_loop<idiom>(lock, edges, target);
        }
        seconds += region.stop(state);
        if (first_time(name.c_str(), state)) require_same_result("collapses", state, world.mesh());
    }
    state.counters["collapses_per_s"] = target * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
}

// ---- CGAL and OpenMesh ----------------------------------------------------------------------

void flips_cgal(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const cgal::Mesh& original = cgal::built_mesh(in);
    double seconds = 0.0;
    std::uint32_t rejected = 0;
    for (auto _ : state) {
        cgal::Mesh mesh(original);
        const Region region;
        rejected = cgal::flip_random_edges(mesh, operation_count);
        seconds += region.stop(state);
        if (first_time(__func__, state))
            cgal::validate(mesh, in.points.size(), in.faces.size(), "after flips");
    }
    state.counters["flips_per_s"] =
        operation_count * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
}

void collapses_cgal(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const cgal::Mesh& original = cgal::built_mesh(in);
    const std::uint32_t target = collapse_target(in);
    double seconds = 0.0;
    cgal::Collapse_counts counts;
    for (auto _ : state) {
        cgal::Mesh mesh(original);
        const Region region;
        counts = cgal::collapse_random_edges(mesh, target);
        seconds += region.stop(state);
        if (first_time(__func__, state)) {
            mesh.collect_garbage();
            cgal::validate(mesh, in.points.size() - target,
                           in.faces.size() - 2 * std::size_t{target}, "after collapses");
        }
    }
    state.counters["collapses_per_s"] = target * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = counts.rejected;
}

void flips_openmesh(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const openmesh::Mesh& original = openmesh::built_mesh(in);
    double seconds = 0.0;
    std::uint32_t rejected = 0;
    for (auto _ : state) {
        openmesh::Mesh mesh(original);
        const Region region;
        rejected = openmesh::flip_random_edges(mesh, operation_count);
        seconds += region.stop(state);
        if (first_time(__func__, state))
            openmesh::validate(mesh, in.points.size(), in.faces.size(), "after flips");
    }
    state.counters["flips_per_s"] =
        operation_count * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = rejected;
}

void collapses_openmesh(benchmark::State& state) {
    const Sphere_input& in = input_of(state);
    const openmesh::Mesh& original = openmesh::built_mesh(in);
    const std::uint32_t target = collapse_target(in);
    double seconds = 0.0;
    openmesh::Collapse_counts counts;
    for (auto _ : state) {
        openmesh::Mesh mesh(original);
        openmesh::request_status(mesh);
        const Region region;
        counts = openmesh::collapse_random_edges(mesh, target);
        seconds += region.stop(state);
        if (first_time(__func__, state)) {
            mesh.garbage_collection();
            openmesh::validate(mesh, in.points.size() - target,
                               in.faces.size() - 2 * std::size_t{target}, "after collapses");
        }
    }
    state.counters["collapses_per_s"] = target * static_cast<double>(state.iterations()) / seconds;
    state.counters["rejected"] = counts.rejected;
}

// N = 100,000 and 1,000,000, perturbation 0 and 0.5; one operation sequence per repetition on a
// fresh copy, medians of the repetitions asked for on the command line
// (--benchmark_repetitions=N; benchmarks/README.md gives the command), with
// --benchmark_enable_random_interleaving=true so that the libraries' repetitions alternate.
void edit_args(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "perturb_pct"});
    for (const std::int64_t n : {100'000, 1'000'000})
        for (const std::int64_t perturbation_percent : {0, 50})
            b->Args({n, perturbation_percent});
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);
}

} // namespace

BENCHMARK(flips_orbis<Idiom::try_edit>)->Name("flips_orbis_try")->Apply(edit_args);
BENCHMARK(flips_orbis<Idiom::check_then_edit>)
    ->Name("flips_orbis_check_then_edit")
    ->Apply(edit_args);
BENCHMARK(flips_orbis<Idiom::plan>)->Name("flips_orbis_plan")->Apply(edit_args);
BENCHMARK(flips_orbis<Idiom::check_twice>)->Name("flips_orbis_check_twice")->Apply(edit_args);
BENCHMARK(flips_cgal)->Apply(edit_args);
BENCHMARK(flips_openmesh)->Apply(edit_args);
BENCHMARK(collapses_orbis<Idiom::try_edit>)->Name("collapses_orbis_try")->Apply(edit_args);
BENCHMARK(collapses_orbis<Idiom::check_then_edit>)
    ->Name("collapses_orbis_check_then_edit")
    ->Apply(edit_args);
BENCHMARK(collapses_orbis<Idiom::plan>)->Name("collapses_orbis_plan")->Apply(edit_args);
BENCHMARK(collapses_orbis<Idiom::check_twice>)
    ->Name("collapses_orbis_check_twice")
    ->Apply(edit_args);
BENCHMARK(collapses_orbis_world<Idiom::try_edit>)
    ->Name("collapses_orbis_world_try")
    ->Apply(edit_args);
BENCHMARK(collapses_orbis_world<Idiom::check_then_edit>)
    ->Name("collapses_orbis_world_check_then_edit")
    ->Apply(edit_args);
BENCHMARK(collapses_orbis_world<Idiom::plan>)->Name("collapses_orbis_world_plan")->Apply(edit_args);
BENCHMARK(collapses_orbis_world<Idiom::check_twice>)
    ->Name("collapses_orbis_world_check_twice")
    ->Apply(edit_args);
BENCHMARK(collapses_cgal)->Apply(edit_args);
BENCHMARK(collapses_openmesh)->Apply(edit_args);

ORBIS_BENCHMARK_MAIN()
