// SPDX-License-Identifier: MIT
// The Inspector dock: one vertex, face, edge, Voronoi cell or dual edge, its neighbours as links
// and the value of every layer bound to it, scalars editable.
#pragma once

// moc cannot parse <concepts>, which the ids pull in; it needs no types, only their names.
#ifndef Q_MOC_RUN
#include "orbis/core/element.hpp"
#endif

#include <QDockWidget>

#include <cstddef>
#include <optional>

class QAction;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace orbis {
class World;
} // namespace orbis

namespace orbis::ui {

/// Shows the pinned element, or the hovered one while nothing is pinned: kind and id, for
/// edges origin, dest, left and right and the quad-edge's rot, sym and inv_rot, neighbours as
/// links (a click selects the element and turns the view to it), and a table of every layer's
/// value for it (directed edge layers in both directions, dual edge layers beside primal ones).
/// Scalar values are edited in place: the edit is reported, the window makes it an undoable
/// step or says why not.
class Inspector_dock : public QDockWidget {
    Q_OBJECT
public:
    /// An empty inspector.
    explicit Inspector_dock(QWidget* parent = nullptr);

    /// Shows elements of `world` (kept by reference until the next call; nullptr: none).
    void set_world(const World* world);
    /// Pins `e` (shown until another is pinned or the pin is cleared).
    void pin(const Element& e);
    /// Clears the pin.
    void unpin();
    /// The pinned element.
    const std::optional<Element>& pinned() const { return pinned_; }
    /// Shows `e` while nothing is pinned (nothing: the pinned one or an empty page).
    void hover(const std::optional<Element>& e);
    /// The text shown (the header and every row), for tests and copying.
    QString text() const;
    /// "Go to Element…" (Ctrl+G, object name go_to_element): shows the dock and puts the cursor
    /// in its Go to line.
    QAction* go_to_action() const { return go_to_action_; }
    /// Shows `html` about the selection above the element (empty hides it).
    void set_selection_summary(const QString& html);
    /// The selection's summary as plain text, empty when there is none.
    QString selection_text() const;

Q_SIGNALS:
    /// A link or "Go to" asked for element `e`.
    void element_requested(const orbis::Element& e);
    /// The user typed `text` as the value of `layer` for the element's `slot`.
    void value_edited(const QString& layer, std::size_t slot, const QString& text);

private:
    void refresh();
    void add_row(const std::string& layer, const std::string& label, std::size_t slot,
                 bool editable);

    const World* world_ = nullptr;
    std::optional<Element> pinned_;
    std::optional<Element> hovered_;
    QLabel* header_ = nullptr;
    QLabel* selection_ = nullptr;
    QLineEdit* go_to_ = nullptr;
    QAction* go_to_action_ = nullptr;
    QTableWidget* values_ = nullptr;
    bool filling_ = false;
};

} // namespace orbis::ui
