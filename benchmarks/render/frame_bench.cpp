// SPDX-License-Identifier: MIT
// The viewport's frame time per display mode, as a ratio to a bare draw of the same vertex
// buffers with a trivial shader (the limit of the machine's OpenGL), plus building the scene
// from a World, uploading it, and updating after one flip. Needs a display (xvfb-run works:
// Mesa's llvmpipe is what the figures in benchmarks/README.md were measured with).
#include <orbis/gen/noise.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/render/camera.hpp>
#include <orbis/render/delta_recorder.hpp>
#include <orbis/render/gl/gl_renderer.hpp>
#include <orbis/render/scene.hpp>

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QSurfaceFormat>

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
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

/// Frame time of one display mode; counter `ratio` is its time over the bare draw's (the same
/// buffers and primitives, trivial shader), both measured alternately in the same iterations.
void frame(benchmark::State& state) {
    Gl& g = gl();
    const World& world = world_of(state.range(0));
    const int m = int(state.range(1));
    state.SetLabel(mode_name(m));
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
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
    state.counters["bare_ms"] = 1e3 * bare_seconds / double(state.iterations());
    renderer.release();
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
/// 0 rebuilds from scratch, 1 updates in place from the recorded delta.
void update_after_flip(benchmark::State& state) {
    gl();
    World world = world_of(state.range(0));
    const bool in_place = state.range(1) != 0;
    state.SetLabel(in_place ? "in place" : "rebuild");
    render::Scene_builder builder;
    render::gl::Gl_renderer renderer;
    renderer.initialize();
    renderer.upload(builder.build(world, mode(0)));
    std::vector<Edge> edges;
    for (const Edge e : world.mesh().edges())
        if (edges.size() < 4096 && !world.mesh().check_flip(e)) edges.push_back(e);
    std::size_t i = 0;
    std::size_t bytes = 0;
    for (auto _ : state) {
        state.PauseTiming();
        render::World_delta delta;
        {
            render::Delta_recorder recorder(world);
            // Earlier flips may have made an edge unflippable; try the next one then.
            while (world.lock_mesh().try_flip(edges[i++ % edges.size()])) {
            }
            delta = recorder.delta();
        }
        state.ResumeTiming();
        const render::gl::Upload_stats stats =
            renderer.upload(builder.build(world, mode(0), in_place ? &delta : nullptr));
        gl().finish();
        bytes += stats.bytes;
    }
    state.counters["bytes"] = double(bytes) / double(state.iterations());
    renderer.release();
}
BENCHMARK(update_after_flip)
    ->ArgsProduct({{100'000, 1'000'000}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
