// SPDX-License-Identifier: MIT
// The editor's document: one World, its file, whether it is saved, and its undo history.
#include "ui/document.hpp"

#include "ui/commands/world_command.hpp"

#include "orbis/io/formats.hpp"

#include <QFileInfo>
#include <QSettings>
#include <QUndoStack>

#include <algorithm>
#include <vector>

namespace orbis::ui {

Document::Document(QObject* parent)
    : QObject(parent)
    , undo_stack_(new QUndoStack(this)) {
    history_budget_ = std::size_t(QSettings().value("history/budget_mib", 1024).toULongLong())
                      << 20;
    connect(undo_stack_, &QUndoStack::cleanChanged, this, &Document::modified_changed);
}

bool Document::modified() const { return world_ && (unsaved_base_ || !undo_stack_->isClean()); }

std::optional<QString> Document::check_edit() const {
    if (!world_) return tr("there is no world to edit");
    if (!busy_.isEmpty()) return busy_;
    return std::nullopt;
}

void Document::reset(World world, const QString& path, bool modified) {
    const bool first = !world_;
    world_ = std::move(world);
    ++serial_;
    ++instance_;
    path_ = path;
    undo_stack_->clear();
    unsaved_base_ = modified;
    selection_ = {};
    Q_EMIT document_replaced(first);
    Q_EMIT selection_changed();
    Q_EMIT modified_changed();
}

void Document::mark_saved(const QString& path) {
    if (io::format_of(path.toStdString()) != io::File_format::world) return;
    path_ = QFileInfo(path).absoluteFilePath();
    unsaved_base_ = false;
    undo_stack_->setClean();
    Q_EMIT modified_changed();
}

void Document::mark_saved(const QString& path, const World& snapshot) {
    if (io::format_of(path.toStdString()) != io::File_format::world || !world_) return;
    // The states of the history: index 0 is the first step's start, index i the end of step i.
    const int count = undo_stack_->count();
    const int index = undo_stack_->index();
    auto state = [this, count](int i) -> const World& {
        if (count == 0) return *world_;
        const auto* c = static_cast<const World_command*>(undo_stack_->command(i == 0 ? 0 : i - 1));
        return i == 0 ? c->before() : c->after();
    };
    // The state shown now first, then outward from it: a save usually ends a step or two later.
    int match = -1;
    if (*world_ == snapshot) {
        match = index;
    } else {
        for (int d = 1; match < 0 && (index - d >= 0 || index + d <= count); ++d) {
            if (index - d >= 0 && state(index - d) == snapshot) {
                match = index - d;
            } else if (index + d <= count && state(index + d) == snapshot) {
                match = index + d;
            }
        }
    }
    path_ = QFileInfo(path).absoluteFilePath();
    if (match < 0) {
        // The file holds a state the history lost: every state shown differs from the file.
        unsaved_base_ = true;
        undo_stack_->resetClean();
        Q_EMIT modified_changed();
        return;
    }
    unsaved_base_ = false;
    if (match == index) {
        undo_stack_->setClean();
    } else {
        // QUndoStack marks only its current index clean: visit `match` without showing it.
        replaying_ = true;
        undo_stack_->setIndex(match);
        undo_stack_->setClean();
        undo_stack_->setIndex(index);
        replaying_ = false;
    }
    Q_EMIT modified_changed();
}

void Document::push(const QString& text, World after, std::optional<World_delta> delta,
                    Command_id kind, std::uint64_t gesture) {
    auto* command = new World_command(
        text, *world_, std::move(after), std::move(delta),
        [this](const World& w, const World_delta* d) { show_state(w, d); }, false);
    command->set_merge(kind, gesture);
    undo_stack_->push(command);
    trim_history();
}

void Document::amend_last_step(const QString& text, World after) {
    const int index = undo_stack_->index();
    auto* last = index > 0 ? dynamic_cast<World_command*>(
                                 const_cast<QUndoCommand*>(undo_stack_->command(index - 1)))
                           : nullptr;
    if (!last) {
        push(text, std::move(after), std::nullopt);
        return;
    }
    last->amend(after);
    show_state(after, nullptr);
    trim_history();
}

std::uint64_t Document::last_step_gesture() const {
    const int index = undo_stack_->index();
    const auto* last =
        index > 0 ? dynamic_cast<const World_command*>(undo_stack_->command(index - 1)) : nullptr;
    return last ? last->gesture() : 0;
}

void Document::show_state(const World& world, const World_delta* delta) {
    if (replaying_) return;
    world_ = world;
    ++serial_;
    Q_EMIT world_changed(delta);
    prune_selection();
}

void Document::set_selection(edit::Selection selection) {
    auto by_index = [](auto a, auto b) { return a.index() < b.index(); };
    std::sort(selection.vertices.begin(), selection.vertices.end(), by_index);
    selection.vertices.erase(std::unique(selection.vertices.begin(), selection.vertices.end()),
                             selection.vertices.end());
    std::sort(selection.faces.begin(), selection.faces.end(), by_index);
    selection.faces.erase(std::unique(selection.faces.begin(), selection.faces.end()),
                          selection.faces.end());
    selection_ = std::move(selection);
    if (world_) {
        const Mesh& m = world_->mesh();
        std::erase_if(selection_.vertices, [&](Vertex v) { return !m.contains(v); });
        std::erase_if(selection_.faces, [&](Face f) { return !m.contains(f); });
    }
    Q_EMIT selection_changed();
}

void Document::prune_selection() {
    if (!world_ || selection_.empty()) return;
    const Mesh& m = world_->mesh();
    const std::size_t before = selection_.vertices.size() + selection_.faces.size();
    std::erase_if(selection_.vertices, [&](Vertex v) { return !m.contains(v); });
    std::erase_if(selection_.faces, [&](Face f) { return !m.contains(f); });
    if (selection_.vertices.size() + selection_.faces.size() != before) Q_EMIT selection_changed();
}

std::size_t Document::history_bytes() const {
    std::size_t total = 0;
    for (int i = 0; i < undo_stack_->count(); ++i)
        if (const auto* c = dynamic_cast<const World_command*>(undo_stack_->command(i)))
            total += c->bytes();
    return total;
}

void Document::set_history_budget(std::size_t bytes) {
    history_budget_ = bytes;
    QSettings().setValue("history/budget_mib", qulonglong(bytes >> 20));
    trim_history();
}

void Document::trim_history() {
    const std::size_t total = history_bytes();
    if (total <= history_budget_) return;
    // Drop the oldest done steps until the rest fits (the steps that can be redone stay).
    int drop = 0;
    std::size_t dropped = 0;
    while (drop < undo_stack_->index() && total - dropped > history_budget_) {
        dropped += static_cast<const World_command*>(undo_stack_->command(drop))->bytes();
        ++drop;
    }
    if (drop == 0) return;
    struct Kept {
        QString text;
        World before, after;
        std::optional<World_delta> delta;
        Command_id kind;
        std::uint64_t gesture;
    };
    std::vector<Kept> kept;
    for (int i = drop; i < undo_stack_->count(); ++i) {
        const auto* c = static_cast<const World_command*>(undo_stack_->command(i));
        kept.push_back(
            {c->base_text(), c->before(), c->after(), c->delta(), c->kind(), c->gesture()});
    }
    const int index = undo_stack_->index() - drop;
    const int clean = undo_stack_->cleanIndex() - drop;
    // QUndoStack cannot drop its oldest commands: rebuild it from the kept snapshots without
    // showing any state (the document already is the state at `index`).
    replaying_ = true;
    undo_stack_->clear();
    for (Kept& k : kept) {
        auto* command = new World_command(
            k.text, std::move(k.before), std::move(k.after), std::move(k.delta),
            [this](const World& w, const World_delta* d) { show_state(w, d); }, true);
        // A drag or stroke in progress goes on merging into its step.
        command->set_merge(k.kind, k.gesture);
        undo_stack_->push(command);
    }
    if (clean >= 0) {
        undo_stack_->setIndex(clean);
        undo_stack_->setClean();
    } else {
        unsaved_base_ = true;
    }
    undo_stack_->setIndex(index);
    replaying_ = false;
    Q_EMIT modified_changed();
    Q_EMIT history_trimmed(drop, dropped);
}

} // namespace orbis::ui
