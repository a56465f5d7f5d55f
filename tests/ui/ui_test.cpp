// SPDX-License-Identifier: MIT
// The editor's window driven for real (under xvfb-run, Mesa's software OpenGL): what the
// viewport shows, the legend, hover picking, files and generation.
#include "ui/docks/layers_dock.hpp"
#include "ui/document.hpp"
#include "ui/file_actions.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport.hpp"
#include "ui_support.hpp"

#include "orbis/core/colour_map.hpp"
#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/gen/biome_module.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/io/formats.hpp"
#include "orbis/io/world_file.hpp"
#include "orbis/render/layer_stats.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>

namespace orbis::ui {
namespace {

using testing::screenshot_path;
using testing::small_world;

int difference(QRgb a, QRgb b) {
    return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                     std::abs(qBlue(a) - qBlue(b))});
}

// Pixels that differ by more than `threshold` in some channel.
int changed_pixels(const QImage& a, const QImage& b, int threshold = 8) {
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += difference(a.pixel(x, y), b.pixel(x, y)) > threshold;
    return n;
}

class Window_test : public ::testing::Test {
protected:
    void SetUp() override {
        window_ = std::make_unique<Main_window>();
        window_->resize(1000, 700);
        window_->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    }
    void TearDown() override { window_.reset(); }

    // Shows `world` and waits until it is drawn.
    void show(const World& world) {
        window_->set_document(world, QString(), false);
        settle();
    }
    // Waits for the scene and the paint.
    void settle() {
        viewport()->finish_scene();
        QApplication::processEvents();
    }
    QImage grab(const QString& name) {
        settle();
        QImage image = viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        image.save(screenshot_path(name));
        return image;
    }
    void set(const char* action, bool on) {
        QAction* a = window_->action(action);
        ASSERT_NE(a, nullptr) << action;
        if (a->isChecked() != on) a->trigger();
        settle();
    }
    Viewport* viewport() { return window_->viewport(); }

    // The live vertex nearest the middle of the view (facing the camera).
    Vertex front_vertex(const World& w) const {
        const auto* pos = w.layer(position_layer);
        const glm::dvec3 eye = window_->viewport()->camera().eye();
        Vertex best;
        double best_dot = -1e300;
        for (const Vertex v : w.mesh().vertices()) {
            const double d = glm::dot(glm::normalize(glm::dvec3((*pos)[v])), glm::normalize(eye));
            if (d > best_dot) {
                best_dot = d;
                best = v;
            }
        }
        return best;
    }

    std::unique_ptr<Main_window> window_;
};

TEST_F(Window_test, PlanetIsDrawnOnTheBackground) {
    show(small_world());
    const QImage image = grab("planet");
    ASSERT_FALSE(image.isNull());
    const QRgb background = image.pixel(2, 2);
    const QRgb centre = image.pixel(image.width() / 2, image.height() / 2);
    EXPECT_GT(difference(centre, background), 40) << "the centre of the view shows no planet";
    // The planet is a disc: a good part of the view, not all of it.
    int planet = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            planet += difference(image.pixel(x, y), background) > 8;
    const double fraction = planet / double((image.height() / 4) * (image.width() / 4));
    EXPECT_GT(fraction, 0.15);
    EXPECT_LT(fraction, 0.8);
}

TEST_F(Window_test, CellColourAtAVertexMatchesTheColourMap) {
    const World world = small_world();
    show(world);
    set("lighting", false);
    set("show_triangles", false);
    set("show_voronoi_cells", true);
    set("show_rivers", false); // a river through the vertex would hide its cell's colour
    window_->layers_dock()->set_shown_layer("elevation");
    settle();
    const render::Colour_options o = window_->layers_dock()->colour_options();
    ASSERT_EQ(o.map, Colour_map_kind::terrain);
    const QImage image = grab("voronoi_elevation_unlit");

    const Vertex v = front_vertex(world);
    const glm::dvec3 p((*world.layer(position_layer))[v]);
    const glm::dvec3 at = viewport()->camera().project(p);
    const double value = (*world.layer(gen::elevation_layer))[v];
    const Srgb8 expected = map_colour(Colour_map_kind::terrain, value, 0.0, 1.0, o.sea_level);
    const QRgb got = image.pixel(int(at.x), int(at.y));
    EXPECT_LE(difference(got, qRgb(expected.r, expected.g, expected.b)), 3)
        << "vertex v" << v.index() << " elevation " << value << " at pixel " << at.x << ", " << at.y
        << ": got " << qRed(got) << "," << qGreen(got) << "," << qBlue(got) << " expected "
        << int(expected.r) << "," << int(expected.g) << "," << int(expected.b);
}

