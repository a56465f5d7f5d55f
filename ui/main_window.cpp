// SPDX-License-Identifier: MIT
// The editor's main window: the viewport, the Layers dock, menus, toolbar, status bar, files.
#include "ui/main_window.hpp"

#include "ui/inspector_dock.hpp"
#include "ui/layers_dock.hpp"
#include "ui/new_world_dialog.hpp"
#include "ui/viewport.hpp"
#include "ui/world_command.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/gen/delaunay_module.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/io/file_error.hpp"
#include "orbis/io/formats.hpp"
#include "orbis/render/delta_recorder.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <cmath>
#include <limits>

namespace orbis::ui {

namespace {

constexpr int max_recent = 8;

// The View menu's toggles, as QSettings keeps them.
constexpr const char* view_toggles[] = {"show_triangles",
                                        "smooth_shading",
                                        "show_wireframe",
                                        "show_voronoi_cells",
                                        "show_voronoi_outlines",
                                        "show_dual_edges",
                                        "show_points",
                                        "show_boundary",
                                        "lighting",
                                        "relief",
                                        "show_arrows",
                                        "show_legend"};

const QStringList openable_suffixes{"orbis", "ply", "obj"};

QString open_filter() {
    return QObject::tr("Worlds (*.orbis *.ply *.obj);;Orbis worlds (*.orbis);;PLY meshes "
                       "(*.ply);;OBJ meshes (*.obj)");
}

} // namespace

// A running generation: the worker's result, its cancel flag and progress, and the dialog.
struct Main_window::Generation {
    struct Result {
        std::optional<World> world;
        QString error;
        bool cancelled = false;
        double seconds = 0.0;
    };
    QFutureWatcher<std::shared_ptr<Result>> watcher;
    std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<std::atomic<int>> permille = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<std::atomic<int>> step = std::make_shared<std::atomic<int>>(0);
    QProgressDialog* dialog = nullptr;
    QTimer* timer = nullptr;
    gen::Pipeline pipeline;
    bool running = false;
    // A module run on the document: the step's name and the document state it started from
    // (a new document when empty).
    QString step_text;
    std::uint64_t document_serial = 0;
};

Main_window::Main_window(QWidget* parent)
    : QMainWindow(parent)
    , last_pipeline_(gen::default_pipeline())
    , generation_(std::make_unique<Generation>()) {
    setObjectName("main_window");
    setAcceptDrops(true);
    viewport_ = new Viewport(this);
    viewport_->setObjectName("viewport");
    setCentralWidget(viewport_);
    viewport_->clear_world(tr("Open a world (File > Open) or generate one (File > New)"));
    layers_ = new Layers_dock(this);
    addDockWidget(Qt::RightDockWidgetArea, layers_);
    inspector_ = new Inspector_dock(this);
    addDockWidget(Qt::RightDockWidgetArea, inspector_);
    undo_stack_ = new QUndoStack(this);
    auto* history = new QDockWidget(tr("History"), this);
    history->setObjectName("history_dock");
    auto* history_view = new QUndoView(undo_stack_, history);
    history_view->setObjectName("history_view");
    history_view->setEmptyLabel(tr("<document as opened>"));
    history->setWidget(history_view);
    addDockWidget(Qt::RightDockWidgetArea, history);
    tabifyDockWidget(inspector_, history);
    inspector_->raise();
    // Statistics over a million elements take tens of milliseconds: recompute them once the
    // edits pause, not per edit.
    stats_timer_ = new QTimer(this);
    stats_timer_->setSingleShot(true);
    stats_timer_->setInterval(400);
    connect(stats_timer_, &QTimer::timeout, this, [this] {
        if (!world_) return;
        layers_->set_world(*world_);
        update_legend();
    });
    history_budget_ = std::size_t(QSettings().value("history/budget_mib", 1024).toULongLong())
                      << 20;

    hover_label_ = new QLabel(this);
    hover_label_->setObjectName("hover_readout");
    hover_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(hover_label_, 1);
    summary_label_ = new QLabel(this);
    summary_label_->setObjectName("world_summary");
    statusBar()->addPermanentWidget(summary_label_);

    create_actions();
    create_tools();
    create_menus();
    restore_settings();
    set_tool(render::Edit_tool::select);

    connect(layers_, &Layers_dock::view_changed, this, &Main_window::view_options_changed);
    connect(viewport_, &Viewport::hovered, this, [this](const std::optional<Hover>& h) {
        QString text = h ? QString::fromStdString(h->text) : QString();
        if (h && world_ && tool_ != render::Edit_tool::select) {
            const bool snap = QApplication::keyboardModifiers() & Qt::ShiftModifier;
            const render::Edit_preview p = render::preview_edit(*world_, tool_, h->pick, snap);
            viewport_->set_preview(&p);
            if (!p.message.empty())
                text +=
                    (p.allowed ? "  —  " : "  —  refused: ") + QString::fromStdString(p.message);
        } else {
            viewport_->set_preview(nullptr);
        }
        hover_label_->setText(text);
        // Picks come from the picture, which may be of an older state than the document.
        if (h && world_ && world_->mesh().contains(h->vertex))
            inspector_->hover(Element{Element::Kind::vertex, h->vertex, {}, {}});
        else
            inspector_->hover(std::nullopt);
    });
    connect(viewport_, &Viewport::clicked, this, [this](QPoint at, Qt::KeyboardModifiers mods) {
        apply_tool_at(at, mods & Qt::ShiftModifier);
    });
    connect(viewport_, &Viewport::drag_started, this, &Main_window::start_drag);
    connect(viewport_, &Viewport::drag_moved, this, &Main_window::drag);
    connect(viewport_, &Viewport::drag_finished, this, &Main_window::finish_drag);
    connect(inspector_, &Inspector_dock::element_requested, this,
            [this](const Element& e) { select(e, true); });
    connect(inspector_, &Inspector_dock::value_edited, this,
            [this](const QString& layer, std::size_t slot, const QString& text) {
                set_value(layer, slot, text);
            });
    connect(undo_stack_, &QUndoStack::cleanChanged, this, &Main_window::update_modified);
    connect(viewport_, &Viewport::layer_refused, this,
            [this](const QString& why) { statusBar()->showMessage(why, 8000); });
    connect(&generation_->watcher, &QFutureWatcherBase::finished, this,
            &Main_window::generation_finished);
    update_title();
}

Main_window::~Main_window() {
    if (generation_->running) {
        generation_->cancel->store(true);
        generation_->watcher.waitForFinished();
    }
}

QAction* Main_window::action(const QString& name) const { return findChild<QAction*>(name); }

QString Main_window::hover_text() const { return hover_label_->text(); }

void Main_window::create_actions() {
    auto make = [this](const QString& name, const QString& text, auto slot,
                       const QKeySequence& key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QStyle* s = style();
    make("new", tr("&New…"), &Main_window::new_world, QKeySequence::New)
        ->setIcon(s->standardIcon(QStyle::SP_FileIcon));
    make("open", tr("&Open…"), &Main_window::open_dialog, QKeySequence::Open)
        ->setIcon(s->standardIcon(QStyle::SP_DialogOpenButton));
    make(
        "save", tr("&Save"), [this] { save(); }, QKeySequence::Save)
        ->setIcon(s->standardIcon(QStyle::SP_DialogSaveButton));
    make(
        "save_as", tr("Save &As…"), [this] { save_as(); }, QKeySequence::SaveAs);
    make("export_ply", tr("Export &PLY…"), [this] { export_as(tr("PLY meshes (*.ply)"), "ply"); });
    make("export_obj", tr("Export &OBJ…"), [this] { export_as(tr("OBJ meshes (*.obj)"), "obj"); });
    make("export_png", tr("Export View as P&NG…"), &Main_window::export_png);
    make(
        "quit", tr("&Quit"), [this] { close(); }, QKeySequence::Quit);

    auto toggle = [&](const QString& name, const QString& text, bool on, const QKeySequence& key) {
        QAction* a = make(name, text, &Main_window::view_options_changed, key);
        a->setCheckable(true);
        a->setChecked(on);
        return a;
    };
    toggle("show_triangles", tr("&Triangles"), true, Qt::Key_1);
    toggle("smooth_shading", tr("S&mooth Shading"), false, QKeySequence("Shift+1"));
    toggle("show_wireframe", tr("&Wireframe"), false, Qt::Key_2);
    toggle("show_voronoi_cells", tr("&Voronoi Cells"), false, Qt::Key_3);
    toggle("show_voronoi_outlines", tr("Voronoi &Outlines"), false, Qt::Key_4);
    toggle("show_dual_edges", tr("&Dual Edges"), false, Qt::Key_5);
    toggle("show_points", tr("&Points"), false, Qt::Key_6);
    toggle("show_boundary", tr("&Boundary Edges"), true, Qt::Key_7);
    toggle("show_arrows", tr("Vector &Arrows"), false, Qt::Key_9)
        ->setToolTip(tr("Show a vec3 vertex layer as arrows (dark tail, bright tip)"));
    toggle("lighting", tr("&Lighting"), true, Qt::Key_L);
    toggle("relief", tr("&Relief"), false, Qt::Key_8)
        ->setToolTip(tr("Lift the surface by the shown layer (or elevation), exaggerated"));
    toggle("show_legend", tr("L&egend"), true, QKeySequence());
    make(
        "reset_view", tr("&Reset View"), [this] { viewport_->reset_view(); }, Qt::Key_Home);
}

void Main_window::create_menus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(action("new"));
    file->addAction(action("open"));
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    recent_menu_->setObjectName("recent_menu");
    file->addSeparator();
    file->addAction(action("save"));
    file->addAction(action("save_as"));
    QMenu* exports = file->addMenu(tr("&Export"));
    exports->addAction(action("export_ply"));
    exports->addAction(action("export_obj"));
    exports->addAction(action("export_png"));
    file->addSeparator();
    file->addAction(action("quit"));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = undo_stack_->createUndoAction(this, tr("&Undo"));
    undo->setObjectName("undo");
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undo_stack_->createRedoAction(this, tr("&Redo"));
    redo->setObjectName("redo");
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* go_to = edit->addAction(tr("&Go to Element…"), this, [this] {
        inspector_->show();
        inspector_->raise();
        if (auto* line = inspector_->findChild<QLineEdit*>("go_to")) {
            line->setFocus();
            line->selectAll();
        }
    });
    go_to->setObjectName("go_to_element");
    go_to->setShortcut(QKeySequence(tr("Ctrl+G")));
    edit->addAction(action("history_budget"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (const char* name : {"show_triangles", "smooth_shading", "show_wireframe",
                             "show_voronoi_cells", "show_voronoi_outlines", "show_dual_edges",
                             "show_points", "show_boundary", "show_arrows"})
        view->addAction(action(name));
    view->addSeparator();
    view->addAction(action("lighting"));
    view->addAction(action("relief"));
    view->addAction(action("show_legend"));
    view->addAction(action("reset_view"));
    view->addSeparator();
    view->addAction(layers_->toggleViewAction());
    view->addAction(inspector_->toggleViewAction());
    if (auto* history = findChild<QDockWidget*>("history_dock"))
        view->addAction(history->toggleViewAction());

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addActions(tools_->actions());
    tools->addSeparator();
    tools->addAction(action("delaunay_after_move"));
    tools->addSeparator();
    tools->addAction(action("run_module"));
    QToolBar* tool_bar = addToolBar(tr("Tools"));
    tool_bar->setObjectName("tools_toolbar");
    tool_bar->addActions(tools_->actions());
    tool_bar->addWidget(select_filter_);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Orbis"), this, [this] {
        QMessageBox::about(this, tr("About Orbis"),
                           tr("<b>Orbis %1</b><p>Spherical Delaunay worlds and their Voronoi "
                              "duals: generate, explore, inspect.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName("main_toolbar");
    bar->addAction(action("new"));
    bar->addAction(action("open"));
    bar->addAction(action("save"));
    bar->addSeparator();
    for (const char* name :
         {"show_triangles", "show_wireframe", "show_voronoi_cells", "show_voronoi_outlines",
          "show_dual_edges", "show_points", "lighting", "relief"})
        bar->addAction(action(name));
    relief_height_ = new QDoubleSpinBox(bar);
    relief_height_->setObjectName("relief_height");
    relief_height_->setRange(0.1, 25.0);
    relief_height_->setSingleStep(0.5);
    relief_height_->setValue(2.0);
    relief_height_->setSuffix(tr(" % of radius"));
    relief_height_->setToolTip(tr("How high the largest value of the relief layer lifts the "
                                  "surface"));
    connect(relief_height_, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
            &Main_window::view_options_changed);
    bar->addWidget(relief_height_);
    bar->addSeparator();
    bar->addAction(action("reset_view"));
    rebuild_recent_menu();
}

void Main_window::view_options_changed() {
    render::View_options o;
    o.triangles = action("show_triangles")->isChecked();
    o.shading =
        action("smooth_shading")->isChecked() ? render::Shading::smooth : render::Shading::flat;
    o.wireframe = action("show_wireframe")->isChecked();
    o.voronoi_cells = action("show_voronoi_cells")->isChecked();
    o.voronoi_outlines = action("show_voronoi_outlines")->isChecked();
    o.dual_edges = action("show_dual_edges")->isChecked();
    o.points = action("show_points")->isChecked();
    o.boundary = action("show_boundary")->isChecked();
    o.arrows = action("show_arrows")->isChecked();
    o.lighting = action("lighting")->isChecked();
    o.layer = layers_->shown_layer();
    o.colours = layers_->colour_options();
    if (action("relief")->isChecked()) {
        // The shown layer lifts the surface when it is a scalar vertex layer, else elevation.
        auto scalar_vertex = [](const render::Layer_stats& s) {
            return !s.is_dict && s.type == Layer_type::vertex &&
                   (s.value_type == "float" || s.value_type == "double" || s.value_type == "int32");
        };
        const render::Layer_stats* relief = nullptr;
        for (const render::Layer_stats& s : layers_->stats())
            if (scalar_vertex(s) && s.name == o.layer) relief = &s;
        for (const render::Layer_stats& s : layers_->stats())
            if (!relief && scalar_vertex(s) && s.name == "elevation") relief = &s;
        if (relief && std::isfinite(relief->min) && std::isfinite(relief->max)) {
            const double largest = std::max(std::abs(relief->min), std::abs(relief->max));
            o.relief = relief->name;
            o.relief_scale = largest > 0.0 ? relief_height_->value() / 100.0 / largest : 0.0;
        } else {
            statusBar()->showMessage(tr("Relief needs a scalar vertex layer"), 5000);
        }
    }
    viewport_->set_options(o);
    update_legend();
}

void Main_window::update_legend() {
    Legend legend;
    const render::Layer_stats* s = layers_->shown_stats();
    const render::Colour_options o = layers_->colour_options();
    const bool vector = s && s->value_type.find("vec") != std::string::npos;
    legend.visible = action("show_legend")->isChecked() && s && !vector && o.map &&
                     std::isfinite(s->min) && std::isfinite(s->max);
    if (legend.visible) {
        legend.title = s->name;
        legend.map = *o.map;
        legend.min = o.range ? o.range->first : s->min;
        legend.max = o.range ? o.range->second : s->max;
        legend.sea_level = o.sea_level;
    }
    viewport_->set_legend(legend);
}

void Main_window::update_title() {
    const QString name = path_.isEmpty() ? tr("Untitled") : QFileInfo(path_).fileName();
    setWindowTitle(name + "[*] — Orbis");
}

void Main_window::update_summary() {
    if (!world_) {
        summary_label_->clear();
        return;
    }
    const QLocale locale;
    const Mesh& m = world_->mesh();
    summary_label_->setText(tr("%1 vertices · %2 faces · %3 edges")
                                .arg(locale.toString(qulonglong(m.vertex_count())))
                                .arg(locale.toString(qulonglong(m.face_count())))
                                .arg(locale.toString(qulonglong(m.edge_count()))));
}

void Main_window::set_document(World world, const QString& title, bool modified) {
    const bool first = !world_;
    world_ = std::move(world);
    ++document_serial_;
    path_ = title;
    // A new document starts a new history.
    undo_stack_->clear();
    unsaved_base_ = modified;
    update_modified();
    update_title();
    update_summary();
    inspector_->unpin();
    inspector_->set_world(&*world_);
    layers_->set_world(*world_);
    // A fresh world with an elevation layer shows it; otherwise the last choice stays if the
    // world has that layer.
    if (layers_->shown_layer().empty() && world_->find_layer("elevation"))
        layers_->set_shown_layer("elevation");
    // The old world must not be built with the new world's options (its layers differ).
    viewport_->clear_world(QString());
    view_options_changed();
    viewport_->set_world(*world_, first);
}

void Main_window::report_error(const QString& what, const QString& why) {
    statusBar()->showMessage(what + ": " + why, 10000);
    if (isVisible() && !qEnvironmentVariableIsSet("ORBIS_NO_DIALOGS"))
        QMessageBox::warning(this, what, why);
}

bool Main_window::open_file(const QString& path) {
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        QElapsedTimer timer;
        timer.start();
        World world = io::load_any(path.toStdString());
        // The view draws positions: a world without usable ones is refused here, before the
        // document is replaced.
        if (!world.layer(position_layer))
            throw std::runtime_error("it has no 'position' layer to draw");
        QApplication::restoreOverrideCursor();
        set_document(std::move(world), QFileInfo(path).absoluteFilePath(), false);
        add_recent(path_);
        QSettings().setValue("last_folder", QFileInfo(path).absolutePath());
        statusBar()->showMessage(
            tr("Opened %1 in %2 ms").arg(QFileInfo(path).fileName()).arg(timer.elapsed()), 5000);
        return true;
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        report_error(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                     QString::fromStdString(e.what()));
        return false;
    }
}

bool Main_window::save_to(const QString& path) {
    if (!world_) return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        io::save_any(*world_, path.toStdString());
        QApplication::restoreOverrideCursor();
        if (io::format_of(path.toStdString()) == io::File_format::world) {
            path_ = QFileInfo(path).absoluteFilePath();
            unsaved_base_ = false;
            undo_stack_->setClean();
            update_modified();
            update_title();
            add_recent(path_);
        }
        QSettings().setValue("last_folder", QFileInfo(path).absolutePath());
        statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
        return true;
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        report_error(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
                     QString::fromStdString(e.what()));
        return false;
    }
}

bool Main_window::save() {
    if (path_.isEmpty() || QFileInfo(path_).suffix().toLower() != "orbis") return save_as();
    return save_to(path_);
}

bool Main_window::save_as() {
    if (!world_) return false;
    QString start = path_.isEmpty() ? last_folder() + "/world.orbis" : path_;
    if (QFileInfo(start).suffix().toLower() != "orbis")
        start = QFileInfo(start).path() + "/" + QFileInfo(start).completeBaseName() + ".orbis";
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save World"), start, tr("Orbis worlds (*.orbis)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += ".orbis";
    return save_to(path);
}

void Main_window::export_as(const QString& filter, const QString& suffix) {
    if (!world_) return;
    const QString base = path_.isEmpty() ? "world" : QFileInfo(path_).completeBaseName();
    QString path = QFileDialog::getSaveFileName(this, tr("Export"),
                                                last_folder() + "/" + base + "." + suffix, filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().toLower() != suffix) path += "." + suffix;
    save_to(path);
}

void Main_window::export_png() {
    const QString base = path_.isEmpty() ? "world" : QFileInfo(path_).completeBaseName();
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export View"), last_folder() + "/" + base + ".png", tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().toLower() != "png") path += ".png";
    viewport_->finish_scene();
    const QImage image = viewport_->grabFramebuffer();
    // QSaveFile writes beside the target and renames, so a failed export never leaves half a
    // picture in place of an old one.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        report_error(tr("Cannot export %1").arg(QFileInfo(path).fileName()), file.errorString());
        return;
    }
    statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 5000);
}

void Main_window::open_dialog() {
    if (!maybe_save()) return;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open World"), last_folder(), open_filter());
    if (!path.isEmpty()) open_file(path);
}

void Main_window::new_world() {
    if (generation_->running) {
        statusBar()->showMessage(tr("A world is being generated already"), 5000);
        return;
    }
    if (!maybe_save()) return;
    New_world_dialog dialog(last_pipeline_, gen::builtin_modules(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    generate(dialog.pipeline());
}

bool Main_window::generate(const gen::Pipeline& pipeline) {
    return start_pipeline(pipeline, std::nullopt, QString());
}

bool Main_window::start_pipeline(const gen::Pipeline& pipeline, std::optional<World> start,
                                 const QString& step_text) {
    Generation& g = *generation_;
    if (g.running) return false;
    g.running = true;
    g.pipeline = pipeline;
    g.step_text = step_text;
    g.document_serial = document_serial_;
    g.cancel->store(false);
    g.permille->store(0);
    g.step->store(0);
    if (!g.dialog) {
        g.dialog = new QProgressDialog(this);
        g.dialog->setObjectName("generation_progress");
        g.dialog->setWindowTitle(tr("Generating"));
        g.dialog->setRange(0, 1000);
        g.dialog->setMinimumDuration(300);
        g.dialog->setAutoClose(false);
        g.dialog->setAutoReset(false);
        g.dialog->setWindowModality(Qt::WindowModal);
        connect(g.dialog, &QProgressDialog::canceled, this, &Main_window::cancel_generation);
        g.timer = new QTimer(this);
        g.timer->setInterval(100);
        connect(g.timer, &QTimer::timeout, this, [this] {
            Generation& gg = *generation_;
            const int step = gg.step->load();
            const int steps = int(gg.pipeline.steps.size());
            gg.dialog->setValue(gg.permille->load());
            if (step < steps)
                gg.dialog->setLabelText(
                    tr("Step %1 of %2: %3")
                        .arg(step + 1)
                        .arg(steps)
                        .arg(QString::fromStdString(gg.pipeline.steps[std::size_t(step)].module)));
        });
    }
    g.dialog->reset();
    g.dialog->setValue(0);
    g.dialog->setLabelText(tr("Generating a world…"));
    g.timer->start();
    if (!world_) viewport_->clear_world(tr("Generating a world…"));

    auto job = [pipeline, cancel = g.cancel, permille = g.permille, step = g.step,
                start_world = std::move(start)]() {
        auto result = std::make_shared<Generation::Result>();
        const auto started = std::chrono::steady_clock::now();
        try {
            World world = start_world ? *start_world : World();
            gen::Pipeline_run_options options;
            const double steps = double(std::max<std::size_t>(pipeline.steps.size(), 1));
            options.progress = [&](std::size_t s, double fraction) {
                step->store(int(s));
                permille->store(int(1000.0 * (double(s) + fraction) / steps));
            };
            options.cancel = cancel.get();
            gen::run_pipeline(world, pipeline, gen::builtin_modules(), options);
            result->world = std::move(world);
        } catch (const gen::Cancelled&) {
            result->cancelled = true;
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        result->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return result;
    };
    g.watcher.setFuture(QtConcurrent::run(job));
    return true;
}

bool Main_window::generating() const { return generation_->running; }

void Main_window::finish_generation() {
    if (!generation_->running) return;
    generation_->watcher.waitForFinished();
    generation_finished();
}

void Main_window::cancel_generation() {
    if (generation_->running) generation_->cancel->store(true);
}

void Main_window::generation_finished() {
    Generation& g = *generation_;
    if (!g.running) return;
    g.running = false;
    g.timer->stop();
    g.dialog->reset();
    g.dialog->hide();
    const std::shared_ptr<Generation::Result> result = g.watcher.result();
    g.watcher.setFuture(QFuture<std::shared_ptr<Generation::Result>>());
    if (result->cancelled) {
        statusBar()->showMessage(tr("Generation cancelled; nothing changed"), 8000);
        if (!world_)
            viewport_->clear_world(tr("Generation cancelled. File > New generates a world."));
        return;
    }
    if (!result->world) {
        if (!world_) viewport_->clear_world(tr("Generation failed: %1").arg(result->error));
        report_error(tr("Cannot generate a world"), result->error);
        return;
    }
    if (!g.step_text.isEmpty()) {
        // A module run on the document: one step, unless the document changed meanwhile.
        if (g.document_serial != document_serial_ || !world_) {
            report_error(tr("%1 not applied").arg(g.step_text),
                         tr("the world changed while the module ran; run it again"));
            return;
        }
        const std::size_t bytes = result->world->memory().private_bytes;
        push_step(g.step_text, std::move(*result->world), bytes, std::nullopt);
        statusBar()->showMessage(tr("%1 in %2 s").arg(g.step_text).arg(result->seconds, 0, 'f', 2),
                                 8000);
        return;
    }
    last_pipeline_ = g.pipeline;
    set_document(std::move(*result->world), QString(), true);
    statusBar()->showMessage(tr("Generated in %1 s").arg(result->seconds, 0, 'f', 2), 8000);
}

bool Main_window::maybe_save() {
    if (!isWindowModified() || !world_) return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("The world has changes that are not saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void Main_window::closeEvent(QCloseEvent* event) {
    if (!maybe_save()) {
        event->ignore();
        return;
    }
    cancel_generation();
    save_settings();
    event->accept();
}

void Main_window::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile() &&
        openable_suffixes.contains(QFileInfo(urls.front().toLocalFile()).suffix().toLower()))
        event->acceptProposedAction();
}

void Main_window::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !maybe_save()) return;
    event->acceptProposedAction();
    open_file(urls.front().toLocalFile());
}

void Main_window::add_recent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recent_files").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > max_recent)
        recent.removeLast();
    settings.setValue("recent_files", recent);
    rebuild_recent_menu();
}

