// SPDX-License-Identifier: MIT
// The editing tools driven through the real window: previews say what clicks do, clicks do
// exactly what the core's edits do, refusals change nothing, undo and redo give back the exact
// Worlds, the inspector shows and edits values, modules run as one step.
#include "ui/inspector_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport.hpp"
#include "ui_support.hpp"

#include "orbis/core/layer_info.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/render/edit_preview.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QImage>
#include <QMouseEvent>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cstdlib>
#include <random>

namespace orbis::ui {
namespace {

constexpr auto area = Layer_info<float, Layer_type::face>("area");
constexpr auto flow = Layer_info<float, Layer_type::edge_primal_directed>("flow");
constexpr auto crossing = Layer_info<std::int32_t, Layer_type::edge_dual>("crossing");
constexpr auto bounded = Layer_info<float, Layer_type::vertex>("bounded")
                             .min(0.f)
                             .max(1.f)
                             .validate(Validation::range)
                             .interpolation(Interpolation::lerp);

World editable_world(std::int64_t count) {
    World w = testing::small_world(count);
    auto [a, f, c, b] = w.lock_layer(area, flow, crossing, bounded);
    for (const Face x : w.mesh().faces())
        a[x] = float(x.index() % 17);
    for (const Edge e : w.mesh().edges()) {
        f[e] = float(e.index());
        f[e.sym()] = -float(e.index());
        c[e.rot()] = std::int32_t(e.quad_index() % 5);
    }
    for (const Vertex v : w.mesh().vertices())
        b[v] = 0.5f;
    return w;
}

using testing::screenshot_path;

class Editor_test : public ::testing::Test {
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
        // Edits read better on the wireframe, and the screenshots show what users edit with.
        if (!window_->action("show_wireframe")->isChecked())
            window_->action("show_wireframe")->trigger();
        settle();
    }
    void settle() {
        window_->viewport()->finish_scene();
        QApplication::processEvents();
    }
    const World& world() const { return *window_->world(); }
    Viewport* viewport() const { return window_->viewport(); }

    // The viewport point of world point p.
    QPoint pixel(const glm::dvec3& p) const {
        const glm::dvec3 at = viewport()->camera().project(p);
        return QPoint(int(at.x), int(at.y));
    }
    glm::dvec3 position(Vertex v) const { return glm::dvec3((*world().layer(position_layer))[v]); }
    // A point inside the face left of e, close to e's middle: a pick there names e.
    glm::dvec3 near_edge(Edge e) const {
        const Mesh& m = world().mesh();
        const glm::dvec3 a = position(e.origin(m)), b = position(e.dest(m));
        const glm::dvec3 c = position(e.left_next(m).dest(m));
        return 0.45 * a + 0.45 * b + 0.1 * c;
    }
    // An edge whose middle faces the camera, with `wanted` true for an edge `check` allows.
    template <class Check>
    Edge front_edge(Check check, bool wanted) const {
        const glm::dvec3 eye = glm::normalize(viewport()->camera().eye());
        Edge best;
        double best_dot = 0.5;
        for (const Edge e : world().mesh().edges()) {
            if (bool(!check(e)) != wanted) continue;
            const double d = glm::dot(glm::normalize(near_edge(e)), eye);
            if (d > best_dot) {
                best_dot = d;
                best = e;
            }
        }
        return best;
    }
    void hover(QPoint at) {
        QMouseEvent move(QEvent::MouseMove, QPointF(at), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(viewport(), &move);
        QApplication::processEvents();
    }
    void click(QPoint at, Qt::KeyboardModifiers mods = Qt::NoModifier) {
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(at), Qt::LeftButton, Qt::LeftButton,
                          mods);
        QApplication::sendEvent(viewport(), &press);
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(at), Qt::LeftButton, Qt::NoButton,
                            mods);
        QApplication::sendEvent(viewport(), &release);
        QApplication::processEvents();
    }
    void drag(QPoint from, QPoint to) {
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(from), Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QApplication::sendEvent(viewport(), &press);
        for (int i = 1; i <= 4; ++i) {
            const QPoint at = from + (to - from) * i / 4;
            QMouseEvent move(QEvent::MouseMove, QPointF(at), Qt::LeftButton, Qt::LeftButton,
                             Qt::NoModifier);
            QApplication::sendEvent(viewport(), &move);
        }
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(to), Qt::LeftButton, Qt::NoButton,
                            Qt::NoModifier);
        QApplication::sendEvent(viewport(), &release);
        QApplication::processEvents();
    }
    // Zooms the view towards viewport point `at`, as `notches` wheel steps do.
    void zoom(QPoint at, int notches) {
        QWheelEvent wheel(QPointF(at), viewport()->mapToGlobal(at), QPoint(),
                          QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                          false);
        QApplication::sendEvent(viewport(), &wheel);
        QApplication::processEvents();
    }
    void screenshot(const QString& name) {
        settle();
        viewport()->grabFramebuffer().save(screenshot_path(name));
    }

    std::unique_ptr<Main_window> window_;
};

