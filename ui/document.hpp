// SPDX-License-Identifier: MIT
// The editor's document: one World, its file, whether it is saved, and its undo history.
#pragma once

#include "ui/commands/command_id.hpp"

#include "orbis/core/world.hpp"
#include "orbis/core/world_delta.hpp"
#include "orbis/edit/selection.hpp"

#include <QObject>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>

class QUndoStack;

namespace orbis::ui {

/// The document: the World being edited, the file it came from, whether it has unsaved
/// changes, and the QUndoStack of its steps with a memory budget. Every change of state goes
/// through it and is announced by world_changed(), so views never ask who changed what.
/// Steps are World snapshots (World_command): undo and redo swap them, never re-run an edit.
class Document : public QObject {
    Q_OBJECT
public:
    /// No world yet; the history budget comes from QSettings (history/budget_mib, 1 GiB).
    explicit Document(QObject* parent = nullptr);

    /// The world, or nullptr before the first one.
    const World* world() const { return world_ ? &*world_ : nullptr; }
    /// The file the document was opened from or saved to (.orbis), empty for none.
    const QString& path() const { return path_; }
    /// True when the document differs from its file (or has none and was generated).
    bool modified() const;
    /// The undo stack: one command per edit, value change, stroke or module run.
    QUndoStack* undo_stack() const { return undo_stack_; }
    /// Changes with every state the document takes (to tell whether a job's start is current).
    std::uint64_t serial() const { return serial_; }
    /// Changes whenever another world replaces the document (open, generate, New, restore), so
    /// that a save started before does not mark the new one saved.
    std::uint64_t instance() const { return instance_; }

    /// Why the document cannot be edited now (a module running on it), or nothing.
    std::optional<QString> check_edit() const;
    /// Marks the document as read by a job (`reason` says which) or free again (empty): while
    /// busy, check_edit refuses, because the job shares the World's chunks.
    void set_busy(const QString& reason) { busy_ = reason; }

    /// Replaces the document by `world` from file `path` (empty: none), with a new history.
    void reset(World world, const QString& path, bool modified);
    /// Records that the document was saved to `path` (.orbis: it becomes the document's file).
    void mark_saved(const QString& path);
    /// Records that `snapshot`, a state the document had, was saved to `path` (.orbis): the
    /// document is clean exactly when it shows that state again (by undo or redo), so edits made
    /// while a background save ran stay unsaved. When the history no longer holds that state
    /// (trimmed, or another world replaced it), the document stays modified. O(steps × chunks)
    /// at worst, usually O(chunks).
    void mark_saved(const QString& path, const World& snapshot);
    /// Makes `after` the document's state as one undoable step called `text`. `delta` lists what
    /// changed (nothing: views rebuild). Steps of the same `kind` (not none) and `gesture` merge
    /// into one. Precondition: there is a world and check_edit() allows it.
    void push(const QString& text, World after, std::optional<World_delta> delta,
              Command_id kind = Command_id::none, std::uint64_t gesture = 0);
    /// Makes `after` the document's state without a new step: the step that led to the current
    /// state now ends at `after`, so undoing it also takes back what `after` adds (live water
    /// after a stroke). Without such a step (a fresh world), `after` becomes a new step called
    /// `text`. Views rebuild. Precondition: there is a world and check_edit() allows it.
    void amend_last_step(const QString& text, World after);
    /// The gesture of the step that led to the current state (see push), 0 when none: a tool
    /// that goes on amending its own step (the timeline) checks with it that the document
    /// still shows that step. Live water's amendments keep it; undo, redo and new steps change it.
    std::uint64_t last_step_gesture() const;
    /// The selected vertices (cells) and faces, sorted; elements the world no longer has are
    /// dropped whenever it changes. Selecting is not an undo step (as in most editors); the
    /// operations on a selection are.
    const edit::Selection& selection() const { return selection_; }
    /// Replaces the selection (sorted and made unique here) and says so.
    void set_selection(edit::Selection selection);
    /// A number for a new gesture (drag, stroke) whose steps merge.
    std::uint64_t new_gesture() { return ++gesture_; }

    /// Bytes the undo history holds (the sum over its steps). O(steps).
    std::size_t history_bytes() const;
    /// The history's memory budget in bytes.
    std::size_t history_budget() const { return history_budget_; }
    /// Sets (and remembers in QSettings) the history's memory budget; the oldest steps beyond
    /// it are dropped at once and after every step, and history_trimmed() says so.
    void set_history_budget(std::size_t bytes);

Q_SIGNALS:
    /// The document took a new state: an edit, undo, redo. `delta` says what differs from the
    /// state before, or is nullptr when anything may (views rebuild).
    void world_changed(const orbis::World_delta* delta);
    /// A new world replaced the document (open, generate, New); `first` for the very first.
    void document_replaced(bool first);
    /// The modified state or the file changed.
    void modified_changed();
    /// The selection changed.
    void selection_changed();
    /// The history dropped `steps` oldest steps holding `bytes` to stay in its budget.
    void history_trimmed(int steps, std::size_t bytes);

private:
    void show_state(const World& world, const World_delta* delta);
    void trim_history();
    void prune_selection();

    std::optional<World> world_;
    QString path_;
    bool unsaved_base_ = false; // the document differs from its file before any step
    std::uint64_t serial_ = 0;
    std::uint64_t instance_ = 0;
    std::uint64_t gesture_ = 0;
    bool replaying_ = false; // history being rebuilt: steps do not show states
    QString busy_;
    edit::Selection selection_;
    QUndoStack* undo_stack_ = nullptr;
    std::size_t history_budget_ = std::size_t{1} << 30;
};

} // namespace orbis::ui