void Main_window::rebuild_recent_menu() {
    recent_menu_->clear();
    const QStringList recent = QSettings().value("recent_files").toStringList();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent[i];
        QAction* a = recent_menu_->addAction(
            QString("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this, [this, path] {
                if (maybe_save()) open_file(path);
            });
        a->setToolTip(path);
    }
    recent_menu_->setEnabled(!recent.isEmpty());
}

QString Main_window::last_folder() const {
    return QSettings().value("last_folder", QDir::homePath()).toString();
}

void Main_window::restore_settings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    settings.beginGroup("view");
    for (const char* name : view_toggles) {
        QAction* a = action(name);
        a->setChecked(settings.value(name, a->isChecked()).toBool());
    }
    settings.endGroup();
}

void Main_window::save_settings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.beginGroup("view");
    for (const char* name : view_toggles)
        settings.setValue(name, action(name)->isChecked());
    settings.endGroup();
}

void Main_window::create_tools() {
    tools_ = new QActionGroup(this);
    tools_->setExclusive(true);
    const struct {
        render::Edit_tool tool;
        const char* name;
        QString text;
        QKeySequence key;
        QString tip;
    } tools[] = {
        {render::Edit_tool::select, "tool_select", tr("&Select"), Qt::Key_S,
         tr("Click pins an element in the Inspector (filter: which kind)")},
        {render::Edit_tool::flip, "tool_flip", tr("&Flip Edge"), Qt::Key_F,
         tr("Click flips the edge under the cursor")},
        {render::Edit_tool::split, "tool_split", tr("S&plit Edge"), Qt::Key_X,
         tr("Click splits the edge where you click")},
        {render::Edit_tool::collapse, "tool_collapse", tr("&Collapse Edge"), Qt::Key_C,
         tr("Click collapses the edge, joining where you click (Shift: at the nearer end)")},
        {render::Edit_tool::move, "tool_move", tr("&Move Vertex"), Qt::Key_M,
         tr("Drag a vertex along the sphere")},
    };
    for (const auto& t : tools) {
        auto* a = new QAction(t.text, this);
        a->setObjectName(t.name);
        a->setShortcut(t.key);
        a->setToolTip(t.tip + " (" + t.key.toString() + ")");
        a->setCheckable(true);
        tools_->addAction(a);
        const render::Edit_tool tool = t.tool;
        connect(a, &QAction::triggered, this, [this, tool] { set_tool(tool); });
    }
    auto* delaunay = new QAction(tr("Restore &Delaunay after Move"), this);
    delaunay->setObjectName("delaunay_after_move");
    delaunay->setCheckable(true);
    delaunay->setChecked(true);
    select_filter_ = new QComboBox(this);
    select_filter_->setObjectName("select_filter");
    select_filter_->addItems(
        {tr("Vertex"), tr("Edge"), tr("Face"), tr("Voronoi cell"), tr("Dual edge")});
    select_filter_->setToolTip(tr("What the Select tool picks"));
    auto* run = new QAction(tr("&Run Module…"), this);
    run->setObjectName("run_module");
    run->setShortcut(QKeySequence(tr("Ctrl+R")));
    connect(run, &QAction::triggered, this, &Main_window::run_module_dialog);
    auto* budget = new QAction(tr("History &Memory Budget…"), this);
    budget->setObjectName("history_budget");
    connect(budget, &QAction::triggered, this, &Main_window::history_budget_dialog);
}

