// SPDX-License-Identifier: MIT
// The editor's main window: the viewport, the Layers dock, menus, toolbar, status bar, files.
#include "ui/main_window.hpp"

#include "ui/layers_dock.hpp"
#include "ui/new_world_dialog.hpp"
#include "ui/viewport.hpp"

#include "orbis/gen/module_registry.hpp"
#include "orbis/io/file_error.hpp"
#include "orbis/io/formats.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QImage>
#include <QLabel>
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
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <cmath>

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

    hover_label_ = new QLabel(this);
    hover_label_->setObjectName("hover_readout");
    hover_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(hover_label_, 1);
    summary_label_ = new QLabel(this);
    summary_label_->setObjectName("world_summary");
    statusBar()->addPermanentWidget(summary_label_);

    create_actions();
    create_menus();
    restore_settings();

    connect(layers_, &Layers_dock::view_changed, this, &Main_window::view_options_changed);
    connect(viewport_, &Viewport::hovered, this, [this](const std::optional<Hover>& h) {
        hover_label_->setText(h ? QString::fromStdString(h->text) : QString());
    });
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
    path_ = title;
    setWindowModified(modified);
    update_title();
    update_summary();
    layers_->set_world(*world_);
    // A fresh world with an elevation layer shows it; otherwise the last choice stays if the
    // world has that layer.
    if (layers_->shown_layer().empty() && world_->find_layer("elevation"))
        layers_->set_shown_layer("elevation");
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
            setWindowModified(false);
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
    Generation& g = *generation_;
    if (g.running) return false;
    g.running = true;
    g.pipeline = pipeline;
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

    auto job = [pipeline, cancel = g.cancel, permille = g.permille, step = g.step]() {
        auto result = std::make_shared<Generation::Result>();
        const auto start = std::chrono::steady_clock::now();
        try {
            World world;
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
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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

} // namespace orbis::ui