TEST_F(Editor_test, FlipPreviewSaysWhatTheClickDoesAndUndoRedoAreExact) {
    open(editable_world(3000));
    window_->set_tool(render::Edit_tool::flip);
    const Edge e = front_edge([&](Edge x) { return world().mesh().check_flip(x); }, true);
    ASSERT_TRUE(e.valid());
    viewport()->fly_to(near_edge(e));
    zoom(pixel(near_edge(e)), 6);
    const QPoint at = pixel(near_edge(e));
    hover(at);
    const auto preview = window_->preview_at(at, false);
    ASSERT_TRUE(preview);
    EXPECT_TRUE(preview->allowed);
    EXPECT_EQ(preview->edge, e.base());
    EXPECT_EQ(preview->ghost_segments.size(), 2u);
    EXPECT_NE(window_->hover_text().indexOf("Flip e"), -1) << window_->hover_text().toStdString();
    screenshot("tool_flip_allowed");

    const World before = world();
    World expected = before;
    expected.lock_mesh().flip(e.base());
    click(at);
    EXPECT_TRUE(world() == expected) << "the click did not do what Mesh::flip does";
    EXPECT_FALSE(world().mesh().validate());
    EXPECT_TRUE(window_->modified());
    window_->undo_stack()->undo();
    EXPECT_TRUE(world() == before);
    window_->undo_stack()->redo();
    EXPECT_TRUE(world() == expected);
    screenshot("tool_flip_applied");
}

TEST_F(Editor_test, RefusedEditsLeaveTheWorldEqualAndSayWhy) {
    World w = editable_world(3000);
    // Collapses near one vertex until some collapse is refused there (valence drops to 3).
    std::mt19937_64 rng(5);
    bool found = false;
    for (int i = 0; i < 400 && !found; ++i) {
        std::vector<Edge> edges;
        for (const Edge e : w.mesh().edges())
            edges.push_back(e);
        for (const Edge e : edges)
            if (w.mesh().check_collapse(e) &&
                w.mesh().check_collapse(e)->kind == Refusal_kind::link_condition)
                found = true;
        if (!found) (void)w.lock_mesh().try_collapse(edges[rng() % edges.size()], 0.5f);
    }
    ASSERT_TRUE(found);
    open(w);
    Edge refused;
    for (const Edge e : world().mesh().edges())
        if (const auto r = world().mesh().check_collapse(e);
            r && r->kind == Refusal_kind::link_condition)
            refused = e;
    viewport()->fly_to(near_edge(refused));
    settle();
    zoom(pixel(near_edge(refused)), 12);
    window_->set_tool(render::Edit_tool::collapse);
    const QPoint at = pixel(near_edge(refused));
    const auto preview = window_->preview_at(at, false);
    ASSERT_TRUE(preview);
    ASSERT_EQ(preview->edge, refused.base());
    EXPECT_FALSE(preview->allowed);
    ASSERT_TRUE(preview->refusal);
    EXPECT_FALSE(preview->cause_points.empty()) << "the shared neighbour is not shown";
    hover(at);
    screenshot("tool_collapse_refused");
    const World before = world();
    const int steps = window_->undo_stack()->count();
    click(at);
    EXPECT_TRUE(world() == before);
    EXPECT_EQ(window_->undo_stack()->count(), steps);
    EXPECT_NE(window_->statusBar()->currentMessage().indexOf("Refused"), -1);
    EXPECT_NE(window_->statusBar()->currentMessage().indexOf("link"), -1)
        << window_->statusBar()->currentMessage().toStdString();

    // A refused flip: the cause (the edge that already joins the opposite corners) in red.
    Edge unflippable;
    for (const Edge e : world().mesh().edges())
        if (const auto r = world().mesh().check_flip(e);
            r && r->kind == Refusal_kind::already_connected)
            unflippable = e;
    ASSERT_TRUE(unflippable.valid());
    viewport()->fly_to(near_edge(unflippable));
    settle();
    window_->set_tool(render::Edit_tool::flip);
    const QPoint flip_at = pixel(near_edge(unflippable));
    const auto flip = window_->preview_at(flip_at, false);
    ASSERT_TRUE(flip);
    if (flip->edge == unflippable.base()) {
        EXPECT_FALSE(flip->allowed);
        EXPECT_GE(flip->cause_segments.size(), 4u) << "the edge and the connection in red";
        hover(flip_at);
        screenshot("tool_flip_refused");
        click(flip_at);
        EXPECT_TRUE(world() == before);
    }
}