TEST_F(Window_test, DisplayModesChangeTheImageAndTurnBack) {
    show(small_world());
    const QImage plain = grab("modes_plain");
    for (const char* mode :
         {"show_wireframe", "show_voronoi_outlines", "show_dual_edges", "show_points"}) {
        set(mode, true);
        const QImage with = grab(QString("modes_") + mode);
        EXPECT_GT(changed_pixels(plain, with), 2000) << mode << " changed too little";
        set(mode, false);
        EXPECT_EQ(changed_pixels(plain, grab("modes_plain_again")), 0) << mode << " left traces";
    }
    // Relief lifts the land: the outline and the shading change.
    set("relief", true);
    EXPECT_GT(changed_pixels(plain, grab("modes_relief")), 2000);
    set("relief", false);
    EXPECT_EQ(changed_pixels(plain, grab("modes_plain_again")), 0) << "relief left traces";
    // Flat and smooth shading differ only slightly (neighbouring normals are a few degrees
    // apart), but across the whole planet.
    set("smooth_shading", true);
    EXPECT_GT(changed_pixels(plain, grab("modes_smooth"), 0), 5000);
}

TEST_F(Window_test, VectorLayersShowAsRgbAndArrows) {
    World world = small_world();
    constexpr auto wind = Layer_info<glm::vec3, Layer_type::vertex>("wind");
    {
        auto [v, p] = world.lock_layer(wind, position_layer);
        for (const Vertex x : world.mesh().vertices())
            v[x] = glm::cross(glm::vec3(0, 1, 0), p[x]);
    }
    show(world);
    window_->layers_dock()->set_shown_layer("wind");
    settle();
    EXPECT_FALSE(viewport()->legend().visible) << "vectors have no scalar legend";
    const QImage rgb = grab("vector_rgb");
    set("show_arrows", true);
    EXPECT_TRUE(viewport()->layer_error().empty()) << viewport()->layer_error();
    EXPECT_GT(changed_pixels(rgb, grab("vector_arrows")), 2000);
}

TEST_F(Window_test, LegendShowsTheRangeOfTheShownLayer) {
    const World world = small_world();
    show(world);
    window_->layers_dock()->set_shown_layer("elevation");
    settle();
    const Legend& legend = viewport()->legend();
    ASSERT_TRUE(legend.visible);
    const render::Layer_stats* stats = window_->layers_dock()->shown_stats();
    ASSERT_NE(stats, nullptr);
    EXPECT_EQ(legend.min, stats->min);
    EXPECT_EQ(legend.max, stats->max);
    const QImage image = grab("legend");
    const QRect bar = viewport()->legend_bar();
    ASSERT_FALSE(bar.isEmpty());
    auto expect_colour = [&](int y, double value) {
        const Srgb8 c = map_colour(legend.map, value, legend.min, legend.max, legend.sea_level);
        EXPECT_LE(difference(image.pixel(bar.center().x(), y), qRgb(c.r, c.g, c.b)), 12)
            << "legend at y " << y << " for value " << value;
    };
    expect_colour(bar.bottom() - 2, legend.min + 2.5 / bar.height() * (legend.max - legend.min));
    expect_colour(bar.top() + 2, legend.max - 2.5 / bar.height() * (legend.max - legend.min));

    set("show_legend", false);
    EXPECT_TRUE(viewport()->legend_bar().isEmpty() || !viewport()->legend().visible);
    EXPECT_GT(changed_pixels(image, grab("legend_off")), 500);
}

