// SPDX-License-Identifier: MIT
// The editor's tools, made from the list in tool_list.hpp, with their actions and toolbar.
#include "ui/tools/tool_registry.hpp"

#include <QAction>
#include <QActionGroup>
#include <QMainWindow>
#include <QToolBar>

namespace orbis::ui {

#define ORBIS_TOOL(name) std::unique_ptr<Tool> make_##name##_tool(Tool_context context);
#include "ui/tools/tool_list.hpp"
#undef ORBIS_TOOL

std::vector<std::unique_ptr<Tool>> make_tools(const Tool_context& context) {
    std::vector<std::unique_ptr<Tool>> tools;
#define ORBIS_TOOL(name) tools.push_back(make_##name##_tool(context));
#include "ui/tools/tool_list.hpp"
#undef ORBIS_TOOL
    return tools;
}

Tool_registry::Tool_registry(const Tool_context& context, QMainWindow& window)
    : QObject(&window)
    , tools_(make_tools(context))
    , group_(new QActionGroup(this)) {
    QToolBar* bar = window.addToolBar(tr("Tools"));
    bar->setObjectName("tools_toolbar");
    for (const auto& tool : tools_) {
        const Tool_description d = tool->description();
        auto* a = new QAction(d.text, &window);
        a->setObjectName("tool_" + d.id);
        a->setShortcut(d.key);
        a->setToolTip(d.tip + " (" + d.key.toString() + ")");
        a->setCheckable(true);
        group_->addAction(a);
        bar->addAction(a);
        connect(a, &QAction::triggered, this, [this, id = d.id] { activate(id); });
    }
    // Each tool's options show only while it is active, so the toolbar stays short.
    for (const auto& tool : tools_) {
        const int before = int(bar->actions().size());
        tool->add_options(bar);
        for (int i = before; i < int(bar->actions().size()); ++i)
            options_[tool.get()].push_back(bar->actions()[i]);
    }
}

Tool_registry::~Tool_registry() = default;

Tool* Tool_registry::find(const QString& id) const {
    for (const auto& t : tools_)
        if (t->description().id == id) return t.get();
    return nullptr;
}

bool Tool_registry::activate(const QString& id) {
    Tool* next = find(id);
    if (!next) return false;
    if (active_ && active_ != next) active_->deactivate();
    active_ = next;
    for (QAction* a : group_->actions())
        if (a->objectName() == "tool_" + id) a->setChecked(true);
    for (const auto& [owner, options] : options_)
        for (QAction* a : options)
            a->setVisible(owner == active_);
    Q_EMIT activated(active_);
    active_->activate();
    return true;
}

QList<QAction*> Tool_registry::actions() const { return group_->actions(); }

} // namespace orbis::ui