TEST_F(Editor_test, SplitAndCollapsePreviewsMatchTheirClicks) {
    open(editable_world(3000));
    for (const auto tool : {render::Edit_tool::split, render::Edit_tool::collapse}) {
        window_->set_tool(tool);
        const Edge e = front_edge(
            [&](Edge x) {
                return tool == render::Edit_tool::split ? world().mesh().check_split(x)
                                                        : world().mesh().check_collapse(x);
            },
            true);
        ASSERT_TRUE(e.valid());
        const QPoint at = pixel(near_edge(e));
        hover(at);
        const auto p = window_->preview_at(at, false);
        ASSERT_TRUE(p && p->allowed);
        screenshot(QString("tool_%1_allowed").arg(render::edit_tool_name(tool)).toLower());
        World expected = world();
        if (tool == render::Edit_tool::split)
            expected.lock_mesh().split(p->edge, p->t);
        else
            expected.lock_mesh().collapse(p->edge, p->t);
        click(at);
        EXPECT_TRUE(world() == expected) << render::edit_tool_name(tool);
        EXPECT_FALSE(world().mesh().validate());
    }
    // Shift snaps a collapse to the nearer end.
    const Edge e = front_edge([&](Edge x) { return world().mesh().check_collapse(x); }, true);
    const auto snapped = window_->preview_at(pixel(near_edge(e)), true);
    ASSERT_TRUE(snapped);
    EXPECT_TRUE(snapped->t == 0.0f || snapped->t == 1.0f);
}

TEST_F(Editor_test, RandomToolOperationsUndoAndRedoExactly) {
    open(editable_world(20000));
    const World start = world();
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> x(150, viewport()->width() - 150);
    std::uniform_int_distribution<int> y(120, viewport()->height() - 120);
    int refused = 0;
    for (int i = 0; i < 300; ++i) {
        const int kind = int(rng() % 4);
        const QPoint at(x(rng), y(rng));
        if (kind == 3) {
            window_->set_tool(render::Edit_tool::move);
            drag(at, at + QPoint(int(rng() % 21) - 10, int(rng() % 21) - 10));
        } else {
            window_->set_tool(kind == 0   ? render::Edit_tool::flip
                              : kind == 1 ? render::Edit_tool::split
                                          : render::Edit_tool::collapse);
            const World before = world();
            if (!window_->apply_tool_at(at, rng() % 2)) {
                ++refused;
                ASSERT_TRUE(world() == before) << "a refused edit changed the world";
            }
        }
        ASSERT_FALSE(world().mesh().validate()) << "after operation " << i;
        if (i % 50 == 49) {
            viewport()->fly_to(glm::dvec3(double(rng() % 200) - 100.0, double(rng() % 200) - 100.0,
                                          double(rng() % 200) - 100.0));
            settle();
        }
    }
    const World end = world();
    EXPECT_GT(window_->undo_stack()->count(), 150);
    EXPECT_GT(refused, 0) << "no refused operation was tried";
    window_->undo_stack()->setIndex(0);
    EXPECT_TRUE(world() == start);
    window_->undo_stack()->setIndex(window_->undo_stack()->count());
    EXPECT_TRUE(world() == end);
    settle();
    screenshot("random_operations_redone");
}

