// SPDX-License-Identifier: MIT
// Move: drags a vertex along the sphere it lies on; Delaunay is restored around it by flips.
#include "ui/tools/tool.hpp"

#include "ui/commands/command_id.hpp"
#include "ui/document.hpp"

#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/sphere_geometry.hpp"
#include "orbis/gen/delaunay_module.hpp"
#include "orbis/render/mesh_buffers.hpp"

#include <QAction>
#include <QToolBar>

#include <glm/geometric.hpp>

namespace orbis::ui {

namespace {

/// Drags the vertex under the cursor; every drag is one step, with the flips that restore
/// Delaunay around the vertex when it is let go (unless "Restore Delaunay after Move" is off).
class Move_tool final : public Tool {
public:
    using Tool::Tool;

    Tool_description description() const override {
        return {"move", tr("&Move Vertex"), Qt::Key_M, tr("Drag a vertex along the sphere")};
    }
    bool drags() const override { return true; }
    void deactivate() override { context_.viewport->set_preview(nullptr); }
    void add_options(QToolBar* bar) override {
        delaunay_ = new QAction(tr("Restore &Delaunay after Move"), bar);
        delaunay_->setObjectName("delaunay_after_move");
        delaunay_->setCheckable(true);
        delaunay_->setChecked(true);
        // In the Tools menu, not on the toolbar: the main window finds it by name.
        bar->parentWidget()->addAction(delaunay_);
    }
    void hover(const Tool_event& event) override {
        const World* world = context_.document->world();
        if (!event.hover || !world) {
            context_.viewport->set_preview(nullptr);
            note_.clear();
            return;
        }
        const render::Edit_preview p = render::preview_move(*world, event.hover->pick);
        context_.viewport->set_preview(&p);
        note_ = p.message.empty() ? QString() : "  —  " + QString::fromStdString(p.message);
    }
    void press(const Tool_event& event) override {
        Document& doc = *context_.document;
        dragging_ = false;
        if (!event.hover) return;
        if (const auto why = doc.check_edit()) {
            message(*why);
            return;
        }
        vertex_ = event.hover->pick.vertex;
        if (!doc.world()->mesh().contains(vertex_)) return;
        radius_ = glm::length(glm::dvec3((*doc.world()->layer(position_layer))[vertex_]));
        gesture_ = doc.new_gesture();
        dragging_ = true;
    }
    void drag(const Tool_event& event) override {
        Document& doc = *context_.document;
        if (!dragging_ || doc.check_edit() || !doc.world()->mesh().contains(vertex_)) return;
        const render::Ray ray =
            context_.viewport->camera().ray_at({event.at.x() + 0.5, event.at.y() + 0.5});
        const auto p = intersect_sphere(ray.origin, ray.direction, radius_);
        if (!p) return;
        World next = *doc.world();
        {
            auto [positions] = next.lock_layer(position_layer);
            positions[vertex_] = glm::vec3(*p);
        }
        World_delta delta = delta_from(*doc.world());
        delta.vertices.push_back(vertex_);
        doc.push(step_text(), std::move(next), std::move(delta), Command_id::move_vertex, gesture_);
    }
    void release(const Tool_event& event) override {
        if (!dragging_) return;
        drag(event);
        dragging_ = false;
        Document& doc = *context_.document;
        if (doc.check_edit() || !doc.world()->mesh().contains(vertex_) ||
            (delaunay_ && !delaunay_->isChecked()))
            return;
        // Flip the edges around the moved vertex until its neighbourhood is Delaunay again;
        // the flips join the drag's step.
        World next = *doc.world();
        World_delta delta;
        gen::Lawson_result result;
        {
            Delta_recorder recorder(next);
            const std::vector<glm::vec3> positions = render::vertex_positions(next);
            std::vector<Edge> edges;
            for (const Edge e : vertex_.edges(next.mesh())) {
                edges.push_back(e);
                if (e.left(next.mesh()).valid()) edges.push_back(e.left_next(next.mesh()));
            }
            {
                Mesh_lock mesh = next.lock_mesh();
                result = gen::lawson_flips(mesh, positions, std::move(edges));
            }
            delta = recorder.delta();
        }
        if (result.flips == 0) return;
        doc.push(step_text(), std::move(next), std::move(delta), Command_id::move_vertex, gesture_);
        message(tr("Moved v%1; %2 flip(s) restored Delaunay around it")
                    .arg(vertex_.index())
                    .arg(result.flips),
                6000);
    }

private:
    QString step_text() const { return tr("Move v%1").arg(vertex_.index()); }

    QAction* delaunay_ = nullptr;
    Vertex vertex_;
    double radius_ = 0.0;
    std::uint64_t gesture_ = 0;
    bool dragging_ = false;
};

} // namespace

std::unique_ptr<Tool> make_move_tool(Tool_context context) {
    return std::make_unique<Move_tool>(std::move(context));
}

} // namespace orbis::ui
