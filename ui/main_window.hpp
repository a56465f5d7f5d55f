// SPDX-License-Identifier: MIT
// The editor's main window: assembles the document, the viewport, the tools, the docks, the
// menus and the status bar.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/render/edit_preview.hpp"

#include <QMainWindow>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QDoubleSpinBox;
class QLabel;
class QTimer;
class QUndoStack;

namespace orbis {
struct Element;
} // namespace orbis

namespace orbis::ui {

class Autosave;
class Background_saver;
class Document;
class File_actions;
class History_dock;
class Inspector_dock;
class Job_runner;
class Live_water;
class Layers_dock;
class Timeline_dock;
class Selection_actions;
class Tool;
class Tool_registry;
class Viewport;
struct Tool_event;

/// The editor window. It owns the Document and shows it; every failure is reported in the
/// status bar (and a message box for files) and leaves the document as it was.
class Main_window : public QMainWindow {
    Q_OBJECT
public:
    /// A window with no world yet; restores its layout and view options from QSettings.
    explicit Main_window(QWidget* parent = nullptr);
    ~Main_window() override;

    /// Opens `path` (.orbis, .ply, .obj) as the document; on failure says why and keeps the
    /// current document. Returns whether it opened.
    bool open_file(const QString& path);
    /// Saves the document to `path` in the format its extension names, atomically (.orbis
    /// becomes the document's file; .ply and .obj are exports), on a worker thread while the
    /// window stays responsive, and waits for it. Returns whether it saved.
    bool save_to(const QString& path);
    /// The File menu's actions (background saves, recovery).
    File_actions& files() const { return *files_; }
    /// The background writer of saves and autosaves.
    Background_saver& saver() const { return *saver_; }
    /// Autosave to the recovery folder.
    Autosave& autosave() const { return *autosave_; }
    /// Starts generating a new world with `pipeline` off the GUI thread. False while a job runs.
    bool generate(const gen::Pipeline& pipeline);
    /// True while a generation or module run is under way.
    bool generating() const;
    /// Blocks until the running job (if any) finished and was taken (tests).
    void finish_generation();
    /// Cancels the running job; the document stays as it was.
    void cancel_generation();
    /// Runs `module` with `params` on the document off the GUI thread as one undoable step.
    /// Refused (false, the reason in the status bar) for unknown modules or parameters, or
    /// while something else runs.
    bool run_module(const QString& module, const Dict& params);
    /// Runs `module` with `params` on the document's selection as one undoable step (see
    /// Job_runner::run_module_on_selection). Refused like run_module, and for an empty
    /// selection or a module that edits the mesh.
    bool run_module_on_selection(const QString& module, const Dict& params);

    /// Replaces the document by `world`, shown under `title`, unsaved or not.
    void set_document(World world, const QString& title, bool modified);
    /// The document.
    Document& document() const { return *document_; }
    /// The document's world, if there is one.
    const World* world() const;
    /// The document's file, empty for none.
    const QString& path() const;
    /// True when the document has changes that are not saved.
    bool modified() const { return isWindowModified(); }
    /// The undo stack of the document.
    QUndoStack* undo_stack() const;
    /// The live water updater (tests wait on it with Live_water::finish).
    Live_water& live_water() const { return *live_water_; }
    /// Bytes the undo history holds.
    std::size_t history_bytes() const;
    /// Sets the history's memory budget (the oldest steps beyond it are dropped).
    void set_history_budget(std::size_t bytes);

    /// The 3D view.
    Viewport* viewport() const { return viewport_; }
    /// The Layers dock.
    Layers_dock* layers_dock() const { return layers_; }
    /// The Inspector dock.
    Inspector_dock* inspector() const { return inspector_; }
    /// The Timeline dock (hidden until View > Timeline, Ctrl+T).
    Timeline_dock* timeline_dock() const { return timeline_; }

    /// The active tool.
    Tool* tool() const;
    /// The tool called `id` ("select", "flip", "brush", ...), nullptr for none.
    Tool* find_tool(const QString& id) const;
    /// Makes tool `id` active as its toolbar button does; false for unknown ids.
    bool set_tool(const QString& id);
    /// What the active tool would do at viewport point `at` with Shift held or not.
    std::optional<render::Edit_preview> preview_at(QPoint at, bool shift) const;
    /// A click of the active tool at viewport point `at`: an allowed edit becomes one step; a
    /// refused one changes nothing and says why in the status bar. Returns whether the world
    /// changed.
    bool apply_tool_at(QPoint at, bool shift);
    /// Sets a layer value as the inspector does (see set_layer_value); false and the reason in
    /// the status bar when refused.
    bool set_value(const QString& layer, std::size_t slot, const QString& text);
    /// The action called `name` (object name); nullptr when none.
    QAction* action(const QString& name) const;
    /// The status bar's hover readout.
    QString hover_text() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void create_actions();
    void create_menus();
    void create_tools();
    void connect_viewport();
    void document_replaced(bool first);
    void selection_changed();
    void view_options_changed();
    void update_legend();
    void update_title();
    void update_summary();
    void select(const Element& e, bool fly);
    Tool_event event_at(QPoint at, Qt::KeyboardModifiers modifiers) const;
    void restore_settings();
    void save_settings() const;

    Document* document_ = nullptr;
    Job_runner* jobs_ = nullptr;
    Live_water* live_water_ = nullptr;
    QDoubleSpinBox* river_threshold_ = nullptr; // rivers drawn from this discharge (m³/s) up
    File_actions* files_ = nullptr;
    Background_saver* saver_ = nullptr;
    Autosave* autosave_ = nullptr;
    Selection_actions* selections_ = nullptr;
    Viewport* viewport_ = nullptr;
    Layers_dock* layers_ = nullptr;
    Inspector_dock* inspector_ = nullptr;
    History_dock* history_ = nullptr;
    Timeline_dock* timeline_ = nullptr;
    Tool_registry* tools_ = nullptr;
    QTimer* stats_timer_ = nullptr;
    QLabel* hover_label_ = nullptr;
    QLabel* summary_label_ = nullptr;
    QDoubleSpinBox* relief_height_ = nullptr;
};

} // namespace orbis::ui
