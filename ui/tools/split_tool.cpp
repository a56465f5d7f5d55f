// SPDX-License-Identifier: MIT
// Split: a new vertex on the edge under the cursor, where the click lies along it.
#include "ui/tools/edge_edit_tool.hpp"

namespace orbis::ui {

namespace {

class Split_tool final : public Edge_edit_tool {
public:
    using Edge_edit_tool::Edge_edit_tool;

    Tool_description description() const override {
        return {"split", tr("S&plit Edge"), Qt::Key_X, tr("Click splits the edge where you click")};
    }

protected:
    render::Edit_preview verdict(const World& world, const render::Pick& pick,
                                 [[maybe_unused]] bool snap) const override {
        return render::preview_split(world, pick);
    }
    void apply(Mesh_lock& mesh, const render::Edit_preview& p) const override {
        mesh.split(p.edge, p.t);
    }
};

} // namespace

std::unique_ptr<Tool> make_split_tool(Tool_context context) {
    return std::make_unique<Split_tool>(std::move(context));
}

} // namespace orbis::ui
