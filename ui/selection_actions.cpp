// SPDX-License-Identifier: MIT
// What the editor does with a selection.
#include "ui/selection_actions.hpp"

#include "ui/document.hpp"
#include "ui/viewport.hpp"

#include "orbis/core/world_delta.hpp"
#include "orbis/edit/selection.hpp"

#include <QAction>
#include <QInputDialog>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QUndoStack>

namespace orbis::ui {

std::optional<QString> apply_selection_op(Document& document, Selection_op op,
                                          const Selection_op_params& params) {
    if (const auto why = document.check_edit()) return why;
    const World& world = *document.world();
    const edit::Selection& selection = document.selection();
    std::optional<std::string> why;
    QString text;
    switch (op) {
    case Selection_op::refine:
        why = edit::check_refine(world, selection, params.target_km);
        text = QObject::tr("Refine selection to %1 km").arg(params.target_km);
        break;
    case Selection_op::coarsen:
        why = edit::check_coarsen(world, selection, params.target_km);
        text = QObject::tr("Coarsen selection to %1 km").arg(params.target_km);
        break;
    case Selection_op::restore_delaunay:
        why = edit::check_restore_delaunay(world, selection);
        text = QObject::tr("Restore Delaunay in selection");
        break;
    case Selection_op::set_values:
        why = edit::check_set_values(world, selection, params.layer, params.value);
        text = QObject::tr("Set %1 = %2 in selection")
                   .arg(QString::fromStdString(params.layer))
                   .arg(params.value);
        break;
    case Selection_op::smooth_values:
        why = edit::check_smooth_values(world, selection, params.layer, params.iterations);
        text = QObject::tr("Smooth %1 in selection (%2×)")
                   .arg(QString::fromStdString(params.layer))
                   .arg(params.iterations);
        break;
    }
    if (why) return QString::fromStdString(*why);
    World next = world;
    edit::Selection_edit result;
    try {
        switch (op) {
        case Selection_op::refine:
            result = edit::refine(next, selection, params.target_km);
            break;
        case Selection_op::coarsen:
            result = edit::coarsen(next, selection, params.target_km);
            break;
        case Selection_op::restore_delaunay:
            result = edit::restore_delaunay(next, selection);
            break;
        case Selection_op::set_values:
            result = edit::set_values(next, selection, params.layer, params.value);
            break;
        case Selection_op::smooth_values:
            result = edit::smooth_values(next, selection, params.layer, params.iterations);
            break;
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    World_delta delta = delta_from(world);
    delta.vertices = std::move(result.vertices);
    delta.faces = std::move(result.faces);
    delta.edges = std::move(result.edges);
    edit::Selection after = std::move(result.selection);
    document.push(text, std::move(next), std::move(delta));
    document.set_selection(std::move(after));
    return std::nullopt;
}

QString selection_summary(const World& world, const edit::Selection& selection) {
    if (selection.empty()) return {};
    const edit::Selection_stats s = edit::selection_stats(world, selection);
    const QLocale locale;
    QString out = QObject::tr("<b>Selection</b>: %1 vertices (cells), %2 faces, %3 km²")
                      .arg(locale.toString(qulonglong(s.vertices)))
                      .arg(locale.toString(qulonglong(s.faces)))
                      .arg(locale.toString(s.area_km2, 'f', 0));
    out += "<table>";
    for (const edit::Layer_summary& l : s.layers)
        out += QString("<tr><td>%1&nbsp;</td><td align=right>min %2&nbsp;</td>"
                       "<td align=right>mean %3&nbsp;</td><td align=right>max %4</td></tr>")
                   .arg(QString::fromStdString(l.layer).toHtmlEscaped())
                   .arg(l.min, 0, 'g', 6)
                   .arg(l.mean, 0, 'g', 6)
                   .arg(l.max, 0, 'g', 6);
    return out + "</table>";
}

Selection_actions::Selection_actions(QMainWindow& window, Document& document, Viewport& viewport)
    : QObject(&window)
    , window_(window)
    , document_(document)
    , viewport_(viewport) {}

void Selection_actions::run(Selection_op op, Selection_op_params params) {
    if (params.layer.empty()) params.layer = viewport_.options().layer;
    if (const auto why = apply_selection_op(document_, op, params))
        window_.statusBar()->showMessage(QObject::tr("Refused: %1").arg(*why), 10000);
    else
        window_.statusBar()->showMessage(document_.undo_stack()->undoText(), 6000);
}

void Selection_actions::add_to(QMenu* menu) {
    auto make = [&](const char* name, const QString& text, auto slot,
                    const QKeySequence& key = {}) {
        auto* a = menu->addAction(text, this, slot);
        a->setObjectName(name);
        if (!key.isEmpty()) a->setShortcut(key);
        return a;
    };
    auto ask_km = [this](const QString& title, const QString& label, double start) {
        bool ok = false;
        const double km =
            QInputDialog::getDouble(&window_, title, label, start, 0.001, 1e5, 1, &ok);
        return ok ? std::optional<double>(km) : std::nullopt;
    };
    make(
        "select_all", tr("Select &All"),
        [this] {
            if (!document_.world()) return;
            edit::Selection all;
            for (const Vertex v : document_.world()->mesh().vertices())
                all.vertices.push_back(v);
            document_.set_selection(std::move(all));
        },
        QKeySequence::SelectAll);
    make(
        "select_none", tr("Clear Selection"), [this] { document_.set_selection({}); },
        QKeySequence(tr("Ctrl+Shift+A")));
    menu->addSeparator();
    make("selection_refine", tr("&Refine…"), [=, this] {
        if (const auto km = ask_km(tr("Refine"), tr("Split edges longer than (km):"), 50.0))
            run(Selection_op::refine, target_length(*km));
    });
    make("selection_coarsen", tr("&Coarsen…"), [=, this] {
        if (const auto km = ask_km(tr("Coarsen"), tr("Collapse edges shorter than (km):"), 150.0))
            run(Selection_op::coarsen, target_length(*km));
    });
    make("selection_delaunay", tr("Restore &Delaunay"),
         [this] { run(Selection_op::restore_delaunay, {}); });
    menu->addSeparator();
    make("selection_set", tr("&Set Shown Layer…"), [this] {
        bool ok = false;
        const double v =
            QInputDialog::getDouble(&window_, tr("Set"),
                                    tr("Value of %1 on the selection:")
                                        .arg(QString::fromStdString(viewport_.options().layer)),
                                    0.0, -1e12, 1e12, 3, &ok);
        if (ok) run(Selection_op::set_values, layer_value({}, v));
    });
    make("selection_smooth", tr("S&mooth Shown Layer…"), [this] {
        bool ok = false;
        const int n =
            QInputDialog::getInt(&window_, tr("Smooth"), tr("Passes:"), 3, 1, 1000, 1, &ok);
        if (ok) run(Selection_op::smooth_values, smoothing({}, n));
    });
}

} // namespace orbis::ui