// The statistics' timer sets the legend again after every pause in editing, and every edit sets
// the selection's outline again. At 10M a frame is a second of the GUI thread in software; a
// save's progress ticks stalled behind one.
TEST_F(Window_test, ALegendOrSelectionSetAgainUnchangedDrawsNoFrame) {
    show(small_world());
    window_->layers_dock()->set_shown_layer("elevation");
    settle();
    // Whatever the set-up left to draw is drawn now.
    viewport()->repaint();
    // Paint events of the view itself: another widget's repaint recomposes the window (and
    // swaps a frame) without painting the view again.
    struct Paints : QObject {
        int count = 0;
        bool eventFilter(QObject*, QEvent* e) override {
            count += e->type() == QEvent::Paint;
            return false;
        }
    } paints;
    viewport()->installEventFilter(&paints);
    // An update() is a posted request: delivering the posted events paints it, if there is one.
    const auto paints_after = [&](auto&& change) {
        QCoreApplication::sendPostedEvents();
        QApplication::processEvents();
        paints.count = 0;
        change();
        QCoreApplication::sendPostedEvents();
        QApplication::processEvents();
        return paints.count;
    };
    const Legend same = viewport()->legend();
    ASSERT_TRUE(same.visible);
    EXPECT_EQ(paints_after([&] { viewport()->set_legend(same); }), 0);
    Legend other = same;
    other.max += 1.0;
    EXPECT_GT(paints_after([&] { viewport()->set_legend(other); }), 0) << "a changed legend";

    const std::vector<glm::vec3> segments{{0, 0, 1}, {0, 1, 0}};
    EXPECT_GT(paints_after([&] { viewport()->set_selection(segments, {}); }), 0);
    EXPECT_EQ(paints_after([&] { viewport()->set_selection(segments, {}); }), 0);
    EXPECT_GT(paints_after([&] { viewport()->set_selection({}, {}); }), 0) << "cleared";
    EXPECT_EQ(paints_after([&] { viewport()->set_selection({}, {}); }), 0);
    viewport()->removeEventFilter(&paints);
}