void Main_window::set_tool(render::Edit_tool tool) {
    tool_ = tool;
    const char* names[] = {"tool_select", "tool_flip", "tool_split", "tool_collapse", "tool_move"};
    action(names[static_cast<int>(tool)])->setChecked(true);
    viewport_->set_edit_mode(true, tool == render::Edit_tool::move);
    viewport_->set_preview(nullptr);
    statusBar()->showMessage(tr("%1 tool").arg(render::edit_tool_name(tool)), 3000);
}

void Main_window::update_modified() { setWindowModified(unsaved_base_ || !undo_stack_->isClean()); }

void Main_window::show_state(const World& world, const render::World_delta* delta) {
    if (replaying_) return;
    world_ = world;
    ++document_serial_;
    if (delta)
        viewport_->set_world(*world_, *delta);
    else
        viewport_->set_world(*world_);
    inspector_->set_world(&*world_);
    update_summary();
    stats_timer_->start();
}

void Main_window::push_step(const QString& text, World after, std::size_t bytes,
                            std::optional<render::World_delta> delta, int merge_id) {
    auto* command = new World_command(
        text, *world_, std::move(after), bytes, std::move(delta),
        [this](const World& w, const render::World_delta* d) { show_state(w, d); }, false);
    command->set_merge_id(merge_id);
    undo_stack_->push(command);
    trim_history();
}