TEST_F(Editor_test, InspectorShowsTheLayersValuesAndEditsThemUndoably) {
    open(editable_world(3000));
    const Mesh& m = world().mesh();
    const Vertex v = *m.vertices().begin();
    window_->inspector()->pin({Element::Kind::vertex, v, {}, {}});
    QString text = window_->inspector()->text();
    const auto* elevation = world().find_layer("elevation");
    EXPECT_NE(
        text.indexOf("elevation = " + QString::fromStdString(elevation->format_value(v.index()))),
        -1)
        << text.toStdString();

    const Face f = *m.faces().begin();
    window_->inspector()->pin({Element::Kind::face, {}, f, {}});
    text = window_->inspector()->text();
    EXPECT_NE(text.indexOf("area = " + QString::number(f.index() % 17)), -1) << text.toStdString();

    const Edge e = *m.edges().begin();
    window_->inspector()->pin({Element::Kind::edge, {}, {}, e});
    text = window_->inspector()->text();
    const auto* flows = world().find_layer("flow");
    EXPECT_NE(text.indexOf(QString("flow [e%1] = %2")
                               .arg(e.index())
                               .arg(QString::fromStdString(flows->format_value(e.index())))),
              -1)
        << text.toStdString();
    EXPECT_NE(text.indexOf(QString("flow [e%1] = %2")
                               .arg(e.sym().index())
                               .arg(QString::fromStdString(flows->format_value(e.sym().index())))),
              -1)
        << text.toStdString();
    EXPECT_NE(text.indexOf(QString("crossing (dual) = %1").arg(e.quad_index() % 5)), -1)
        << text.toStdString();
    EXPECT_NE(text.indexOf(QString("rot <a href=\"d%1\">").arg(e.rot().index())), -1);

    // The dual edge shows the same data, from the dual side.
    window_->inspector()->pin({Element::Kind::dual_edge, {}, {}, e.rot()});
    EXPECT_NE(window_->inspector()->text().indexOf("crossing (dual)"), -1);

    // Editing a value is a step; undo restores it; values outside a layer's range are refused.
    const World before = world();
    ASSERT_TRUE(window_->set_value("area", f.index(), "123.5"));
    EXPECT_EQ((*world().layer(area))[f], 123.5f);
    window_->undo_stack()->undo();
    EXPECT_TRUE(world() == before);
    EXPECT_FALSE(window_->set_value("bounded", v.index(), "2"));
    EXPECT_TRUE(world() == before);
    EXPECT_NE(window_->statusBar()->currentMessage().indexOf("Value not set"), -1);
    EXPECT_FALSE(window_->set_value("area", f.index(), "lots"));
    EXPECT_FALSE(window_->set_value("position", v.index(), "1"));
    EXPECT_TRUE(world() == before);
}

TEST_F(Editor_test, HistoryBudgetDropsTheOldestStepsAndKeepsTheRest) {
    open(editable_world(3000));
    window_->set_tool(render::Edit_tool::split);
    for (int i = 0; i < 6; ++i) {
        const Edge e = front_edge([&](Edge x) { return world().mesh().check_split(x); }, true);
        ASSERT_TRUE(window_->apply_tool_at(pixel(near_edge(e)), false));
    }
    ASSERT_EQ(window_->undo_stack()->count(), 6);
    const std::size_t per_step = window_->history_bytes() / 6;
    EXPECT_GT(per_step, 0u);
    const World end = world();
    window_->set_history_budget(3 * per_step + per_step / 2);
    EXPECT_LT(window_->undo_stack()->count(), 6);
    EXPECT_GE(window_->undo_stack()->count(), 2);
    EXPECT_TRUE(world() == end) << "trimming the history changed the document";
    EXPECT_NE(window_->statusBar()->currentMessage().indexOf("dropped"), -1);
    window_->undo_stack()->undo();
    window_->undo_stack()->redo();
    EXPECT_TRUE(world() == end);
    window_->set_history_budget(std::size_t{1} << 30);
}

TEST_F(Editor_test, ModulesRunAsOneUndoableStep) {
    open(editable_world(3000));
    const World before = world();
    // Move a few vertices so that the delaunay module has something to do.
    window_->set_tool(render::Edit_tool::move);
    const glm::dvec3 eye = viewport()->camera().eye();
    drag(pixel(glm::normalize(eye) * 6371.0), pixel(glm::normalize(eye) * 6371.0) + QPoint(40, 0));
    const World moved = world();
    EXPECT_FALSE(moved == before);
    ASSERT_TRUE(window_->run_module("delaunay", Dict()));
    window_->finish_generation();
    EXPECT_EQ(window_->undo_stack()->count(), 2);
    EXPECT_FALSE(world().mesh().validate());
    window_->undo_stack()->undo();
    EXPECT_TRUE(world() == moved);
    window_->undo_stack()->undo();
    EXPECT_TRUE(world() == before);
    EXPECT_FALSE(window_->run_module("no_such_module", Dict()));
}

} // namespace
} // namespace orbis::ui
