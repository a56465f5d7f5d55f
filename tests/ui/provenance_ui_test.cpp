// SPDX-License-Identifier: MIT
// Stale layers in the editor: the Layers dock marks them with the reason, Re-run brings them up
// to date as one undoable step, undo brings the marks back; plugin modules run like built-in
// ones (when the example plugin is on ORBIS_MODULE_PATH: the ctest entry ui.plugin).
#include "ui/dialogs/run_module_dialog.hpp"
#include "ui/docks/layers_dock.hpp"
#include "ui/editor_modules.hpp"
#include "ui/live_water.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport.hpp"
#include "ui_support.hpp"

#include "orbis/core/provenance.hpp"
#include "orbis/edit/selection.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "ui/document.hpp"

#include <QApplication>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

namespace orbis::ui {
namespace {

class Provenance_ui_test : public ::testing::Test {
protected:
    void SetUp() override {
        window_ = std::make_unique<Main_window>();
        window_->resize(1100, 760);
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
    const World& world() const { return *window_->world(); }
    Layers_dock* layers() const { return window_->layers_dock(); }
    // The text of column `column` of the Layers dock's row for `layer`.
    QString row_text(const std::string& layer, int column) const {
        auto* table = layers()->findChild<QTreeWidget*>("layers_table");
        for (int i = 0; i < table->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = table->topLevelItem(i);
            if (item->data(0, Qt::UserRole).toString().toStdString() == layer)
                return item->text(column);
        }
        return "(no row)";
    }
    // The dock's statistics and marks follow edits once they pause: wait for the state.
    bool wait_for_state(const std::string& layer, const QString& state) {
        return QTest::qWaitFor([&] { return row_text(layer, 7) == state; }, 20000);
    }
    std::unique_ptr<Main_window> window_;
};

TEST_F(Provenance_ui_test, StaleLayersAreMarkedAndReRunClearsThemUndoably) {
    open(testing::small_world(3000));
    EXPECT_EQ(row_text("elevation", 7), "");
    auto* rerun = layers()->findChild<QPushButton*>("rerun_step");
    auto* reason = layers()->findChild<QLabel*>("stale_reason");
    ASSERT_NE(rerun, nullptr);
    EXPECT_FALSE(rerun->isVisible());

    // Other plates: the elevation computed from the old ones is stale.
    Dict plates;
    plates.set("count", std::int64_t(9));
    ASSERT_TRUE(window_->run_module("plates", plates));
    window_->finish_generation();
    settle();
    const World after_plates = world();
    ASSERT_TRUE(wait_for_state("elevation", "stale"));
    EXPECT_EQ(row_text("plate_id", 7), "");
    layers()->set_shown_layer("elevation");
    settle();
    EXPECT_TRUE(rerun->isVisible());
    EXPECT_TRUE(rerun->isEnabled());
    EXPECT_NE(reason->text().indexOf("plate_id changed after `elevation` ran"), -1)
        << reason->text().toStdString();
    QTest::qWait(50); // the screenshot shows the dock as a user sees it
    window_->grab().save(testing::screenshot_path("stale_layers"));

    // Re-run: one undoable step, after which nothing is stale.
    const int steps = window_->undo_stack()->count();
    QTest::mouseClick(rerun, Qt::LeftButton);
    window_->finish_generation();
    // The new elevation makes climate, rivers and biomes stale; live water computes them again
    // within the same step.
    window_->live_water().finish();
    settle();
    EXPECT_EQ(window_->undo_stack()->count(), steps + 1);
    EXPECT_TRUE(stale_layers(world()).empty());
    EXPECT_TRUE(wait_for_state("elevation", ""));
    EXPECT_FALSE(rerun->isVisible());

    // Undo brings the marks back, exactly as they were.
    window_->undo_stack()->undo();
    settle();
    EXPECT_TRUE(world() == after_plates);
    EXPECT_TRUE(wait_for_state("elevation", "stale"));
}

TEST_F(Provenance_ui_test, HintsLabelTheLayersAndTheLegend) {
    open(testing::small_world(3000));
    EXPECT_EQ(row_text("elevation", 0), "elevation (m)");
    EXPECT_EQ(row_text("plate_id", 0), "plate_id – Plate");
    layers()->set_shown_layer("plate_id");
    EXPECT_EQ(layers()->colour_options().map, Colour_map_kind::categorical);
    settle();
    // The legend lists the plates by name with their colours instead of a bar.
    const Legend& legend = window_->viewport()->legend();
    ASSERT_TRUE(legend.visible);
    EXPECT_EQ(legend.title, "Plate");
    ASSERT_EQ(legend.categories, world().hints("plate_id")->categories);
    EXPECT_EQ(legend.categories[1].name, "Plate 1");
    QTest::qWait(50);
    const QImage shot = window_->viewport()->grabFramebuffer();
    shot.save(testing::screenshot_path("plate_legend"));
    const QRect panel = window_->viewport()->legend_bar();
    ASSERT_FALSE(panel.isEmpty());
    // The swatch of "Plate 1" (second row under the title) has its category's colour.
    const int row = QFontMetrics(window_->viewport()->font()).height() + 2;
    const QPoint swatch(panel.left() + 8 + (row - 6) / 2, panel.top() + 6 + 2 * row + row / 2);
    const glm::u8vec3 c = legend.categories[1].colour;
    const QColor got = shot.pixelColor(swatch);
    EXPECT_LE(std::abs(got.red() - c.r) + std::abs(got.green() - c.g) + std::abs(got.blue() - c.b),
              12)
        << got.name().toStdString();
    layers()->set_shown_layer("elevation");
    EXPECT_EQ(layers()->colour_options().map, Colour_map_kind::terrain);
}

TEST_F(Provenance_ui_test, PluginModulesRunLikeBuiltInOnes) {
    if (!editor_modules().find("slope")) {
        if (std::getenv("ORBIS_REQUIRE_PLUGIN")) FAIL() << "the example plugin was not loaded";
        GTEST_SKIP() << "the example plugin is not on ORBIS_MODULE_PATH (ctest ui.plugin sets it)";
    }
    EXPECT_TRUE(module_choices().contains("slope"));
    open(testing::small_world(3000));
    ASSERT_TRUE(window_->run_module("slope", Dict()));
    window_->finish_generation();
    settle();
    ASSERT_NE(world().find_layer("slope"), nullptr);
    EXPECT_EQ(world().hints("slope")->label, "Slope");
    EXPECT_TRUE(wait_for_state("slope", ""));

    // Editing elevation by hand makes the slope stale, and nothing else.
    const Vertex v = *world().mesh().vertices().begin();
    ASSERT_TRUE(window_->set_value("elevation", v.index(), "1234"));
    settle();
    EXPECT_TRUE(wait_for_state("slope", "stale"));
    const auto stale = stale_layers(world());
    ASSERT_EQ(stale.size(), 1u);
    EXPECT_EQ(stale[0].layer, "slope");
    EXPECT_EQ(stale[0].reason, "elevation changed after `slope` ran");
}

} // namespace
} // namespace orbis::ui

namespace orbis::ui {
namespace {

TEST_F(Provenance_ui_test, ModulesRunOnTheSelectionOnly) {
    open(testing::small_world(3000));
    const World before = world();
    // Nothing selected: refused, nothing changes.
    EXPECT_FALSE(window_->run_module_on_selection("elevation", Dict()));
    edit::Selection half;
    for (const Vertex v : world().mesh().vertices())
        if (v.index() % 2 == 0) half.vertices.push_back(v);
    window_->document().set_selection(half);
    // A module that edits the mesh cannot run on part of it.
    EXPECT_FALSE(window_->run_module_on_selection("refine", Dict()));
    EXPECT_TRUE(world() == before);

    Dict rough;
    rough.set("roughness", 2500.0);
    ASSERT_TRUE(window_->run_module_on_selection("elevation", rough));
    window_->finish_generation();
    settle();
    EXPECT_TRUE(window_->undo_stack()->undoText().startsWith("Run elevation on the selection"))
        << window_->undo_stack()->undoText().toStdString();
    const auto& was = *before.layer(gen::elevation_layer);
    const auto& now = *world().layer(gen::elevation_layer);
    std::size_t changed = 0;
    for (const Vertex v : world().mesh().vertices()) {
        if (v.index() % 2 != 0) {
            EXPECT_EQ(now[v], was[v]) << v.index();
        } else {
            changed += now[v] != was[v];
        }
    }
    EXPECT_GT(changed, half.vertices.size() / 2);
    window_->undo_stack()->undo();
    EXPECT_TRUE(world() == before);
}

} // namespace
} // namespace orbis::ui

#include "ui/dialogs/new_world_dialog.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

namespace orbis::ui {
namespace {

// The form shows exactly what each module declares: one field per parameter, of its kind, with
// its range and default, and gives the defaults back unchanged.
TEST(Module_form, EveryModuleFormFollowsItsDeclarations) {
    for (const gen::Module* m : editor_modules().modules()) {
        gen::Pipeline one;
        one.steps.push_back({std::string(m->name()), gen::complete_parameters(*m, {})});
        New_world_dialog dialog(one, editor_modules());
        for (const gen::Parameter& p : m->parameters()) {
            const QString name = QString::fromStdString(std::string(m->name()) + "." + p.name);
            QWidget* field = dialog.findChild<QWidget*>(name);
            ASSERT_NE(field, nullptr) << name.toStdString();
            switch (p.kind) {
            case gen::Parameter_kind::boolean:
                EXPECT_NE(qobject_cast<QCheckBox*>(field), nullptr) << name.toStdString();
                break;
            case gen::Parameter_kind::string:
                EXPECT_NE(qobject_cast<QLineEdit*>(field), nullptr) << name.toStdString();
                break;
            case gen::Parameter_kind::integer:
                if (auto* box = qobject_cast<QSpinBox*>(field)) {
                    EXPECT_EQ(box->minimum(), int(p.min)) << name.toStdString();
                    EXPECT_EQ(box->maximum(), int(p.max)) << name.toStdString();
                } else {
                    EXPECT_NE(qobject_cast<QDoubleSpinBox*>(field), nullptr) << name.toStdString();
                }
                break;
            case gen::Parameter_kind::real: {
                auto* box = qobject_cast<QDoubleSpinBox*>(field);
                ASSERT_NE(box, nullptr) << name.toStdString();
                EXPECT_EQ(box->minimum(), p.min) << name.toStdString();
                EXPECT_EQ(box->maximum(), p.max) << name.toStdString();
                break;
            }
            }
            EXPECT_EQ(field->toolTip().toStdString(), p.description);
        }
        // Defaults survive the form (4 decimals hold every default we declare).
        EXPECT_EQ(dialog.pipeline(), one) << m->name();
    }
}

} // namespace
} // namespace orbis::ui
