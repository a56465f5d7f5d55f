// SPDX-License-Identifier: MIT
// Autosave and recovery: snapshots of unsaved work written in the background to recovery
// files, and finding them again after the editor died.
#include "ui/autosave.hpp"

#include "ui/background_saver.hpp"
#include "ui/document.hpp"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUuid>

#include <algorithm>

namespace orbis::ui {

namespace {

QString file_of(const QString& id, const QString& suffix) {
    return recovery_folder() + "/" + id + suffix;
}

// A lock that only a live process holds: an editor that died leaves a stale one, which
// QLockFile recognises by the process id it names. Age alone never makes it stale (0), since an
// editor may run for days.
std::unique_ptr<QLockFile> try_lock(const QString& id) {
    auto lock = std::make_unique<QLockFile>(file_of(id, ".lock"));
    lock->setStaleLockTime(0);
    if (!lock->tryLock(0)) return nullptr;
    return lock;
}

} // namespace

QString recovery_folder() {
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
    QDir().mkpath(folder);
    return folder;
}

std::vector<Recovery_entry> find_recoverable() {
    const QDir dir(recovery_folder());
    QStringList ids;
    for (const QFileInfo& f : dir.entryInfoList({"*.orbis", "*.json"}, QDir::Files))
        if (!ids.contains(f.completeBaseName())) ids << f.completeBaseName();
    std::vector<Recovery_entry> entries;
    for (const QString& id : ids) {
        const auto lock = try_lock(id);
        if (!lock) continue; // its editor is running
        // What the dead editor was writing when it died: the earlier files are intact.
        for (const QFileInfo& t :
             dir.entryInfoList({"." + id + ".*.tmp-*", id + ".json.*"}, QDir::Files | QDir::Hidden))
            QFile::remove(t.absoluteFilePath());
        const QString world = file_of(id, ".orbis");
        if (!QFileInfo::exists(world)) {
            QFile::remove(file_of(id, ".json")); // it died before its first world was written
            continue;
        }
        Recovery_entry e;
        e.id = id;
        e.world_path = world;
        e.saved_at = QFileInfo(world).lastModified();
        QFile description(file_of(id, ".json"));
        if (description.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(description.readAll()).object();
            e.document_path = o.value("document").toString();
        }
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return a.saved_at < b.saved_at; });
    return entries;
}

bool discard_recovery(const Recovery_entry& entry) {
    const auto lock = try_lock(entry.id);
    if (!lock) return false;
    bool ok = true;
    for (const char* suffix : {".orbis", ".json"}) {
        const QString f = file_of(entry.id, suffix);
        if (QFileInfo::exists(f) && !QFile::remove(f)) ok = false;
    }
    return ok;
}

Autosave::Autosave(Document& document, Background_saver& saver, QObject* parent)
    : QObject(parent)
    , document_(document)
    , saver_(saver)
    , timer_(new QTimer(this))
    , id_(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
    connect(timer_, &QTimer::timeout, this, &Autosave::autosave_now);
    connect(&saver_, &Background_saver::finished, this, &Autosave::finished);
    connect(&document_, &Document::modified_changed, this, &Autosave::document_clean_changed);
    set_interval(QSettings().value("autosave/seconds", 300).toInt(), false);
}

Autosave::~Autosave() = default;

bool Autosave::set_interval(int seconds, bool remember) {
    if (seconds < 0) return false;
    interval_ = seconds;
    if (remember) QSettings().setValue("autosave/seconds", seconds);
    if (seconds == 0) {
        timer_->stop();
    } else {
        timer_->start(seconds * 1000);
    }
    return true;
}

QAction* Autosave::interval_action(QWidget* dialog_parent) {
    auto* a = new QAction(tr("Autosave &Interval…"), this);
    a->setObjectName("autosave_interval");
    a->setToolTip(tr("How often unsaved work is written to a recovery file"));
    connect(a, &QAction::triggered, this, [this, dialog_parent] {
        bool ok = false;
        const int minutes = QInputDialog::getInt(
            dialog_parent, tr("Autosave"),
            tr("Write unsaved work to a recovery file every (minutes, 0 = never):"),
            (interval_ + 59) / 60, 0, 24 * 60, 1, &ok);
        if (ok) set_interval(minutes * 60, true);
    });
    return a;
}

QString Autosave::world_path() const { return file_of(id_, ".orbis"); }

bool Autosave::lock() {
    if (lock_) return true;
    lock_ = try_lock(id_);
    return lock_ != nullptr;
}

bool Autosave::autosave_now() {
    const World* world = document_.world();
    if (!world || !document_.modified()) return false;
    if (written_ && document_.serial() == saved_serial_) return false;
    if (pending_ticket_ != 0) return false; // the one running catches up at its next turn
    if (!lock()) {
        Q_EMIT failed(
            tr("Autosave failed: the recovery folder %1 cannot be locked").arg(recovery_folder()));
        return false;
    }
    // The description first: a world file without it is still offered, the reverse is tidied.
    QSaveFile description(file_of(id_, ".json"));
    QJsonObject o;
    o.insert("document", document_.path());
    if (!description.open(QIODevice::WriteOnly) ||
        description.write(QJsonDocument(o).toJson()) < 0 || !description.commit()) {
        Q_EMIT failed(tr("Autosave failed: %1").arg(description.errorString()));
        return false;
    }
    pending_serial_ = document_.serial();
    pending_ticket_ = saver_.start(*world, world_path(), Save_purpose::autosave);
    return true;
}

void Autosave::finished(const Save_result& result) {
    if (result.ticket != pending_ticket_) return;
    pending_ticket_ = 0;
    if (!result.error.isEmpty()) {
        Q_EMIT failed(tr("Autosave failed: %1").arg(result.error));
        return;
    }
    written_ = true;
    saved_serial_ = pending_serial_;
    Q_EMIT autosaved(result.path);
    if (remove_pending_ || !document_.modified()) remove();
}

bool Autosave::adopt(const Recovery_entry& entry) {
    auto lock = try_lock(entry.id);
    if (!lock) return false;
    remove();
    lock_ = std::move(lock);
    id_ = entry.id;
    written_ = true;
    saved_serial_ = document_.serial();
    return true;
}

void Autosave::remove() {
    if (pending_ticket_ != 0) {
        // Removing now would let the running write bring the file back.
        remove_pending_ = true;
        return;
    }
    remove_pending_ = false;
    if (written_ || lock_) {
        QFile::remove(file_of(id_, ".orbis"));
        QFile::remove(file_of(id_, ".json"));
        written_ = false;
    }
    lock_.reset(); // unlocks and deletes the lock file
}

void Autosave::document_clean_changed() {
    if (!document_.modified() && written_) remove();
}

} // namespace orbis::ui
