// SPDX-License-Identifier: MIT
// The Timeline dock in the real window: Play moves the plates off the GUI thread, Pause makes
// the run one undo step, the slider scrubs back to a World equal to the start, undo and redo
// are exact, the memory budget thins the kept steps and says so, and an edit ends the run.
#include "ui/docks/layers_dock.hpp"
#include "ui/docks/timeline_dock.hpp"
#include "ui/document.hpp"
#include "ui/live_water.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport.hpp"
#include "ui_support.hpp"

#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/tectonics_module.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QSlider>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <vector>

namespace orbis::ui {
namespace {

// A small planet keeps 200 steps affordable on two busy cores (a step is tens of ms here).
constexpr std::int64_t planet_points = 5000;
constexpr std::int64_t run_steps = 200;
// Generous caps for waits on state (never a measure of speed): two cores shared with builds.
constexpr int patience_ms = 30 * 60 * 1000;

class Timeline_ui_test : public ::testing::Test {
protected:
    void SetUp() override {
        window_ = std::make_unique<Main_window>();
        window_->resize(1100, 800);
        window_->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    }
    void TearDown() override { window_.reset(); }
    void open(const World& w) {
        window_->set_document(w, QString(), false);
        settle();
    }
    void settle() {
        window_->viewport()->finish_scene();
        QApplication::processEvents();
    }
    // The whole window (the dock's label included) saved as `name`; returns the viewport's
    // pixels, which must show a planet.
    QImage screenshot(const QString& name) {
        settle();
        window_->grab().save(testing::screenshot_path(name));
        return window_->viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    }
    // Waits until the dock keeps `count` steps (or stopped playing, which fails the test).
    bool wait_for_kept(std::size_t count) {
        return QTest::qWaitFor(
                   [&] { return dock()->kept().count() >= count || !dock()->playing(); },
                   patience_ms) &&
               dock()->kept().count() >= count;
    }
    // Waits until the step in the making (if any) is done.
    bool wait_idle() {
        return QTest::qWaitFor([&] { return !dock()->busy(); }, patience_ms);
    }
    Timeline_dock* dock() const { return window_->timeline_dock(); }
    const World& world() const { return *window_->world(); }
    int undo_count() const { return window_->undo_stack()->count(); }
    std::unique_ptr<Main_window> window_;
};

// Turns `view` by a left drag from its centre. The events are sent, not posted: QTest's
// mouseMove only moves the cursor, and the window system's motion could come after the release.
void turn(Viewport* view) {
    const QPointF from(view->rect().center()), to = from + QPointF(40, 10);
    QMouseEvent press(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QMouseEvent move(QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QApplication::sendEvent(view, &press);
    QApplication::sendEvent(view, &move);
    QApplication::sendEvent(view, &release);
}

// Pixels of `image` that differ from its corner (the background): the planet.
int planet_pixels(const QImage& image) {
    const QRgb background = image.pixel(2, 2);
    int n = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4) {
            const QRgb p = image.pixel(x, y);
            n += std::max({std::abs(qRed(p) - qRed(background)),
                           std::abs(qGreen(p) - qGreen(background)),
                           std::abs(qBlue(p) - qBlue(background))}) > 8;
        }
    return n;
}

TEST_F(Timeline_ui_test, PlayPauseScrubUndoAndRedoAreExact) {
    const World start = testing::small_world(planet_points);
    open(start);
    window_->layers_dock()->set_shown_layer("plate_id");
    ASSERT_NE(dock(), nullptr);
    EXPECT_FALSE(dock()->isVisible()) << "hidden until asked for";
    QAction* show = window_->action("show_timeline");
    ASSERT_NE(show, nullptr);
    EXPECT_EQ(show->shortcut(), QKeySequence(QStringLiteral("Ctrl+T")));
    show->trigger();
    EXPECT_TRUE(dock()->isVisible());
    // Room for every step: this test is about scrubbing, the other one about thinning.
    dock()->set_memory_budget(std::size_t{2} << 30);
    const bool water_on = window_->live_water().enabled();
    const int steps_before = undo_count();
    const QImage first = screenshot("timeline_step_000");
    EXPECT_GT(planet_pixels(first), 1000) << "the window shows a planet";

    QTest::mouseClick(dock()->findChild<QPushButton*>("timeline_play"), Qt::LeftButton);
    EXPECT_TRUE(dock()->playing());
    EXPECT_FALSE(window_->live_water().enabled()) << "no water every step while playing";
    ASSERT_TRUE(wait_for_kept(run_steps + 1)) << "stopped at " << dock()->kept().count();
    EXPECT_TRUE(dock()->steps_near_shown(2).empty()) << "no step drawn ahead while playing";
    auto* play = dock()->findChild<QPushButton*>("timeline_play");
    EXPECT_EQ(play->text(), "Pause");
    QTest::mouseClick(play, Qt::LeftButton);
    EXPECT_FALSE(dock()->playing());
    EXPECT_EQ(play->text(), "Play");
    EXPECT_EQ(window_->live_water().enabled(), water_on) << "live water is back as it was";
    ASSERT_TRUE(wait_idle());
    window_->live_water().finish();
    settle();
    const std::size_t kept = dock()->kept().count();
    EXPECT_EQ(undo_count(), steps_before + 1) << "the run is one undo step";
    EXPECT_EQ(dock()->kept().thinning(), 1) << "200 steps of 5,000 points fit in 2 GiB";
    std::cout << "[ timeline ] " << kept << " steps kept in "
              << double(dock()->kept().bytes()) / double(1 << 20) << " MiB\n";
    EXPECT_EQ(dock()->shown(), kept - 1);
    EXPECT_FALSE(world() == start) << "the plates moved";
    EXPECT_TRUE(world().mesh().validate() == std::nullopt);
    // The provenance says what ran: one tectonics step of as many steps as were kept.
    int tectonics_records = 0;
    for (const Step_record& r : world().provenance().steps) {
        if (r.module != "tectonics") continue;
        ++tectonics_records;
        EXPECT_EQ(r.params.at("steps").as<std::int64_t>(), dock()->kept().step_at(kept - 1));
    }
    EXPECT_EQ(tectonics_records, 1);
    const World end = world();
    // Paused, nothing changes any more.
    QApplication::processEvents();
    EXPECT_EQ(dock()->kept().count(), kept);
    EXPECT_TRUE(world() == end);
    const QImage last = screenshot("timeline_step_200");
    EXPECT_GT(planet_pixels(last), 1000);
    const QString label = dock()->findChild<QLabel*>("timeline_label")->text();
    EXPECT_TRUE(label.startsWith(QString("step %1 of %1").arg(dock()->kept().step_at(kept - 1))))
        << label.toStdString();

    // The slider scrubs between kept steps at once.
    auto* slider = dock()->findChild<QSlider*>("timeline_slider");
    ASSERT_NE(slider, nullptr);
    EXPECT_EQ(slider->maximum(), int(kept) - 1);
    slider->setValue(int(dock()->kept().index_at_or_before(100)));
    EXPECT_TRUE(world() == dock()->kept().world_at(dock()->shown()));
    EXPECT_EQ(dock()->kept().step_at(dock()->shown()), 100);
    const QImage middle = screenshot("timeline_step_100");
    EXPECT_GT(planet_pixels(middle), 1000);
    // What the view draws ahead while idle: the nearest steps, the later one first.
    const std::size_t at = dock()->shown();
    const std::vector<World> near = dock()->steps_near_shown(2);
    ASSERT_EQ(near.size(), 4u);
    EXPECT_TRUE(near[0] == dock()->kept().world_at(at + 1));
    EXPECT_TRUE(near[1] == dock()->kept().world_at(at - 1));
    EXPECT_TRUE(near[2] == dock()->kept().world_at(at + 2));
    EXPECT_TRUE(near[3] == dock()->kept().world_at(at - 2));
    slider->setValue(0);
    EXPECT_TRUE(world() == start) << "step 0 is the world before the run";
    EXPECT_EQ(undo_count(), steps_before + 1) << "scrubbing adds no step";
    screenshot("timeline_step_000_scrubbed");
    slider->setValue(slider->maximum());
    EXPECT_TRUE(world() == dock()->kept().world_at(kept - 1));
    window_->live_water().finish();
    settle();
    const World shown = world();

    // Undo takes the whole run back, redo brings the step shown.
    window_->undo_stack()->undo();
    settle();
    EXPECT_TRUE(world() == start);
    EXPECT_FALSE(dock()->current());
    window_->undo_stack()->redo();
    settle();
    EXPECT_TRUE(world() == shown);
    EXPECT_TRUE(dock()->current()) << "redo brings the run back to the slider";
}

// Scrubbing to a kept step until its picture is drawn, on a planet of ORBIS_SCRUB_POINTS points
// (skipped without it: a measurement, not a check; run it on a quiet machine). Prints the
// median of 7 scrubs between two kept steps and asserts only that each shows its step.
TEST_F(Timeline_ui_test, ScrubShowsAKeptStepsPictureAtOnceAndItIsTheScene) {
    open(testing::small_world(4000));
    window_->live_water().set_enabled(false);
    window_->action("show_timeline")->trigger();
    dock()->set_memory_budget(std::size_t{1} << 30);
    Viewport* view = window_->viewport();
    auto* step = dock()->findChild<QPushButton*>("timeline_step");
    for (std::size_t n = 2; n <= 5; ++n) {
        QTest::mouseClick(step, Qt::LeftButton);
        ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() >= n; }, patience_ms));
        ASSERT_TRUE(wait_idle());
        settle();
        (void)view->grabFramebuffer(); // the step's first frame: kept as a picture
    }
    EXPECT_GE(view->pictures().count(), 2u) << "each step shown is kept as a picture";
    auto* slider = dock()->findChild<QSlider*>("timeline_slider");
    // Step 0 was drawn before the dock opened, in a taller view: its picture comes from the
    // first scrub back to it.
    slider->setValue(0);
    settle();
    (void)view->grabFramebuffer();
    for (const int target : {1, 2, 0, 2}) {
        slider->setValue(target);
        ASSERT_TRUE(world() == dock()->kept().world_at(std::size_t(target)));
        EXPECT_TRUE(view->showing_picture()) << "step " << target;
        const QImage picture = view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        settle();
        EXPECT_FALSE(view->showing_picture()) << "the built scene takes over";
        const QImage scene = view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        EXPECT_GT(planet_pixels(scene), 1000);
        EXPECT_TRUE(picture == scene) << "the picture is exactly the scene, step " << target;
    }
    // The cursor over the planet: its highlight goes with the state it marked, and moves over
    // the picture wait for the scene instead of drawing the step before.
    const QPoint centre = view->rect().center();
    QTest::mouseMove(view, centre);
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->hover().has_value(); }, patience_ms));
    slider->setValue(1);
    EXPECT_TRUE(view->showing_picture());
    // Sent, not posted: no event loop runs, so the scene cannot arrive meanwhile.
    QMouseEvent move(QEvent::MouseMove, QPointF(centre + QPoint(3, 2)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(view, &move);
    EXPECT_TRUE(view->showing_picture()) << "no highlight drawn over a picture";
    settle();
    QMouseEvent back(QEvent::MouseMove, QPointF(centre), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(view, &back);
    EXPECT_TRUE(view->hover().has_value()) << "the scene picks again";

    // A view that moved has no pictures: scrubbing draws the scene built again.
    turn(view);
    slider->setValue(1);
    EXPECT_FALSE(view->showing_picture());
    settle();
    const QImage turned = view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    EXPECT_GT(planet_pixels(turned), 1000);
    EXPECT_FALSE(view->has_picture(dock()->kept().world_at(2))) << "never seen from here";

    // Idle, the view draws the kept steps from where it is now, the nearest first, on a worker
    // in a context of its own; they are the pictures the view's own frames would be. Step 4 is
    // three away from the one shown.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return view->has_picture(dock()->kept().world_at(2)) &&
                   view->has_picture(dock()->kept().world_at(0)) &&
                   view->has_picture(dock()->kept().world_at(4));
        },
        patience_ms));
    for (const int target : {2, 0, 4}) {
        slider->setValue(target);
        EXPECT_TRUE(view->showing_picture()) << "step " << target;
        const QImage picture = view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        settle();
        const QImage scene = view->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        EXPECT_GT(planet_pixels(scene), 1000);
        EXPECT_TRUE(picture == scene) << "drawn ahead: step " << target;
        if (picture != scene) {
            picture.save(testing::screenshot_path("scrub_prefetched_picture"));
            scene.save(testing::screenshot_path("scrub_prefetched_scene"));
        }
    }
}

