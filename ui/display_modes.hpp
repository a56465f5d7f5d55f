// SPDX-License-Identifier: MIT
// The view's display modes, declared once: id (action name and settings key), menu text,
// shortcut, default, whether the toolbar shows it, and what it sets in render::View_options.
#pragma once

#include "orbis/render/scene.hpp"

#include <QString>

#include <span>

class QWidget;

namespace orbis {
class World;
} // namespace orbis

namespace orbis::ui {

class Layers_dock;
struct Legend;

/// One checkable display mode of the View menu.
struct Display_mode {
    const char* id;     ///< the action's object name and its QSettings key under view/
    const char* text;   ///< menu text with its & mnemonic
    const char* key;    ///< shortcut (QKeySequence text), empty for none
    bool on_by_default; ///< checked on first start
    bool in_toolbar;    ///< also a toolbar button
    const char* tip;    ///< tooltip, empty for none
    /// Writes the mode into the options; nullptr for modes the window applies itself (relief,
    /// legend).
    void (*apply)(render::View_options& options, bool on);
};

/// Every display mode, in menu order.
std::span<const Display_mode> display_modes();

/// Enables the display modes that draw one layer (plate boundaries, velocity arrows) when
/// `world` (may be null) has that layer, and disables them otherwise; returns whether one
/// changed. O(modes · layers).
bool enable_display_modes(QWidget& window, const World* world);

/// Checks or unchecks each display mode's action (a child of `window`) as QSettings remembers
/// it (view/ID), keeping the default for modes never saved.
void restore_display_modes(QWidget& window);
/// Remembers in QSettings whether each display mode's action is checked.
void save_display_modes(const QWidget& window);

/// The options the display modes' checked and enabled actions (children of `window`, named by id),
/// the Layers dock and the relief height (percent of the radius) ask for. Relief lifts by the shown
/// layer when it is a scalar vertex layer, else by elevation; when neither can, `refusal` says so.
render::View_options view_options(const QWidget& window, const Layers_dock& layers,
                                  double relief_percent, QString* refusal);
/// The legend of the layer the Layers dock shows (hidden when `show` is false, or the layer has
/// no range or is a vector).
Legend legend_for(const Layers_dock& layers, bool show);

} // namespace orbis::ui
