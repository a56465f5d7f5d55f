// SPDX-License-Identifier: MIT
// The Document without a window: brush strokes mixed with mesh edits as steps, undone and redone
// exactly; memory per step is what the step copied; the history budget keeps the document.
#include "ui/document.hpp"
#include "ui/selection_actions.hpp"
#include "ui_support.hpp"

#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/edit/brush.hpp"
#include "orbis/edit/selection.hpp"
#include "orbis/gen/elevation_module.hpp"

#include <QUndoStack>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <random>

namespace orbis::ui {
namespace {

constexpr auto area =
    Layer_info<float, Layer_type::face>("area").interpolation(Interpolation::lerp);

// A random point on the sphere of radius 6371 km.
glm::dvec3 random_point(std::mt19937_64& rng) {
    std::normal_distribution<double> n;
    glm::dvec3 p(n(rng), n(rng), n(rng));
    return 6371.0 * glm::normalize(p);
}

TEST(Document, StrokesAndMeshEditsUndoAndRedoExactly) {
    World w = testing::small_world(100000);
    {
        auto [a] = w.lock_layer(area);
        for (const Face f : w.mesh().faces())
            a[f] = float(f.index() % 13);
    }
    Document doc;
    doc.reset(w, QString(), false);
    const World start = *doc.world();
    std::mt19937_64 rng(17);
    const edit::Brush_mode modes[] = {edit::Brush_mode::raise,  edit::Brush_mode::lower,
                                      edit::Brush_mode::smooth, edit::Brush_mode::flatten,
                                      edit::Brush_mode::set,    edit::Brush_mode::noise};
    int strokes = 0, edits = 0;
    for (int i = 0; i < 260; ++i) {
        World next = *doc.world();
        if (i % 4 == 3) {
            // A mesh edit: a flip, split or collapse of a random edge (refusals change nothing).
            std::vector<Edge> edges;
            for (const Edge e : next.mesh().edges())
                if (rng() % 97 == 0) edges.push_back(e);
            const Edge e = edges[rng() % edges.size()];
            {
                Mesh_lock mesh = next.lock_mesh();
                switch (rng() % 3) {
                case 0:
                    (void)mesh.try_flip(e);
                    break;
                case 1:
                    (void)mesh.try_split(e, 0.5f);
                    break;
                default:
                    (void)mesh.try_collapse(e, 0.5f);
                    break;
                }
            }
            ++edits;
            doc.push("edit", std::move(next), std::nullopt);
        } else {
            // A stroke of a few dabs of one mode on elevation, plate_id or the face layer.
            edit::Brush b;
            b.mode = modes[rng() % 6];
            const int layer = int(rng() % 3);
            b.layer = layer == 0 ? "elevation" : layer == 1 ? "plate_id" : "area";
            if (b.layer == "plate_id" && b.mode != edit::Brush_mode::set)
                b.mode = edit::Brush_mode::set;
            b.radius_km = 100.0 + double(rng() % 900);
            b.strength = (b.mode == edit::Brush_mode::smooth || b.mode == edit::Brush_mode::flatten)
                             ? 0.5
                             : 300.0;
            b.value = double(rng() % 10);
            const std::uint64_t gesture = doc.new_gesture();
            glm::dvec3 at = random_point(rng);
            for (int d = 0; d < 4; ++d) {
                World step = *doc.world();
                ASSERT_FALSE(edit::check_brush(step, b)) << *edit::check_brush(step, b);
                edit::apply_dab(step, b, at);
                doc.push("stroke", std::move(step), std::nullopt, Command_id::brush_stroke,
                         gesture);
                at = glm::normalize(at + 0.02 * random_point(rng) / 6371.0) * 6371.0;
            }
            ++strokes;
        }
        ASSERT_FALSE(doc.world()->mesh().validate()) << "after operation " << i;
    }
    EXPECT_GE(strokes, 190);
    EXPECT_GE(edits, 50);
    EXPECT_EQ(doc.undo_stack()->count(), strokes + edits) << "each stroke merged into one step";
    const World end = *doc.world();
    doc.undo_stack()->setIndex(0);
    EXPECT_TRUE(*doc.world() == start);
    doc.undo_stack()->setIndex(doc.undo_stack()->count());
    EXPECT_TRUE(*doc.world() == end);
    // One at a time too, checking the mesh on the way.
    for (int i = doc.undo_stack()->count(); i > 0; i -= 37) {
        doc.undo_stack()->setIndex(i);
        ASSERT_FALSE(doc.world()->mesh().validate());
    }
}

TEST(Document, AStepHoldsOnlyTheChunksItCopied) {
    Document doc;
    doc.reset(testing::small_world(100000), QString(), false);
    const std::size_t layer_bytes = doc.world()->find_layer("elevation")->bytes();
    edit::Brush b;
    b.layer = "elevation";
    b.radius_km = 200.0;
    const std::uint64_t gesture = doc.new_gesture();
    glm::dvec3 at(0.0, 0.0, 6371.0);
    for (int d = 0; d < 30; ++d) {
        World step = *doc.world();
        edit::apply_dab(step, b, at);
        doc.push("stroke", std::move(step), std::nullopt, Command_id::brush_stroke, gesture);
        at = glm::normalize(at + glm::dvec3(50.0, 0.0, 0.0)) * 6371.0;
    }
    ASSERT_EQ(doc.undo_stack()->count(), 1);
    EXPECT_GT(doc.history_bytes(), 0u);
    EXPECT_LT(doc.history_bytes(), layer_bytes / 4);
    // A second stroke elsewhere is a second step.
    World other = *doc.world();
    edit::apply_dab(other, b, glm::dvec3(6371.0, 0.0, 0.0));
    doc.push("stroke", std::move(other), std::nullopt, Command_id::brush_stroke, doc.new_gesture());
    EXPECT_EQ(doc.undo_stack()->count(), 2);
}

TEST(Document, EditsAreRefusedWhileBusy) {
    Document doc;
    EXPECT_TRUE(doc.check_edit()) << "no world: nothing to edit";
    doc.reset(testing::small_world(2000), QString(), false);
    EXPECT_FALSE(doc.check_edit());
    doc.set_busy("a module is running");
    ASSERT_TRUE(doc.check_edit());
    EXPECT_EQ(*doc.check_edit(), "a module is running");
    doc.set_busy(QString());
    EXPECT_FALSE(doc.check_edit());
}

// Every vertex outside `selected` keeps its position and every vertex layer value.
void expect_outside_untouched(const World& before, const World& after,
                              const std::vector<Vertex>& selected) {
    std::vector<bool> in(before.mesh().vertex_slots(), false);
    for (const Vertex v : selected)
        in[v.index()] = true;
    std::vector<const Layer_base*> layers;
    for (const auto& name : before.layer_names())
        if (const Layer_base* l = before.find_layer(name); l && l->type() == Layer_type::vertex)
            layers.push_back(l);
    std::size_t checked = 0, inside = 0;
    for (const Vertex v : before.mesh().vertices()) {
        if (in[v.index()]) {
            ++inside;
            continue;
        }
        ASSERT_TRUE(after.mesh().contains(v)) << "v" << v.index() << " outside was deleted";
        for (const Layer_base* l : layers) {
            const Layer_base* now = after.find_layer(l->name());
            ASSERT_NE(now, nullptr);
            ASSERT_EQ(l->format_value(v.index()), now->format_value(v.index()))
                << l->name() << " of v" << v.index() << " outside the selection changed";
        }
        ++checked;
    }
    EXPECT_EQ(checked + inside, before.mesh().vertex_count());
    EXPECT_GT(checked, inside) << "the selection is a small part of the world";
}

TEST(Document, RefineAndCoarsenTouchOnlyTheSelectionAndUndoExactly) {
    Document doc;
    doc.reset(testing::small_world(100000), QString(), false);
    const World start = *doc.world();
    edit::Selection region;
    region.vertices = edit::select_disc(start, glm::dvec3(0.0, 0.0, 6371.0), 500.0);
    std::sort(region.vertices.begin(), region.vertices.end(),
              [](Vertex a, Vertex b) { return a.index() < b.index(); });
    ASSERT_GT(region.vertices.size(), 100u);
    doc.set_selection(region);

    // Refine: more vertices inside, nothing outside touched, the mesh valid, undo exact.
    ASSERT_FALSE(apply_selection_op(doc, Selection_op::refine, target_length(40.0)));
    const World refined = *doc.world();
    EXPECT_FALSE(refined.mesh().validate());
    EXPECT_GT(refined.mesh().vertex_count(), start.mesh().vertex_count());
    EXPECT_GT(doc.selection().vertices.size(), region.vertices.size()) << "new vertices join";
    expect_outside_untouched(start, refined, region.vertices);

    // Coarsen what refine made: fewer vertices, still valid, outside untouched.
    const edit::Selection grown = doc.selection();
    ASSERT_FALSE(apply_selection_op(doc, Selection_op::coarsen, target_length(150.0)));
    EXPECT_FALSE(doc.world()->mesh().validate());
    EXPECT_LT(doc.world()->mesh().vertex_count(), refined.mesh().vertex_count());
    expect_outside_untouched(refined, *doc.world(), grown.vertices);

    doc.undo_stack()->undo();
    EXPECT_TRUE(*doc.world() == refined);
    doc.undo_stack()->undo();
    EXPECT_TRUE(*doc.world() == start);

    // Refusals change nothing and say why.
    doc.set_selection({});
    const auto why = apply_selection_op(doc, Selection_op::refine, target_length(40.0));
    ASSERT_TRUE(why);
    EXPECT_FALSE(why->isEmpty());
    EXPECT_TRUE(*doc.world() == start);
    doc.set_selection(region);
    EXPECT_TRUE(apply_selection_op(doc, Selection_op::refine, target_length(-1.0)));
    EXPECT_TRUE(apply_selection_op(doc, Selection_op::set_values, layer_value("position", 1.0)));
    EXPECT_TRUE(*doc.world() == start);
}

TEST(Document, SelectionValueOperationsChangeOnlyTheSelection) {
    Document doc;
    doc.reset(testing::small_world(20000), QString(), false);
    const World start = *doc.world();
    edit::Selection region;
    region.vertices = edit::select_disc(start, glm::dvec3(6371.0, 0.0, 0.0), 800.0);
    std::sort(region.vertices.begin(), region.vertices.end(),
              [](Vertex a, Vertex b) { return a.index() < b.index(); });
    doc.set_selection(region);
    ASSERT_FALSE(
        apply_selection_op(doc, Selection_op::set_values, layer_value("elevation", 1234.0)));
    const auto* e = doc.world()->layer(gen::elevation_layer);
    for (const Vertex v : region.vertices)
        EXPECT_EQ((*e)[v], 1234.0f);
    expect_outside_untouched(start, *doc.world(), region.vertices);
    ASSERT_FALSE(apply_selection_op(doc, Selection_op::smooth_values, smoothing("elevation", 3)));
    expect_outside_untouched(start, *doc.world(), region.vertices);
    const QString summary = selection_summary(*doc.world(), doc.selection());
    EXPECT_NE(summary.indexOf("km²"), -1);
    EXPECT_NE(summary.indexOf("elevation"), -1);
    doc.undo_stack()->setIndex(0);
    EXPECT_TRUE(*doc.world() == start);
}

} // namespace
} // namespace orbis::ui
