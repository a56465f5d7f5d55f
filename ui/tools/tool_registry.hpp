// SPDX-License-Identifier: MIT
// The editor's tools, made from the list in tool_list.hpp, with their actions and toolbar.
#pragma once

#include "ui/tools/tool.hpp"

#include <QList>
#include <QObject>

#include <map>
#include <memory>
#include <vector>

class QAction;
class QActionGroup;
class QMainWindow;

namespace orbis::ui {

/// One of each tool of tool_list.hpp, in its order, working in `context`.
std::vector<std::unique_ptr<Tool>> make_tools(const Tool_context& context);

/// The tools of a window: builds each tool's action (object name "tool_" + id, checkable, with
/// its shortcut and tip) and the Tools toolbar with the buttons and each tool's options, which
/// show only while their tool is active. Exactly one tool is active once activate() was called.
class Tool_registry : public QObject {
    Q_OBJECT
public:
    /// The tools of tool_list.hpp in `context`, with a toolbar in `window`.
    Tool_registry(const Tool_context& context, QMainWindow& window);
    ~Tool_registry() override;

    /// The tool called `id`, nullptr for none.
    Tool* find(const QString& id) const;
    /// The active tool (nullptr before the first activate).
    Tool* active() const { return active_; }
    /// Makes tool `id` active: the previous one is deactivated, the action checked, the options
    /// shown. False (nothing changes) for unknown ids.
    bool activate(const QString& id);
    /// The tools' actions, in order (for the Tools menu).
    QList<QAction*> actions() const;

Q_SIGNALS:
    /// `tool` became the active tool.
    void activated(orbis::ui::Tool* tool);

private:
    std::vector<std::unique_ptr<Tool>> tools_;
    std::map<const Tool*, std::vector<QAction*>> options_;
    QActionGroup* group_ = nullptr;
    Tool* active_ = nullptr;
};

} // namespace orbis::ui
