// SPDX-License-Identifier: MIT
// One undoable step of the editor: the World before and after, swapped in on undo and redo.
#pragma once

#include "ui/commands/command_id.hpp"

#include "orbis/core/world.hpp"
#include "orbis/core/world_delta.hpp"

#include <QUndoCommand>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

namespace orbis::ui {

/// Shows a state of the World: the document takes `world`; `delta`, when given, says what
/// differs from the state shown before (so that views patch instead of rebuilding).
using Show_world = std::function<void(const World& world, const World_delta* delta)>;

/// An edit, a value change, a module run, a stroke: any step, as two copy-on-write snapshots.
/// Undo and redo swap them in (O(layers)) and never re-run the operation, so they cost the same
/// on a million vertices as on ten. The memory a step holds is what its `after` snapshot does
/// not share with `before` (World::bytes_not_shared_with): the chunks the step copied.
class World_command : public QUndoCommand {
public:
    /// A step called `text` from `before` to `after`; `delta` lists what changed between them
    /// (nothing: views rebuild). `show` is called on undo and redo, and on the first redo
    /// (QUndoStack::push) only when `shown` is false. O(chunks) for the memory count.
    World_command(const QString& text, World before, World after, std::optional<World_delta> delta,
                  Show_world show, bool shown);

    void undo() override;
    void redo() override;
    /// The kind of step, for merging (Command_id).
    int id() const override { return static_cast<int>(kind_); }
    /// Takes `other` in when it is of the same kind and gesture: one step from this step's start
    /// to the other's end.
    bool mergeWith(const QUndoCommand* other) override;

    /// Makes the step end at `after` instead (live water: the water computed for this step's
    /// terrain joins the step, so one undo takes back both). The delta is dropped: views
    /// rebuild when the step is undone or redone. O(chunks) for the memory count.
    void amend(World after);
    /// Makes consecutive steps of kind `kind` and the same `gesture` merge into one.
    void set_merge(Command_id kind, std::uint64_t gesture) {
        kind_ = kind;
        gesture_ = gesture;
    }
    /// The merge kind.
    Command_id kind() const { return kind_; }
    /// The gesture (drag, stroke) the step belongs to.
    std::uint64_t gesture() const { return gesture_; }
    /// The step's name without its size.
    const QString& base_text() const { return base_text_; }
    /// What changed from `before` to `after`, if known.
    const std::optional<World_delta>& delta() const { return delta_; }
    /// Bytes this step holds beyond its `before` snapshot.
    std::size_t bytes() const { return bytes_; }
    /// The state before the step.
    const World& before() const { return before_; }
    /// The state after the step.
    const World& after() const { return after_; }

private:
    void update_text();

    QString base_text_;
    World before_;
    World after_;
    std::optional<World_delta> delta_;
    Show_world show_;
    bool skip_first_redo_;
    Command_id kind_ = Command_id::none;
    std::uint64_t gesture_ = 0;
    std::size_t bytes_ = 0;
};

} // namespace orbis::ui
