// SPDX-License-Identifier: MIT
// Collapse: joins the ends of the edge under the cursor where the click lies (Shift: at the nearer
// end).
#include "ui/tools/edge_edit_tool.hpp"

namespace orbis::ui {

namespace {

class Collapse_tool final : public Edge_edit_tool {
public:
    using Edge_edit_tool::Edge_edit_tool;

    Tool_description description() const override {
        return {"collapse", tr("&Collapse Edge"), Qt::Key_C,
                tr("Click collapses the edge, joining where you click (Shift: at the nearer end)")};
    }

protected:
    render::Edit_preview verdict(const World& world, const render::Pick& pick,
                                 [[maybe_unused]] bool snap) const override {
        return render::preview_collapse(world, pick, snap);
    }
    void apply(Mesh_lock& mesh, const render::Edit_preview& p) const override {
        mesh.collapse(p.edge, p.t);
    }
};

} // namespace

std::unique_ptr<Tool> make_collapse_tool(Tool_context context) {
    return std::make_unique<Collapse_tool>(std::move(context));
}

} // namespace orbis::ui
