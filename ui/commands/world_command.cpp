// SPDX-License-Identifier: MIT
// One undoable step of the editor: the World before and after, swapped in on undo and redo.
#include "ui/commands/world_command.hpp"

#include <algorithm>
#include <utility>

namespace orbis::ui {

namespace {

QString size_text(std::size_t bytes) {
    if (bytes < 1024) return QString("%1 B").arg(bytes);
    if (bytes < 1024 * 1024) return QString("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QString("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

// The delta that takes a view of `from` to the other state.
std::optional<World_delta> delta_from(const std::optional<World_delta>& delta, const World& from) {
    if (!delta) return std::nullopt;
    return delta_from(from, *delta);
}

} // namespace

World_command::World_command(const QString& text, World before, World after,
                             std::optional<World_delta> delta, Show_world show, bool shown)
    : base_text_(text)
    , before_(std::move(before))
    , after_(std::move(after))
    , delta_(std::move(delta))
    , show_(std::move(show))
    , skip_first_redo_(shown)
    , bytes_(after_.bytes_not_shared_with(before_)) {
    update_text();
}

void World_command::update_text() { setText(base_text_ + "  (" + size_text(bytes_) + ")"); }

void World_command::undo() {
    const auto back = delta_from(delta_, after_);
    show_(before_, back ? &*back : nullptr);
}

void World_command::redo() {
    if (skip_first_redo_) {
        skip_first_redo_ = false;
        return;
    }
    const auto forth = delta_from(delta_, before_);
    show_(after_, forth ? &*forth : nullptr);
}

void World_command::amend(World after) {
    after_ = std::move(after);
    delta_.reset();
    bytes_ = after_.bytes_not_shared_with(before_);
    update_text();
}

bool World_command::mergeWith(const QUndoCommand* other) {
    const auto* next = dynamic_cast<const World_command*>(other);
    if (!next || kind_ == Command_id::none || next->kind_ != kind_ || next->gesture_ != gesture_)
        return false;
    // One step from this step's start to the other's end: the deltas together cover it.
    after_ = next->after_;
    bytes_ = after_.bytes_not_shared_with(before_);
    if (delta_ && next->delta_) {
        delta_->vertices.insert(delta_->vertices.end(), next->delta_->vertices.begin(),
                                next->delta_->vertices.end());
        delta_->faces.insert(delta_->faces.end(), next->delta_->faces.begin(),
                             next->delta_->faces.end());
        delta_->edges.insert(delta_->edges.end(), next->delta_->edges.begin(),
                             next->delta_->edges.end());
    } else {
        delta_.reset();
    }
    update_text();
    return true;
}

} // namespace orbis::ui
