// SPDX-License-Identifier: MIT
// What the editor does with a selection: refine, coarsen, restore Delaunay, set or smooth a
// layer's values, each one undo step; and the words the Inspector shows about it.
#pragma once

#include <QObject>
#include <QString>

#include <optional>
#include <string>
#include <utility>

class QMainWindow;
class QMenu;

namespace orbis {
class World;
} // namespace orbis

namespace orbis::edit {
struct Selection;
} // namespace orbis::edit

namespace orbis::ui {

class Document;
class Viewport;

/// An operation on the selection.
enum class Selection_op { refine, coarsen, restore_delaunay, set_values, smooth_values };

/// What an operation needs besides the selection.
struct Selection_op_params {
    double target_km = 100.0; ///< refine: longest edge kept; coarsen: shortest edge kept
    std::string layer;        ///< set / smooth: the layer (empty: the layer the view shows)
    double value = 0.0;       ///< set: the value
    int iterations = 1;       ///< smooth: how many passes
};

/// Parameters of refine and coarsen: the edge length in km.
inline Selection_op_params target_length(double km) {
    Selection_op_params p;
    p.target_km = km;
    return p;
}
/// Parameters of set: the layer (empty: the shown one) and the value.
inline Selection_op_params layer_value(std::string layer, double value) {
    Selection_op_params p;
    p.layer = std::move(layer);
    p.value = value;
    return p;
}
/// Parameters of smooth: the layer (empty: the shown one) and the number of passes.
inline Selection_op_params smoothing(std::string layer, int iterations) {
    Selection_op_params p;
    p.layer = std::move(layer);
    p.iterations = iterations;
    return p;
}

/// Applies `op` to the document's selection as one undo step (the selection follows: refine's
/// new vertices join it). Returns why it was refused (the edit library's check, or the document
/// being busy), and then nothing changed.
std::optional<QString> apply_selection_op(Document& document, Selection_op op,
                                          const Selection_op_params& params);

/// The selection in words: counts, area in km² and min / mean / max of every scalar layer over
/// it; empty for an empty selection. O(selection × layers).
QString selection_summary(const World& world, const edit::Selection& selection);

/// The Selection menu: each operation asks for its parameters and reports a refusal in the
/// status bar; Select All and Clear Selection.
class Selection_actions : public QObject {
    Q_OBJECT
public:
    /// Actions for `document` in `window`; `viewport` says which layer is shown.
    Selection_actions(QMainWindow& window, Document& document, Viewport& viewport);
    /// Creates the actions (object names selection_refine, selection_coarsen,
    /// selection_delaunay, selection_set, selection_smooth, select_all, select_none) in `menu`.
    void add_to(QMenu* menu);

private:
    void run(Selection_op op, Selection_op_params params);

    QMainWindow& window_;
    Document& document_;
    Viewport& viewport_;
};

} // namespace orbis::ui
