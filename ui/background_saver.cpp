// SPDX-License-Identifier: MIT
// Writes World snapshots to files on a worker thread, one at a time.
#include "ui/background_saver.hpp"

#include "orbis/io/formats.hpp"

#include <QEventLoop>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <exception>
#include <utility>

namespace orbis::ui {

namespace {

// The writer yields the cores to the GUI thread (and the renderer): a save is not urgent, and
// on two cores a writer at the same priority takes turns with the GUI thread.
void lower_priority() {
#ifdef __linux__
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

} // namespace

struct Background_saver::Job {
    Save_result result;
};

Background_saver::Background_saver(QObject* parent)
    : QObject(parent) {}

Background_saver::~Background_saver() {
    if (worker_.joinable()) worker_.join();
    // Saves that were asked for and never started still run: closing must not drop them.
    for (const auto& job : queue_) {
        try {
            io::save_any(job->result.snapshot, job->result.path.toStdString());
        } catch (const std::exception&) {
            // Nobody is left to tell; the old file is intact.
        }
    }
}

std::uint64_t Background_saver::start(World snapshot, const QString& path, Save_purpose purpose) {
    auto job = std::make_shared<Job>();
    job->result.ticket = ++next_ticket_;
    job->result.path = path;
    job->result.purpose = purpose;
    job->result.snapshot = std::move(snapshot);
    if (purpose == Save_purpose::autosave) {
        for (auto& waiting : queue_) {
            if (waiting->result.purpose == Save_purpose::autosave && waiting->result.path == path) {
                waiting = job;
                return job->result.ticket;
            }
        }
    }
    queue_.push_back(job);
    if (!running_) start_next();
    return job->result.ticket;
}

bool Background_saver::busy(Save_purpose purpose) const {
    if (running_ && running_->result.purpose == purpose) return true;
    for (const auto& job : queue_)
        if (job->result.purpose == purpose) return true;
    return false;
}

QString Background_saver::current_path() const {
    return running_ ? running_->result.path : QString();
}

void Background_saver::start_next() {
    if (running_ || queue_.empty()) return;
    running_ = queue_.front();
    queue_.pop_front();
    progress_.store(0.0, std::memory_order_relaxed);
    Q_EMIT started(running_->result.path, running_->result.purpose);
    worker_ = std::thread([this, job = running_] {
        lower_priority();
        try {
            io::Save_any_options options;
            options.progress = [this](std::uint64_t written, std::uint64_t total) {
                progress_.store(total ? double(written) / double(total) : 1.0,
                                std::memory_order_relaxed);
            };
            io::save_any(job->result.snapshot, job->result.path.toStdString(), options);
        } catch (const std::exception& e) {
            job->result.error = QString::fromStdString(e.what());
        }
        // Back on the GUI thread; dropped if the saver is gone (its destructor joined us).
        QMetaObject::invokeMethod(
            this, [this, job] { take(job); }, Qt::QueuedConnection);
    });
}

void Background_saver::take(std::shared_ptr<Job> job) {
    if (worker_.joinable()) worker_.join();
    running_.reset();
    Q_EMIT finished(job->result);
    start_next();
}

void Background_saver::wait() {
    if (!busy()) return;
    QEventLoop loop;
    connect(this, &Background_saver::finished, &loop, [this, &loop] {
        if (!busy()) loop.quit();
    });
    loop.exec();
}

} // namespace orbis::ui