TEST_F(Timeline_ui_test, ScrubToAKeptStepMeasured) {
    const char* points = std::getenv("ORBIS_SCRUB_POINTS");
    if (!points) GTEST_SKIP() << "set ORBIS_SCRUB_POINTS (e.g. 1000000) to measure";
    open(testing::small_world(std::atoll(points)));
    window_->live_water().set_enabled(false);
    window_->action("show_timeline")->trigger();
    dock()->set_memory_budget(std::size_t{8} << 30); // five steps kept, none thinned
    auto* step = dock()->findChild<QPushButton*>("timeline_step");
    ASSERT_NE(step, nullptr);
    for (std::size_t n = 2; n <= 5; ++n) {
        QTest::mouseClick(step, Qt::LeftButton);
        ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() >= n; }, patience_ms));
        ASSERT_TRUE(wait_idle());
        settle();
        (void)window_->viewport()->grabFramebuffer(); // the step as the view follows it
    }
    auto* slider = dock()->findChild<QSlider*>("timeline_slider");
    // Each scrub: to the kept picture on screen, then to the scene built again and drawn.
    std::vector<double> picture_ms, scene_ms;
    for (int i = 0; i < 7; ++i) {
        const int target = i % 2 == 0 ? 1 : 2;
        QElapsedTimer clock;
        clock.start();
        slider->setValue(target);
        (void)window_->viewport()->grabFramebuffer(); // draws the new picture
        picture_ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        EXPECT_TRUE(window_->viewport()->showing_picture());
        window_->viewport()->finish_scene();
        (void)window_->viewport()->grabFramebuffer(); // draws the new scene
        scene_ms.push_back(double(clock.nsecsElapsed()) / 1e6);
        EXPECT_TRUE(world() == dock()->kept().world_at(std::size_t(target)));
    }
    for (auto* ms : {&picture_ms, &scene_ms}) {
        std::sort(ms->begin(), ms->end());
        std::cout << "[ scrub ] " << world().mesh().vertex_count() << " vertices, to the "
                  << (ms == &picture_ms ? "picture" : "scene") << ": median "
                  << (*ms)[ms->size() / 2] << " ms, fastest " << ms->front() << " ms, slowest "
                  << ms->back() << " ms\n";
    }
    // The view turned: how long until the idle view has drawn the steps next to the shown
    // one, then every kept step, and a scrub to each of them.
    Viewport* view = window_->viewport();
    turn(view);
    slider->setValue(1);
    settle();
    (void)view->grabFramebuffer();
    QElapsedTimer ahead;
    ahead.start();
    // Waits until the idle view has drawn every step in `steps` ahead; says how long it took.
    const auto drawn_ahead = [&](std::initializer_list<std::size_t> steps, const char* which) {
        const bool drawn = QTest::qWaitFor(
            [&] {
                return std::all_of(steps.begin(), steps.end(), [&](std::size_t kept_step) {
                    return view->has_picture(dock()->kept().world_at(kept_step));
                });
            },
            patience_ms);
        std::cout << "[ scrub ] after a turn, " << which << " drawn ahead in "
                  << double(ahead.nsecsElapsed()) / 1e6 << " ms\n";
        return drawn;
    };
    ASSERT_TRUE(drawn_ahead({0, 2}, "both neighbours"));
    ASSERT_TRUE(drawn_ahead({3, 4}, "every kept step"));
    for (const int target : {2, 0, 4, 3}) {
        QElapsedTimer clock;
        clock.start();
        slider->setValue(target);
        (void)view->grabFramebuffer();
        std::cout << "[ scrub ] to step " << target
                  << " drawn ahead: " << double(clock.nsecsElapsed()) / 1e6 << " ms\n";
        EXPECT_TRUE(view->showing_picture());
        settle();
    }
}

