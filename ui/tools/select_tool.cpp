// SPDX-License-Identifier: MIT
// Select: a click pins the element under the cursor in the Inspector; a brush or a lasso
// selects regions of cells or faces for the Selection menu's operations.
#include "ui/tools/tool.hpp"

#include "ui/document.hpp"

#include "orbis/core/element.hpp"
#include "orbis/edit/brush.hpp"
#include "orbis/edit/selection.hpp"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QToolBar>

#include <glm/geometric.hpp>

#include <algorithm>

namespace orbis::ui {

namespace {

enum class Select_mode { element, brush, lasso };
enum class Select_kind { vertex, edge, face, cell, dual_edge };

/// Element mode: a click pins the vertex, edge, face, Voronoi cell or dual edge under the
/// cursor (the kind filter says which). Brush mode: a drag selects every cell (or, for the face
/// filter, every face) within the radius along the way. Lasso mode: a drag draws a polygon on
/// the surface and selects what it encloses. Shift adds to the selection, Ctrl removes from it,
/// neither replaces it.
class Select_tool final : public Tool {
public:
    using Tool::Tool;

    Tool_description description() const override {
        return {"select", tr("&Select"), Qt::Key_S,
                tr("Click pins an element in the Inspector; in Brush or Lasso mode a drag "
                   "selects a region (Shift adds, Ctrl removes)")};
    }
    void activate() override {
        active_ = true;
        context_.viewport->set_preview(nullptr);
        if (radius_action_) radius_action_->setVisible(mode() == Select_mode::brush);
    }
    void deactivate() override {
        active_ = false;
        context_.viewport->set_preview(nullptr);
    }
    bool drags() const override { return mode() != Select_mode::element; }
    void add_options(QToolBar* bar) override {
        mode_ = new QComboBox(bar);
        mode_->setObjectName("select_mode");
        mode_->addItems({tr("Click"), tr("Brush"), tr("Lasso")});
        mode_->setToolTip(tr("How the Select tool selects: one element, a brush, a lasso"));
        filter_ = new QComboBox(bar);
        filter_->setObjectName("select_filter");
        filter_->addItems(
            {tr("Vertex"), tr("Edge"), tr("Face"), tr("Voronoi cell"), tr("Dual edge")});
        filter_->setToolTip(tr("What the Select tool picks (regions: cells, or faces)"));
        radius_ = new QDoubleSpinBox(bar);
        radius_->setObjectName("select_radius");
        radius_->setRange(1.0, 20000.0);
        radius_->setDecimals(0);
        radius_->setValue(300.0);
        radius_->setSuffix(tr(" km"));
        radius_->setToolTip(tr("The selection brush's radius"));
        bar->addWidget(mode_);
        bar->addWidget(filter_);
        radius_action_ = bar->addWidget(radius_);
        connect(mode_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
            if (!active_) return;
            context_.viewport->set_edit_mode(true, drags());
            radius_action_->setVisible(mode() == Select_mode::brush);
            if (mode() != Select_mode::brush) context_.viewport->set_preview(nullptr);
        });
    }
    void hover(const Tool_event& event) override {
        if (mode() != Select_mode::brush || !event.hover) {
            if (mode() == Select_mode::brush) context_.viewport->set_preview(nullptr);
            return;
        }
        render::Edit_preview p;
        p.allowed = true;
        p.ghost_segments = render::surface_circle(event.hover->pick.point, radius_->value());
        context_.viewport->set_preview(&p);
    }
    bool click(const Tool_event& event) override {
        if (!event.hover) return false;
        const render::Pick& pick = event.hover->pick;
        Element e;
        switch (kind()) {
        case Select_kind::edge:
            e = {Element::Kind::edge, {}, {}, pick.edge};
            break;
        case Select_kind::face:
            e = {Element::Kind::face, {}, pick.face, {}};
            break;
        case Select_kind::cell:
            e = {Element::Kind::cell, pick.vertex, {}, {}};
            break;
        case Select_kind::dual_edge:
            e = {Element::Kind::dual_edge, {}, {}, pick.edge.rot()};
            break;
        case Select_kind::vertex:
            e = {Element::Kind::vertex, pick.vertex, {}, {}};
            break;
        }
        if (context_.select) context_.select(e, false);
        return false;
    }
    void press(const Tool_event& event) override {
        Document& doc = *context_.document;
        gesture_.reset();
        if (!event.hover || !doc.world()) return;
        start_ = event.modifiers & Qt::ControlModifier ? subtract
                 : event.modifiers & Qt::ShiftModifier ? add
                                                       : replace;
        before_ = doc.selection();
        gesture_ = edit::Selection{};
        last_ = event.hover->pick.point;
        lasso_ = {last_};
        if (mode() == Select_mode::brush) paint({last_}, event.hover->pick.vertex);
    }
    void drag(const Tool_event& event) override {
        if (!gesture_ || !event.hover) return;
        const glm::dvec3 at = event.hover->pick.point;
        if (mode() == Select_mode::brush) {
            hover(event);
            paint(edit::stroke_points(last_, at, radius_->value() / 4.0), event.hover->pick.vertex);
        } else {
            lasso_.push_back(at);
            render::Edit_preview p;
            p.allowed = true;
            for (std::size_t i = 1; i < lasso_.size(); ++i) {
                p.ghost_segments.push_back(glm::vec3(lasso_[i - 1]));
                p.ghost_segments.push_back(glm::vec3(lasso_[i]));
            }
            context_.viewport->set_preview(&p);
        }
        last_ = at;
    }
    void release(const Tool_event& event) override {
        if (!gesture_) return;
        drag(event);
        if (mode() == Select_mode::lasso) {
            context_.viewport->set_preview(nullptr);
            const World& w = *context_.document->world();
            if (lasso_.size() < 3) {
                message(tr("A lasso needs at least three points: drag around a region"));
            } else {
                gesture_->vertices = edit::select_lasso(w, lasso_);
                commit();
            }
        }
        const auto& s = context_.document->selection();
        message(tr("%1 cells and %2 faces selected").arg(s.vertices.size()).arg(s.faces.size()));
        gesture_.reset();
    }

private:
    enum Combine { replace, add, subtract };

