// SPDX-License-Identifier: MIT
// The File menu: New, Open, Open Recent, Save, Save As, Export, Quit.
#include "ui/file_actions.hpp"

#include "ui/autosave.hpp"
#include "ui/background_saver.hpp"
#include "ui/dialogs/new_world_dialog.hpp"
#include "ui/document.hpp"
#include "ui/job_runner.hpp"
#include "ui/viewport.hpp"
#include "ui/world_preview.hpp"

#include "orbis/io/formats.hpp"
#include "ui/editor_modules.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <memory>
#include <optional>

namespace orbis::ui {

namespace {
constexpr int max_recent = 8;
} // namespace

File_actions::File_actions(QMainWindow& window, Document& document, Job_runner& jobs,
                           Viewport& viewport, Background_saver& saver, Autosave& autosave)
    : QObject(&window)
    , window_(window)
    , document_(document)
    , jobs_(jobs)
    , viewport_(viewport)
    , saver_(saver)
    , autosave_(autosave) {
    save_progress_ = new QProgressBar(&window_);
    save_progress_->setObjectName("save_progress");
    save_progress_->setRange(0, 100);
    save_progress_->setMaximumWidth(160);
    save_progress_->hide();
    window_.statusBar()->addPermanentWidget(save_progress_);
    // The bar is taller than the status text: without room kept for it, showing it would shrink
    // the view, and redrawing a large world's view on a software renderer takes the GUI thread
    // for most of a second in the middle of a save that is meant not to stall it.
    window_.statusBar()->setMinimumHeight(
        std::max(window_.statusBar()->sizeHint().height(), save_progress_->sizeHint().height()));
    save_progress_timer_ = new QTimer(this);
    save_progress_timer_->setInterval(100);
    connect(save_progress_timer_, &QTimer::timeout, this, &File_actions::show_save_progress);
    connect(&saver_, &Background_saver::started, this, [this] {
        show_save_progress();
        save_progress_timer_->start();
    });
    connect(&saver_, &Background_saver::finished, this, &File_actions::save_finished);
    connect(&autosave_, &Autosave::failed, this,
            [this](const QString& why) { message(why, 10000); });
}

void File_actions::show_save_progress() {
    const QString path = saver_.current_path();
    if (path.isEmpty()) {
        save_progress_->hide();
        save_progress_timer_->stop();
        return;
    }
    // The message beside it names the file; the bar says how far, and whose write it is.
    const bool autosave = saver_.busy(Save_purpose::autosave) && !saver_.busy(Save_purpose::save);
    save_progress_->setFormat(autosave ? tr("Autosave %p%") : tr("%p%"));
    save_progress_->setToolTip(autosave ? tr("Autosaving to %1").arg(path)
                                        : tr("Saving %1").arg(path));
    save_progress_->setValue(int(saver_.progress() * 100.0));
    save_progress_->show();
}

void File_actions::message(const QString& text, int ms) {
    window_.statusBar()->showMessage(text, ms);
}

void File_actions::add_to(QMenu* menu) {
    QMenu* into = menu;
    auto make = [this, &into](const QString& name, const QString& text, auto slot,
                              const QKeySequence& key = {}, QStyle::StandardPixmap icon = {}) {
        auto* a = new QAction(text, &window_);
        a->setObjectName(name);
        if (!key.isEmpty()) a->setShortcut(key);
        if (icon) a->setIcon(window_.style()->standardIcon(icon));
        connect(a, &QAction::triggered, this, slot);
        into->addAction(a);
        return a;
    };
    make(
        "new", tr("&New…"),
        [this] {
            if (jobs_.running()) return message(tr("A world is being generated already"));
            if (!maybe_save()) return;
            New_world_dialog dialog(jobs_.last_pipeline(), editor_modules(), &window_);
            if (dialog.exec() != QDialog::Accepted) return;
            if (!document_.world()) viewport_.clear_world(tr("Generating a world…"));
            jobs_.generate(dialog.pipeline());
        },
        QKeySequence::New, QStyle::SP_FileIcon);
    make(
        "open", tr("&Open…"),
        [this] {
            if (!maybe_save()) return;
            const QString path = QFileDialog::getOpenFileName(
                &window_, tr("Open World"), last_folder(),
                tr("Worlds (*.orbis *.ply *.obj);;Orbis worlds (*.orbis);;PLY meshes (*.ply);;OBJ "
                   "meshes (*.obj)"));
            if (!path.isEmpty()) open_file(path);
        },
        QKeySequence::Open, QStyle::SP_DialogOpenButton);
    recent_menu_ = menu->addMenu(tr("Open &Recent"));
    recent_menu_->setObjectName("recent_menu");
    menu->addSeparator();
    make(
        "save", tr("&Save"), [this] { save(false); }, QKeySequence::Save,
        QStyle::SP_DialogSaveButton);
    make(
        "save_as", tr("Save &As…"), [this] { save_as(false); }, QKeySequence::SaveAs);
    into = menu->addMenu(tr("&Export"));
    make("export_ply", tr("Export &PLY…"), [this] { export_as(tr("PLY meshes (*.ply)"), "ply"); });
    make("export_obj", tr("Export &OBJ…"), [this] { export_as(tr("OBJ meshes (*.obj)"), "obj"); });
    make("export_png", tr("Export View as P&NG…"), [this] { export_png(); });
    into = menu;
    menu->addSeparator();
    menu->addAction(autosave_.interval_action(&window_));
    menu->addSeparator();
    make(
        "quit", tr("&Quit"), [this] { window_.close(); }, QKeySequence::Quit);
    rebuild_recent_menu();
}

QString File_actions::openable(const QMimeData& data) {
    const QList<QUrl> urls = data.urls();
    if (urls.size() != 1 || !urls.front().isLocalFile()) return {};
    const QString path = urls.front().toLocalFile();
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == "orbis" || suffix == "ply" || suffix == "obj" ? path : QString();
}

void File_actions::report_error(const QString& what, const QString& why) {
    message(what + ": " + why, 10000);
    if (window_.isVisible() && !qEnvironmentVariableIsSet("ORBIS_NO_DIALOGS"))
        QMessageBox::warning(&window_, what, why);
}

std::uint64_t File_actions::preview_bytes() {
    bool ok = false;
    const qulonglong bytes = qEnvironmentVariable("ORBIS_PREVIEW_BYTES").toULongLong(&ok);
    return ok ? bytes : std::uint64_t{256} << 20;
}

std::size_t File_actions::preview_points() {
    bool ok = false;
    const qulonglong points = qEnvironmentVariable("ORBIS_PREVIEW_POINTS").toULongLong(&ok);
    return ok ? std::size_t(points) : std::size_t{100'000};
}

void File_actions::set_preview_view(std::function<std::string()> layer,
                                    std::function<void(const World&)> show,
                                    std::function<void()> end) {
    preview_layer_ = std::move(layer);
    show_preview_ = std::move(show);
    end_preview_ = std::move(end);
}

bool File_actions::open_file(const QString& path) {
    if (opening_) {
        message(tr("Still opening a file: %1 waits").arg(QFileInfo(path).fileName()));
        return false;
    }
    opening_ = true;
    struct Opened {
        bool& flag;
        ~Opened() { flag = false; }
    } opened{opening_};
    const QString name = QFileInfo(path).fileName();
    const std::string file = path.toStdString();
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QElapsedTimer timer;
    timer.start();
    struct Loaded {
        std::optional<World> world;
        std::string error;
    };
    const auto load = [file] {
        Loaded l;
        try {
            l.world = io::load_any(file);
            // The view draws positions: a world without usable ones is refused here, before
            // the document is replaced.
            if (!l.world->layer(position_layer))
                throw std::runtime_error("it has no 'position' layer to draw");
        } catch (const std::exception& e) {
            l.world.reset();
            l.error = e.what();
        }
        return l;
    };
    // A large world takes seconds to read and check: a coarse picture of it is drawn first,
    // and the window keeps drawing while the world loads on a worker thread. User input waits
    // until it has loaded, so nothing can edit the preview.
    bool previewed = false;
    Loaded loaded;
    if (show_preview_ && io::format_of(file) == io::File_format::world &&
        std::uint64_t(QFileInfo(path).size()) >= preview_bytes()) {
        if (const std::optional<World> preview =
                preview_world(file, preview_points(), preview_layer_ ? preview_layer_() : "")) {
            previewed = true;
            show_preview_(*preview);
            Q_EMIT preview_shown(preview->mesh().vertex_count());
            message(tr("Opening %1: a preview of %2 of its vertices until it has loaded")
                        .arg(name)
                        .arg(QLocale().toString(qulonglong(preview->mesh().vertex_count()))),
                    0);
        }
        // Its own thread, not Qt's pool: the view builds the preview's scene in the pool.
        QEventLoop loop;
        std::unique_ptr<QThread> reader(QThread::create([&] { loaded = load(); }));
        connect(reader.get(), &QThread::finished, &loop, &QEventLoop::quit);
        reader->start();
        loop.exec(QEventLoop::ExcludeUserInputEvents);
        // The loop can also end early (the application quitting): the load finishes first.
        reader->wait();
    } else {
        loaded = load();
    }
    QApplication::restoreOverrideCursor();
    if (!loaded.world) {
        if (previewed && end_preview_) end_preview_();
        report_error(tr("Cannot open %1").arg(name), QString::fromStdString(loaded.error));
        return false;
    }
    document_.reset(std::move(*loaded.world), QFileInfo(path).absoluteFilePath(), false);
    add_recent(document_.path());
    QSettings().setValue("last_folder", QFileInfo(path).absolutePath());
    message(tr("Opened %1 in %2 ms").arg(name).arg(timer.elapsed()));
    return true;
}

bool File_actions::start_save(const QString& path) {
    if (!document_.world()) return false;
    const std::uint64_t ticket =
        saver_.start(*document_.world(), QFileInfo(path).absoluteFilePath(), Save_purpose::save);
    save_documents_.insert(ticket, document_.instance());
    message(tr("Saving %1…").arg(QFileInfo(path).fileName()), 0);
    return true;
}

bool File_actions::save_to(const QString& path) {
    if (!document_.world()) return false;
    const std::uint64_t ticket =
        saver_.start(*document_.world(), QFileInfo(path).absoluteFilePath(), Save_purpose::save);
    save_documents_.insert(ticket, document_.instance());
    saver_.wait(); // saves run in order: when none is left, this one has ended
    return save_outcomes_.take(ticket);
}

void File_actions::finish_saves() { saver_.wait(); }

void File_actions::save_finished(const Save_result& result) {
    if (!saver_.busy()) show_save_progress();
    if (result.purpose != Save_purpose::save) return;
    const std::uint64_t instance = save_documents_.take(result.ticket);
    const QString name = QFileInfo(result.path).fileName();
    save_outcomes_.insert(result.ticket, result.error.isEmpty());
    if (!result.error.isEmpty()) {
        report_error(tr("Cannot save %1").arg(name), result.error);
        return;
    }
    // A save of a world the document no longer shows (another was opened meanwhile) is a file
    // like any other: it does not make the new document clean.
    if (instance == document_.instance()) document_.mark_saved(result.path, result.snapshot);
    if (io::format_of(result.path.toStdString()) == io::File_format::world) add_recent(result.path);
    QSettings().setValue("last_folder", QFileInfo(result.path).absolutePath());
    message(document_.modified() && instance == document_.instance() &&
                    io::format_of(result.path.toStdString()) == io::File_format::world
                ? tr("Saved %1 (edits made during the save are not in it)").arg(name)
                : tr("Saved %1").arg(name));
}

bool File_actions::save(bool wait) {
    const QString& path = document_.path();
    if (path.isEmpty() || QFileInfo(path).suffix().toLower() != "orbis") return save_as(wait);
    return wait ? save_to(path) : start_save(path);
}

bool File_actions::save_as(bool wait) {
    if (!document_.world()) return false;
    const QString& current = document_.path();
    QString start = current.isEmpty() ? last_folder() + "/world.orbis" : current;
    if (QFileInfo(start).suffix().toLower() != "orbis")
        start = QFileInfo(start).path() + "/" + QFileInfo(start).completeBaseName() + ".orbis";
    QString path = QFileDialog::getSaveFileName(&window_, tr("Save World"), start,
                                                tr("Orbis worlds (*.orbis)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += ".orbis";
    return wait ? save_to(path) : start_save(path);
}

void File_actions::export_as(const QString& filter, const QString& suffix) {
    if (!document_.world()) return;
    const QString& current = document_.path();
    const QString base = current.isEmpty() ? "world" : QFileInfo(current).completeBaseName();
    QString path = QFileDialog::getSaveFileName(&window_, tr("Export"),
                                                last_folder() + "/" + base + "." + suffix, filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().toLower() != suffix) path += "." + suffix;
    start_save(path);
}

void File_actions::export_png() {
    const QString& current = document_.path();
    const QString base = current.isEmpty() ? "world" : QFileInfo(current).completeBaseName();
    QString path = QFileDialog::getSaveFileName(
        &window_, tr("Export View"), last_folder() + "/" + base + ".png", tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().toLower() != "png") path += ".png";
    viewport_.finish_scene();
    const QImage image = viewport_.grabFramebuffer();
    // QSaveFile writes beside the target and renames, so a failed export never leaves half a
    // picture in place of an old one.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        report_error(tr("Cannot export %1").arg(QFileInfo(path).fileName()), file.errorString());
        return;
    }
    message(tr("Exported %1").arg(QFileInfo(path).fileName()));
}

bool File_actions::maybe_save() {
    if (!document_.modified()) return true;
    // Without dialogs (tests, scripts) nobody can answer: the changes are let go, as Discard.
    if (qEnvironmentVariableIsSet("ORBIS_NO_DIALOGS")) return true;
    const auto answer = QMessageBox::warning(
        &window_, tr("Unsaved changes"),
        tr("The world has changes that are not saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save(true);
    return answer == QMessageBox::Discard;
}

bool File_actions::offer_recovery(const std::vector<Recovery_entry>& entries) {
    bool restored = false;
    for (const Recovery_entry& e : entries) {
        const QString name = e.document_path.isEmpty() ? tr("an untitled world")
                                                       : QFileInfo(e.document_path).fileName();
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved work"),
                        tr("Orbis ended without saving %1. Its work was autosaved on %2.")
                            .arg(name, QLocale().toString(e.saved_at, QLocale::LongFormat)),
                        QMessageBox::NoButton, &window_);
        box.setInformativeText(e.document_path.isEmpty()
                                   ? tr("Restore it?")
                                   : tr("Restore it? (The file %1 is not changed until you save.)")
                                         .arg(e.document_path));
        QPushButton* restore_button = box.addButton(tr("&Restore"), QMessageBox::AcceptRole);
        QPushButton* discard_button = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("&Later"), QMessageBox::RejectRole);
        box.setDefaultButton(restore_button);
        box.exec();
        if (box.clickedButton() == discard_button) {
            discard_recovery(e);
        } else if (box.clickedButton() == restore_button) {
            if (!restored) {
                restored = restore(e);
            } else {
                QProcess::startDetached(QApplication::applicationFilePath(), {"--recover", e.id});
            }
        }
    }
    return restored;
}

bool File_actions::restore(const Recovery_entry& entry) {
    try {
        World world = io::load_any(entry.world_path.toStdString());
        if (!world.layer(position_layer))
            throw std::runtime_error("it has no 'position' layer to draw");
        document_.reset(std::move(world), entry.document_path, true);
        if (!autosave_.adopt(entry)) {
            report_error(tr("Cannot recover"), tr("another Orbis window is recovering it"));
            return false;
        }
        message(tr("Restored the work autosaved on %1")
                    .arg(QLocale().toString(entry.saved_at, QLocale::ShortFormat)));
        return true;
    } catch (const std::exception& e) {
        report_error(tr("Cannot recover %1").arg(entry.world_path),
                     QString::fromStdString(e.what()));
        return false;
    }
}

void File_actions::add_recent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recent_files").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > max_recent)
        recent.removeLast();
    settings.setValue("recent_files", recent);
    rebuild_recent_menu();
}

void File_actions::rebuild_recent_menu() {
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

QString File_actions::last_folder() const {
    return QSettings().value("last_folder", QDir::homePath()).toString();
}

} // namespace orbis::ui
