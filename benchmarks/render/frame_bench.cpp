// SPDX-License-Identifier: MIT
// The viewport's frame time per display mode, as a ratio to a bare draw of the same vertex
// buffers with a trivial shader (the limit of the machine's OpenGL), plus building the scene
// from a World, uploading it, and updating after one flip. Needs a display (xvfb-run works:
// Mesa's llvmpipe is what the figures in benchmarks/README.md were measured with).
#include <orbis/core/delta_recorder.hpp>
#include <orbis/edit/brush.hpp>
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/noise.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/render/camera.hpp>
#include <orbis/render/edit_preview.hpp>
#include <orbis/render/gl/gl_renderer.hpp>
#include <orbis/render/picking.hpp>
#include <orbis/render/scene.hpp>

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QSurfaceFormat>

#include <orbis/core/huge_page_malloc.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>

namespace {

using namespace orbis;
using Clock = std::chrono::steady_clock;

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");

// One GL 3.3 core context with an offscreen framebuffer of a typical viewport's size.
struct Gl {
    QOffscreenSurface surface;
    QOpenGLContext context;
    std::unique_ptr<QOpenGLFramebufferObject> fbo;
    Gl() {
        QSurfaceFormat format;
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        format.setDepthBufferSize(24);
        surface.setFormat(format);
        surface.create();
        context.setFormat(format);
        if (!context.create() || !context.makeCurrent(&surface))
            throw std::runtime_error("no OpenGL 3.3 core context (run under xvfb-run)");
        fbo = std::make_unique<QOpenGLFramebufferObject>(
            1280, 800, QOpenGLFramebufferObject::CombinedDepthStencil);
        fbo->bind();
        context.functions()->glViewport(0, 0, 1280, 800);
    }
    void finish() { context.functions()->glFinish(); }
};

// Never destroyed: the context must not outlive the QGuiApplication, which main() owns.
Gl& gl() {
    static Gl* g = new Gl;
    return *g;
}

const World& world_of(std::int64_t n) {
    static std::int64_t made = 0;
    static World world;
    if (made != n) {
        world = gen::make_sphere_world(
            {.count = std::uint32_t(n), .radius = 6371.f, .perturbation = 0.5f, .seed = 1});
        const gen::Fractal_noise noise({.seed = 3, .octaves = 5, .frequency = 2.0});
        auto [h, p] = world.lock_layer(height, position_layer);
        for (const Vertex v : world.mesh().vertices())
            h[v] = float(noise(glm::dvec3(p[v]) / 6371.0));
        made = n;
    }
    return world;
}

render::Camera camera_for(double radius) {
    render::Camera c;
    c.set_viewport(1280, 800);
    c.set_radius(radius);
    c.reset();
    return c;
}

// The display modes measured (each with the layer "height" colouring what it can).
render::View_options mode(int m) {
    render::View_options o;
    o.layer = "height";
    switch (m) {
    case 0: // flat triangles, interpolated layer colours
        break;
    case 1:
        o.shading = render::Shading::smooth;
        break;
    case 2:
        o.layer.clear();
        break;
    case 3:
        o.triangles = false;
        o.voronoi_cells = true;
        break;
    case 4:
        o.wireframe = true;
        break;
    case 5:
        o.voronoi_outlines = true;
        break;
    case 6:
        o.dual_edges = true;
        break;
    case 7:
        o.points = true;
        break;
    }
    return o;
}

const char* mode_name(int m) {
    static const char* names[] = {"triangles_flat_layer", "triangles_smooth_layer",
                                  "triangles_plain",      "voronoi_cells_layer",
                                  "triangles+wireframe",  "triangles+voronoi_outlines",
                                  "triangles+dual_edges", "triangles+points"};
    return names[m];
}

// A world of the default pipeline (plates, elevation, refinement) with `n` sphere points. Each
// size is generated once and kept: the benchmarks below alternate sizes, and 10M takes a minute.
const World& pipeline_world(std::int64_t n) {
    static std::map<std::int64_t, World> worlds;
    auto it = worlds.find(n);
    if (it == worlds.end()) {
        gen::Pipeline p = gen::default_pipeline();
        gen::override_parameter(p, gen::builtin_modules(), "count", Dict_value(n), "sphere");
        World world;
        gen::run_pipeline(world, p, gen::builtin_modules());
        it = worlds.emplace(n, std::move(world)).first;
    }
    return it->second;
}

/// Frame time of display mode `m` of `world`; counter `ratio` is its time over the bare draw's
/// (the same buffers and primitives, trivial shader), both measured alternately in the same
/// iterations.
void draw_frames(benchmark::State& state, const World& world, int m) {
    Gl& g = gl();
    state.SetLabel(mode_name(m));
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    // ORBIS_NO_CULL=1 sends every triangle, to compare with the frames that skip the unseen.
    if (std::getenv("ORBIS_NO_CULL")) renderer.set_culling(false);
    const render::View_options o = mode(m);
    const render::Scene scene = builder.build(world, o);
    renderer.upload(scene);
    const render::Camera camera = camera_for(scene.radius);
    const glm::vec4 background(0.07f, 0.08f, 0.1f, 1.f);
    double mode_seconds = 0, bare_seconds = 0;
    for (auto _ : state) {
        auto t0 = Clock::now();
        renderer.draw_bare(camera, background);
        g.finish();
        auto t1 = Clock::now();
        renderer.draw(camera, o.lighting, background);
        g.finish();
        auto t2 = Clock::now();
        const double b = std::chrono::duration<double>(t1 - t0).count();
        const double f = std::chrono::duration<double>(t2 - t1).count();
        bare_seconds += b;
        mode_seconds += f;
        state.SetIterationTime(f);
    }
    state.counters["ratio"] = mode_seconds / bare_seconds;
    // The share of the surface's triangles the frames sent (the rest face away or lie outside);
    // in slot order, free face slots count as triangles (they are sent, as points).
    if (scene.triangles.geometry->triangle_count() != 0)
        state.counters["drawn"] =
            double(renderer.drawn_triangles()) / double(scene.triangles.geometry->triangle_count());
    state.counters["bare_ms"] = 1e3 * bare_seconds / double(state.iterations());
    renderer.release();
}

/// Frame time of one display mode on the Fibonacci sphere (see draw_frames).
void frame(benchmark::State& state) {
    draw_frames(state, world_of(state.range(0)), int(state.range(1)));
}
BENCHMARK(frame)
    ->ArgsProduct({{100'000, 1'000'000}, {0, 1, 2, 3, 4, 5, 6, 7}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);

/// Building the default view's scene (flat triangles with a vertex layer) from scratch.
void scene_build(benchmark::State& state) {
    const World& world = world_of(state.range(0));
    for (auto _ : state) {
        render::Scene_builder builder;
        benchmark::DoNotOptimize(builder.build(world, mode(0)));
    }
}
BENCHMARK(scene_build)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

/// Frames and builds of the default pipeline's world, the kind the editor opens: numbered along
/// the curve, so that its shared-vertex triangles are drawn in slot order (the Fibonacci
/// sphere's are laid out along the curve).
void frame_terrain(benchmark::State& state) {
    draw_frames(state, pipeline_world(state.range(0)), int(state.range(1)));
}
BENCHMARK(frame_terrain)
    ->ArgsProduct({{1'000'000}, {0, 1, 2}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);

/// scene_build on the default pipeline's world (see frame_terrain).
void scene_build_terrain(benchmark::State& state) {
    const World& world = pipeline_world(state.range(0));
    for (auto _ : state) {
        render::Scene_builder builder;
        benchmark::DoNotOptimize(builder.build(world, mode(0)));
    }
}
BENCHMARK(scene_build_terrain)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

/// Uploading the default view's scene to the GPU, every buffer.
void upload_all(benchmark::State& state) {
    gl();
    const World& world = world_of(state.range(0));
    render::Scene_builder builder;
    const render::Scene scene = builder.build(world, mode(0));
    for (auto _ : state) {
        render::gl::Gl_renderer renderer;
        renderer.initialize();
        renderer.upload(scene);
        gl().finish();
        state.PauseTiming();
        renderer.release();
        state.ResumeTiming();
    }
}
BENCHMARK(upload_all)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

/// After one flip: update what changed and upload it (what the editor does per edit). Arg 1:
/// 0 rebuilds from scratch, 1 updates in place from the recorded delta, 2 as 1 with the
/// wireframe and the dual edges shown.
void update_after_flip(benchmark::State& state) {
    gl();
    World world = world_of(state.range(0));
    const bool in_place = state.range(1) != 0;
    // Arg 1 = 2: the wireframe and the dual edges are shown too, and patched with them.
    render::View_options options = mode(0);
    options.wireframe = options.dual_edges = state.range(1) == 2;
    state.SetLabel(!in_place           ? "rebuild"
                   : options.wireframe ? "in place, + wireframe, dual edges"
                                       : "in place");
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    renderer.upload(builder.build(world, options));
    std::vector<Edge> edges;
    for (const Edge e : world.mesh().edges())
        if (edges.size() < 4096 && !world.mesh().check_flip(e)) edges.push_back(e);
    std::size_t i = 0;
    std::size_t bytes = 0;
    for (auto _ : state) {
        state.PauseTiming();
        World_delta delta;
        {
            Delta_recorder recorder(world);
            // Earlier flips may have made an edge unflippable; try the next one then.
            while (world.lock_mesh().try_flip(edges[i++ % edges.size()])) {
            }
            delta = recorder.delta();
        }
        state.ResumeTiming();
        const render::gl::Upload_stats stats =
            renderer.upload(builder.build(world, options, in_place ? &delta : nullptr));
        gl().finish();
        bytes += stats.bytes;
    }
    state.counters["bytes"] = double(bytes) / double(state.iterations());
    renderer.release();
}
BENCHMARK(update_after_flip)
    ->ArgsProduct({{100'000, 1'000'000}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

// Edges of `world` near random directions, for edits spread over the planet.
std::vector<render::Pick> random_picks(const World& world, std::size_t count) {
    const render::Picker picker(world);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> normal;
    std::vector<render::Pick> picks;
    while (picks.size() < count) {
        const glm::dvec3 d = glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
        const glm::dvec3 eye = d * (3.0 * picker.max_radius());
        if (auto p = picker.pick(world, {eye, -d})) picks.push_back(*p);
    }
    return picks;
}

/// One edit through the editor's command path on the default pipeline's world: snapshot,
/// the operation with its layer updates, the recorded delta, the step's memory, the scene
/// update and the GPU patch. Arg 1: 0 flip, 1 split, 2 collapse. Counter `step_bytes`: the
/// memory the step holds; `edit_ms`, `update_ms`, `upload_ms`: the edit (snapshot to step
/// memory), Scene_builder::build and the upload with glFinish, per step.
void edit_step(benchmark::State& state) {
    gl();
    World document = pipeline_world(state.range(0));
    const int op = int(state.range(1));
    state.SetLabel(op == 0 ? "flip" : op == 1 ? "split" : "collapse");
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    render::View_options options;
    options.layer = "elevation";
    renderer.upload(builder.build(document, options));
    const auto picks = random_picks(document, 2048);
    std::size_t i = 0, bytes = 0, steps = 0;
    double edit = 0.0, build = 0.0, upload = 0.0; // seconds in each phase
    std::vector<World> history; // the steps' snapshots, as the undo stack keeps them
    for (auto _ : state) {
        const render::Pick& pick = picks[i++ % picks.size()];
        const Edge e = pick.edge.base();
        const auto t0 = Clock::now();
        World next = document;
        World_delta delta;
        bool done = false;
        {
            Delta_recorder recorder(next);
            {
                Mesh_lock mesh = next.lock_mesh();
                done = op == 0   ? !mesh.try_flip(e)
                       : op == 1 ? !mesh.try_split(e, 0.5f)
                                 : !mesh.try_collapse(e, 0.5f);
            }
            delta = recorder.delta();
        }
        if (!done) continue;
        bytes += next.memory().private_bytes;
        ++steps;
        history.push_back(document);
        document = std::move(next);
        const auto t1 = Clock::now();
        const render::Scene scene = builder.build(document, options, &delta);
        const auto t2 = Clock::now();
        renderer.upload(scene);
        gl().finish();
        const auto t3 = Clock::now();
        edit += std::chrono::duration<double>(t1 - t0).count();
        build += std::chrono::duration<double>(t2 - t1).count();
        upload += std::chrono::duration<double>(t3 - t2).count();
    }
    const double n = double(std::max<std::size_t>(steps, 1));
    state.counters["step_bytes"] = steps ? double(bytes) / double(steps) : 0.0;
    state.counters["refused"] = double(state.iterations() - steps);
    state.counters["edit_ms"] = 1e3 * edit / n;
    state.counters["update_ms"] = 1e3 * build / n;
    state.counters["upload_ms"] = 1e3 * upload / n;
    renderer.release();
}
// A fixed count: every step's snapshot is kept, as the undo stack keeps them.
BENCHMARK(edit_step)
    ->ArgsProduct({{100'000, 1'000'000, 10'000'000}, {0, 1, 2}})
    ->Iterations(1000)
    ->Unit(benchmark::kMillisecond);

/// Undo and redo of one split: swapping the snapshot in and patching the view (what
/// World_command does), alternating.
void undo_redo(benchmark::State& state) {
    gl();
    const World& before = pipeline_world(state.range(0));
    World after = before;
    World_delta forth;
    {
        Delta_recorder recorder(after);
        after.lock_mesh().split(random_picks(before, 1).front().edge.base(), 0.5f);
        forth = recorder.delta();
    }
    const World_delta back = delta_from(after, forth);
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    render::View_options options;
    options.layer = "elevation";
    World document = before;
    renderer.upload(builder.build(document, options));
    bool undone = true;
    for (auto _ : state) {
        document = undone ? after : before;
        renderer.upload(builder.build(document, options, undone ? &forth : &back));
        gl().finish();
        undone = !undone;
    }
    renderer.release();
}
BENCHMARK(undo_redo)->Arg(100'000)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

/// The preview of each tool for the element under the cursor (what hovering computes). Arg 1:
/// 1 flip, 2 split, 3 collapse.
void preview(benchmark::State& state) {
    const World& world = pipeline_world(state.range(0));
    const auto picks = random_picks(world, 4096);
    const int tool = int(state.range(1));
    state.SetLabel(tool == 1 ? "Flip" : tool == 2 ? "Split" : "Collapse");
    std::size_t i = 0;
    for (auto _ : state) {
        const render::Pick& pick = picks[i++ % picks.size()];
        benchmark::DoNotOptimize(tool == 1   ? render::preview_flip(world, pick)
                                 : tool == 2 ? render::preview_split(world, pick)
                                             : render::preview_collapse(world, pick, false));
    }
}
BENCHMARK(preview)->ArgsProduct({{100'000, 1'000'000}, {1, 2, 3}})->Unit(benchmark::kMicrosecond);

/// One brush dab through the editor's path on the default pipeline's world: the dab on
/// elevation (edit::apply_dab, raise), its delta, the scene update and the GPU patch of the
/// vertices it changed. Arg 1: the radius in km. Counter `vertices`: vertices per dab.
void dab_step(benchmark::State& state) {
    gl();
    World document = pipeline_world(state.range(0));
    edit::Brush brush;
    brush.layer = "elevation";
    brush.radius_km = double(state.range(1));
    brush.strength = 1.0; // small, so that thousands of dabs stay in the layer's range
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    render::View_options options;
    options.layer = "elevation";
    options.colours.range = std::pair{-8000.0, 8000.0}; // a fixed range, as a user would set
    renderer.upload(builder.build(document, options));
    const auto picks = random_picks(document, 256);
    // The first update after a full build indexes the buffers (O(n), once per rebuild, as in the
    // editor's first edit): done before the timing, which measures the edits after it.
    {
        World next = document;
        const edit::Dab_result r =
            edit::apply_dab(next, brush, picks.back().point, picks.back().vertex);
        World_delta delta = delta_from(document);
        delta.vertices = r.vertices;
        document = std::move(next);
        renderer.upload(builder.build(document, options, &delta));
    }
    std::size_t i = 0, vertices = 0;
    double dab = 0.0, build = 0.0, upload = 0.0; // seconds in each phase
    for (auto _ : state) {
        const render::Pick& pick = picks[i++ % picks.size()];
        const auto t0 = Clock::now();
        World next = document;
        const edit::Dab_result r = edit::apply_dab(next, brush, pick.point, pick.vertex);
        World_delta delta = delta_from(document);
        delta.vertices = r.vertices;
        vertices += r.vertices.size();
        document = std::move(next);
        const auto t1 = Clock::now();
        const render::Scene scene = builder.build(document, options, &delta);
        const auto t2 = Clock::now();
        renderer.upload(scene);
        gl().finish();
        const auto t3 = Clock::now();
        dab += std::chrono::duration<double>(t1 - t0).count();
        build += std::chrono::duration<double>(t2 - t1).count();
        upload += std::chrono::duration<double>(t3 - t2).count();
    }
    const double n = double(std::max<std::int64_t>(state.iterations(), 1));
    state.counters["vertices"] = double(vertices) / n;
    state.counters["dab_ms"] = 1e3 * dab / n;
    state.counters["update_ms"] = 1e3 * build / n;
    state.counters["upload_ms"] = 1e3 * upload / n;
    renderer.release();
}
BENCHMARK(dab_step)
    ->ArgsProduct({{1'000'000, 10'000'000}, {50, 200, 1000}})
    ->Unit(benchmark::kMillisecond);

/// Undo and redo of a 30-dab stroke of 200 km (dabs a quarter radius apart, one merged delta):
/// swapping the snapshot in and patching the view, alternating. Counter `stroke_bytes`: the
/// memory the step holds (World::bytes_not_shared_with).
void stroke_undo_redo(benchmark::State& state) {
    gl();
    const World& before = pipeline_world(state.range(0));
    edit::Brush brush;
    brush.layer = "elevation";
    brush.radius_km = 200.0;
    World after = before;
    World_delta forth = delta_from(before);
    const render::Pick start = random_picks(before, 1).front();
    glm::dvec3 at = start.point;
    const glm::dvec3 step = glm::normalize(glm::cross(at, glm::dvec3(0, 1, 0))) * 50.0;
    for (int d = 0; d < 30; ++d) {
        const edit::Dab_result r = edit::apply_dab(after, brush, at, start.vertex);
        forth.vertices.insert(forth.vertices.end(), r.vertices.begin(), r.vertices.end());
        at = glm::normalize(at + step) * glm::length(at);
    }
    const World_delta back = delta_from(after, forth);
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    render::View_options options;
    options.layer = "elevation";
    options.colours.range = std::pair{-8000.0, 8000.0};
    World document = before;
    renderer.upload(builder.build(document, options));
    // The first update indexes the buffers (O(n), once): before the timing, as in dab_step.
    renderer.upload(builder.build(after, options, &forth));
    renderer.upload(builder.build(before, options, &back));
    bool undone = true;
    for (auto _ : state) {
        document = undone ? after : before;
        renderer.upload(builder.build(document, options, undone ? &forth : &back));
        gl().finish();
        undone = !undone;
    }
    state.counters["stroke_bytes"] = double(after.bytes_not_shared_with(before));
    renderer.release();
}
BENCHMARK(stroke_undo_redo)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    orbis::use_huge_page_malloc(argv); // as the editor does (benchmark_main.hpp)
    QGuiApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