    Select_mode mode() const {
        return mode_ ? static_cast<Select_mode>(mode_->currentIndex()) : Select_mode::element;
    }
    Select_kind kind() const {
        return filter_ ? static_cast<Select_kind>(filter_->currentIndex()) : Select_kind::vertex;
    }
    void paint(const std::vector<glm::dvec3>& centres, Vertex hint) {
        const World& w = *context_.document->world();
        for (const glm::dvec3& c : centres) {
            edit::Selection disc;
            disc.vertices = edit::select_disc(w, c, radius_->value(), hint);
            std::sort(disc.vertices.begin(), disc.vertices.end(),
                      [](Vertex a, Vertex b) { return a.index() < b.index(); });
            *gesture_ = edit::unite(*gesture_, disc);
        }
        commit();
    }
    // The selection with this gesture's region combined in, as cells or faces.
    void commit() {
        const World& w = *context_.document->world();
        edit::Selection region = *gesture_;
        if (kind() == Select_kind::face) {
            region.faces = edit::faces_of(w, region.vertices);
            region.vertices.clear();
        }
        switch (start_) {
        case replace:
            context_.document->set_selection(std::move(region));
            break;
        case add:
            context_.document->set_selection(edit::unite(before_, region));
            break;
        case subtract:
            context_.document->set_selection(edit::subtract(before_, region));
            break;
        }
    }

    QComboBox* mode_ = nullptr;
    QComboBox* filter_ = nullptr;
    QDoubleSpinBox* radius_ = nullptr;
    QAction* radius_action_ = nullptr;
    bool active_ = false;
    Combine start_ = replace;
    edit::Selection before_;
    std::optional<edit::Selection> gesture_;
    glm::dvec3 last_{0.0};
    std::vector<glm::dvec3> lasso_;
};

} // namespace

std::unique_ptr<Tool> make_select_tool(Tool_context context) {
    return std::make_unique<Select_tool>(std::move(context));
}

} // namespace orbis::ui