std::size_t Main_window::history_bytes() const {
    std::size_t total = 0;
    for (int i = 0; i < undo_stack_->count(); ++i)
        if (const auto* c = dynamic_cast<const World_command*>(undo_stack_->command(i)))
            total += c->bytes();
    return total;
}

void Main_window::set_history_budget(std::size_t bytes) {
    history_budget_ = bytes;
    QSettings().setValue("history/budget_mib", qulonglong(bytes >> 20));
    trim_history();
}

void Main_window::trim_history() {
    const std::size_t total = history_bytes();
    if (total <= history_budget_) return;
    // Drop the oldest done steps until the rest fits (the steps that can be redone stay).
    int drop = 0;
    std::size_t dropped = 0;
    while (drop < undo_stack_->index() && total - dropped > history_budget_) {
        dropped += static_cast<const World_command*>(undo_stack_->command(drop))->bytes();
        ++drop;
    }
    if (drop == 0) return;
    struct Kept {
        QString text;
        World before, after;
        std::size_t bytes;
        std::optional<render::World_delta> delta;
        int merge_id;
    };
    std::vector<Kept> kept;
    for (int i = drop; i < undo_stack_->count(); ++i) {
        const auto* c = static_cast<const World_command*>(undo_stack_->command(i));
        kept.push_back({c->base_text(), c->before(), c->after(), c->bytes(), c->delta(), c->id()});
    }
    const int index = undo_stack_->index() - drop;
    const int clean = undo_stack_->cleanIndex() - drop;
    // QUndoStack cannot drop its oldest commands: rebuild it from the kept snapshots without
    // showing any state (the document already is the state at `index`).
    replaying_ = true;
    undo_stack_->clear();
    for (Kept& k : kept) {
        auto* command = new World_command(
            k.text, std::move(k.before), std::move(k.after), k.bytes, std::move(k.delta),
            [this](const World& w, const render::World_delta* d) { show_state(w, d); }, true);
        // A drag in progress goes on merging into its step.
        command->set_merge_id(k.merge_id);
        undo_stack_->push(command);
    }
    if (clean >= 0) {
        undo_stack_->setIndex(clean);
        undo_stack_->setClean();
    } else {
        unsaved_base_ = true;
    }
    undo_stack_->setIndex(index);
    replaying_ = false;
    update_modified();
    statusBar()->showMessage(tr("History over its %1 MiB budget: dropped the %2 oldest "
                                "step(s), %3 MiB")
                                 .arg(history_budget_ >> 20)
                                 .arg(drop)
                                 .arg(double(dropped) / double(1 << 20), 0, 'f', 1),
                             10000);
}

