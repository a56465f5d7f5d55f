// SPDX-License-Identifier: MIT
// The File menu: New, Open, Open Recent, Save, Save As, Export, Quit.
#include "ui/file_actions.hpp"

#include "ui/dialogs/new_world_dialog.hpp"
#include "ui/document.hpp"
#include "ui/job_runner.hpp"
#include "ui/viewport.hpp"

#include "orbis/io/formats.hpp"
#include "ui/editor_modules.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>

namespace orbis::ui {

namespace {
constexpr int max_recent = 8;
} // namespace

File_actions::File_actions(QMainWindow& window, Document& document, Job_runner& jobs,
                           Viewport& viewport)
    : QObject(&window)
    , window_(window)
    , document_(document)
    , jobs_(jobs)
    , viewport_(viewport) {}

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
        "save", tr("&Save"), [this] { save(); }, QKeySequence::Save, QStyle::SP_DialogSaveButton);
    make(
        "save_as", tr("Save &As…"), [this] { save_as(); }, QKeySequence::SaveAs);
    into = menu->addMenu(tr("&Export"));
    make("export_ply", tr("Export &PLY…"), [this] { export_as(tr("PLY meshes (*.ply)"), "ply"); });
    make("export_obj", tr("Export &OBJ…"), [this] { export_as(tr("OBJ meshes (*.obj)"), "obj"); });
    make("export_png", tr("Export View as P&NG…"), [this] { export_png(); });
    into = menu;
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

bool File_actions::open_file(const QString& path) {
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
        document_.reset(std::move(world), QFileInfo(path).absoluteFilePath(), false);
        add_recent(document_.path());
        QSettings().setValue("last_folder", QFileInfo(path).absolutePath());
        message(tr("Opened %1 in %2 ms").arg(QFileInfo(path).fileName()).arg(timer.elapsed()));
        return true;
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        report_error(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
                     QString::fromStdString(e.what()));
        return false;
    }
}

bool File_actions::save_to(const QString& path) {
    if (!document_.world()) return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        io::save_any(*document_.world(), path.toStdString());
        QApplication::restoreOverrideCursor();
        document_.mark_saved(path);
        if (io::format_of(path.toStdString()) == io::File_format::world)
            add_recent(document_.path());
        QSettings().setValue("last_folder", QFileInfo(path).absolutePath());
        message(tr("Saved %1").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        report_error(tr("Cannot save %1").arg(QFileInfo(path).fileName()),
                     QString::fromStdString(e.what()));
        return false;
    }
}

bool File_actions::save() {
    const QString& path = document_.path();
    if (path.isEmpty() || QFileInfo(path).suffix().toLower() != "orbis") return save_as();
    return save_to(path);
}

bool File_actions::save_as() {
    if (!document_.world()) return false;
    const QString& current = document_.path();
    QString start = current.isEmpty() ? last_folder() + "/world.orbis" : current;
    if (QFileInfo(start).suffix().toLower() != "orbis")
        start = QFileInfo(start).path() + "/" + QFileInfo(start).completeBaseName() + ".orbis";
    QString path = QFileDialog::getSaveFileName(&window_, tr("Save World"), start,
                                                tr("Orbis worlds (*.orbis)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += ".orbis";
    return save_to(path);
}

void File_actions::export_as(const QString& filter, const QString& suffix) {
    if (!document_.world()) return;
    const QString& current = document_.path();
    const QString base = current.isEmpty() ? "world" : QFileInfo(current).completeBaseName();
    QString path = QFileDialog::getSaveFileName(&window_, tr("Export"),
                                                last_folder() + "/" + base + "." + suffix, filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().toLower() != suffix) path += "." + suffix;
    save_to(path);
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
    const auto answer = QMessageBox::warning(
        &window_, tr("Unsaved changes"),
        tr("The world has changes that are not saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
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
