// SPDX-License-Identifier: MIT
// The File menu: New, Open, Open Recent, Save, Save As, Export, Quit, and asking about unsaved
// changes.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QMainWindow;
class QMenu;
class QMimeData;

namespace orbis::ui {

class Document;
class Job_runner;
class Viewport;

/// Opens, saves and exports the document with the window's dialogs. Every failure is reported
/// in a message box (unless ORBIS_NO_DIALOGS is set) and the status bar, and the document stays
/// as it was. Saves are atomic (the io library writes beside the target and renames).
class File_actions : public QObject {
    Q_OBJECT
public:
    /// File actions of `window`, for `document`; `jobs` generates new worlds.
    File_actions(QMainWindow& window, Document& document, Job_runner& jobs, Viewport& viewport);

    /// Creates the actions (new, open, save, save_as, export_*, quit: their object names) and
    /// fills `menu` with them and Open Recent.
    void add_to(QMenu* menu);
    /// Opens `path` (.orbis, .ply, .obj) as the document. Returns whether it opened.
    bool open_file(const QString& path);
    /// Saves to `path` in the format its extension names. Returns whether it saved.
    bool save_to(const QString& path);
    /// Asks whether to save unsaved changes; false when the user cancelled (or saving failed).
    bool maybe_save();
    /// The one local world file (.orbis, .ply, .obj) that `data` (a drag) carries, or empty.
    static QString openable(const QMimeData& data);
    /// Says that `what` failed because of `why`, in the status bar and a message box.
    void report_error(const QString& what, const QString& why);

private:
    bool save();
    bool save_as();
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
    QMenu* recent_menu_ = nullptr;
};

} // namespace orbis::ui
