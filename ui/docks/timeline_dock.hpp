// SPDX-License-Identifier: MIT
// The Timeline dock: plates that move. Play, Pause, Step and a slider over the kept steps.
#pragma once

#include "orbis/edit/timeline.hpp"

#include <QDockWidget>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace orbis::ui {

class Document;
class Live_water;

/// Runs the `tectonics` module one step at a time on the document's world and keeps the steps
/// (edit::Timeline) so that a slider scrubs between them. Each step is computed on a worker
/// thread from a snapshot; the view keeps the previous step until the next is ready.
///
/// A run is one undo step (kind none, tagged with its own gesture) from the world before the
/// first step to the step shown: the first step pushes it, later steps and every scrub amend
/// it, so undo takes the whole run back and the document is consistent at every moment. The
/// run lasts while the document shows that step (Document::last_step_gesture): an edit, an
/// undo or another module ends it (Play then starts a new run from the world shown), and a
/// redo of the step brings it back. Playing or stepping from an earlier step drops the kept
/// steps after it. Live water is off while playing and back as it was on pause, so water and
/// climate follow the step shown, within the same undo step.
class Timeline_dock : public QDockWidget {
    Q_OBJECT
public:
    /// The dock for `document`, a child of `window`; `water` is paused while playing.
    Timeline_dock(Document& document, Live_water& water, QWidget* window);
    ~Timeline_dock() override;

    /// Starts playing: a step after another, at the chosen speed, each shown when ready.
    void play();
    /// Stops playing; the step in the making is dropped; the step shown is the run's result.
    void pause();
    /// Computes one step after the one shown (pausing first if playing).
    void step();
    /// Shows kept step `index` (< kept().count()) as the run's result, at once.
    void show_step(std::size_t index);
    /// Splits plate `plate` of the step shown along a random great circle at the start of the
    /// next step (the tectonics module's `rift`), then computes that step (as step()). Returns
    /// why not: the world has no plates, or no plate `plate`.
    std::optional<QString> rift(std::int32_t plate);
    /// Steps per second while playing; 0 for as fast as they are computed.
    void set_speed(int steps_per_second);
    /// The memory budget of the kept steps in bytes (not remembered: tests call it).
    void set_memory_budget(std::size_t bytes);

    /// Writes every kept step as an equirectangular map (1024 × 512) of scalar vertex layer
    /// `layer` to FOLDER/frame_SSSS.png, SSSS the step number, off the GUI thread; the colours
    /// and their range are fixed by the first step so that a colour means the same value in
    /// every frame. message() says when it is done. Returns why not: no kept step, a layer the
    /// first step lacks or that is not a vertex layer, an export running.
    std::optional<QString> export_frames(const QString& folder, const QString& layer);
    /// True while frames are being written.
    bool exporting() const;
    /// Blocks until the export (if any) is written and reported (tests).
    void finish_export();

    /// True while playing.
    bool playing() const { return playing_; }
    /// True while a step is being computed.
    bool busy() const;
    /// The kept steps of the current run.
    const edit::Timeline& kept() const { return timeline_; }
    /// The index of the kept step shown.
    std::size_t shown() const { return shown_; }
    /// True while the document shows a step of the run (the slider works).
    bool current() const;
    /// The kept steps within `reach` of the one shown, nearest first (later before earlier at
    /// the same distance); none while playing or while the document shows no step of the run.
    std::vector<World> steps_near_shown(std::size_t reach) const;
    /// The label under the slider ("step 12 of 40, t = 12 My").
    QString label_text() const;

Q_SIGNALS:
    /// Something for the status bar: a failed step, a run that ended, thinning.
    void message(const QString& text);

private:
    struct State;
    bool begin_run();
    void start_step();
    void take_result();
    void take_frames();
    void show_index(std::size_t index);
    void stop_playing();
    void document_changed();
    void update_controls();
    std::size_t plate_count() const; // of the world shown; 0 without a usable "plates" Dict

    Document& document_;
    Live_water& water_;
    edit::Timeline timeline_;
    std::size_t shown_ = 0;
    std::optional<std::int32_t> rift_; // a plate to split in the next step
    std::uint64_t gesture_ = 0;        // tags the run's undo step; 0 before its first step
    std::uint64_t base_serial_ = 0;    // the document state the run started from
    bool playing_ = false;
    bool water_was_on_ = false;
    bool showing_ = false; // the document changes because this dock said so
    std::int64_t thinning_ = 1;
    std::unique_ptr<State> state_;

    QPushButton* play_ = nullptr;
    QPushButton* step_ = nullptr;
    QPushButton* rift_button_ = nullptr;
    QPushButton* export_ = nullptr;
    QSpinBox* speed_ = nullptr;
    QDoubleSpinBox* dt_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* label_ = nullptr;
};

} // namespace orbis::ui
