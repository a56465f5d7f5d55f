// SPDX-License-Identifier: MIT
// Live water: after an edit, the water and climate layers that went stale are computed again
// off the GUI thread and join the edit's undo step.
#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace orbis::ui {

class Document;

/// Watches `document`: whenever its world has stale steps of gen::live_water_modules (a brush
/// stroke changed the elevation, a mesh edit the mesh), it re-runs them on a snapshot on a
/// worker thread (gen::refresh_stale_steps) and, if the document has not changed meanwhile,
/// makes the result part of the step that made them stale (Document::amend_last_step), so one
/// undo brings the old rivers back. A result that arrives after another edit is dropped and
/// the work starts again from the new state. The document stays editable meanwhile: the
/// worker has its own copy-on-write World. A world whose water is fresh but was not computed
/// in this session (an opened file, an undone mesh edit) is prepared in the background: its
/// water steps run once on a copy whose results are dropped, so that the modules keep their
/// state (gen::run_memory_limit) and the first stroke's update redoes only what it reaches.
class Live_water : public QObject {
    Q_OBJECT
public:
    /// Watches `document`; on unless QSettings says water/live is false. Turns on the modules'
    /// run memory (gen::set_run_memory_limit) for worlds of up to 4 million vertices.
    explicit Live_water(Document& document, QObject* parent = nullptr);
    ~Live_water() override;
    /// Turns live water on (and checks the document at once) or off, for this window; the
    /// Tools menu's action also remembers the choice in QSettings (water/live).
    void set_enabled(bool on);
    /// Whether live water is on.
    bool enabled() const { return enabled_; }
    /// True while an update or a preparation runs, or one waits to start.
    bool busy() const;
    /// Blocks until no update runs or waits (tests): takes each result as the event loop would.
    void finish();

Q_SIGNALS:
    /// The water of the current state was updated; `message` says what ran and how long it took.
    void updated(const QString& message);
    /// An update failed because of `why` (the document keeps its stale layers).
    void failed(const QString& why);

private:
    struct State;
    void check();
    void start();
    void prepare();
    void take_result();

    Document& document_;
    bool enabled_ = true;
    std::unique_ptr<State> state_;
};

} // namespace orbis::ui
