// SPDX-License-Identifier: MIT
// Shared-vertex triangles keep their indices on the GPU only: the renderer reads them from the
// mesh, whole (into the mapped buffer when large) or for an edit's patch, and the pictures are
// those of triangles that hold their indices and of a whole upload. Runs in the GL test
// executable (see water_gl_test.cpp for its main).
#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_module.hpp"
#include "orbis/render/camera.hpp"
#include "orbis/render/gl/gl_renderer.hpp"
#include "orbis/render/scene.hpp"

#include "offscreen_gl.hpp"

#include <QImage>

#include <gtest/gtest.h>

#include <random>
#include <tuple>
#include <vector>

namespace orbis::render {
namespace {

constexpr auto height_layer = Layer_info<float, Layer_type::vertex>("height");

// A Fibonacci sphere (faces numbered along its spiral, which the view lays out along the curve
// once large) or, `along_curve`, the sphere module's (faces numbered along the curve, which the
// view draws in slot order).
World planet(std::uint32_t count, bool along_curve = false) {
    World w;
    if (along_curve) {
        Dict params;
        params.set("count", std::int64_t{count});
        params.set("seed", std::int64_t{5});
        gen::run_module(w, gen::Sphere_module{}, params);
    } else {
        w = gen::make_sphere_world(
            {.count = count, .radius = 6371.f, .perturbation = 0.5f, .seed = 5});
    }
    auto [h, p] = w.lock_layer(height_layer, position_layer);
    for (const Vertex v : w.mesh().vertices())
        h[v] = p[v].z + 0.5f * p[v].x;
    return w;
}

class Patched_triangles_gl : public ::testing::Test {
protected:
    void SetUp() override {
        if (!gl_.fbo) GTEST_SKIP() << "no OpenGL 3.3 core context (run under xvfb-run)";
    }
    // The picture `renderer` draws of what it holds, the camera framing `radius`.
    QImage draw(gl::Gl_renderer& renderer, double radius) {
        Camera camera;
        camera.set_viewport(width, height);
        camera.set_radius(radius);
        camera.reset();
        renderer.draw(camera, true, {0.1f, 0.1f, 0.12f, 1.0f});
        gl_.context.functions()->glFinish();
        return gl_.fbo->toImage().convertToFormat(QImage::Format_RGB32);
    }
    // The picture of `scene` from a renderer of its own, uploaded whole.
    QImage plain(const Scene& scene) {
        gl::Gl_renderer renderer;
        renderer.initialize();
        renderer.upload(scene);
        QImage image = draw(renderer, scene.radius);
        renderer.release();
        return image;
    }
    static int differing(const QImage& a, const QImage& b) {
        int n = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x)
                n += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
        return n;
    }
    static int planet_pixels(const QImage& a) {
        int n = 0;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x)
                n += a.pixel(x, y) != a.pixel(0, 0) ? 1 : 0;
        return n;
    }

    Offscreen_gl gl_;
};

class Patched_triangles_order_gl : public Patched_triangles_gl,
                                   public ::testing::WithParamInterface<bool> {};

