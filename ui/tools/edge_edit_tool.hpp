// SPDX-License-Identifier: MIT
// What Flip, Split and Collapse share: a preview of the edge under the cursor, and a click that
// makes exactly the previewed edit as one step.
#pragma once

#include "ui/tools/tool.hpp"

#include "orbis/core/world.hpp"
#include "orbis/render/edit_preview.hpp"

namespace orbis::ui {

/// A tool that edits the primal edge under the cursor. The hover shows the verdict of the same
/// check_* function the edit runs (ghost in green, cause in red, the reason in the status bar);
/// a click recomputes the verdict from the click's own pick and modifiers and applies it.
class Edge_edit_tool : public Tool {
public:
    using Tool::Tool;

    void deactivate() override;
    void hover(const Tool_event& event) override;
    bool click(const Tool_event& event) override;
    std::optional<render::Edit_preview> preview(const Tool_event& event) const override;

protected:
    /// The verdict for `pick` on `world`; `snap` when Shift is held.
    virtual render::Edit_preview verdict(const World& world, const render::Pick& pick,
                                         bool snap) const = 0;
    /// Makes the allowed edit `p` describes.
    virtual void apply(Mesh_lock& mesh, const render::Edit_preview& p) const = 0;
};

} // namespace orbis::ui