TEST_F(Window_test, HoverShowsTheVertexUnderTheCursor) {
    const World world = small_world();
    show(world);
    window_->layers_dock()->set_shown_layer("elevation");
    settle();
    const Vertex v = front_vertex(world);
    const glm::dvec3 at =
        viewport()->camera().project(glm::dvec3((*world.layer(position_layer))[v]));
    QMouseEvent move(QEvent::MouseMove, QPointF(int(at.x), int(at.y)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(viewport(), &move);
    QApplication::processEvents();
    const auto hover = viewport()->hover_at(QPoint(int(at.x), int(at.y)));
    ASSERT_TRUE(hover);
    EXPECT_EQ(hover->vertex, v);
    const QString text = window_->hover_text();
    EXPECT_TRUE(text.contains(QString("v%1").arg(v.index()))) << text.toStdString();
    EXPECT_TRUE(text.contains("elevation =")) << text.toStdString();
    grab("hover_vertex");
    // Off the planet nothing is picked.
    EXPECT_FALSE(viewport()->hover_at(QPoint(2, 2)));
}

// A large world's first picture does not wait for its picker: the scene arrives with none,
// hovering finds nothing until the picker is built, and then picks as usual. An edit made
// before the picker arrives (here, as the first scene arrives) leaves hovering waiting for the
// edited state's picker, not broken.
TEST_F(Window_test, ALargeWorldsPickerComesAfterItsPicture) {
    viewport()->set_picker_after_from(1); // as if the world were large
    const World world = small_world();
    const Vertex v = front_vertex(world);
    std::optional<bool> could_pick_at_picture;
    bool edited = false;
    QObject::connect(viewport(), &Viewport::scene_ready, viewport(), [&] {
        if (could_pick_at_picture) return;
        could_pick_at_picture = viewport()->can_pick();
        edited = window_->set_value("elevation", v.index(), "1234.5");
    });
    window_->set_document(world, QString(), false);
    ASSERT_TRUE(QTest::qWaitFor([&] { return could_pick_at_picture.has_value(); }, 120'000));
    EXPECT_FALSE(*could_pick_at_picture);
    EXPECT_TRUE(edited);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return viewport()->can_pick() && !viewport()->picker_pending(); }, 120'000));
    settle();
    const glm::dvec3 at =
        viewport()->camera().project(glm::dvec3((*world.layer(position_layer))[v]));
    const auto hover = viewport()->hover_at(QPoint(int(at.x), int(at.y)));
    ASSERT_TRUE(hover);
    EXPECT_EQ(hover->vertex, v);
    EXPECT_NE(window_->world(), nullptr);
    EXPECT_EQ((*window_->world()->layer(gen::elevation_layer))[v], 1234.5f);
}

// Left alone, a large world gets its picker once its first frame is drawn: no edit, no wait
// for the scene asked of the viewport.
TEST_F(Window_test, ALargeWorldLeftAloneGetsItsPickerAfterItsFirstFrame) {
    viewport()->set_picker_after_from(1); // as if the world were large
    const World world = small_world();
    const Vertex v = front_vertex(world);
    std::optional<bool> could_pick_at_picture;
    QObject::connect(viewport(), &Viewport::scene_ready, viewport(), [&] {
        if (!could_pick_at_picture) could_pick_at_picture = viewport()->can_pick();
    });
    window_->set_document(world, QString(), false);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return viewport()->can_pick() && !viewport()->picker_pending(); }, 120'000));
    ASSERT_TRUE(could_pick_at_picture.has_value());
    EXPECT_FALSE(*could_pick_at_picture) << "the picture did not wait for the picker";
    settle();
    const glm::dvec3 at =
        viewport()->camera().project(glm::dvec3((*world.layer(position_layer))[v]));
    const auto hover = viewport()->hover_at(QPoint(int(at.x), int(at.y)));
    ASSERT_TRUE(hover);
    EXPECT_EQ(hover->vertex, v);
}

TEST_F(Window_test, EditsPatchTheGpuBuffersAndDrawLikeAFreshBuild) {
    World world = small_world(20000);
    // Rivers are rebuilt whole after a mesh edit (they follow discharge, which the edit makes
    // stale); this test is about the triangles' patch.
    set("show_rivers", false);
    show(world);
    const QImage before = grab("edit_before");
    const std::size_t full_upload = viewport()->last_upload().bytes;
    // Split the edges around the vertex in the middle of the view: a visible change.
    const Vertex v = front_vertex(world);
    World_delta delta;
    {
        Delta_recorder recorder(world);
        std::vector<Edge> ring;
        for (const Edge e : v.edges(world.mesh()))
            ring.push_back(e);
        for (const Edge e : ring)
            (void)world.lock_mesh().try_split(e, 0.5f);
        delta = recorder.delta();
    }
    viewport()->set_world(world, delta);
    settle();
    const std::size_t patch = viewport()->last_upload().bytes;
    EXPECT_LT(patch * 50, full_upload) << "patched " << patch << " of " << full_upload << " bytes";
    const QImage patched = grab("edit_patched");
    EXPECT_GT(changed_pixels(before, patched, 0), 20) << "the split changed nothing on screen";
    // A window that builds the same world from scratch shows the same picture.
    Main_window fresh;
    fresh.resize(window_->size());
    fresh.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&fresh));
    if (fresh.action("show_rivers")->isChecked()) fresh.action("show_rivers")->trigger();
    fresh.set_document(world, QString(), false);
    fresh.viewport()->finish_scene();
    QApplication::processEvents();
    ASSERT_EQ(fresh.viewport()->size(), viewport()->size());
    const QImage rebuilt =
        fresh.viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    rebuilt.save(screenshot_path("edit_rebuilt"));
    EXPECT_LT(changed_pixels(patched, rebuilt, 2), 40);
}

// The vertex whose river carries the most water into the sea: a river mouth on a coast.
Vertex biggest_mouth(const World& w) {
    const Mesh& m = w.mesh();
    const auto& discharge = *w.layer(gen::discharge_layer);
    const auto& ocean = *w.layer(gen::ocean_layer);
    Vertex best;
    float most = -1;
    for (const Vertex v : m.vertices())
        for (const Edge e : v.edges(m))
            if (discharge[e] > most && ocean[e.dest(m)]) {
                most = discharge[e];
                best = v;
            }
    return best;
}

