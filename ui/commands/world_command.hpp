// SPDX-License-Identifier: MIT
// One undoable step of the editor: the World before and after, swapped in on undo and redo.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/render/buffer_cache.hpp"

#include <QUndoCommand>

#include <cstddef>
#include <functional>
#include <optional>

namespace orbis::ui {

/// Shows a state of the World: the document takes `world`; `delta`, when given, says what
/// differs from the state shown before (so that views patch instead of rebuilding).
using Show_world = std::function<void(const World& world, const render::World_delta* delta)>;

/// An edit, a value change, a module run: any step, as two copy-on-write snapshots. Undo and
/// redo swap them in (O(layers)) and never re-run the operation, so they cost the same on a
/// million vertices as on ten. The memory a step holds is what its `after` snapshot does not
/// share with `before` (the chunks the edit copied): `after.memory().private_bytes` taken before
/// anything else copies `after`.
class World_command : public QUndoCommand {
public:
    /// A step called `text` from `before` to `after` holding `bytes`; `delta` lists what
    /// changed between them (nothing: views rebuild). `show` is called on undo and redo, and on
    /// the first redo (QUndoStack::push) only when `shown` is false.
    World_command(const QString& text, World before, World after, std::size_t bytes,
                  std::optional<render::World_delta> delta, Show_world show, bool shown);

    void undo() override;
    void redo() override;
    /// Move vertex drags of the same vertex merge (see merge_id).
    int id() const override { return merge_id_; }
    bool mergeWith(const QUndoCommand* other) override;

    /// Makes consecutive steps with the same non-negative id merge into one (a drag).
    void set_merge_id(int id) { merge_id_ = id; }
    /// The step's name without its size.
    const QString& base_text() const { return base_text_; }
    /// What changed from `before` to `after`, if known.
    const std::optional<render::World_delta>& delta() const { return delta_; }
    /// Bytes this step holds beyond its neighbour's snapshot.
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
    std::optional<render::World_delta> delta_;
    Show_world show_;
    bool skip_first_redo_;
    int merge_id_ = -1;
    std::size_t bytes_ = 0;
};

} // namespace orbis::ui
