// SPDX-License-Identifier: MIT
// The kinds of undo steps that merge with the next one of the same gesture.
#pragma once

namespace orbis::ui {

/// What QUndoCommand::id() returns: steps of the same kind and gesture merge into one (a drag, a
/// stroke); `none` never merges.
enum class Command_id : int {
    none = -1,       ///< a step of its own
    move_vertex = 1, ///< the positions of one Move drag
    brush_stroke = 2 ///< the dabs of one brush stroke
};

} // namespace orbis::ui
