// SPDX-License-Identifier: MIT
// What every editing tool is: it turns pointer events on the planet into previews and steps.
#pragma once

#include "ui/viewport.hpp"

#include <QKeySequence>
#include <QObject>
#include <QPoint>
#include <QString>

#include <functional>
#include <optional>

class QKeyEvent;
class QToolBar;

namespace orbis {
struct Element;
} // namespace orbis

namespace orbis::ui {

class Document;

/// A pointer event as tools get it. `hover` is what lies under the cursor in the document's
/// current state (never an older picture's), nothing off the planet; `modifiers` are the event's
/// own, not the keyboard's state when it is handled, so a late event previews what it said.
struct Tool_event {
    QPoint at;                                        ///< viewport pixels from the top left
    Qt::KeyboardModifiers modifiers = Qt::NoModifier; ///< held during the event
    std::optional<Hover> hover;                       ///< under the cursor, nothing off the planet
};

/// What a tool may use: the document it edits, the view, the status bar and the inspector.
struct Tool_context {
    Document* document = nullptr; ///< the document every step goes to
    Viewport* viewport = nullptr; ///< for previews, the camera and the shown layer
    /// Shows `text` in the status bar for `ms` milliseconds.
    std::function<void(const QString& text, int ms)> message;
    /// Pins `element` in the inspector (and turns the view to it when `fly`).
    std::function<void(const Element& element, bool fly)> select;
};

/// How a tool presents itself: the registry builds its action, menu entry, toolbar button and
/// shortcut from this.
struct Tool_description {
    QString id;       ///< the action's object name is "tool_" + id
    QString text;     ///< menu text with its & mnemonic
    QKeySequence key; ///< the shortcut that selects the tool
    QString tip;      ///< what a click or drag does
};

/// An editing tool. The viewport hands it pointer events on the planet; a tool decides what a
/// hover previews and what a click or drag does, and makes every change as Document steps.
/// Previews are computed from the event's own hover and modifiers against the document as it
/// is, so what a preview says is what the click does, however late the events are handled.
class Tool : public QObject {
    Q_OBJECT
public:
    /// A tool working in `context`.
    explicit Tool(Tool_context context)
        : context_(std::move(context)) {}

    /// Name, text, shortcut, tip.
    virtual Tool_description description() const = 0;
    /// The tool became the active one.
    virtual void activate() {}
    /// Another tool became active: clear previews, end gestures.
    virtual void deactivate() {}
    /// The cursor moved (no button held) or a modifier changed: show the preview.
    virtual void hover(const Tool_event& event) { (void)event; }
    /// True when a left press on the planet starts the tool's drag instead of turning the view.
    virtual bool drags() const { return false; }
    /// The left button went down on the planet (only when drags()).
    virtual void press(const Tool_event& event) { (void)event; }
    /// The cursor moved with the left button held (after press).
    virtual void drag(const Tool_event& event) { (void)event; }
    /// The left button was released (after press).
    virtual void release(const Tool_event& event) { (void)event; }
    /// A left click (press and release without moving) on the planet; returns whether the
    /// world changed.
    virtual bool click(const Tool_event& event) {
        (void)event;
        return false;
    }
    /// A key pressed over the view; returns whether the tool used it.
    virtual bool key(QKeyEvent* event) {
        (void)event;
        return false;
    }
    /// The tool's options as toolbar widgets (called once, when the toolbar is built).
    virtual void add_options(QToolBar* bar) { (void)bar; }
    /// The verdict a click at `event` would get, for tools that preview edits.
    virtual std::optional<render::Edit_preview> preview(const Tool_event& event) const {
        (void)event;
        return std::nullopt;
    }

    /// What the last hover adds to the status bar's readout (the preview's verdict), or empty.
    const QString& note() const { return note_; }

protected:
    /// Shows `text` in the status bar.
    void message(const QString& text, int ms = 5000) const {
        if (context_.message) context_.message(text, ms);
    }

    Tool_context context_;
    QString note_;
};

} // namespace orbis::ui
