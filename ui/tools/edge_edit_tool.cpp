// SPDX-License-Identifier: MIT
// What Flip, Split and Collapse share.
#include "ui/tools/edge_edit_tool.hpp"

#include "ui/document.hpp"

#include "orbis/core/delta_recorder.hpp"

namespace orbis::ui {

void Edge_edit_tool::deactivate() { context_.viewport->set_preview(nullptr); }

std::optional<render::Edit_preview> Edge_edit_tool::preview(const Tool_event& event) const {
    const World* world = context_.document->world();
    if (!event.hover || !world) return std::nullopt;
    return verdict(*world, event.hover->pick, event.modifiers & Qt::ShiftModifier);
}

void Edge_edit_tool::hover(const Tool_event& event) {
    const auto p = preview(event);
    context_.viewport->set_preview(p ? &*p : nullptr);
    if (p && !p->message.empty())
        note_ = (p->allowed ? "  —  " : "  —  refused: ") + QString::fromStdString(p->message);
    else
        note_.clear();
}

bool Edge_edit_tool::click(const Tool_event& event) {
    Document& doc = *context_.document;
    if (const auto why = doc.check_edit()) {
        message(*why);
        return false;
    }
    const auto p = preview(event);
    if (!p) return false;
    if (!p->allowed) {
        context_.viewport->set_preview(&*p);
        message(tr("Refused: %1").arg(QString::fromStdString(p->message)), 10000);
        return false;
    }
    World next = *doc.world();
    World_delta delta;
    {
        Delta_recorder recorder(next);
        {
            Mesh_lock mesh = next.lock_mesh();
            apply(mesh, *p);
        }
        delta = recorder.delta();
    }
    doc.push(QString::fromStdString(p->message), std::move(next), std::move(delta));
    context_.viewport->set_preview(nullptr);
    message(QString::fromStdString(p->message));
    return true;
}

} // namespace orbis::ui
