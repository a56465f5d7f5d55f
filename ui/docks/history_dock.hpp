// SPDX-License-Identifier: MIT
// The History dock: the document's undo steps with the memory each holds, and its budget.
#pragma once

#include <QDockWidget>

class QAction;

namespace orbis::ui {

class Document;

/// Lists the document's steps (a click goes back to one) with the memory each holds; its
/// "History Memory Budget…" action (object name history_budget) asks for the budget, and the
/// status bar of `window` says when the oldest steps are dropped to stay within it.
class History_dock : public QDockWidget {
    Q_OBJECT
public:
    /// The dock for `document`, a child of `window`.
    History_dock(Document& document, QWidget* window);
    /// The action that asks for the history's memory budget.
    QAction* budget_action() const { return budget_; }

private:
    Document& document_;
    QAction* budget_ = nullptr;
};

} // namespace orbis::ui
