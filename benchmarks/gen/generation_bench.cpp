// SPDX-License-Identifier: MIT
// End-to-end generation: `sphere` by steps vs CGAL + OpenMesh, `delaunay`, the default pipeline,
// and the terrain steps on one and two threads against CGAL's bare spherical triangulation.
//
// Every figure is manual time of the measured step alone: fresh Worlds, inputs and snapshots are
// made outside the timed region, and results are destroyed after it (except where the step itself
// destroys them, as the module does with its points and triangulation).

#include "sphere_input.hpp"

#include "orbis/core/chunked_array.hpp"
#include "orbis/core/face_soup.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/delaunay_module.hpp"
#include "orbis/gen/fibonacci_sphere.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_delaunay.hpp"
#include "orbis/gen/sphere_module.hpp"

#include <CGAL/Delaunay_triangulation_on_sphere_2.h>
#include <CGAL/Delaunay_triangulation_on_sphere_traits_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Projection_on_sphere_traits_3.h>
#include <CGAL/Triangulation_data_structure_2.h>
#include <CGAL/Triangulation_on_sphere_face_base_2.h>
#include <CGAL/Triangulation_on_sphere_vertex_base_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>
#include <CGAL/algorithm.h>
#include <CGAL/spatial_sort_on_sphere.h>
#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <benchmark/benchmark.h>
#include <benchmark_main.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace {

using namespace orbis;
using namespace orbis::gen;
using orbis::bench::require;
using Clock = std::chrono::steady_clock;

constexpr float perturbation = 0.5f;
constexpr std::uint64_t seed = 1;
constexpr double radius = 6371.0; // the sphere module's default

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::uint32_t count_of(const benchmark::State& state) {
    return static_cast<std::uint32_t>(state.range(0));
}

Fibonacci_params fibonacci_params(std::uint32_t n) {
    return {.count = n,
            .radius = static_cast<float>(radius),
            .perturbation = perturbation,
            .seed = seed};
}

/// The parameters of the `sphere` module for n points.
Dict sphere_params(std::uint32_t n) {
    Dict params;
    params.set("count", std::int64_t{n});
    params.set("radius", radius);
    params.set("perturbation", double{perturbation});
    params.set("seed", std::int64_t{seed});
    return params;
}

// The intermediate results of the sphere module for one n, made once per process.
struct Sphere_steps {
    std::vector<glm::vec3> points;
    Sphere_triangulation triangulation;
    Mesh mesh;
};

const Sphere_steps& sphere_steps(std::uint32_t n) {
    static std::map<std::uint32_t, std::unique_ptr<Sphere_steps>> cache;
    std::unique_ptr<Sphere_steps>& slot = cache[n];
    if (!slot) {
        slot = std::make_unique<Sphere_steps>();
        slot->points = fibonacci_points(fibonacci_params(n));
        slot->triangulation = delaunay_on_sphere(slot->points);
        slot->mesh = build_from_closed_triangulation(n, slot->triangulation.triangles,
                                                     slot->triangulation.opposite);
        require(slot->mesh.face_count() == 2 * std::size_t{n} - 4,
                "sphere: a sphere of N points has 2N-4 faces");
    }
    return *slot;
}

/// Step 1 of `sphere`: the Fibonacci points (fibonacci_points).
void sphere_points(benchmark::State& state) {
    const Fibonacci_params params = fibonacci_params(count_of(state));
    for (auto _ : state) {
        std::optional<std::vector<glm::vec3>> points;
        const auto start = Clock::now();
        points.emplace(fibonacci_points(params));
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(points->data());
    }
}

/// Step 2 of `sphere`: the exact spherical Delaunay triangulation of the points
/// (delaunay_on_sphere), triangles and twins.
void sphere_triangulation(benchmark::State& state) {
    const Sphere_steps& steps = sphere_steps(count_of(state));
    for (auto _ : state) {
        std::optional<Sphere_triangulation> triangulation;
        const auto start = Clock::now();
        triangulation.emplace(delaunay_on_sphere(steps.points));
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(triangulation->triangles.data());
    }
}