std::optional<render::Edit_preview> Main_window::preview_at(QPoint at, bool snap) const {
    const auto h = viewport_->hover_at(at);
    if (!h || !world_) return std::nullopt;
    return render::preview_edit(*world_, tool_, h->pick, snap);
}

void Main_window::select(const Element& e, bool fly) {
    if (!world_) return;
    if (!parse_element(*world_, element_name(e))) {
        statusBar()->showMessage(
            tr("%1 is not in the world (any more)").arg(QString::fromStdString(element_name(e))),
            5000);
        return;
    }
    inspector_->pin(e);
    const Mesh& m = world_->mesh();
    const auto* positions = world_->layer(position_layer);
    glm::dvec3 at(0.0);
    switch (e.kind) {
    case Element::Kind::vertex:
    case Element::Kind::cell:
        at = glm::dvec3((*positions)[e.vertex]);
        break;
    case Element::Kind::face:
        for (const Vertex v : e.face.vertices(m))
            at += glm::dvec3((*positions)[v]);
        break;
    case Element::Kind::edge:
    case Element::Kind::dual_edge: {
        const Edge p = e.edge.is_dual() ? e.edge.inv_rot() : e.edge;
        at = glm::dvec3((*positions)[p.origin(m)]) + glm::dvec3((*positions)[p.dest(m)]);
        break;
    }
    }
    if (fly) viewport_->fly_to(at);
    statusBar()->showMessage(tr("Selected %1").arg(QString::fromStdString(element_name(e))), 5000);
}

