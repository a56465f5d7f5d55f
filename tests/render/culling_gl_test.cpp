// SPDX-License-Identifier: MIT
// Skipping the triangles the eye cannot see changes no pixel: the renderer draws a planet with
// relief from afar, close up and over the horizon with culling on and off, and the pictures
// are the same while fewer triangles are sent. Runs in the GL test executable (see
// water_gl_test.cpp for its main and the display it needs).
#include "orbis/core/world.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/noise.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_module.hpp"
#include "orbis/render/camera.hpp"
#include "orbis/render/gl/gl_renderer.hpp"
#include "orbis/render/scene.hpp"

#include "offscreen_gl.hpp"

#include <QImage>

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace orbis::render {
namespace {

constexpr auto bumps = Layer_info<float, Layer_type::vertex>("bumps");

// A planet with rough relief, so that neighbouring triangles face many ways: a Fibonacci sphere
// (the view lays its smooth triangles out along the curve) or, `along_curve`, the sphere
// module's (numbered along the curve, drawn in slot order).
World make_rough_planet(bool along_curve) {
    World w;
    if (along_curve) {
        Dict params;
        params.set("count", std::int64_t{150'000});
        params.set("seed", std::int64_t{3});
        gen::run_module(w, gen::Sphere_module{}, params);
    } else {
        w = gen::make_sphere_world(
            {.count = 150'000, .radius = 6371.f, .perturbation = 0.5f, .seed = 3});
    }
    const gen::Fractal_noise noise({.seed = 4, .octaves = 6, .frequency = 3.0});
    auto [b, p] = w.lock_layer(bumps, position_layer);
    for (const Vertex v : w.mesh().vertices())
        b[v] = float(noise(glm::dvec3(p[v]) / 6371.0));
    return w;
}

const World& rough_planet(bool along_curve) {
    static const World fibonacci = make_rough_planet(false);
    static const World curve = make_rough_planet(true);
    return along_curve ? curve : fibonacci;
}

class Culling_gl : public ::testing::TestWithParam<std::tuple<Shading, bool>> {
protected:
    void SetUp() override {
        if (!gl_.fbo) GTEST_SKIP() << "no OpenGL 3.3 core context (run under xvfb-run)";
        renderer_.initialize();
    }
    void TearDown() override {
        if (gl_.fbo) renderer_.release();
    }
    QImage draw(const Camera& camera, const View_options& o) {
        renderer_.draw(camera, o.lighting, {0.1f, 0.1f, 0.12f, 1.0f});
        gl_.context.functions()->glFinish();
        return gl_.fbo->toImage().convertToFormat(QImage::Format_RGB32);
    }

    Offscreen_gl gl_;
    gl::Gl_renderer renderer_;
    Scene_builder builder_;
};

TEST_P(Culling_gl, TheSamePicturesFromFewerTriangles) {
    const auto [shading, along_curve] = GetParam();
    const World& w = rough_planet(along_curve);
    View_options o;
    o.layer = "bumps";
    o.shading = shading;
    o.relief = "bumps";
    o.relief_scale = 0.04;
    const Scene scene = builder_.build(w, o);
    ASSERT_TRUE(scene.layer_error.empty()) << scene.layer_error;
    renderer_.upload(scene);
    const std::size_t total = scene.triangles.geometry->triangle_count();
    EXPECT_EQ(scene.triangles.geometry->in_slot_order,
              scene.triangles.geometry->shading == Shading::smooth && along_curve);

    Camera camera;
    camera.set_viewport(width, height);
    camera.set_radius(scene.radius);
    camera.reset();
    const glm::dvec2 centre(width / 2.0, height / 2.0);
    // Afar; turned; close up; close up to the horizon, with space behind it.
    const auto views = std::vector<std::function<void(Camera&)>>{
        [](Camera&) {},
        [&](Camera& c) { c.rotate(centre, centre + glm::dvec2(180.0, -90.0)); },
        [&](Camera& c) { c.zoom_at(centre + glm::dvec2(100.0, 50.0), 6.0); },
        [&](Camera& c) {
            c.reset();
            c.zoom_at(centre + glm::dvec2(0.0, 0.4 * height), 3.0);
        },
    };
    int shown = 0;
    for (const auto& move : views) {
        move(camera);
        renderer_.set_culling(false);
        const QImage all = draw(camera, o);
        ASSERT_EQ(renderer_.drawn_triangles(), total);
        renderer_.set_culling(true);
        const QImage culled = draw(camera, o);
        const std::string name = "culling_" + std::to_string(int(shading)) + "_" +
                                 std::to_string(int(along_curve)) + "_" + std::to_string(shown);
        culled.save(screenshot_path(QString::fromStdString(name)));
        EXPECT_LT(renderer_.drawn_triangles(), total * 2 / 3) << "view " << shown;
        // The planet covers a good part of every picture: nothing here passes on a blank one.
        int planet = 0, differ = 0;
        for (int y = 0; y < all.height(); ++y)
            for (int x = 0; x < all.width(); ++x) {
                planet += all.pixel(x, y) != all.pixel(0, 0) ? 1 : 0;
                differ += all.pixel(x, y) != culled.pixel(x, y) ? 1 : 0;
            }
        EXPECT_GT(planet, width * height / 10) << "view " << shown;
        EXPECT_EQ(differ, 0) << "view " << shown << ": culling changed pixels";
        ++shown;
    }
}

INSTANTIATE_TEST_SUITE_P(BothShadingsAndOrders, Culling_gl,
                         ::testing::Values(std::tuple{Shading::flat, false},
                                           std::tuple{Shading::smooth, false},
                                           std::tuple{Shading::smooth, true}));

} // namespace
} // namespace orbis::render