/// Step 3 of `sphere`: the Mesh built from triangles and twins (build_from_closed_triangulation)
/// on two threads, as the module builds it at this size; each iteration also builds it on one
/// thread, interleaved, for the counters one_thread_ms and one_over_two.
void sphere_mesh_build(benchmark::State& state) {
    const std::uint32_t n = count_of(state);
    const Sphere_steps& steps = sphere_steps(n);
    const auto build = [&](unsigned threads) {
        std::optional<Mesh> mesh;
        const auto start = Clock::now();
        mesh.emplace(build_from_closed_triangulation(n, steps.triangulation.triangles,
                                                     steps.triangulation.opposite, threads));
        const double seconds = seconds_since(start);
        benchmark::DoNotOptimize(mesh->face_count());
        return seconds;
    };
    double two = 0, one = 0;
    for (auto _ : state) {
        const double seconds = build(2);
        two += seconds;
        state.SetIterationTime(seconds);
        one += build(1);
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["one_thread_ms"] = 1e3 * one / iterations;
    state.counters["one_over_two"] = one / two;
}

/// Step 4 of `sphere`: on a fresh World, assigning the mesh (a copy-on-write copy of the built
/// one, made untimed), writing the points into the position layer chunk by chunk and reseeding
/// the generator, as Sphere_module::run does.
void sphere_layers(benchmark::State& state) {
    const Sphere_steps& steps = sphere_steps(count_of(state));
    for (auto _ : state) {
        std::optional<World> world(std::in_place);
        Mesh mesh = steps.mesh;
        const auto start = Clock::now();
        world->lock_mesh().assign(std::move(mesh));
        {
            auto [position] = world->lock_layer(position_layer);
            for (std::size_t c = 0; c < position.layer().chunk_count(); ++c) {
                const auto values = position.chunk(c);
                const std::size_t first = c * Chunked_array<glm::vec3>::chunk_size;
                for (std::size_t i = 0; i < values.size(); ++i)
                    values[i] = steps.points[first + i];
            }
        }
        world->lock_random()->seed(seed);
        state.SetIterationTime(seconds_since(start));
        benchmark::DoNotOptimize(world->mesh().vertex_count());
    }
}

/// The whole `sphere` module, run_module(world, Sphere_module{}, params) on a fresh World:
/// points, triangulation, mesh build and layers, plus run_module's parameter check and snapshot.
void sphere_module(benchmark::State& state) {
    const std::uint32_t n = count_of(state);
    const Dict params = sphere_params(n);
    const Sphere_module module;
    bool validated = false;
    for (auto _ : state) {
        std::optional<World> world(std::in_place);
        const auto start = Clock::now();
        const Dict report = run_module(*world, module, params);
        state.SetIterationTime(seconds_since(start));
        if (!validated) {
            require(world->mesh().vertex_count() == n &&
                        world->mesh().face_count() == 2 * std::size_t{n} - 4 &&
                        report.at("faces").as<std::int64_t>() == 2 * std::int64_t{n} - 4,
                    "sphere module: a sphere of N points has N vertices and 2N-4 faces");
            validated = true;
        }
    }
}

// ---- the baseline: CGAL's Delaunay_triangulation_on_sphere_2 + OpenMesh ----

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point_3 = Kernel::Point_3;
using Dtos_traits = CGAL::Delaunay_triangulation_on_sphere_traits_2<Kernel>;
using Dtos_vertex = CGAL::Triangulation_vertex_base_with_info_2<
    std::uint32_t, Dtos_traits, CGAL::Triangulation_on_sphere_vertex_base_2<Dtos_traits>>;
using Dtos_face = CGAL::Triangulation_on_sphere_face_base_2<Dtos_traits>;
using Dtos = CGAL::Delaunay_triangulation_on_sphere_2<
    Dtos_traits, CGAL::Triangulation_data_structure_2<Dtos_vertex, Dtos_face>>;
using Open_mesh = OpenMesh::TriMesh_ArrayKernelT<>;

// A point that carries its input index through CGAL's spatial sort.
struct Indexed_point : Point_3 {
    std::uint32_t index;
};

/// What a user would write by hand for the same mesh, from the same (float) points: the points
/// scaled onto the unit sphere in double for CGAL's stock traits, CGAL's
/// Delaunay_triangulation_on_sphere_2 with each vertex's index as its info, and an OpenMesh
/// TriMesh (reserved up front) with the float points as vertices and CGAL's faces. The insertion
/// is CGAL's range insert (random shuffle, spatial_sort_on_sphere, insertion with the last
/// vertex's face as hint) written out, because that insert keeps no info. Times points,
/// triangulation and OpenMesh build, including freeing the triangulation, excluding freeing the
/// OpenMesh mesh (as the World outlives sphere_module's timing).
void baseline_cgal_openmesh(benchmark::State& state) {
    const std::uint32_t n = count_of(state);
    const Fibonacci_params params = fibonacci_params(n);
    double points_seconds = 0.0, triangulation_seconds = 0.0, build_seconds = 0.0;
    bool validated = false;
    for (auto _ : state) {
        std::optional<Open_mesh> mesh(std::in_place);
        std::size_t skipped = 0, refused = 0;
        const auto start = Clock::now();
        Clock::time_point points_done, triangulation_done;
        {
            const std::vector<glm::vec3> points = fibonacci_points(params);
            std::vector<Indexed_point> order;
            order.reserve(n);
            for (std::uint32_t i = 0; i < n; ++i) {
                const glm::dvec3 p(points[i]);
                const double scale = 1.0 / std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
                order.push_back({Point_3(p.x * scale, p.y * scale, p.z * scale), i});
            }
            points_done = Clock::now();

            const Dtos_traits traits(Point_3(CGAL::ORIGIN), 1.0);
            CGAL::cpp98::random_shuffle(order.begin(), order.end());
            CGAL::spatial_sort_on_sphere(order.begin(), order.end(), traits, 1.0, traits.center());
            Dtos triangulation(traits);
            Dtos::Face_handle hint;
            for (const Indexed_point& p : order) {
                const auto before = triangulation.number_of_vertices();
                const Dtos::Vertex_handle v =
                    triangulation.insert(static_cast<const Point_3&>(p), hint);
                if (v == Dtos::Vertex_handle() ||
                    triangulation.number_of_vertices() != before + 1) {
                    ++skipped;
                    continue;
                }
                v->info() = p.index;
                hint = v->face();
            }
            triangulation_done = Clock::now();

            mesh->reserve(n, 3 * std::size_t{n} - 6, 2 * std::size_t{n} - 4);
            for (const glm::vec3& p : points)
                mesh->add_vertex(Open_mesh::Point(p.x, p.y, p.z));
            for (auto f = triangulation.finite_faces_begin(); f != triangulation.finite_faces_end();
                 ++f) {
                const OpenMesh::FaceHandle added =
                    mesh->add_face(OpenMesh::VertexHandle(static_cast<int>(f->vertex(0)->info())),
                                   OpenMesh::VertexHandle(static_cast<int>(f->vertex(1)->info())),
                                   OpenMesh::VertexHandle(static_cast<int>(f->vertex(2)->info())));
                if (!added.is_valid()) ++refused;
            }
        }
        const auto done = Clock::now();
        state.SetIterationTime(std::chrono::duration<double>(done - start).count());
        points_seconds += std::chrono::duration<double>(points_done - start).count();
        triangulation_seconds +=
            std::chrono::duration<double>(triangulation_done - points_done).count();
        build_seconds += std::chrono::duration<double>(done - triangulation_done).count();

        require(skipped == 0, "baseline: CGAL's stock traits dropped a point");
        require(refused == 0, "baseline: OpenMesh refused a face");
        if (!validated) {
            require(mesh->n_vertices() == n, "baseline: wrong vertex count");
            require(mesh->n_faces() == 2 * std::size_t{n} - 4,
                    "baseline: a sphere of N points has 2N-4 faces");
            require(mesh->n_edges() == 3 * std::size_t{n} - 6, "baseline: V - E + F != 2");
            validated = true;
        }
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["points_ms"] = points_seconds * 1e3 / iterations;
    state.counters["dtos2_ms"] = triangulation_seconds * 1e3 / iterations;
    state.counters["openmesh_ms"] = build_seconds * 1e3 / iterations;
}

// ---- delaunay after moving every vertex ----

// A sphere World whose every vertex moved by a random tangent offset of up to `percent` % of the
// mean edge length (uniform on that disc), then back onto the sphere; made once per (n, percent).
// Percent 0 leaves the positions as they are (the Delaunay sphere).
struct Moved_world {
    World world;
    double mean_edge = 0.0;
    std::size_t non_delaunay = 0; // edges not locally Delaunay after the move
    std::size_t folded = 0;       // faces folded by the move
};

const Moved_world& moved_world(std::uint32_t n, std::int64_t percent) {
    static std::map<std::pair<std::uint32_t, std::int64_t>, std::unique_ptr<Moved_world>> cache;
    std::unique_ptr<Moved_world>& slot = cache[{n, percent}];
    if (slot) return *slot;

    slot = std::make_unique<Moved_world>();
    Moved_world& moved = *slot;
    moved.world = make_sphere_world(fibonacci_params(n));
    const Mesh& mesh = moved.world.mesh();
    const auto* layer = moved.world.layer(position_layer);
    std::vector<glm::vec3> positions(layer->begin(), layer->end());

    double length = 0.0;
    for (const Edge e : mesh.edges())
        length += glm::distance(glm::dvec3(positions[e.origin(mesh).index()]),
                                glm::dvec3(positions[e.dest(mesh).index()]));
    moved.mean_edge = length / static_cast<double>(mesh.edge_count());

    if (percent > 0) {
        const double largest = moved.mean_edge * static_cast<double>(percent) / 100.0;
        orbis::bench::Splitmix64 random{seed};
        for (glm::vec3& position : positions) {
            const glm::dvec3 p(position);
            const glm::dvec3 axis =
                std::abs(p.x) < std::abs(p.y) ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
            const glm::dvec3 u = glm::normalize(glm::cross(p, axis));
            const glm::dvec3 v = glm::normalize(glm::cross(p, u));
            const double angle = 2.0 * std::numbers::pi * random.unit();
            const double distance = largest * std::sqrt(random.unit());
            const glm::dvec3 q = p + distance * (std::cos(angle) * u + std::sin(angle) * v);
            position = glm::vec3(q * (glm::length(p) / glm::length(q)));
        }
        {
            auto [position] = moved.world.lock_layer(position_layer);
            for (std::uint32_t i = 0; i < n; ++i)
                position[Vertex{i}] = positions[i];
        }
    }
    moved.non_delaunay = count_non_delaunay_edges(moved.world.mesh(), positions);
    moved.folded = count_folded_faces(moved.world.mesh(), positions);
    return moved;
}

/// `delaunay` (run_module with Delaunay_module) on a snapshot of a sphere World whose vertices
/// moved by up to move_pct percent of the mean edge length; the snapshot is made untimed, and
/// the flips copy the mesh chunks they touch, as in a pipeline.
void delaunay_after_move(benchmark::State& state) {
    const std::uint32_t n = count_of(state);
    const Moved_world& moved = moved_world(n, state.range(1));
    const Delaunay_module module;
    const Dict no_params;
    Dict report;
    bool validated = false;
    for (auto _ : state) {
        std::optional<World> copy(moved.world);
        const auto start = Clock::now();
        report = run_module(*copy, module, no_params);
        state.SetIterationTime(seconds_since(start));
        require(report.at("non_delaunay").as<std::int64_t>() == 0,
                "delaunay: non-Delaunay edges left");
        if (!validated) {
            const auto* layer = copy->layer(position_layer);
            const std::vector<glm::vec3> positions(layer->begin(), layer->end());
            require(count_non_delaunay_edges(copy->mesh(), positions) == 0 &&
                        count_folded_faces(copy->mesh(), positions) == 0,
                    "delaunay: the mesh is not Delaunay afterwards");
            validated = true;
        }
    }
    state.counters["flips"] = static_cast<double>(report.at("flips").as<std::int64_t>());
    state.counters["rebuilt"] = report.at("rebuilt").as<bool>() ? 1.0 : 0.0;
    state.counters["non_delaunay_before"] = static_cast<double>(moved.non_delaunay);
    state.counters["folded_before"] = static_cast<double>(moved.folded);
    state.counters["mean_edge_km"] = moved.mean_edge;
}

/// The Lawson pass of `delaunay` alone: lawson_flips over every edge of a snapshot of the moved
/// World (positions and edge list gathered untimed), without run_module, the check for what is
/// left and the rebuild; counters give flips and blocked flips.
void delaunay_flips_only(benchmark::State& state) {
    const Moved_world& moved = moved_world(count_of(state), state.range(1));
    const auto* layer = moved.world.layer(position_layer);
    const std::vector<glm::vec3> positions(layer->begin(), layer->end());
    Lawson_result result;
    for (auto _ : state) {
        std::optional<World> copy(moved.world);
        std::vector<Edge> edges;
        edges.reserve(copy->mesh().edge_count());
        for (const Edge e : copy->mesh().edges())
            edges.push_back(e);
        const auto start = Clock::now();
        {
            auto lock = copy->lock_mesh();
            result = lawson_flips(lock, positions, std::move(edges));
        }
        state.SetIterationTime(seconds_since(start));
    }
    state.counters["flips"] = static_cast<double>(result.flips);
    state.counters["blocked"] = static_cast<double>(result.blocked);
}

// ---- the default pipeline ----

/// The whole default pipeline (default_pipeline(): sphere at 1,000,000 points and the modules
/// after it) through run_pipeline on a fresh World; counters give each step's seconds (from
/// Pipeline_run_options::step_done, named "<index>_<module>_s") and the final vertex count.
void default_pipeline_run(benchmark::State& state) {
    const Pipeline pipeline = default_pipeline();
    std::vector<double> step_seconds(pipeline.steps.size(), 0.0);
    Pipeline_run_options options;
    options.step_done = [&](std::size_t step, double seconds, const Dict&) {
        step_seconds[step] += seconds;
    };
    std::size_t vertices = 0;
    for (auto _ : state) {
        std::optional<World> world(std::in_place);
        const auto start = Clock::now();
        run_pipeline(*world, pipeline, builtin_modules(), options);
        state.SetIterationTime(seconds_since(start));
        vertices = world->mesh().vertex_count();
    }
    const double iterations = static_cast<double>(state.iterations());
    for (std::size_t i = 0; i < pipeline.steps.size(); ++i)
        state.counters[std::to_string(i) + "_" + pipeline.steps[i].module + "_s"] =
            step_seconds[i] / iterations;
    state.counters["vertices"] = static_cast<double>(vertices);
}

/// What the declarations cost (issue 16): each iteration runs the default pipeline twice,
/// interleaved, on fresh Worlds: bare (each module's run() on complete parameters, as before
/// declarations existed) and declared (run_pipeline: check_pipeline, parameters bound to
/// structs, hints, provenance). The manual time is the declared run's; counters give both and
/// their ratio, so machine noise hits both alike.
void default_pipeline_declarations(benchmark::State& state) {
    Pipeline pipeline = default_pipeline();
    override_parameter(pipeline, builtin_modules(), "count", Dict_value(state.range(0)), "sphere");
    double bare = 0, declared = 0;
    for (auto _ : state) {
        {
            std::optional<World> world(std::in_place);
            const auto start = Clock::now();
            for (const auto& step : pipeline.steps) {
                const Module& m = *builtin_modules().find(step.module);
                m.run(*world, complete_parameters(m, step.params), Progress());
            }
            bare += seconds_since(start);
        }
        std::optional<World> world(std::in_place);
        const auto start = Clock::now();
        run_pipeline(*world, pipeline, builtin_modules());
        const double s = seconds_since(start);
        declared += s;
        state.SetIterationTime(s);
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["bare_s"] = bare / n;
    state.counters["declared_s"] = declared / n;
    state.counters["declared_over_bare"] = declared / bare;
}

/// check_pipeline on the default pipeline and an empty World: what refusing a pipeline in the
/// wrong order costs before anything runs (target: under 1 ms).
void check_default_pipeline(benchmark::State& state) {
    const Pipeline pipeline = default_pipeline();
    const World world;
    for (auto _ : state) {
        auto why = check_pipeline(pipeline, builtin_modules(), world);
        benchmark::DoNotOptimize(why);
    }
}

// ---- the terrain steps and the whole pipeline, against CGAL's bare triangulation ----

/// The yardstick of issue 19: CGAL's Delaunay_triangulation_on_sphere_2
/// (Projection_on_sphere_traits_3, as the anchor benchmark) inserting the points of a pipeline's
/// sphere step, bare: no mesh, no layers.
class Cgal_sphere_yardstick {
public:
    /// The points of `pipeline`'s first step (a sphere step with its parameters complete).
    explicit Cgal_sphere_yardstick(const Pipeline& pipeline) {
        const Dict& sphere = pipeline.steps[0].params;
        const std::vector<glm::vec3> points = fibonacci_points(
            {.count = static_cast<std::uint32_t>(sphere.at("count").as<std::int64_t>()),
             .radius = static_cast<float>(sphere.at("radius").as<double>()),
             .perturbation = static_cast<float>(sphere.at("perturbation").as<double>()),
             .seed = static_cast<std::uint64_t>(sphere.at("seed").as<std::int64_t>())});
        points_.reserve(points.size());
        for (const glm::vec3& p : points)
            points_.emplace_back(p.x, p.y, p.z);
    }

    /// Seconds to triangulate the points once; throws unless the result has N vertices and
    /// 2N-4 faces.
    double run() const {
        using Projection_triangulation =
            CGAL::Delaunay_triangulation_on_sphere_2<CGAL::Projection_on_sphere_traits_3<Kernel>>;
        std::optional<Projection_triangulation> triangulation(std::in_place);
        const auto start = Clock::now();
        triangulation->insert(points_.begin(), points_.end());
        const double seconds = seconds_since(start);
        require(triangulation->number_of_vertices() == points_.size() &&
                    triangulation->number_of_faces() == 2 * points_.size() - 4,
                "CGAL DToS2: a sphere of N points has N vertices and 2N-4 faces");
        return seconds;
    }

private:
    std::vector<Point_3> points_;
};

/// The default pipeline with the sphere at n points, keeping only `steps`
/// when that is not empty.
Pipeline default_pipeline_at(std::uint32_t n, const std::vector<std::string>& steps = {}) {
    Pipeline pipeline = default_pipeline();
    if (!steps.empty()) pipeline = select_steps(pipeline, steps);
    override_parameter(pipeline, builtin_modules(), "count", Dict_value(std::int64_t{n}), "sphere");
    return pipeline;
}

/// Runs `pipeline` on a fresh World with `threads` threads, adding each step's seconds to
/// `step_seconds` (one per step) unless it is null; returns the seconds and the World.
std::pair<double, std::unique_ptr<World>> timed_run(const Pipeline& pipeline, unsigned threads,
                                                    std::vector<double>* step_seconds) {
    const Parallel_settings saved = parallel_settings();
    set_parallel_settings({.threads = threads, .min_items = saved.min_items});
    Pipeline_run_options options;
    if (step_seconds)
        options.step_done = [step_seconds](std::size_t step, double seconds, const Dict&) {
            (*step_seconds)[step] += seconds;
        };
    auto world = std::make_unique<World>();
    const auto start = Clock::now();
    run_pipeline(*world, pipeline, builtin_modules(), options);
    const double seconds = seconds_since(start);
    set_parallel_settings(saved);
    return {seconds, std::move(world)};
}

/// Counters "<index>_<module>_s": each step's mean seconds over the iterations.
void count_step_seconds(benchmark::State& state, const Pipeline& pipeline,
                        const std::vector<double>& step_seconds) {
    const double iterations = static_cast<double>(state.iterations());
    for (std::size_t i = 0; i < pipeline.steps.size(); ++i)
        state.counters[std::to_string(i) + "_" + pipeline.steps[i].module + "_s"] =
            step_seconds[i] / iterations;
}

/// Each iteration, interleaved so that machine noise hits all three alike: the terrain steps
/// (`sphere,plates,elevation,refine,plate_boundaries` of the default pipeline at n points)
/// through run_pipeline on a fresh World with two threads, then with one, then the CGAL
/// yardstick on the same points. Manual time is the two-thread run; counters give each figure,
/// the ratios, and the two-thread run's seconds per module. The two worlds must be equal (the
/// split never changes a result).
void terrain_threads_against_cgal(benchmark::State& state) {
    const Pipeline pipeline = default_pipeline_at(
        count_of(state), {"sphere", "plates", "elevation", "refine", "plate_boundaries"});
    const Cgal_sphere_yardstick cgal_run(pipeline);
    std::vector<double> step_seconds(pipeline.steps.size(), 0.0);
    double two = 0, one = 0, cgal = 0;
    for (auto _ : state) {
        auto [two_seconds, two_world] = timed_run(pipeline, 2, &step_seconds);
        two += two_seconds;
        state.SetIterationTime(two_seconds);
        {
            auto [one_seconds, one_world] = timed_run(pipeline, 1, nullptr);
            one += one_seconds;
            require(*one_world == *two_world, "terrain: one and two threads gave other worlds");
        }
        two_world.reset();
        cgal += cgal_run.run();
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["two_threads_s"] = two / iterations;
    state.counters["one_thread_s"] = one / iterations;
    state.counters["cgal_dtos2_s"] = cgal / iterations;
    state.counters["one_over_two"] = one / two;
    state.counters["two_over_cgal"] = two / cgal;
    count_step_seconds(state, pipeline, step_seconds);
}

/// The whole default pipeline (terrain, water and climate) at n points on two threads, then the
/// CGAL yardstick on the same points, interleaved. Manual time is the pipeline's; counters give
/// both, their ratio (issue 19's target: under 2) and the pipeline's seconds per module.
void pipeline_against_cgal(benchmark::State& state) {
    const Pipeline pipeline = default_pipeline_at(count_of(state));
    const Cgal_sphere_yardstick cgal_run(pipeline);
    std::vector<double> step_seconds(pipeline.steps.size(), 0.0);
    double orbis = 0, cgal = 0;
    for (auto _ : state) {
        {
            const double seconds = timed_run(pipeline, 2, &step_seconds).first;
            orbis += seconds;
            state.SetIterationTime(seconds);
        }
        cgal += cgal_run.run();
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["pipeline_s"] = orbis / iterations;
    state.counters["cgal_dtos2_s"] = cgal / iterations;
    state.counters["pipeline_over_cgal"] = orbis / cgal;
    count_step_seconds(state, pipeline, step_seconds);
}

void sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n"});
    for (std::int64_t n : {100'000, 1'000'000})
        b->Args({n});
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

void moves(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "move_pct"});
    for (std::int64_t n : {100'000, 1'000'000}) {
        for (std::int64_t percent : {0, 1, 10})
            b->Args({n, percent});
    }
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

void against_cgal_sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n"});
    b->Arg(1'000'000);
    // Worlds and a CGAL triangulation of 10M points take minutes per repetition and a few GB;
    // ORBIS_BENCH_10M=1 adds them.
    if (std::getenv("ORBIS_BENCH_10M")) b->Arg(10'000'000);
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
    b->ReportAggregatesOnly(true);
}

} // namespace

BENCHMARK(sphere_points)->Apply(sizes);
BENCHMARK(sphere_triangulation)->Apply(sizes);
BENCHMARK(sphere_mesh_build)->Apply(sizes);
BENCHMARK(sphere_layers)->Apply(sizes);
BENCHMARK(sphere_module)->Apply(sizes);
BENCHMARK(baseline_cgal_openmesh)->Apply(sizes);
BENCHMARK(delaunay_after_move)->Apply(moves);
BENCHMARK(delaunay_flips_only)->Apply(moves);
BENCHMARK(default_pipeline_declarations)
    ->ArgNames({"n"})
    ->Arg(1'000'000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(check_default_pipeline)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(terrain_threads_against_cgal)->Apply(against_cgal_sizes);
BENCHMARK(pipeline_against_cgal)->Apply(against_cgal_sizes);
BENCHMARK(default_pipeline_run)
    ->Name("default_pipeline")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

ORBIS_BENCHMARK_MAIN()