bool Main_window::apply_tool_at(QPoint at, bool snap) {
    const auto h = viewport_->hover_at(at);
    if (!h || !world_) return false;
    if (tool_ == render::Edit_tool::select) {
        Element e;
        switch (select_filter_->currentIndex()) {
        case 1:
            e = {Element::Kind::edge, {}, {}, h->pick.edge};
            break;
        case 2:
            e = {Element::Kind::face, {}, h->pick.face, {}};
            break;
        case 3:
            e = {Element::Kind::cell, h->pick.vertex, {}, {}};
            break;
        case 4:
            e = {Element::Kind::dual_edge, {}, {}, h->pick.edge.rot()};
            break;
        default:
            e = {Element::Kind::vertex, h->pick.vertex, {}, {}};
            break;
        }
        select(e, false);
        return false;
    }
    if (tool_ == render::Edit_tool::move) return false; // moves are drags
    // The worker shares the document's chunks: editing now would race its copies, and its
    // result would be refused anyway.
    if (generation_->running) {
        statusBar()->showMessage(tr("A module is running; edit when it has finished"), 5000);
        return false;
    }
    const render::Edit_preview p = render::preview_edit(*world_, tool_, h->pick, snap);
    if (!p.allowed) {
        viewport_->set_preview(&p);
        statusBar()->showMessage(tr("Refused: %1").arg(QString::fromStdString(p.message)), 10000);
        return false;
    }
    World next = *world_;
    render::World_delta delta;
    {
        render::Delta_recorder recorder(next);
        {
            Mesh_lock mesh = next.lock_mesh();
            switch (tool_) {
            case render::Edit_tool::flip:
                mesh.flip(p.edge);
                break;
            case render::Edit_tool::split:
                mesh.split(p.edge, p.t);
                break;
            case render::Edit_tool::collapse:
                mesh.collapse(p.edge, p.t);
                break;
            default:
                break;
            }
        }
        delta = recorder.delta();
    }
    const std::size_t bytes = next.memory().private_bytes;
    push_step(QString::fromStdString(p.message), std::move(next), bytes, std::move(delta));
    viewport_->set_preview(nullptr);
    statusBar()->showMessage(QString::fromStdString(p.message), 5000);
    return true;
}