TEST_F(Window_test, RiversLakesAndBiomesShowOnTheDefaultWorld) {
    const World world = small_world(40000);
    ASSERT_NE(world.layer(gen::discharge_layer), nullptr) << "the default pipeline has water";
    show(world);
    window_->layers_dock()->set_shown_layer("elevation");
    set("show_rivers", true);
    const QImage rivers = grab("water_default_world");
    set("show_rivers", false);
    const QImage dry = grab("water_default_world_no_rivers");
    EXPECT_GT(changed_pixels(rivers, dry), 300) << "rivers are drawn";
    set("show_rivers", true);

    // A river mouth, close up: the river reaches the coast.
    const Vertex mouth = biggest_mouth(world);
    viewport()->fly_to(glm::dvec3((*world.layer(position_layer))[mouth]));
    settle();
    const glm::dvec3 at =
        viewport()->camera().project(glm::dvec3((*world.layer(position_layer))[mouth]));
    for (int i = 0; i < 4; ++i) {
        QWheelEvent wheel(
            QPointF(at.x, at.y), viewport()->mapToGlobal(QPoint(int(at.x), int(at.y))), QPoint(),
            QPoint(0, 120 * 3), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(viewport(), &wheel);
    }
    const QImage coast = grab("water_river_coast");
    set("show_rivers", false);
    EXPECT_GT(changed_pixels(coast, grab("water_river_coast_no_rivers")), 200)
        << "the river at its mouth is drawn";
    set("show_rivers", true);

    // The hover readout names the biome and the water under the cursor.
    const glm::dvec3 p =
        viewport()->camera().project(glm::dvec3((*world.layer(position_layer))[mouth]));
    QMouseEvent move(QEvent::MouseMove, QPointF(int(p.x), int(p.y)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(viewport(), &move);
    QApplication::processEvents();
    const QString text = window_->hover_text();
    EXPECT_TRUE(text.contains("basin") && text.contains("°C")) << text.toStdString();

    // The biome map with its named legend.
    window_->layers_dock()->set_shown_layer("biome");
    viewport()->reset_view();
    const QImage biomes = grab("water_biome_map");
    EXPECT_GT(changed_pixels(biomes, rivers), 5000);
    window_->grab().save(screenshot_path("water_biome_legend"));
    const Layer_hints* hints = world.hints("biome");
    ASSERT_NE(hints, nullptr);
    EXPECT_EQ(hints->categories.size(), std::size_t(gen::biome_count));
}

TEST_F(Window_test, FailedOpenKeepsTheDocument) {
    const World world = small_world(500);
    show(world);
    EXPECT_FALSE(window_->open_file("/nonexistent/world.orbis"));
    ASSERT_NE(window_->world(), nullptr);
    EXPECT_TRUE(*window_->world() == world);
}

// A large document's picture waits only for the figures the view needs (the shown layer's and
// elevation's); the other layers' rows say "…" until the picture is up, then get the same
// figures a full pass gives. A pending layer that is shown gets its figures at once.
TEST_F(Window_test, ALargeDocumentsOtherLayerFiguresComeAfterItsPicture) {
    const World world = small_world(2000);
    const std::vector<render::Layer_stats> expected = render::all_layer_stats(world);
    Layers_dock* dock = window_->layers_dock();
    dock->set_figures_first_from(1); // as if the world were large
    // The first scene of the document comes before the other layers' figures.
    std::optional<bool> pending_at_picture;
    QObject::connect(viewport(), &Viewport::scene_ready, dock, [&] {
        if (!pending_at_picture) pending_at_picture = dock->stats_pending();
    });
    window_->set_document(world, QString(), false);
    ASSERT_TRUE(dock->stats_pending());
    ASSERT_EQ(dock->shown_layer(), "elevation");
    std::size_t pending = 0;
    for (const render::Layer_stats& s : dock->stats()) {
        pending += s.pending;
        if (s.name == "elevation") {
            EXPECT_FALSE(s.pending);
        }
    }
    EXPECT_GE(pending, 3u);
    auto* table = dock->findChild<QTreeWidget*>();
    ASSERT_NE(table, nullptr);
    int dotted = 0;
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        dotted += table->topLevelItem(i)->text(4) == QString("…");
    EXPECT_EQ(std::size_t(dotted), pending);
    // Showing a pending layer computes it before the view asks for its colours.
    dock->set_shown_layer("plate_id");
    ASSERT_NE(dock->shown_stats(), nullptr);
    EXPECT_FALSE(dock->shown_stats()->pending);
    EXPECT_TRUE(dock->stats_pending());
    // Once the picture is up, the rest follow without anything else asked of the window.
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dock->stats_pending(); }, 120'000));
    ASSERT_TRUE(pending_at_picture.has_value());
    EXPECT_TRUE(*pending_at_picture);
    const std::vector<render::Layer_stats>& now = dock->stats();
    ASSERT_EQ(now.size(), expected.size());
    for (std::size_t i = 0; i < now.size(); ++i) {
        SCOPED_TRACE(now[i].name);
        EXPECT_FALSE(now[i].pending);
        EXPECT_EQ(now[i].name, expected[i].name);
        EXPECT_EQ(now[i].count, expected[i].count);
        EXPECT_EQ(now[i].finite, expected[i].finite);
        if (expected[i].finite > 0) {
            EXPECT_EQ(now[i].min, expected[i].min);
            EXPECT_EQ(now[i].max, expected[i].max);
            EXPECT_EQ(now[i].histogram, expected[i].histogram);
        }
    }
    settle();
    const QImage image = grab("large_document_figures_after_picture");
    QImage blank(image.size(), image.format());
    blank.fill(Qt::black);
    EXPECT_GT(changed_pixels(image, blank), 10'000);
}

// The figures after edits are computed on a worker from a snapshot (most of a second of the GUI
// thread at ten million vertices otherwise): the call returns before they are, a request made
// while one runs waits for it and then only the newest world is computed, and a set_world
// meanwhile wins over every earlier request.
TEST(Layers_dock_test, BackgroundRefreshesListOnlyTheNewestWorld) {
    const World a = small_world(2000);
    auto raised = [&](float by) {
        World w = a;
        auto [elevation] = w.lock_layer(gen::elevation_layer);
        for (const Vertex v : w.mesh().vertices())
            elevation[v] += by;
        return w;
    };
    const World b = raised(1000.f), c = raised(2000.f), d = raised(3000.f), e = raised(4000.f);
    Layers_dock dock;
    const auto elevation_max = [&] {
        for (const render::Layer_stats& s : dock.stats())
            if (s.name == "elevation") return s.max;
        return std::numeric_limits<double>::quiet_NaN();
    };
    int refreshed = 0;
    QObject::connect(&dock, &Layers_dock::stats_refreshed, [&] { ++refreshed; });
    dock.set_world(a);
    const double max_a = elevation_max();
    EXPECT_FALSE(dock.refreshing());

    dock.refresh_in_background(b);
    dock.refresh_in_background(d); // waits for b's pass
    dock.refresh_in_background(c); // replaces d: only the newest world is computed next
    EXPECT_TRUE(dock.refreshing());
    EXPECT_EQ(elevation_max(), max_a) << "nothing is listed before the event loop runs";
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dock.refreshing(); }, 120'000));
    EXPECT_EQ(refreshed, 2) << "b's figures, then c's";
    const std::vector<render::Layer_stats> expected = render::all_layer_stats(c);
    ASSERT_EQ(dock.stats().size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        SCOPED_TRACE(expected[i].name);
        const render::Layer_stats& now = dock.stats()[i];
        EXPECT_FALSE(now.pending);
        EXPECT_EQ(now.name, expected[i].name);
        EXPECT_EQ(now.count, expected[i].count);
        EXPECT_EQ(now.finite, expected[i].finite);
        if (expected[i].finite > 0) {
            EXPECT_EQ(now.min, expected[i].min);
            EXPECT_EQ(now.max, expected[i].max);
            EXPECT_EQ(now.histogram, expected[i].histogram);
        }
    }
    EXPECT_GT(elevation_max(), max_a + 1999.0);

    // d's pass runs on while set_world lists b: its figures are never listed. e, asked for
    // after, waits for d's pass and is listed alone.
    dock.refresh_in_background(d);
    dock.set_world(b);
    EXPECT_FALSE(dock.refreshing()) << "no figures to come";
    EXPECT_EQ(elevation_max(), render::layer_stats(b, "elevation").max);
    dock.refresh_in_background(e);
    EXPECT_TRUE(dock.refreshing());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dock.refreshing(); }, 120'000));
    EXPECT_EQ(refreshed, 3) << "e's figures alone; d's came after set_world(b) and were dropped";
    EXPECT_EQ(elevation_max(), render::layer_stats(e, "elevation").max);
}

// A large file is drawn coarsely first, from a sample of its own vertices, while it loads;
// the document changes only when the world has loaded and been checked.
TEST_F(Window_test, ALargeFileIsPreviewedWhileItLoads) {
    QTemporaryDir dir;
    const World before = small_world(500);
    show(before);
    const World world = small_world(20000);
    const QString path = dir.filePath("large.orbis");
    io::save_world(world, path.toStdString());
    qputenv("ORBIS_PREVIEW_BYTES", "1");
    qputenv("ORBIS_PREVIEW_POINTS", "3000");
    struct Unset {
        ~Unset() {
            qunsetenv("ORBIS_PREVIEW_BYTES");
            qunsetenv("ORBIS_PREVIEW_POINTS");
        }
    } unset;

    int previews = 0;
    QImage preview_image;
    std::optional<World> preview;
    bool document_kept = false;
    const auto connection =
        QObject::connect(&window_->files(), &File_actions::preview_shown, [&](qulonglong vertices) {
            ++previews;
            ASSERT_NE(viewport()->world(), nullptr);
            preview = *viewport()->world();
            EXPECT_EQ(preview->mesh().vertex_count(), vertices);
            document_kept = window_->world() && *window_->world() == before;
            viewport()->finish_scene();
            preview_image = viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
            preview_image.save(screenshot_path("open_preview"));
        });
    ASSERT_TRUE(window_->open_file(path));
    QObject::disconnect(connection);
    EXPECT_EQ(previews, 1);
    EXPECT_TRUE(document_kept) << "the document changed before the world had loaded";
    ASSERT_TRUE(preview.has_value());
    // A Delaunay triangulation of about 3,000 of the world's own points, coloured by elevation.
    EXPECT_EQ(preview->mesh().validate(), std::nullopt);
    EXPECT_GT(preview->mesh().vertex_count(), 1500u);
    EXPECT_LE(preview->mesh().vertex_count(), 3000u);
    const auto* points = preview->layer(position_layer);
    const auto* all = world.layer(position_layer);
    std::set<std::array<float, 3>> world_points;
    for (const Vertex v : world.mesh().vertices())
        world_points.insert({(*all)[v].x, (*all)[v].y, (*all)[v].z});
    for (const Vertex v : preview->mesh().vertices())
        ASSERT_TRUE(world_points.count({(*points)[v].x, (*points)[v].y, (*points)[v].z}));
    EXPECT_NE(preview->find_layer("elevation"), nullptr);
    EXPECT_TRUE(preview->all_hints() == world.all_hints());
    // The preview is a planet on the background, not a blank view.
    const QRgb background = preview_image.pixel(2, 2);
    EXPECT_GT(difference(preview_image.pixel(preview_image.width() / 2, preview_image.height() / 2),
                         background),
              40);
    // Then the world itself is the document and the view.
    ASSERT_NE(window_->world(), nullptr);
    EXPECT_TRUE(*window_->world() == world);
    settle();
    EXPECT_TRUE(*viewport()->world() == world);
    const QImage opened = grab("open_after_preview");
    EXPECT_LT(changed_pixels(opened, preview_image, 40), opened.width() * opened.height() / 4)
        << "the preview does not look like the world";

    // A damaged file previews (the sample is not checked) but does not open: the document and
    // its view come back.
    std::vector<char> bytes;
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray all_bytes = f.readAll();
        bytes.assign(all_bytes.begin(), all_bytes.end());
    }
    bytes[bytes.size() / 3] ^= 0x5a; // inside the mesh's quad-edges
    const QString damaged = dir.filePath("damaged.orbis");
    {
        QFile f(damaged);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes.data(), qint64(bytes.size()));
    }
    // The document's selection is drawn on the document's world, not on the preview.
    edit::Selection selected;
    selected.vertices = {Vertex(0), Vertex(1), Vertex(2)};
    window_->document().set_selection(selected);
    const std::vector<glm::vec3> outline = viewport()->selection_segments();
    ASSERT_FALSE(outline.empty());
    bool outline_on_preview = true;
    previews = 0;
    const auto again =
        QObject::connect(&window_->files(), &File_actions::preview_shown, [&](qulonglong) {
            ++previews;
            outline_on_preview = !viewport()->selection_segments().empty();
        });
    EXPECT_FALSE(window_->open_file(damaged));
    QObject::disconnect(again);
    EXPECT_EQ(previews, 1);
    ASSERT_NE(window_->world(), nullptr);
    EXPECT_TRUE(*window_->world() == world);
    settle();
    EXPECT_TRUE(*viewport()->world() == world);
    EXPECT_FALSE(outline_on_preview);
    EXPECT_EQ(viewport()->selection_segments(), outline) << "the selection was not drawn again";
}

