// SPDX-License-Identifier: MIT
// Live water without a window: a brush stroke makes the water and climate stale, the updater
// computes them again off the GUI thread and folds them into the stroke's undo step, and undo
// brings the old rivers back exactly.
#include "ui/document.hpp"
#include "ui/live_water.hpp"
#include "ui_support.hpp"

#include "orbis/edit/brush.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/refresh.hpp"
#include "orbis/gen/run_memory.hpp"
#include "orbis/io/formats.hpp"
#include "ui/editor_modules.hpp"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace orbis::ui {
namespace {

// The highest point of `world`: a stroke there changes where water runs.
glm::dvec3 peak(const World& world) {
    const auto* height = world.layer(Layer_info<float, Layer_type::vertex>("elevation"));
    const auto& position = *world.layer(position_layer);
    Vertex best = *world.mesh().vertices().begin();
    for (const Vertex v : world.mesh().vertices())
        if ((*height)[v] > (*height)[best]) best = v;
    return glm::dvec3(position[best]);
}

// One stroke of `dabs` dabs lowering the terrain around `at` by a lot, as the brush tool
// pushes it: each dab a step of the same gesture.
void stroke(Document& doc, glm::dvec3 at, int dabs) {
    edit::Brush b;
    b.layer = "elevation";
    b.mode = edit::Brush_mode::lower;
    b.radius_km = 400;
    b.strength = 3000;
    const std::uint64_t gesture = doc.new_gesture();
    for (int d = 0; d < dabs; ++d) {
        World step = *doc.world();
        edit::apply_dab(step, b, at);
        doc.push("Brush", std::move(step), std::nullopt, Command_id::brush_stroke, gesture);
        at = glm::normalize(at + glm::dvec3(0.01, 0.0, 0.0)) * glm::length(at);
    }
}

bool same_water(const World& a, const World& b) {
    const Mesh& m = a.mesh();
    if (!(m == b.mesh())) return false;
    const auto& la = *a.layer(gen::lake_layer);
    const auto& lb = *b.layer(gen::lake_layer);
    const auto& da = *a.layer(gen::discharge_layer);
    const auto& db = *b.layer(gen::discharge_layer);
    for (const Vertex v : m.vertices())
        if (la[v] != lb[v]) return false;
    for (const Edge e : m.edges())
        if (da[e] != db[e] || da[e.sym()] != db[e.sym()]) return false;
    return true;
}

TEST(Live_water, AStrokeGetsFreshWaterInItsOwnUndoStep) {
    Document doc;
    doc.reset(testing::small_world(6000), QString(), false);
    ASSERT_NE(doc.world()->layer(gen::discharge_layer), nullptr)
        << "the default pipeline computes water";
    Live_water live(doc);
    live.set_enabled(true);
    live.finish();
    EXPECT_EQ(doc.undo_stack()->count(), 0) << "a fresh world needs no update";
    const World before = *doc.world();

    stroke(doc, peak(before), 3);
    ASSERT_TRUE(gen::first_stale_step(*doc.world(), gen::live_water_modules))
        << "the stroke made the water stale";
    live.finish();
    EXPECT_FALSE(gen::first_stale_step(*doc.world(), gen::live_water_modules));
    EXPECT_EQ(doc.undo_stack()->count(), 1) << "the water joined the stroke's step";
    EXPECT_FALSE(same_water(*doc.world(), before)) << "the rivers moved";
    const World after = *doc.world();

    doc.undo_stack()->undo();
    live.finish();
    EXPECT_TRUE(*doc.world() == before) << "undo brings the old rivers back exactly";
    EXPECT_TRUE(same_water(*doc.world(), before));
    doc.undo_stack()->redo();
    live.finish();
    EXPECT_TRUE(*doc.world() == after);
}

TEST(Live_water, AResultForAStateThatIsGoneIsDroppedAndRedone) {
    Document doc;
    doc.reset(testing::small_world(6000), QString(), false);
    Live_water live(doc);
    live.set_enabled(true);
    const glm::dvec3 at = peak(*doc.world());
    // Two strokes back to back: the first one's update (if it started) is for a state that
    // the second replaced.
    stroke(doc, at, 2);
    QCoreApplication::processEvents();
    stroke(doc, -at, 2);
    live.finish();
    EXPECT_EQ(doc.undo_stack()->count(), 2);
    EXPECT_FALSE(gen::first_stale_step(*doc.world(), gen::live_water_modules));
    // Switched off, a stroke leaves the water stale; switching on computes it.
    live.set_enabled(false);
    stroke(doc, at, 1);
    live.finish();
    EXPECT_TRUE(gen::first_stale_step(*doc.world(), gen::live_water_modules));
    live.set_enabled(true);
    live.finish();
    EXPECT_FALSE(gen::first_stale_step(*doc.world(), gen::live_water_modules));
    EXPECT_EQ(doc.undo_stack()->count(), 3);
}

// An opened file's water was computed elsewhere: live water prepares it in the background, so
// that the first stroke's update sweeps the climate only where the stroke reaches.
TEST(Live_water, AnOpenedWorldIsPreparedSoTheFirstStrokeRedoesOnlyWhatItReaches) {
    QTemporaryDir dir;
    const std::string path = dir.filePath("opened.orbis").toStdString();
    io::save_any(testing::small_world(6000), path);
    Document doc;
    doc.reset(io::load_any(path), QString(), false);
    Live_water live(doc);
    live.set_enabled(true);
    live.finish();
    EXPECT_EQ(doc.undo_stack()->count(), 0) << "preparing changes nothing";
    const World before = *doc.world();

    stroke(doc, peak(before), 1);
    live.finish();
    ASSERT_EQ(doc.undo_stack()->count(), 1);
    EXPECT_FALSE(gen::first_stale_step(*doc.world(), gen::live_water_modules));
    const auto* climate =
        dynamic_cast<const gen::Climate_module*>(editor_modules().find("climate"));
    ASSERT_NE(climate, nullptr);
    EXPECT_LT(climate->last_run_vertices(), doc.world()->mesh().vertex_count())
        << "the update after the first stroke was a whole run";

    // And the water is what a whole run gives.
    World whole = *doc.world();
    gen::set_run_memory_limit(0);
    for (const Step_record& step : whole.provenance().steps)
        if (step.module == "hydrology")
            gen::run_module(whole, gen::Hydrology_module{}, step.params);
    gen::set_run_memory_limit(4'000'000);
    EXPECT_TRUE(same_water(whole, *doc.world()));
}

} // namespace
} // namespace orbis::ui