void Main_window::start_drag(QPoint at) {
    const auto h = viewport_->hover_at(at);
    if (!h || !world_ || tool_ != render::Edit_tool::move) return;
    if (!world_->mesh().contains(h->vertex)) return; // picked on an older picture
    if (generation_->running) {
        statusBar()->showMessage(tr("A module is running; edit when it has finished"), 5000);
        return;
    }
    drag_vertex_ = h->vertex;
    drag_radius_ = glm::length(glm::dvec3((*world_->layer(position_layer))[drag_vertex_]));
    ++drag_id_;
    dragging_ = true;
}

void Main_window::drag(QPoint at) {
    if (!dragging_ || !world_ || !world_->mesh().contains(drag_vertex_)) return;
    // Where the cursor's ray meets the sphere the vertex lies on.
    const render::Ray ray = viewport_->camera().ray_at({at.x() + 0.5, at.y() + 0.5});
    const glm::dvec3 d = glm::normalize(ray.direction);
    const double b = glm::dot(ray.origin, d);
    const double disc = b * b - (glm::dot(ray.origin, ray.origin) - drag_radius_ * drag_radius_);
    if (disc < 0.0) return;
    const glm::dvec3 p = ray.origin + (-b - std::sqrt(disc)) * d;
    World next = *world_;
    {
        auto [positions] = next.lock_layer(position_layer);
        positions[drag_vertex_] = glm::vec3(p);
    }
    render::World_delta delta = render::delta_from(*world_);
    delta.vertices.push_back(drag_vertex_);
    const std::size_t bytes = next.memory().private_bytes;
    push_step(tr("Move v%1").arg(drag_vertex_.index()), std::move(next), bytes, std::move(delta),
              1000 + drag_id_);
}

void Main_window::finish_drag(QPoint at) {
    if (!dragging_) return;
    drag(at);
    dragging_ = false;
    if (!world_ || !world_->mesh().contains(drag_vertex_) ||
        !action("delaunay_after_move")->isChecked())
        return;
    // Flip the edges around the moved vertex until its neighbourhood is Delaunay again; the
    // flips join the drag's step.
    World next = *world_;
    render::World_delta delta;
    gen::Lawson_result result;
    {
        render::Delta_recorder recorder(next);
        const std::vector<glm::vec3> positions = render::vertex_positions(next);
        std::vector<Edge> edges;
        for (const Edge e : drag_vertex_.edges(next.mesh())) {
            edges.push_back(e);
            if (e.left(next.mesh()).valid()) edges.push_back(e.left_next(next.mesh()));
        }
        {
            Mesh_lock mesh = next.lock_mesh();
            result = gen::lawson_flips(mesh, positions, std::move(edges));
        }
        delta = recorder.delta();
    }
    if (result.flips == 0) return;
    const std::size_t bytes = next.memory().private_bytes;
    push_step(tr("Move v%1").arg(drag_vertex_.index()), std::move(next), bytes, std::move(delta),
              1000 + drag_id_);
    statusBar()->showMessage(tr("Moved v%1; %2 flip(s) restored Delaunay around it")
                                 .arg(drag_vertex_.index())
                                 .arg(result.flips),
                             6000);
}

