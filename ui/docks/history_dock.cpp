// SPDX-License-Identifier: MIT
// The History dock: the document's undo steps with the memory each holds, and its budget.
#include "ui/docks/history_dock.hpp"

#include "ui/document.hpp"

#include <QAction>
#include <QInputDialog>
#include <QMainWindow>
#include <QStatusBar>
#include <QUndoView>

namespace orbis::ui {

History_dock::History_dock(Document& document, QWidget* window)
    : QDockWidget(tr("History"), window)
    , document_(document) {
    setObjectName("history_dock");
    auto* view = new QUndoView(document_.undo_stack(), this);
    view->setObjectName("history_view");
    view->setEmptyLabel(tr("<document as opened>"));
    setWidget(view);
    budget_ = new QAction(tr("History &Memory Budget…"), window);
    budget_->setObjectName("history_budget");
    connect(budget_, &QAction::triggered, this, [this, window] {
        bool ok = false;
        const int mib = QInputDialog::getInt(
            window, tr("History Memory Budget"),
            tr("Memory the undo history may hold (MiB); the oldest steps are dropped beyond it:"),
            int(document_.history_budget() >> 20), 1, 1 << 20, 64, &ok);
        if (ok) document_.set_history_budget(std::size_t(mib) << 20);
    });
    connect(
        &document_, &Document::history_trimmed, this, [this, window](int steps, std::size_t bytes) {
            if (auto* main = qobject_cast<QMainWindow*>(window))
                main->statusBar()->showMessage(tr("History over its %1 MiB budget: dropped the %2 "
                                                  "oldest step(s), %3 MiB")
                                                   .arg(document_.history_budget() >> 20)
                                                   .arg(steps)
                                                   .arg(double(bytes) / double(1 << 20), 0, 'f', 1),
                                               10000);
        });
}

} // namespace orbis::ui