TEST_F(Window_test, SaveAndOpenRoundTrip) {
    QTemporaryDir dir;
    const World world = small_world(500);
    window_->set_document(world, QString(), true);
    EXPECT_TRUE(window_->modified());
    const QString path = dir.filePath("roundtrip.orbis");
    ASSERT_TRUE(window_->save_to(path));
    EXPECT_FALSE(window_->modified());
    EXPECT_TRUE(window_->windowTitle().startsWith("roundtrip.orbis"));
    ASSERT_TRUE(window_->open_file(path));
    EXPECT_TRUE(*window_->world() == world);
    // Exports write other formats and keep the document's path.
    ASSERT_TRUE(window_->save_to(dir.filePath("export.ply")));
    EXPECT_EQ(window_->path(), QFileInfo(path).absoluteFilePath());
    EXPECT_EQ(io::load_any(dir.filePath("export.ply").toStdString()).mesh().face_count(),
              world.mesh().face_count());
}

TEST_F(Window_test, GenerationRunsOffTheGuiThreadAndCancelKeepsTheDocument) {
    const World world = small_world(500);
    show(world);
    gen::Pipeline big = gen::default_pipeline();
    gen::override_parameter(big, gen::builtin_modules(), "count",
                            Dict_value(std::int64_t{2'000'000}), "sphere");
    ASSERT_TRUE(window_->generate(big));
    EXPECT_TRUE(window_->generating());
    EXPECT_FALSE(window_->generate(big)) << "a second generation was accepted";
    window_->cancel_generation();
    window_->finish_generation();
    EXPECT_FALSE(window_->generating());
    EXPECT_TRUE(*window_->world() == world);

    gen::Pipeline small = gen::default_pipeline();
    gen::override_parameter(small, gen::builtin_modules(), "count", Dict_value(std::int64_t{800}),
                            "sphere");
    ASSERT_TRUE(window_->generate(small));
    window_->finish_generation();
    ASSERT_NE(window_->world(), nullptr);
    EXPECT_GE(window_->world()->mesh().vertex_count(), 800u);
    EXPECT_TRUE(window_->modified());
    EXPECT_TRUE(window_->world()->mesh().validate() == std::nullopt);
}

} // namespace
} // namespace orbis::ui

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    QSurfaceFormat::setDefaultFormat(format);
    // Settings and dialogs of the user are not touched: a private config folder, no modal boxes.
    QTemporaryDir config, data;
    qputenv("XDG_CONFIG_HOME", config.path().toUtf8());
    qputenv("XDG_DATA_HOME", data.path().toUtf8()); // recovery files too
    qputenv("ORBIS_NO_DIALOGS", "1");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Orbis");
    QApplication::setApplicationName("orbis-tests");
    return RUN_ALL_TESTS();
}