bool Main_window::set_value(const QString& layer_name, std::size_t slot, const QString& text) {
    auto refuse = [this](const QString& why) {
        statusBar()->showMessage(tr("Value not set: %1").arg(why), 10000);
        inspector_->set_world(world_ ? &*world_ : nullptr); // shows the old value again
        return false;
    };
    if (!world_) return false;
    if (generation_->running) return refuse(tr("a module is running; edit when it has finished"));
    const std::string name = layer_name.toStdString();
    const Layer_base* layer = world_->find_layer(name);
    if (!layer) return refuse(tr("there is no layer '%1'").arg(layer_name));
    bool ok = false;
    const QString trimmed = text.trimmed();
    double value = trimmed.toDouble(&ok);
    if (!ok && (trimmed == "true" || trimmed == "false")) {
        value = trimmed == "true";
        ok = true;
    }
    if (!ok || !std::isfinite(value)) return refuse(tr("'%1' is not a finite number").arg(trimmed));
    World next = *world_;
    QString error;
    bool changed = false;
    try {
        with_value_type(layer->value_tag(), [&]<class T>() {
            with_layer_type(layer->type(), [&]<Layer_type Type>() {
                if constexpr (!Layer_scalar<T>) {
                    error = tr("only scalar values are edited here");
                } else {
                    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                        // 2^digits is one past the largest T and exact as a double (the
                        // largest int64 itself is not).
                        if (value != std::floor(value) ||
                            value < double(std::numeric_limits<T>::lowest()) ||
                            value >= std::ldexp(1.0, std::numeric_limits<T>::digits)) {
                            error = tr("'%1' is not a %2")
                                        .arg(trimmed)
                                        .arg(QString::fromUtf8(layer->value_name().data(),
                                                               int(layer->value_name().size())));
                            return;
                        }
                    }
                    const auto& typed = static_cast<const Layer<T, Type>&>(*layer);
                    using Key = typename Layer<T, Type>::key_type;
                    Key key;
                    if constexpr (Type == Layer_type::vertex || Type == Layer_type::face) {
                        key = Key(static_cast<std::uint32_t>(slot));
                    } else {
                        const bool dual =
                            Type == Layer_type::edge_dual || Type == Layer_type::edge_dual_directed;
                        const auto index =
                            static_cast<std::uint32_t>(is_directed(Type) ? slot : 2 * slot);
                        key = Key(dual ? (index | Edge::dual_bit) : index);
                    }
                    auto [values] = next.lock_layer(typed.info());
                    values[key] = static_cast<T>(value);
                    values.release(); // checks the layer's range; throws and restores if not
                    changed = true;
                }
            });
        });
    } catch (const std::exception& e) {
        return refuse(QString::fromStdString(e.what()));
    }
    if (!error.isEmpty()) return refuse(error);
    if (!changed) return false;
    render::World_delta delta = render::delta_from(*world_);
    if (layer->type() == Layer_type::vertex)
        delta.vertices.push_back(Vertex(static_cast<std::uint32_t>(slot)));
    else if (layer->type() == Layer_type::face)
        delta.faces.push_back(Face(static_cast<std::uint32_t>(slot)));
    const std::size_t bytes = next.memory().private_bytes;
    push_step(tr("Set %1[%2] = %3").arg(layer_name).arg(slot).arg(trimmed), std::move(next), bytes,
              std::move(delta));
    return true;
}

bool Main_window::run_module(const QString& module, const Dict& params) {
    if (!world_) return false;
    const gen::Module* m = gen::builtin_modules().find(module.toStdString());
    if (!m) {
        statusBar()->showMessage(tr("No module named '%1'").arg(module), 10000);
        return false;
    }
    gen::Pipeline pipeline;
    try {
        pipeline.steps.push_back({module.toStdString(), gen::complete_parameters(*m, params)});
    } catch (const std::exception& e) {
        statusBar()->showMessage(QString::fromStdString(e.what()), 10000);
        return false;
    }
    if (!start_pipeline(pipeline, *world_, tr("Run %1").arg(module))) {
        statusBar()->showMessage(tr("Something is running already"), 5000);
        return false;
    }
    return true;
}

void Main_window::run_module_dialog() {
    if (!world_) return;
    QStringList names;
    for (const gen::Module* m : gen::builtin_modules().modules())
        names << QString::fromUtf8(m->name().data(), int(m->name().size()));
    bool ok = false;
    const QString name =
        QInputDialog::getItem(this, tr("Run Module"), tr("Module:"), names, 0, false, &ok);
    if (!ok) return;
    gen::Pipeline one;
    one.steps.push_back(
        {name.toStdString(),
         gen::complete_parameters(*gen::builtin_modules().find(name.toStdString()), Dict())});
    New_world_dialog dialog(one, gen::builtin_modules(), this);
    dialog.setWindowTitle(tr("Run %1").arg(name));
    if (dialog.exec() != QDialog::Accepted) return;
    run_module(name, dialog.pipeline().steps.front().params);
}

void Main_window::history_budget_dialog() {
    bool ok = false;
    const int mib = QInputDialog::getInt(
        this, tr("History Memory Budget"),
        tr("Memory the undo history may hold (MiB); the oldest steps are dropped beyond it:"),
        int(history_budget_ >> 20), 1, 1 << 20, 64, &ok);
    if (ok) set_history_budget(std::size_t(mib) << 20);
}

} // namespace orbis::ui
