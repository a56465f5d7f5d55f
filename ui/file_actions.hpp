// SPDX-License-Identifier: MIT
// The File menu: New, Open, Open Recent, Save, Save As, Export, Quit, and asking about unsaved
// changes.
#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class QMainWindow;
class QMenu;
class QMimeData;
class QProgressBar;
class QTimer;

namespace orbis {
class World;
}

namespace orbis::ui {

class Autosave;
class Background_saver;
class Document;
class Job_runner;
class Viewport;
struct Recovery_entry;
struct Save_result;

/// Opens, saves and exports the document with the window's dialogs. Every failure is reported
/// in a message box (unless ORBIS_NO_DIALOGS is set) and the status bar, and the document stays
/// as it was. Saves are atomic (the io library writes beside the target and renames) and run in
/// the background (Background_saver), with their progress in the status bar; the document is
/// clean at the state a save wrote, so edits made meanwhile stay unsaved.
class File_actions : public QObject {
    Q_OBJECT
public:
    /// File actions of `window`, for `document`; `jobs` generates new worlds, `saver` writes
    /// files and `autosave` keeps recovery files.
    File_actions(QMainWindow& window, Document& document, Job_runner& jobs, Viewport& viewport,
                 Background_saver& saver, Autosave& autosave);

    /// Creates the actions (new, open, save, save_as, export_*, quit: their object names) and
    /// fills `menu` with them and Open Recent.
    void add_to(QMenu* menu);
    /// Opens `path` (.orbis, .ply, .obj) as the document. Returns whether it opened.
    ///
    /// A world file of `preview_bytes()` or more is read on a worker thread while the window
    /// keeps drawing (user input waits): first a coarse preview of it (`preview_world`) goes to
    /// `show_preview`, then the world replaces it; if the load fails, `end_preview` is called
    /// and the document stays as it was. Refused (false) while another open runs.
    bool open_file(const QString& path);
    /// True while open_file reads a file.
    bool opening() const { return opening_; }
    /// Files this large or larger get a preview while they load: 256 MiB (about 1.5M
    /// vertices), or ORBIS_PREVIEW_BYTES when set (tests).
    static std::uint64_t preview_bytes();
    /// Points in a preview: 100,000, or ORBIS_PREVIEW_POINTS when set (tests).
    static std::size_t preview_points();
    /// Where open_file sends its preview: `layer()` names the vertex layer to colour it by,
    /// `show(world)` draws it, `end()` puts the document's view back after a failed load.
    void set_preview_view(std::function<std::string()> layer,
                          std::function<void(const World&)> show, std::function<void()> end);
    /// Saves to `path` in the format its extension names and waits for the write (the window
    /// stays responsive meanwhile). Returns whether it saved.
    bool save_to(const QString& path);
    /// Starts saving to `path` in the background; false without a world. The document is
    /// marked saved (at the state written) when the write succeeds.
    bool start_save(const QString& path);
    /// Waits, with the window responsive, until no save or autosave runs or waits.
    void finish_saves();
    /// Offers to restore each of `entries` (a message box naming its file and autosave time;
    /// Restore, Discard, or Later to ask at the next start). The first restored one becomes
    /// the document; further ones open in new editor windows (`orbis --recover ID`).
    /// Returns whether the document was restored.
    bool offer_recovery(const std::vector<Recovery_entry>& entries);
    /// Makes `entry` the document (its World exactly as autosaved, unsaved, under the name of
    /// the file it came from) and this session's recovery. Returns whether it could.
    bool restore(const Recovery_entry& entry);
    /// Asks whether to save unsaved changes; false when the user cancelled (or saving failed).
    bool maybe_save();
    /// The one local world file (.orbis, .ply, .obj) that `data` (a drag) carries, or empty.
    static QString openable(const QMimeData& data);
    /// Says that `what` failed because of `why`, in the status bar and a message box.
    void report_error(const QString& what, const QString& why);

Q_SIGNALS:
    /// open_file drew a preview of `vertices` vertices (after `show`) and now loads the file.
    void preview_shown(qulonglong vertices);

private:
    bool save(bool wait);
    bool save_as(bool wait);
    void save_finished(const Save_result& result);
    void show_save_progress();
    void export_as(const QString& filter, const QString& suffix);
    void export_png();
    void add_recent(const QString& path);
    void rebuild_recent_menu();
    QString last_folder() const;
    void message(const QString& text, int ms = 5000);

    QMainWindow& window_;
    Document& document_;
    Job_runner& jobs_;
    Viewport& viewport_;
    Background_saver& saver_;
    Autosave& autosave_;
    QMenu* recent_menu_ = nullptr;
    QProgressBar* save_progress_ = nullptr;
    QTimer* save_progress_timer_ = nullptr;
    QHash<std::uint64_t, std::uint64_t> save_documents_; // ticket -> Document::instance()
    QHash<std::uint64_t, bool> save_outcomes_;           // ticket -> written (save_to reads it)
    bool opening_ = false;
    std::function<std::string()> preview_layer_;
    std::function<void(const World&)> show_preview_;
    std::function<void()> end_preview_;
};

} // namespace orbis::ui