// Large enough that the indices (over 16 MB) are written into the mapped buffer; in the curve's
// order through the maps, and in slot order.
TEST_P(Patched_triangles_order_gl, IndicesReadFromTheMeshDrawWhatHeldIndicesDraw) {
    const bool along_curve = GetParam();
    const World w = planet(720'000, along_curve);
    View_options options;
    options.shading = Shading::smooth;
    Scene_builder builder;
    const Scene scene = builder.build(w, options);
    ASSERT_NE(scene.triangles.geometry, nullptr);
    ASSERT_FALSE(scene.triangles.geometry->with_indices);
    ASSERT_EQ(scene.triangles.geometry->in_slot_order, along_curve);
    ASSERT_GT(3 * scene.triangles.geometry->triangle_count() * sizeof(std::uint32_t),
              std::size_t{1} << 24);
    // The same triangles, holding their indices, drawn as a scene of their own.
    const Triangle_buffers held = triangles(w.mesh(), vertex_positions(w), Shading::smooth);
    ASSERT_TRUE(held.with_indices);
    Scene reference;
    reference.triangles.geometry = &held;
    reference.triangles.geometry_stamp = 1;
    reference.radius = scene.radius;
    const QImage expected = plain(reference);
    ASSERT_GT(planet_pixels(expected), width * height / 10);
    const QImage read = plain(scene);
    read.save(
        screenshot_path(QString("patched_triangles_read_from_mesh_%1").arg(int(along_curve))));
    EXPECT_EQ(differing(read, expected), 0);
    // Without the mesh the renderer cannot know what they draw, and draws none of them.
    Scene orphan = scene;
    orphan.mesh = nullptr;
    EXPECT_EQ(planet_pixels(plain(orphan)), 0);
}

INSTANTIATE_TEST_SUITE_P(FibonacciAndCurve, Patched_triangles_order_gl,
                         ::testing::Values(false, true));

// Shading, the sphere's points and whether they are numbered along the curve: shared-vertex
// triangles of the sphere module's points are drawn in slot order, those of 50,000 Fibonacci
// points along the curve.
class Patched_triangles_shading_gl
    : public Patched_triangles_gl,
      public ::testing::WithParamInterface<std::tuple<Shading, std::uint32_t, bool>> {};

TEST_P(Patched_triangles_shading_gl, EditsPatchedInPlaceDrawWhatAWholeUploadDraws) {
    const auto [shading, points, along_curve] = GetParam();
    World w = planet(points, along_curve);
    View_options options;
    options.layer = "height";
    options.shading = shading;
    // One builder and one renderer, as in the viewport: each edit's build is patched in.
    Scene_builder builder;
    gl::Gl_renderer renderer;
    renderer.initialize();
    const Scene first = builder.build(w, options);
    // Flat shading of a vertex layer draws shared vertices too, lit per face while drawing.
    ASSERT_EQ(first.triangles.geometry->in_slot_order,
              first.triangles.geometry->shading == Shading::smooth && along_curve);
    const std::size_t whole_bytes = renderer.upload(first).bytes;
    const QImage before = draw(renderer, first.radius);
    ASSERT_GT(planet_pixels(before), width * height / 10);
    std::mt19937_64 rng(12);
    QImage after;
    for (int round = 0; round < 6; ++round) {
        Delta_recorder recorder(w);
        std::vector<Edge> edges;
        for (const Edge e : w.mesh().edges())
            edges.push_back(e);
        // Flips, splits and collapses anywhere, and vertices lifted high enough to see.
        for (int i = 0; i < 12; ++i) {
            const Edge e = edges[rng() % edges.size()];
            if (!w.mesh().contains(e)) continue;
            switch (i % 4) {
            case 0:
                (void)w.lock_mesh().try_flip(e);
                break;
            case 1:
                (void)w.lock_mesh().try_split(e, 0.4f);
                break;
            case 2:
                (void)w.lock_mesh().try_collapse(e, 0.5f);
                break;
            default: {
                const Vertex v = e.origin(w.mesh());
                auto [p] = w.lock_layer(position_layer);
                p[v] *= 1.04f;
                recorder.touch(v);
                break;
            }
            }
        }
        const World_delta delta = recorder.delta();
        const Scene scene = builder.build(w, options, &delta);
        const gl::Upload_stats stats = renderer.upload(scene);
        EXPECT_LT(stats.bytes, whole_bytes / 2) << "round " << round << ": patched, not whole";
        after = draw(renderer, scene.radius);
        Scene_builder fresh;
        EXPECT_EQ(differing(after, plain(fresh.build(w, options))), 0) << "round " << round;
    }
    after.save(screenshot_path(QString("patched_triangles_after_edits_%1_%2_%3")
                                   .arg(static_cast<int>(shading))
                                   .arg(points)
                                   .arg(int(along_curve))));
    EXPECT_GT(differing(after, before), 100); // the edits show
    renderer.release();
}

INSTANTIATE_TEST_SUITE_P(Shadings, Patched_triangles_shading_gl,
                         ::testing::Values(std::tuple{Shading::flat, 20'000u, true},
                                           std::tuple{Shading::smooth, 20'000u, true},
                                           std::tuple{Shading::flat, 50'000u, false},
                                           std::tuple{Shading::smooth, 50'000u, false}));

} // namespace
} // namespace orbis::render
