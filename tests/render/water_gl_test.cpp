// SPDX-License-Identifier: MIT
// Water as the OpenGL renderer draws it, checked by its pixels: a generated planet with
// climate and hydrology, its rivers on and off, lakes and the ocean flat under relief. Needs a
// display (ctest runs it under xvfb-run with Mesa's llvmpipe); screenshots go to
// $ORBIS_SCREENSHOTS, else a folder in the temporary directory.
#include "orbis/core/world.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/render/camera.hpp"
#include "orbis/render/gl/gl_renderer.hpp"
#include "orbis/render/scene.hpp"

#include "offscreen_gl.hpp"

#include <QGuiApplication>
#include <QImage>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

namespace orbis::render {
namespace {

// A small planet with the layers hydrology writes, made once.
const World& planet() {
    static const World world = [] {
        const gen::Module_registry& modules = gen::builtin_modules();
        const gen::Pipeline p = gen::pipeline_from_json(R"({
            "format": "orbis-pipeline", "version": 1, "steps": [
              {"module": "sphere", "params": {"count": 40000, "seed": 11}},
              {"module": "plates", "params": {"count": 10}},
              {"module": "elevation"},
              {"module": "climate"},
              {"module": "hydrology"}]})",
                                                        modules);
        World w;
        gen::run_pipeline(w, p, modules);
        return w;
    }();
    return world;
}

// How far the relief lifts: 3% of the radius at the largest |elevation|.
double relief_scale(const World& w) {
    double largest = 0.0;
    const auto* e = w.layer(Layer_info<float, Layer_type::vertex>("elevation"));
    for (const Vertex v : w.mesh().vertices())
        largest = std::max(largest, double(std::abs((*e)[v])));
    return largest > 0.0 ? 0.03 / largest : 0.0;
}

class Water_gl : public ::testing::Test {
protected:
    void SetUp() override {
        if (!gl_.fbo) GTEST_SKIP() << "no OpenGL 3.3 core context (run under xvfb-run)";
        renderer_.initialize();
        camera_.set_viewport(width, height);
        camera_.set_radius(builder_.build(planet(), View_options{}).radius);
        camera_.reset();
    }
    void TearDown() override {
        if (gl_.fbo) renderer_.release();
    }
    // Draws `o` and returns the picture, saved as `name`.
    QImage draw(const View_options& o, const char* name) {
        const Scene s = builder_.build(planet(), o);
        EXPECT_TRUE(s.river_error.empty()) << s.river_error;
        renderer_.upload(s);
        renderer_.draw(camera_, o.lighting, {0.1f, 0.1f, 0.12f, 1.0f});
        gl_.context.functions()->glFinish();
        QImage image = gl_.fbo->toImage().convertToFormat(QImage::Format_RGB32);
        image.save(screenshot_path(name));
        return image;
    }
    // Pixels of exactly `c` (lighting off draws colours exactly).
    static int count(const QImage& image, Colour c) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += image.pixel(x, y) == qRgb(c.r, c.g, c.b);
        return n;
    }

    Offscreen_gl gl_;
    gl::Gl_renderer renderer_;
    Scene_builder builder_;
    Camera camera_;
};

View_options terrain(const World& w) {
    View_options o;
    o.layer = "elevation";
    o.colours.map = Colour_map_kind::terrain;
    o.shading = Shading::smooth;
    o.relief = "elevation";
    o.relief_scale = relief_scale(w);
    return o;
}

TEST_F(Water_gl, RiversShowInRiverBlueAndOnlyWhenAsked) {
    View_options o = terrain(planet());
    o.lighting = false;
    o.rivers = true;
    o.river_min_discharge = 200.0;
    const int with = count(draw(o, "water_rivers_flat"), river_colour);
    o.rivers = false;
    const int without = count(draw(o, "water_no_rivers_flat"), river_colour);
    EXPECT_GT(with, 200) << "rivers should cover some pixels of a whole planet";
    EXPECT_LT(without, with / 20) << "the terrain itself is not river blue";
    // Fewer rivers, fewer pixels.
    o.rivers = true;
    o.river_min_discharge = 2000.0;
    EXPECT_LT(count(draw(o, "water_big_rivers_flat"), river_colour), with);
}

TEST_F(Water_gl, LitPlanetWithRiversCloseUp) {
    // The look of it, lit: the whole planet, then close to its largest river on land.
    const World& w = planet();
    View_options o = terrain(w);
    o.rivers = true;
    o.river_min_discharge = 100.0;
    (void)draw(o, "water_planet");
    const River_buffers& r = *builder_.build(w, o).rivers.geometry;
    const auto* lake = w.layer(gen::lake_layer);
    const auto* ocean = w.layer(gen::ocean_layer);
    auto dry = [&](Vertex v) { return !(*ocean)[v] && (*lake)[v] < 0; };
    std::size_t k = r.edge_of.size();
    for (std::size_t i = 0; i < r.edge_of.size(); ++i) {
        const Edge e = r.edge_of[i];
        if (dry(e.origin(w.mesh())) && dry(e.dest(w.mesh())) &&
            (k == r.edge_of.size() || r.discharge[i] > r.discharge[k]))
            k = i;
    }
    ASSERT_LT(k, r.edge_of.size()) << "no river on land";
    const glm::dvec3 middle = 0.5 * (glm::dvec3(r.positions[k * river_ribbon_vertices + 1]) +
                                     glm::dvec3(r.positions[k * river_ribbon_vertices + 4]));
    camera_.look_at(middle);
    camera_.zoom_at({width / 2.0, height / 2.0}, 8.0);
    const QImage with = draw(o, "water_river_close");
    o.rivers = false;
    const QImage without = draw(o, "water_river_close_no_rivers");
    // The river crosses the centre of the picture: pixels there change when it goes.
    int changed = 0;
    for (int y = height / 2 - 20; y < height / 2 + 20; ++y)
        for (int x = width / 2 - 20; x < width / 2 + 20; ++x)
            changed += with.pixel(x, y) != without.pixel(x, y);
    EXPECT_GT(changed, 20);
}

} // namespace
} // namespace orbis::render

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
