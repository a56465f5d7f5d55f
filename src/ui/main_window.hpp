// SPDX-License-Identifier: MIT
// The editor's main window: the viewport, the Layers dock, menus, toolbar, status bar, files.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/gen/pipeline.hpp"

#include <QMainWindow>

#include <atomic>
#include <memory>
#include <optional>

class QAction;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QProgressDialog;
class QTimer;

namespace orbis::ui {

class Layers_dock;
class Viewport;

/// The editor window. Holds one World (the document) with its file path and whether it has
/// unsaved changes. Generation runs on a worker thread with a progress dialog and Cancel;
/// files load and save on the GUI thread (a million vertices load in about half a second).
/// Every failure is reported in a message box and the status bar and leaves the document as
/// it was.
class Main_window : public QMainWindow {
    Q_OBJECT
public:
    /// A window with no world yet; restores its layout and view options from QSettings.
    explicit Main_window(QWidget* parent = nullptr);
    ~Main_window() override;

    /// Opens `path` (.orbis, .ply, .obj) as the document; on failure says why and keeps the
    /// current document. Returns whether it opened.
    bool open_file(const QString& path);
    /// Saves the document to `path` in the format its extension names, atomically, and makes
    /// it the document's path (.orbis) or exports it (.ply, .obj keep the path). Returns
    /// whether it saved; on failure says why.
    bool save_to(const QString& path);
    /// Starts generating a new world with `pipeline` off the GUI thread; it becomes the
    /// (unsaved) document when done. Refused (returns false) while another generation runs.
    bool generate(const gen::Pipeline& pipeline);
    /// True while a generation runs.
    bool generating() const;
    /// Blocks until the running generation (if any) finished and was taken (tests).
    void finish_generation();
    /// Cancels the running generation; the document stays as it was.
    void cancel_generation();

    /// Replaces the document by `world`, shown under `title`, unsaved or not.
    void set_document(World world, const QString& title, bool modified);
    /// The document, if there is one.
    const World* world() const { return world_ ? &*world_ : nullptr; }
    /// The file the document was opened from or saved to, empty for none.
    const QString& path() const { return path_; }
    /// True when the document has changes that are not saved.
    bool modified() const { return isWindowModified(); }

    /// The 3D view.
    Viewport* viewport() const { return viewport_; }
    /// The Layers dock.
    Layers_dock* layers_dock() const { return layers_; }
    /// The action called `name` (object name), for tests and scripting; nullptr when none.
    QAction* action(const QString& name) const;
    /// The status bar's hover readout.
    QString hover_text() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct Generation;
    void create_actions();
    void create_menus();
    void view_options_changed();
    void update_legend();
    void update_title();
    void update_summary();
    void add_recent(const QString& path);
    void rebuild_recent_menu();
    void generation_finished();
    void report_error(const QString& what, const QString& why);
    bool maybe_save();
    void new_world();
    void open_dialog();
    bool save();
    bool save_as();
    void export_as(const QString& filter, const QString& suffix);
    void export_png();
    void restore_settings();
    void save_settings() const;
    QString last_folder() const;

    std::optional<World> world_;
    QString path_;
    gen::Pipeline last_pipeline_;
    Viewport* viewport_ = nullptr;
    Layers_dock* layers_ = nullptr;
    QLabel* hover_label_ = nullptr;
    QDoubleSpinBox* relief_height_ = nullptr;
    QLabel* summary_label_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    std::unique_ptr<Generation> generation_;
};

} // namespace orbis::ui
