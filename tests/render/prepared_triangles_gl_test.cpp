// SPDX-License-Identifier: MIT
// Storage prepared for a whole build before it arrives changes no pixel: what is drawn
// meanwhile stays as it was, the build that fits takes the storage, and one that does not
// gives it back. Runs in the GL test executable (see water_gl_test.cpp for its main).
#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/render/camera.hpp"
#include "orbis/render/gl/gl_renderer.hpp"
#include "orbis/render/scene.hpp"

#include "offscreen_gl.hpp"

#include <QImage>

#include <gtest/gtest.h>

namespace orbis::render {
namespace {

constexpr auto height_layer = Layer_info<float, Layer_type::vertex>("height");

World planet(std::uint32_t count, std::uint64_t seed) {
    World w = gen::make_sphere_world(
        {.count = count, .radius = 6371.f, .perturbation = 0.5f, .seed = seed});
    auto [h, p] = w.lock_layer(height_layer, position_layer);
    for (const Vertex v : w.mesh().vertices())
        h[v] = p[v].z + 0.5f * p[v].x;
    return w;
}

class Prepared_triangles_gl : public ::testing::TestWithParam<Shading> {
protected:
    void SetUp() override {
        if (!gl_.fbo) GTEST_SKIP() << "no OpenGL 3.3 core context (run under xvfb-run)";
        options_.layer = "height";
        options_.shading = GetParam();
    }
    bool normals() const { return GetParam() != Shading::flat; }
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
    // The picture of `scene` from a renderer that uploads it without preparing anything.
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
    View_options options_;
};

TEST_P(Prepared_triangles_gl, AFittingBuildTakesTheStorageAndDrawsTheSame) {
    const World small = planet(2'000, 1), large = planet(60'000, 2);
    // One builder, as in the viewport: its stamps tell the renderer what changed.
    Scene_builder builder;
    gl::Gl_renderer renderer;
    renderer.initialize();
    const Scene first = builder.build(small, options_);
    renderer.upload(first);
    const QImage before = draw(renderer, first.radius);
    ASSERT_GT(planet_pixels(before), width * height / 10);
    renderer.prepare_triangles(large.mesh().vertex_count(), 3 * large.mesh().face_count(), true,
                               normals());
    EXPECT_GT(renderer.prepared_bytes(), 60'000u * 3 * sizeof(std::uint32_t));
    // Meanwhile the small world is drawn as before.
    EXPECT_EQ(differing(draw(renderer, first.radius), before), 0);

    const Scene second = builder.build(large, options_);
    ASSERT_TRUE(second.layer_error.empty()) << second.layer_error;
    const QImage expected = plain(second);
    renderer.upload(second);
    EXPECT_EQ(renderer.prepared_bytes(), 0u);
    const QImage taken = draw(renderer, second.radius);
    taken.save(
        screenshot_path(QString("prepared_triangles_taken_%1").arg(static_cast<int>(GetParam()))));
    EXPECT_GT(differing(taken, before), width * height / 100); // another world is drawn
    EXPECT_EQ(differing(taken, expected), 0);
    // Triangles that already hold that much storage need none prepared.
    renderer.prepare_triangles(large.mesh().vertex_count(), 3 * large.mesh().face_count(), true,
                               normals());
    EXPECT_EQ(renderer.prepared_bytes(), 0u);
    renderer.release();
}

TEST_P(Prepared_triangles_gl, ABuildThatDoesNotFitGivesTheStorageBack) {
    const World small = planet(2'000, 1), large = planet(60'000, 2);
    Scene_builder builder;
    const Scene scene = builder.build(small, options_);
    const QImage expected = plain(scene);
    ASSERT_GT(planet_pixels(expected), width * height / 10);

    gl::Gl_renderer renderer;
    renderer.initialize();
    // A build that failed gives it back without an upload.
    renderer.prepare_triangles(large.mesh().vertex_count(), 3 * large.mesh().face_count(), false,
                               normals());
    EXPECT_GT(renderer.prepared_bytes(), 0u);
    renderer.drop_prepared();
    EXPECT_EQ(renderer.prepared_bytes(), 0u);
    renderer.prepare_triangles(large.mesh().vertex_count(), 3 * large.mesh().face_count(), false,
                               normals());
    EXPECT_GT(renderer.prepared_bytes(), 0u);
    renderer.upload(scene); // far fewer triangles than prepared for
    EXPECT_EQ(renderer.prepared_bytes(), 0u);
    EXPECT_EQ(differing(draw(renderer, scene.radius), expected), 0);

    // Flat triangles (a face layer) draw without indices: prepared storage is not theirs.
    constexpr auto face_value = Layer_info<float, Layer_type::face>("face value");
    World faces = small;
    {
        auto [f] = faces.lock_layer(face_value);
        for (const Face x : faces.mesh().faces())
            f[x] = float(x.index() % 7);
    }
    View_options o = options_;
    o.layer = "face value";
    const Scene flat = builder.build(faces, o);
    ASSERT_TRUE(flat.layer_error.empty()) << flat.layer_error;
    const QImage flat_expected = plain(flat);
    renderer.prepare_triangles(faces.mesh().vertex_count(), 3 * faces.mesh().face_count(), true,
                               normals());
    renderer.upload(flat);
    EXPECT_EQ(renderer.prepared_bytes(), 0u);
    EXPECT_EQ(differing(draw(renderer, flat.radius), flat_expected), 0);
    renderer.release();
}

INSTANTIATE_TEST_SUITE_P(BothShadings, Prepared_triangles_gl,
                         ::testing::Values(Shading::flat, Shading::smooth));

} // namespace
} // namespace orbis::render
