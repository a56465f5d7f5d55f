// SPDX-License-Identifier: MIT
// The editor's main window: the viewport, the Layers dock, menus, toolbar, status bar, files.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/render/buffer_cache.hpp"
#include "orbis/render/edit_preview.hpp"

#include <QMainWindow>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QComboBox;
class QDoubleSpinBox;
class QUndoStack;
class QLabel;
class QMenu;
class QProgressDialog;
class QTimer;

namespace orbis::ui {

class Inspector_dock;
class Layers_dock;
class Viewport;
struct Element;

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
    /// The Inspector dock.
    Inspector_dock* inspector() const { return inspector_; }
    /// The undo stack: one command per edit, value change or module run.
    QUndoStack* undo_stack() const { return undo_stack_; }

    /// The active tool.
    render::Edit_tool tool() const { return tool_; }
    /// Makes `tool` active (as its toolbar button does).
    void set_tool(render::Edit_tool tool);
    /// What the active tool would do at viewport point `at` (nothing off the planet).
    std::optional<render::Edit_preview> preview_at(QPoint at, bool snap) const;
    /// Applies the active tool at viewport point `at` as a click does: an allowed edit becomes
    /// one undoable step; a refused one changes nothing and says why in the status bar.
    /// Returns whether the world changed.
    bool apply_tool_at(QPoint at, bool snap);
    /// Sets the value of `layer` for `slot` from `text` as the inspector does: an undoable
    /// step, or a refusal in the status bar (not a number, not a scalar, outside the layer's
    /// range) that changes nothing. Returns whether the world changed.
    bool set_value(const QString& layer, std::size_t slot, const QString& text);
    /// Runs `module` with `params` on the document off the GUI thread (with progress and
    /// Cancel); the result is one undoable step. Refused (false, with the reason in the
    /// status bar) for unknown modules or parameters, or while something else runs.
    bool run_module(const QString& module, const Dict& params);
    /// Bytes the undo history holds (the sum over its steps).
    std::size_t history_bytes() const;
    /// Sets the history's memory budget; the oldest steps are dropped past it (and the status
    /// bar says so).
    void set_history_budget(std::size_t bytes);
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

    void create_tools();
    void show_state(const World& world, const render::World_delta* delta);
    void push_step(const QString& text, World after, std::size_t bytes,
                   std::optional<render::World_delta> delta, int merge_id = -1);
    void trim_history();
    void update_modified();
    void select(const Element& e, bool fly);
    void start_drag(QPoint at);
    void drag(QPoint at);
    void finish_drag(QPoint at);
    void run_module_dialog();
    void history_budget_dialog();
    bool start_pipeline(const gen::Pipeline& pipeline, std::optional<World> start,
                        const QString& step_text);

    std::optional<World> world_;
    QString path_;
    bool unsaved_base_ = false;         // the document differs from its file before any step
    std::uint64_t document_serial_ = 0; // changes with every state the document takes
    bool replaying_ = false;            // history being rebuilt: steps do not show states
    QUndoStack* undo_stack_ = nullptr;
    std::size_t history_budget_ = std::size_t{1} << 30;
    Inspector_dock* inspector_ = nullptr;
    render::Edit_tool tool_ = render::Edit_tool::select;
    QActionGroup* tools_ = nullptr;
    QComboBox* select_filter_ = nullptr;
    QTimer* stats_timer_ = nullptr;
    // A Move vertex drag: the vertex, its distance from the centre, and the drag's merge id.
    Vertex drag_vertex_;
    double drag_radius_ = 0.0;
    int drag_id_ = 0;
    bool dragging_ = false;
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
