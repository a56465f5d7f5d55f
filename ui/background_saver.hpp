// SPDX-License-Identifier: MIT
// Writes World snapshots to files on a worker thread, one at a time, so that saving never
// freezes the window.
#pragma once

#include "orbis/core/world.hpp"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <thread>

namespace orbis::ui {

/// Why a snapshot is written: the user's save (the document becomes clean at that state) or
/// an autosave to a recovery file (the document does not change).
enum class Save_purpose { save, autosave };

/// A finished write, as Background_saver::finished reports it.
struct Save_result {
    std::uint64_t ticket = 0;                  ///< what start() returned
    QString path;                              ///< the file written (or not)
    Save_purpose purpose = Save_purpose::save; ///< why it was written
    QString error;                             ///< empty when the file was written
    World snapshot;                            ///< the state written
};

/// Saves World snapshots in the background. A copy-on-write snapshot costs O(layers) on the
/// GUI thread; everything else (serialising, checksums, writing, fsync) runs on a worker
/// thread while the user goes on editing their own copy. Saves run one at a time in the
/// order they were asked for: a save asked for while another runs waits for it. Files are
/// written atomically (io::save_any), so a failed or interrupted save leaves the old file.
class Background_saver : public QObject {
    Q_OBJECT
public:
    /// An idle saver.
    explicit Background_saver(QObject* parent = nullptr);
    /// Waits for the saves asked for: the user's work is never dropped half-written.
    ~Background_saver() override;

    /// Asks for `snapshot` to be written to `path` (format by extension) for `purpose`.
    /// Returns a ticket that finished() names. An autosave asked for while an autosave to the
    /// same path waits replaces the waiting one (only the newest state matters).
    std::uint64_t start(World snapshot, const QString& path, Save_purpose purpose);
    /// True while a save runs or waits.
    bool busy() const { return running_ != nullptr || !queue_.empty(); }
    /// True while a save of `purpose` runs or waits.
    bool busy(Save_purpose purpose) const;
    /// The file being written now, empty when none.
    QString current_path() const;
    /// How far the running write got, 0 to 1 (0 while it prepares the file's sections).
    double progress() const { return progress_.load(std::memory_order_relaxed); }
    /// Runs the event loop (the window stays responsive) until no save runs or waits.
    void wait();

Q_SIGNALS:
    /// A save started: the status bar says so.
    void started(const QString& path, orbis::ui::Save_purpose purpose);
    /// A save ended, on the GUI thread; `result.error` says why it failed.
    void finished(const orbis::ui::Save_result& result);

private:
    struct Job;
    void start_next();
    void take(std::shared_ptr<Job> job);

    std::deque<std::shared_ptr<Job>> queue_;
    std::shared_ptr<Job> running_;
    std::thread worker_;
    std::atomic<double> progress_{0.0};
    std::uint64_t next_ticket_ = 0;
};

} // namespace orbis::ui
