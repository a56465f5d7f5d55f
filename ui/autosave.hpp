// SPDX-License-Identifier: MIT
// Autosave and recovery: snapshots of unsaved work written in the background to recovery
// files, and finding them again after the editor died.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

class QAction;
class QLockFile;
class QTimer;
class QWidget;

namespace orbis::ui {

class Background_saver;
class Document;
struct Save_result;

/// Unsaved work an editor that is no longer running left behind.
struct Recovery_entry {
    QString id;            ///< the session that wrote it
    QString world_path;    ///< the recovery file (.orbis: orbis-cli opens it too)
    QString document_path; ///< the file the document came from, empty for an untitled one
    QDateTime saved_at;    ///< when the autosave was written
};

/// Where recovery files live: "recovery" in the user's data folder
/// ($XDG_DATA_HOME/Orbis/orbis/recovery on Linux). Created when missing.
QString recovery_folder();
/// The recovery entries whose editor is gone (its lock is stale: killed, crashed, power lost),
/// oldest first. Entries of editors still running are not listed. Tidies what a dead editor
/// left half-written (temporary files; a description without its world). O(files).
std::vector<Recovery_entry> find_recoverable();
/// Deletes an entry's files (the user declined to restore it). False when some file stayed.
bool discard_recovery(const Recovery_entry& entry);

/// Writes the document to this session's recovery file every `interval` seconds of editing,
/// in the background, atomically, and only when it changed since the last autosave and has
/// unsaved changes. A save that makes the document clean, and a normal close, remove the file.
/// The interval comes from QSettings (autosave/seconds, default 300; 0 turns autosave off).
class Autosave : public QObject {
    Q_OBJECT
public:
    /// Autosave of `document` through `saver` (shared with the user's saves, so writes never
    /// overlap).
    Autosave(Document& document, Background_saver& saver, QObject* parent = nullptr);
    /// Leaves the recovery file in place: only remove() (a normal close) deletes it.
    ~Autosave() override;

    /// Seconds between autosaves (0: off).
    int interval() const { return interval_; }
    /// Sets the interval; `remember` stores it in QSettings (the preference), otherwise it holds
    /// for this session only (--autosave-seconds). Negative values are refused (false).
    bool set_interval(int seconds, bool remember);
    /// The File menu's "Autosave Interval…" action, asking for minutes.
    QAction* interval_action(QWidget* dialog_parent);

    /// Writes a snapshot now when the document changed since the last autosave and has unsaved
    /// changes; returns whether a write was started. The write itself runs in the background.
    bool autosave_now();
    /// Makes `entry` this session's recovery: the restored document's next autosave replaces it
    /// and a normal close removes it, so the work is never without a copy on disk.
    /// Returns false when another editor holds it.
    bool adopt(const Recovery_entry& entry);
    /// Deletes this session's recovery files (a normal close). Waits for a running autosave.
    void remove();
    /// This session's recovery file (it may not exist yet).
    QString world_path() const;

Q_SIGNALS:
    /// An autosave was written to `path`.
    void autosaved(const QString& path);
    /// An autosave failed, with the reason (the status bar shows it).
    void failed(const QString& why);

private:
    bool lock();
    void finished(const Save_result& result);
    void document_clean_changed();

    Document& document_;
    Background_saver& saver_;
    QTimer* timer_ = nullptr;
    int interval_ = 300;
    QString id_;
    std::unique_ptr<QLockFile> lock_;
    std::uint64_t saved_serial_ = 0;   // the document state the last autosave wrote
    std::uint64_t pending_serial_ = 0; // the state the running autosave writes
    std::uint64_t pending_ticket_ = 0; // the running autosave, 0 for none
    bool written_ = false;             // this session's recovery file exists
    bool remove_pending_ = false;      // remove once the running autosave ends
};

} // namespace orbis::ui
