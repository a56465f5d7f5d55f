// SPDX-License-Identifier: MIT
// The tectonic overlays in the real window: plate boundaries and velocity arrows are View menu
// toggles, off by default and disabled without their layer; on, they draw in their colours and
// follow the timeline (a step, scrubbing, undo).
#include "ui/display_modes.hpp"
#include "ui/docks/timeline_dock.hpp"
#include "ui/live_water.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport.hpp"
#include "ui_support.hpp"

#include "orbis/gen/plates_module.hpp"
#include "orbis/render/tectonic_overlays.hpp"

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QSlider>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string_view>
#include <vector>

namespace orbis::ui {
namespace {

// Generous cap for waits on state (never a measure of speed): two cores shared with builds.
constexpr int patience_ms = 30 * 60 * 1000;

class Tectonic_overlays_ui_test : public ::testing::Test {
protected:
    void SetUp() override {
        window_ = std::make_unique<Main_window>();
        window_->resize(1100, 800);
        window_->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    }
    void TearDown() override { window_.reset(); }
    void settle() {
        window_->viewport()->finish_scene();
        QApplication::processEvents();
        window_->viewport()->finish_scene();
    }
    // The window saved as `name` and the view alone as NAME_view (with the key, which the
    // window's grab leaves out); returns the view's pixels.
    QImage screenshot(const QString& name) {
        settle();
        window_->grab().save(testing::screenshot_path(name));
        const QImage view =
            window_->viewport()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
        view.save(testing::screenshot_path(name + "_view"));
        return view;
    }
    // Steps the timeline once and waits for the step to be shown.
    void step() {
        const std::size_t before = dock()->kept().count();
        dock()->step();
        ASSERT_TRUE(QTest::qWaitFor(
            [&] { return dock()->kept().count() > std::max<std::size_t>(before, 1); },
            patience_ms));
        ASSERT_TRUE(QTest::qWaitFor([&] { return !dock()->busy(); }, patience_ms));
        settle();
    }
    Timeline_dock* dock() const { return window_->timeline_dock(); }
    QAction* action(const char* id) const { return window_->action(id); }
    std::unique_ptr<Main_window> window_;
};

// Per pixel of `image` (every 2nd in each direction): whether it has one of `colours` (within
// a few units: the lines are drawn unlit, in their exact colours).
std::vector<bool> mask_of(const QImage& image, const std::vector<QColor>& colours) {
    std::vector<bool> mask;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb p = image.pixel(x, y);
            bool hit = false;
            for (const QColor& c : colours)
                hit = hit || std::max({std::abs(qRed(p) - c.red()), std::abs(qGreen(p) - c.green()),
                                       std::abs(qBlue(p) - c.blue())}) <= 4;
            mask.push_back(hit);
        }
    return mask;
}

int count(const std::vector<bool>& mask) { return int(std::count(mask.begin(), mask.end(), true)); }

int differing(const std::vector<bool>& a, const std::vector<bool>& b) {
    int n = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        n += a[i] != b[i];
    return n;
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

std::vector<QColor> boundary_colours() {
    std::vector<QColor> colours;
    for (const Layer_category& c : gen::plate_boundary_hints().categories)
        if (c.value != 0) colours.emplace_back(c.colour.r, c.colour.g, c.colour.b);
    return colours;
}

std::vector<QColor> arrow_colours() {
    const render::Colour c = render::velocity_arrow_colour;
    return {QColor(c.r, c.g, c.b)};
}

TEST_F(Tectonic_overlays_ui_test, TogglesDrawTheOverlaysAndFollowTheTimeline) {
    // Off by default, in the View menu with keys of their own.
    for (const char* id : {"show_plate_boundaries", "show_velocity_arrows"}) {
        const auto modes = display_modes();
        const auto mode = std::find_if(modes.begin(), modes.end(), [&](const Display_mode& m) {
            return m.id == std::string_view(id);
        });
        ASSERT_NE(mode, modes.end()) << id;
        EXPECT_FALSE(mode->on_by_default) << id;
        ASSERT_NE(action(id), nullptr) << id;
        EXPECT_FALSE(action(id)->isChecked()) << id;
        EXPECT_FALSE(action(id)->isEnabled()) << id << ": no world, nothing to show";
    }
    EXPECT_EQ(action("show_plate_boundaries")->shortcut(), QKeySequence(QStringLiteral("P")));
    EXPECT_EQ(action("show_velocity_arrows")->shortcut(), QKeySequence(QStringLiteral("V")));
    // No other action of the window answers to the same key.
    for (const QAction* a : window_->findChildren<QAction*>()) {
        if (a->shortcut().isEmpty()) continue;
        for (const QAction* b : window_->findChildren<QAction*>())
            if (a != b && a->shortcut() == b->shortcut())
                ADD_FAILURE() << a->objectName().toStdString() << " and "
                              << b->objectName().toStdString() << " share "
                              << a->shortcut().toString().toStdString();
    }

    const World start = testing::small_world(5000);
    window_->set_document(start, QString(), false);
    window_->live_water().set_enabled(false); // the checks compare overlays, not water
    settle();
    ASSERT_NE(start.find_layer("plate_boundary"), nullptr) << "the default pipeline classifies";
    ASSERT_EQ(start.find_layer("velocity"), nullptr) << "only tectonics writes velocity";
    EXPECT_TRUE(action("show_plate_boundaries")->isEnabled());
    EXPECT_FALSE(action("show_velocity_arrows")->isEnabled()) << "no velocity layer";
    const QImage plain = screenshot("tectonic_overlays_off");
    ASSERT_GT(planet_pixels(plain), 1000) << "the window shows a planet";
    const auto plain_boundaries = mask_of(plain, boundary_colours());

    // Plate boundaries: lines in the kinds' colours, and the key names the kinds.
    action("show_plate_boundaries")->trigger();
    EXPECT_TRUE(window_->viewport()->options().plate_boundaries);
    const QImage with_boundaries = screenshot("tectonic_overlays_boundaries");
    const auto boundaries = mask_of(with_boundaries, boundary_colours());
    std::cout << "[ overlays ] boundary pixels " << count(plain_boundaries) << " -> "
              << count(boundaries) << "\n";
    EXPECT_GT(count(boundaries), count(plain_boundaries) + 500);
    const auto& key = window_->viewport()->overlay_key();
    ASSERT_FALSE(key.empty());
    EXPECT_TRUE(std::any_of(key.begin(), key.end(),
                            [](const Overlay_key_line& l) { return l.text == "ridge"; }));

    // A step of the timeline writes velocity: the arrows can be turned on, and draw.
    // The dock takes room from the view: the pictures compared below are all taken with it.
    window_->action("show_timeline")->trigger();
    const auto start_boundaries =
        mask_of(screenshot("tectonic_overlays_boundaries_docked"), boundary_colours());
    step();
    EXPECT_TRUE(action("show_velocity_arrows")->isEnabled());
    const QImage step_1 = screenshot("tectonic_overlays_step_1");
    const auto arrows_off = mask_of(step_1, arrow_colours());
    action("show_velocity_arrows")->trigger();
    EXPECT_TRUE(window_->viewport()->options().velocity_arrows);
    const QImage arrows_1 = screenshot("tectonic_overlays_arrows_step_1");
    const auto arrows_on = mask_of(arrows_1, arrow_colours());
    std::cout << "[ overlays ] arrow pixels " << count(arrows_off) << " -> " << count(arrows_on)
              << "\n";
    EXPECT_GT(count(arrows_on), count(arrows_off) + 300);
    const auto& key_1 = window_->viewport()->overlay_key();
    ASSERT_FALSE(key_1.empty());
    EXPECT_TRUE(key_1.back().text.startsWith("arrow: motion in"))
        << key_1.back().text.toStdString();

    // More steps: boundaries and arrows move with the plates.
    for (int i = 0; i < 15; ++i)
        step();
    const QImage arrows_16 = screenshot("tectonic_overlays_arrows_step_16");
    const auto boundaries_16 = mask_of(arrows_16, boundary_colours());
    const auto boundaries_1 = mask_of(arrows_1, boundary_colours());
    const int moved = differing(boundaries_1, boundaries_16);
    std::cout << "[ overlays ] boundary pixels that moved in 15 steps: " << moved << "\n";
    EXPECT_GT(moved, 200);
    EXPECT_GT(differing(arrows_on, mask_of(arrows_16, arrow_colours())), 100);

    // Scrubbing back to the step before the run: no velocity there, no arrows; the boundaries
    // are the start's again.
    auto* slider = dock()->findChild<QSlider*>("timeline_slider");
    ASSERT_NE(slider, nullptr);
    slider->setValue(0);
    EXPECT_TRUE(*window_->world() == start);
    EXPECT_FALSE(action("show_velocity_arrows")->isEnabled());
    EXPECT_TRUE(action("show_velocity_arrows")->isChecked()) << "kept for the next world";
    const QImage scrubbed = screenshot("tectonic_overlays_scrubbed_to_0");
    EXPECT_LT(count(mask_of(scrubbed, arrow_colours())), count(arrows_off) + 50);
    EXPECT_EQ(differing(mask_of(scrubbed, boundary_colours()), start_boundaries), 0)
        << "the start's boundaries again";
    // Forward again: the arrows are back as they were at the last step.
    slider->setValue(slider->maximum());
    EXPECT_TRUE(action("show_velocity_arrows")->isEnabled());
    const QImage forward = screenshot("tectonic_overlays_scrubbed_to_16");
    EXPECT_EQ(differing(mask_of(forward, arrow_colours()), mask_of(arrows_16, arrow_colours())), 0);

    // Undo takes the run back: the start's picture, without arrows.
    window_->undo_stack()->undo();
    settle();
    EXPECT_TRUE(*window_->world() == start);
    EXPECT_FALSE(action("show_velocity_arrows")->isEnabled());
    const QImage undone = screenshot("tectonic_overlays_undone");
    EXPECT_EQ(differing(mask_of(undone, boundary_colours()), start_boundaries), 0);

    // Off again: the plain picture.
    action("show_plate_boundaries")->trigger();
    const QImage off = screenshot("tectonic_overlays_off_again");
    EXPECT_LE(count(mask_of(off, boundary_colours())), count(plain_boundaries) + 20);
    EXPECT_TRUE(window_->viewport()->overlay_key().empty());
}

} // namespace
} // namespace orbis::ui