TEST_F(Timeline_ui_test, StepsThinOverBudgetAndAnEditEndsTheRun) {
    const World start = testing::small_world(3000);
    open(start);
    // Water would join each step a moment later: the checks below compare the steps exactly.
    window_->live_water().set_enabled(false);
    window_->action("show_timeline")->trigger();
    auto* step = dock()->findChild<QPushButton*>("timeline_step");
    ASSERT_NE(step, nullptr);
    for (std::size_t n = 2; n <= 9; ++n) {
        QTest::mouseClick(step, Qt::LeftButton);
        ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() >= n; }, patience_ms));
        ASSERT_TRUE(wait_idle());
        EXPECT_TRUE(world() == dock()->kept().world_at(n - 1)) << "each step is shown";
    }
    EXPECT_EQ(undo_count(), 1) << "steps of one run are one undo step";
    // A budget below what the eight steps hold keeps every 2nd step, and the label says so.
    dock()->set_memory_budget(dock()->kept().bytes() - 1);
    EXPECT_EQ(dock()->kept().thinning(), 2);
    EXPECT_EQ(dock()->kept().step_at(0), 0);
    EXPECT_EQ(dock()->kept().step_at(dock()->kept().count() - 1), 8);
    const QString label = dock()->findChild<QLabel*>("timeline_label")->text();
    EXPECT_NE(label.indexOf("keeping every 2nd step"), -1) << label.toStdString();
    window_->live_water().finish();
    screenshot("timeline_thinned");

    // The kept steps as frames: one map per kept step, named by its step number.
    const QString frames =
        QFileInfo(testing::screenshot_path("timeline_frames")).dir().filePath("timeline_frames");
    QDir(frames).removeRecursively();
    QDir().mkpath(frames);
    EXPECT_TRUE(dock()->export_frames(frames, "discharge").has_value()) << "not a vertex layer";
    ASSERT_EQ(dock()->export_frames(frames, "elevation"), std::nullopt);
    dock()->finish_export();
    QStringList expected;
    for (std::size_t i = 0; i < dock()->kept().count(); ++i)
        expected << QString("frame_%1.png").arg(dock()->kept().step_at(i), 4, 10, QChar('0'));
    EXPECT_EQ(QDir(frames).entryList(QDir::Files, QDir::Name), expected);
    const QImage frame(QDir(frames).filePath(expected.back()));
    EXPECT_EQ(frame.size(), QSize(1024, 512));

    // An edit ends the run; Play or Step starts a new one from the edited world.
    ASSERT_TRUE(window_->set_value("elevation", 0, "1234"));
    EXPECT_FALSE(dock()->current());
    EXPECT_EQ(undo_count(), 2);
    const World edited = world();
    QTest::mouseClick(step, Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() == 2; }, patience_ms));
    ASSERT_TRUE(wait_idle());
    EXPECT_TRUE(dock()->kept().world_at(0) == edited);
    EXPECT_EQ(undo_count(), 3);
    window_->undo_stack()->undo();
    settle();
    EXPECT_TRUE(world() == edited);

    // Undo while playing ends the run: the step in the making is dropped, nothing follows.
    dock()->play();
    ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() >= 3 || !dock()->playing(); },
                                patience_ms));
    ASSERT_TRUE(dock()->playing());
    window_->undo_stack()->undo();
    EXPECT_FALSE(dock()->playing());
    EXPECT_FALSE(dock()->current());
    ASSERT_TRUE(wait_idle());
    QApplication::processEvents();
    EXPECT_TRUE(world() == edited);
    EXPECT_EQ(window_->undo_stack()->index(), 2) << "the run can be redone";
}

