// SPDX-License-Identifier: MIT
// Flip: turns the edge under the cursor to join the other two corners of its faces.
#include "ui/tools/edge_edit_tool.hpp"

namespace orbis::ui {

namespace {

class Flip_tool final : public Edge_edit_tool {
public:
    using Edge_edit_tool::Edge_edit_tool;

    Tool_description description() const override {
        return {"flip", tr("&Flip Edge"), Qt::Key_F, tr("Click flips the edge under the cursor")};
    }

protected:
    render::Edit_preview verdict(const World& world, const render::Pick& pick,
                                 [[maybe_unused]] bool snap) const override {
        return render::preview_flip(world, pick);
    }
    void apply(Mesh_lock& mesh, const render::Edit_preview& p) const override { mesh.flip(p.edge); }
};

} // namespace

std::unique_ptr<Tool> make_flip_tool(Tool_context context) {
    return std::make_unique<Flip_tool>(std::move(context));
}

} // namespace orbis::ui
