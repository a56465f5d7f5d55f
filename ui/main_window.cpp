// SPDX-License-Identifier: MIT
// The editor's main window: assembles the document, the viewport, the tools, the docks, the
// menus and the status bar.
#include "ui/main_window.hpp"

#include "ui/autosave.hpp"
#include "ui/background_saver.hpp"
#include "ui/commands/set_value.hpp"
#include "ui/dialogs/run_module_dialog.hpp"
#include "ui/display_modes.hpp"
#include "ui/docks/history_dock.hpp"
#include "ui/docks/inspector_dock.hpp"
#include "ui/docks/layers_dock.hpp"
#include "ui/docks/timeline_dock.hpp"
#include "ui/document.hpp"
#include "ui/file_actions.hpp"
#include "ui/job_runner.hpp"
#include "ui/live_water.hpp"
#include "ui/selection_actions.hpp"
#include "ui/tools/tool_registry.hpp"
#include "ui/viewport.hpp"

#include "orbis/core/element.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/render/selection_outline.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

namespace orbis::ui {

Main_window::Main_window(QWidget* parent)
    : QMainWindow(parent) {
    setObjectName("main_window");
    setAcceptDrops(true);
    document_ = new Document(this);
    jobs_ = new Job_runner(*document_, this);
    live_water_ = new Live_water(*document_, this);
    viewport_ = new Viewport(this);
    saver_ = new Background_saver(this);
    autosave_ = new Autosave(*document_, *saver_, this);
    files_ = new File_actions(*this, *document_, *jobs_, *viewport_, *saver_, *autosave_);
    selections_ = new Selection_actions(*this, *document_, *viewport_);
    viewport_->setObjectName("viewport");
    setCentralWidget(viewport_);
    viewport_->clear_world(tr("Open a world (File > Open) or generate one (File > New)"));
    layers_ = new Layers_dock(this);
    addDockWidget(Qt::RightDockWidgetArea, layers_);
    inspector_ = new Inspector_dock(this);
    addDockWidget(Qt::RightDockWidgetArea, inspector_);
    history_ = new History_dock(*document_, this);
    auto* history = history_;
    addDockWidget(Qt::RightDockWidgetArea, history);
    tabifyDockWidget(inspector_, history);
    inspector_->raise();
    timeline_ = new Timeline_dock(*document_, *live_water_, this);
    addDockWidget(Qt::BottomDockWidgetArea, timeline_);
    timeline_->hide(); // until View > Timeline (restore_settings may show it again)
    // Statistics over a million elements take tens of milliseconds: recompute them once the
    // edits pause, not per edit, and on a worker (most of a second at ten million), so
    // that a stroke or a save meanwhile is not held up.
    stats_timer_ = new QTimer(this);
    stats_timer_->setSingleShot(true);
    stats_timer_->setInterval(400);
    connect(stats_timer_, &QTimer::timeout, this, [this] {
        if (world()) layers_->refresh_in_background(*world());
    });
    connect(layers_, &Layers_dock::stats_refreshed, this, &Main_window::update_legend);
    hover_label_ = new QLabel(this);
    hover_label_->setObjectName("hover_readout");
    hover_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(hover_label_, 1);
    summary_label_ = new QLabel(this);
    summary_label_->setObjectName("world_summary");
    statusBar()->addPermanentWidget(summary_label_);

    create_actions();
    enable_display_modes(*this, world());
    create_tools();
    create_menus();
    restore_settings();
    set_tool("select");
    connect_viewport();

    files_->set_preview_view(
        [this] {
            return layers_->shown_layer().empty() ? std::string("elevation")
                                                  : layers_->shown_layer();
        },
        [this](const World& preview) {
            // As document_replaced shows a new world, with the preview in the document's place
            // until the world it stands for has loaded.
            layers_->set_world(preview);
            if (layers_->shown_layer().empty() && preview.find_layer("elevation"))
                layers_->set_shown_layer("elevation");
            enable_display_modes(*this, &preview);
            viewport_->set_selection({}, {}); // the document's selection is not on the preview
            viewport_->clear_world(QString());
            view_options_changed();
            viewport_->set_world(preview, true);
        },
        [this] {
            if (world()) {
                document_replaced(false);
                selection_changed();
            } else {
                viewport_->clear_world(
                    tr("Open a world (File > Open) or generate one (File > New)"));
            }
        });
    connect(document_, &Document::document_replaced, this, &Main_window::document_replaced);
    connect(document_, &Document::world_changed, this, [this](const World_delta* d) {
        if (d)
            viewport_->set_world(*world(), *d);
        else
            viewport_->set_world(*world());
        // Every kept step gets its picture while the view is idle, the nearest first, as many
        // as the picture cache holds: a scrub anywhere is then instant.
        viewport_->set_prefetch(timeline_->isVisible()
                                    ? timeline_->steps_near_shown(timeline_->kept().count())
                                    : std::vector<World>{});
        // A step that adds the tectonics layers (or an undo that takes them) turns their
        // overlays on or off.
        if (enable_display_modes(*this, world())) view_options_changed();
        inspector_->set_world(world());
        update_summary();
        if (!document_->selection().empty()) selection_changed(); // cells move and change
        stats_timer_->start();
    });
    connect(document_, &Document::selection_changed, this, &Main_window::selection_changed);
    connect(document_, &Document::modified_changed, this, [this] {
        setWindowModified(document_->modified());
        update_title();
    });
    connect(jobs_, &Job_runner::finished, this, [this](const QString& text) {
        statusBar()->showMessage(text, 8000);
        if (!world()) viewport_->clear_world(text + tr(". File > New generates a world."));
    });
    connect(live_water_, &Live_water::updated, this, [this](const QString& text) {
        // A refusal or a job's message says more than "water updated": keep it.
        if (statusBar()->currentMessage().isEmpty()) statusBar()->showMessage(text, 5000);
    });
    connect(live_water_, &Live_water::failed, this,
            [this](const QString& why) { statusBar()->showMessage(why, 10000); });
    connect(jobs_, &Job_runner::failed, this, [this](const QString& what, const QString& why) {
        if (!world()) viewport_->clear_world(what + ": " + why);
        files_->report_error(what, why);
    });
    connect(timeline_, &Timeline_dock::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(inspector_, &Inspector_dock::element_requested, this,
            [this](const Element& e) { select(e, true); });
    connect(inspector_, &Inspector_dock::value_edited, this,
            [this](const QString& layer, std::size_t slot, const QString& text) {
                set_value(layer, slot, text);
            });
    connect(layers_, &Layers_dock::view_changed, this, &Main_window::view_options_changed);
    connect(layers_, &Layers_dock::rerun_requested, this, [this](std::size_t step) {
        if (const auto why = jobs_->rerun_step(step)) statusBar()->showMessage(*why, 10000);
    });
    connect(viewport_, &Viewport::layer_refused, this,
            [this](const QString& why) { statusBar()->showMessage(why, 8000); });
    update_title();
}

Main_window::~Main_window() = default;

const World* Main_window::world() const { return document_->world(); }
const QString& Main_window::path() const { return document_->path(); }
QUndoStack* Main_window::undo_stack() const { return document_->undo_stack(); }
std::size_t Main_window::history_bytes() const { return document_->history_bytes(); }
void Main_window::set_history_budget(std::size_t bytes) { document_->set_history_budget(bytes); }
QAction* Main_window::action(const QString& name) const { return findChild<QAction*>(name); }
QString Main_window::hover_text() const { return hover_label_->text(); }
bool Main_window::generate(const gen::Pipeline& pipeline) {
    if (!world()) viewport_->clear_world(tr("Generating a world…"));
    return jobs_->generate(pipeline);
}
bool Main_window::generating() const { return jobs_->running(); }
void Main_window::finish_generation() { jobs_->finish(); }
void Main_window::cancel_generation() { jobs_->cancel(); }

void Main_window::create_actions() {
    auto make = [this](const QString& name, const QString& text, auto slot,
                       const QKeySequence& key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    for (const Display_mode& m : display_modes()) {
        QAction* a =
            make(m.id, tr(m.text), &Main_window::view_options_changed, QKeySequence(m.key));
        a->setCheckable(true);
        a->setChecked(m.on_by_default);
        if (*m.tip) a->setToolTip(tr(m.tip));
    }
    QAction* live = make(
        "live_water", tr("&Live Water"),
        [this](bool on) {
            live_water_->set_enabled(on);
            QSettings().setValue("water/live", on);
        },
        QKeySequence(tr("Ctrl+L")));
    live->setCheckable(true);
    live->setChecked(live_water_->enabled());
    live->setToolTip(tr("After every edit, compute climate, rivers, lakes and biomes again in "
                        "the background, as part of the edit's undo step"));
    make(
        "reset_view", tr("&Reset View"), [this] { viewport_->reset_view(); }, Qt::Key_Home);
    make(
        "run_module", tr("&Run Module…"),
        [this] {
            if (!world()) return;
            if (const auto one = ask_module_run(this))
                run_module(QString::fromStdString(one->steps.front().module),
                           one->steps.front().params);
        },
        QKeySequence(tr("Ctrl+R")));
    make(
        "run_module_on_selection", tr("Run Module on &Selection…"),
        [this] {
            if (!world()) return;
            if (document_->selection().empty()) {
                statusBar()->showMessage(tr("Select part of the world first"), 8000);
                return;
            }
            if (const auto one = ask_module_run(this))
                run_module_on_selection(QString::fromStdString(one->steps.front().module),
                                        one->steps.front().params);
        },
        QKeySequence(tr("Ctrl+Shift+R")));
}

void Main_window::create_tools() {
    Tool_context context;
    context.document = document_;
    context.viewport = viewport_;
    context.message = [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); };
    context.select = [this](const Element& e, bool fly) { select(e, fly); };
    tools_ = new Tool_registry(context, *this);
    connect(tools_, &Tool_registry::activated, this, [this](Tool* tool) {
        viewport_->set_edit_mode(true, tool->drags());
        statusBar()->showMessage(tr("%1 tool").arg(tool->description().text.remove('&')), 3000);
    });
}

void Main_window::create_menus() {
    files_->add_to(menuBar()->addMenu(tr("&File")));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = undo_stack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName("undo");
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undo_stack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName("redo");
    redo->setShortcut(QKeySequence::Redo);
    edit->addActions({undo, redo});
    edit->addSeparator();
    edit->addActions({inspector_->go_to_action(), history_->budget_action()});

    selections_->add_to(menuBar()->addMenu(tr("Se&lection")));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName("main_toolbar");
    bar->addActions({action("new"), action("open"), action("save")});
    bar->addSeparator();
    for (const Display_mode& m : display_modes()) {
        if (std::string_view(m.id) == "lighting") view->addSeparator();
        view->addAction(action(m.id));
        if (m.in_toolbar) bar->addAction(action(m.id));
    }
    view->addAction(action("reset_view"));
    view->addSeparator();
    view->addActions({layers_->toggleViewAction(), inspector_->toggleViewAction(),
                      history_->toggleViewAction()});
    QAction* timeline = timeline_->toggleViewAction();
    timeline->setObjectName("show_timeline");
    timeline->setShortcut(QKeySequence(tr("Ctrl+T")));
    view->addAction(timeline);
    relief_height_ = new QDoubleSpinBox(bar);
    relief_height_->setObjectName("relief_height");
    relief_height_->setRange(0.1, 25.0);
    relief_height_->setSingleStep(0.5);
    relief_height_->setValue(2.0);
    relief_height_->setSuffix(tr(" % of radius"));
    relief_height_->setToolTip(tr("How high the largest value of the relief layer lifts it"));
    connect(relief_height_, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
            &Main_window::view_options_changed);
    bar->addWidget(relief_height_);
    river_threshold_ = new QDoubleSpinBox(bar);
    river_threshold_->setObjectName("river_threshold");
    river_threshold_->setRange(0.1, 1e7);
    river_threshold_->setDecimals(1);
    river_threshold_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    river_threshold_->setValue(QSettings().value("view/river_threshold", 200.0).toDouble());
    river_threshold_->setSuffix(tr(" m³/s"));
    river_threshold_->setToolTip(tr("Rivers: the least discharge an edge carries to be drawn"));
    connect(river_threshold_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] {
        QSettings().setValue("view/river_threshold", river_threshold_->value());
        view_options_changed();
    });
    bar->addWidget(river_threshold_);
    bar->addSeparator();
    bar->addAction(action("reset_view"));

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addActions(tools_->actions());
    tools->addSeparator();
    tools->addActions(
        {action("delaunay_after_move"), action("brush_smaller"), action("brush_larger")});
    tools->addSeparator();
    tools->addAction(action("run_module"));
    tools->addAction(action("run_module_on_selection"));
    tools->addAction(action("live_water"));
    menuBar()->addMenu(tr("&Help"))->addAction(tr("&About Orbis"), this, [this] {
        QMessageBox::about(this, tr("About Orbis"),
                           tr("<b>Orbis %1</b><p>Spherical Delaunay worlds and their Voronoi "
                              "duals: generate, explore, edit, inspect.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void Main_window::connect_viewport() {
    // A large document's other layers get their figures once its first picture is up: until
    // then they would hold the GUI thread and share the cores with the view's build.
    connect(viewport_, &Viewport::scene_ready, this, [this] {
        // Not for a build of a state left behind (another is queued): its scene is not the
        // document's picture.
        if (layers_->stats_pending() && !viewport_->scene_pending() && !stats_timer_->isActive() &&
            !layers_->refreshing())
            stats_timer_->start();
    });
    connect(viewport_, &Viewport::hovered, this,
            [this](const std::optional<Hover>& h, QPoint at, Qt::KeyboardModifiers modifiers) {
                tool()->hover(Tool_event{at, modifiers, h});
                hover_label_->setText((h ? QString::fromStdString(h->text) : QString()) +
                                      (h ? tool()->note() : QString()));
                // Picks name elements of the document as it is now.
                if (h && world() && world()->mesh().contains(h->vertex))
                    inspector_->hover(Element{Element::Kind::vertex, h->vertex, {}, {}});
                else
                    inspector_->hover(std::nullopt);
            });
    connect(viewport_, &Viewport::clicked, this,
            [this](QPoint at, Qt::KeyboardModifiers mods) { tool()->click(event_at(at, mods)); });
    connect(viewport_, &Viewport::drag_started, this,
            [this](QPoint at, Qt::KeyboardModifiers m) { tool()->press(event_at(at, m)); });
    connect(viewport_, &Viewport::drag_moved, this,
            [this](QPoint at, Qt::KeyboardModifiers m) { tool()->drag(event_at(at, m)); });
    connect(viewport_, &Viewport::drag_finished, this,
            [this](QPoint at, Qt::KeyboardModifiers m) { tool()->release(event_at(at, m)); });
}

Tool_event Main_window::event_at(QPoint at, Qt::KeyboardModifiers modifiers) const {
    return Tool_event{at, modifiers, viewport_->hover_at(at)};
}

Tool* Main_window::tool() const { return tools_->active(); }
Tool* Main_window::find_tool(const QString& id) const { return tools_->find(id); }
bool Main_window::set_tool(const QString& id) { return tools_->activate(id); }

std::optional<render::Edit_preview> Main_window::preview_at(QPoint at, bool shift) const {
    return tool()->preview(event_at(at, shift ? Qt::ShiftModifier : Qt::NoModifier));
}

bool Main_window::apply_tool_at(QPoint at, bool shift) {
    return tool()->click(event_at(at, shift ? Qt::ShiftModifier : Qt::NoModifier));
}

bool Main_window::set_value(const QString& layer, std::size_t slot, const QString& text) {
    const auto why = set_layer_value(*document_, layer, slot, text);
    if (!why) return true;
    statusBar()->showMessage(tr("Value not set: %1").arg(*why), 10000);
    inspector_->set_world(world()); // shows the old value again
    return false;
}

bool Main_window::run_module_on_selection(const QString& module, const Dict& params) {
    const auto why = jobs_->run_module_on_selection(module, params);
    if (why) statusBar()->showMessage(*why, 10000);
    return !why;
}

bool Main_window::run_module(const QString& module, const Dict& params) {
    const auto why = jobs_->run_module(module, params);
    if (why) statusBar()->showMessage(*why, 10000);
    return !why;
}

void Main_window::select(const Element& e, bool fly) {
    if (!world()) return;
    const QString name = QString::fromStdString(element_name(e));
    if (!parse_element(*world(), element_name(e))) {
        statusBar()->showMessage(tr("%1 is not in the world (any more)").arg(name), 5000);
        return;
    }
    inspector_->pin(e);
    if (fly) viewport_->fly_to(element_centre(*world(), e));
    statusBar()->showMessage(tr("Selected %1").arg(name), 5000);
}

void Main_window::set_document(World world, const QString& title, bool modified) {
    document_->reset(std::move(world), title, modified);
}

void Main_window::document_replaced(bool first) {
    update_title();
    update_summary();
    inspector_->unpin();
    inspector_->set_world(world());
    layers_->set_world(*world(), true);
    // A fresh world with an elevation layer shows it; otherwise the last choice stays if the
    // world has that layer.
    if (layers_->shown_layer().empty() && world()->find_layer("elevation"))
        layers_->set_shown_layer("elevation");
    enable_display_modes(*this, world());
    // The old world must not be built with the new world's options (its layers differ).
    viewport_->clear_world(QString());
    view_options_changed();
    viewport_->set_world(*world(), first);
}

void Main_window::selection_changed() {
    const edit::Selection& s = document_->selection();
    const auto outline = world() ? render::selection_outline(*world(), s.vertices, s.faces)
                                 : render::Selection_outline{};
    viewport_->set_selection(outline.segments, outline.points);
    inspector_->set_selection_summary(world() ? selection_summary(*world(), s) : QString());
}

void Main_window::view_options_changed() {
    QString refusal;
    render::View_options options = view_options(*this, *layers_, relief_height_->value(), &refusal);
    options.river_min_discharge = river_threshold_->value();
    viewport_->set_options(options);
    if (!refusal.isEmpty()) statusBar()->showMessage(refusal, 5000);
    update_legend();
}

void Main_window::update_legend() {
    viewport_->set_legend(legend_for(*layers_, action("show_legend")->isChecked()));
}

void Main_window::update_title() {
    const QString& p = document_->path();
    setWindowTitle((p.isEmpty() ? tr("Untitled") : QFileInfo(p).fileName()) + "[*] — Orbis");
}

void Main_window::update_summary() {
    if (!world()) return summary_label_->clear();
    const QLocale locale;
    const Mesh& m = world()->mesh();
    summary_label_->setText(tr("%1 vertices · %2 faces · %3 edges")
                                .arg(locale.toString(qulonglong(m.vertex_count())))
                                .arg(locale.toString(qulonglong(m.face_count())))
                                .arg(locale.toString(qulonglong(m.edge_count()))));
}

bool Main_window::open_file(const QString& path) { return files_->open_file(path); }
bool Main_window::save_to(const QString& path) { return files_->save_to(path); }

void Main_window::closeEvent(QCloseEvent* event) {
    // Closing mid-load would leave the load's event loop running under a closed window.
    if (files_->opening()) {
        statusBar()->showMessage(tr("Opening a file: close the window once it has loaded"), 5000);
        return event->ignore();
    }
    // A save under way ends first, so that the question below is about what it did not write.
    files_->finish_saves();
    if (!files_->maybe_save()) return event->ignore();
    jobs_->cancel();
    autosave_->remove(); // a normal close: nothing to recover
    save_settings();
    event->accept();
}

void Main_window::dragEnterEvent(QDragEnterEvent* event) {
    if (!File_actions::openable(*event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void Main_window::dropEvent(QDropEvent* event) {
    const QString path = File_actions::openable(*event->mimeData());
    if (path.isEmpty() || !files_->maybe_save()) return;
    event->acceptProposedAction();
    open_file(path);
}

void Main_window::restore_settings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    restore_display_modes(*this);
}

void Main_window::save_settings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    save_display_modes(*this);
}

} // namespace orbis::ui