TEST_F(Timeline_ui_test, RiftPlateSplitsAPlateInTheNextStep) {
    const World start = testing::small_world(3000);
    open(start);
    window_->live_water().set_enabled(false);
    window_->action("show_timeline")->trigger();
    const std::size_t plates = gen::read_plates(start).size();
    // Refused with the reason, nothing run.
    const auto refused = dock()->rift(std::int32_t(plates));
    ASSERT_TRUE(refused.has_value());
    EXPECT_NE(refused->indexOf("No plate"), -1) << refused->toStdString();
    EXPECT_EQ(undo_count(), 0);
    EXPECT_TRUE(world() == start);

    // The biggest plate splits in two.
    std::vector<std::size_t> counts(plates, 0);
    const auto& plate_id = *start.layer(gen::plate_id_layer);
    for (const Vertex v : start.mesh().vertices())
        ++counts[std::size_t(plate_id[v])];
    const auto big = std::int32_t(std::max_element(counts.begin(), counts.end()) - counts.begin());
    ASSERT_EQ(dock()->rift(big), std::nullopt);
    ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() >= 2; }, patience_ms));
    ASSERT_TRUE(wait_idle());
    EXPECT_EQ(gen::read_plates(world()).size(), plates + 1);
    std::size_t old_side = 0, new_side = 0;
    for (const Vertex v : world().mesh().vertices()) {
        old_side += (*world().layer(gen::plate_id_layer))[v] == big;
        new_side += (*world().layer(gen::plate_id_layer))[v] == std::int32_t(plates);
    }
    EXPECT_GT(old_side, 0u);
    EXPECT_GT(new_side, 0u);
    EXPECT_EQ(undo_count(), 1) << "the rift is a step of the run";
    // The next step rifts nothing more.
    dock()->step();
    ASSERT_TRUE(QTest::qWaitFor([&] { return dock()->kept().count() >= 3; }, patience_ms));
    ASSERT_TRUE(wait_idle());
    EXPECT_EQ(gen::read_plates(world()).size(), plates + 1);
    window_->undo_stack()->undo();
    settle();
    EXPECT_TRUE(world() == start);
}

} // namespace
} // namespace orbis::ui
