// SPDX-License-Identifier: MIT
// Runs a generation pipeline, or modules on the document, off the GUI thread.
#include "ui/job_runner.hpp"

#include "ui/document.hpp"

#include "orbis/edit/selection.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/run_on_part.hpp"
#include "ui/editor_modules.hpp"

#include <QFutureWatcher>
#include <QProgressDialog>
#include <QTimer>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <chrono>
#include <utility>

namespace orbis::ui {

// The running job: the worker's result, its cancel flag and progress, and the dialog.
struct Job_runner::State {
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
    // A run on the document: the step's name and the document state it started from.
    QString step_text;
    std::uint64_t document_serial = 0;
    // A run on part of the document: what it may change, by which module and parameters.
    std::vector<Vertex> part;
    const gen::Module* part_module = nullptr;
    Dict part_params;
};

Job_runner::Job_runner(Document& document, QWidget* dialog_parent)
    : QObject(dialog_parent)
    , document_(document)
    , dialog_parent_(dialog_parent)
    , last_pipeline_(gen::default_pipeline())
    , state_(std::make_unique<State>()) {
    connect(&state_->watcher, &QFutureWatcherBase::finished, this, &Job_runner::take_result);
}

Job_runner::~Job_runner() {
    if (state_->running) {
        state_->cancel->store(true);
        state_->watcher.waitForFinished();
    }
}

bool Job_runner::generate(const gen::Pipeline& pipeline) {
    return start(pipeline, std::nullopt, QString());
}

bool Job_runner::run_on_document(const gen::Pipeline& pipeline, const QString& step_text) {
    if (!document_.world()) return false;
    return start(pipeline, *document_.world(), step_text);
}

std::optional<QString> Job_runner::run_module(const QString& module, const Dict& params,
                                              const QString& step_text) {
    if (!document_.world()) return tr("there is no world to run %1 on").arg(module);
    const gen::Module* m = editor_modules().find(module.toStdString());
    if (!m) return tr("No module named '%1'").arg(module);
    gen::Pipeline pipeline;
    try {
        pipeline.steps.push_back({module.toStdString(), gen::complete_parameters(*m, params)});
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    // A missing input is known now; saying so beats a progress dialog that fails.
    if (const auto why =
            gen::check_module_inputs(*document_.world(), *m, pipeline.steps.front().params))
        return QString::fromStdString(*why);
    if (!run_on_document(pipeline, step_text.isEmpty() ? tr("Run %1").arg(module) : step_text))
        return tr("Something is running already");
    return std::nullopt;
}

std::optional<QString> Job_runner::run_module_on_selection(const QString& module,
                                                           const Dict& params) {
    if (!document_.world()) return tr("there is no world to run %1 on").arg(module);
    const edit::Selection& selection = document_.selection();
    if (selection.empty()) return tr("Select part of the world first");
    const gen::Module* m = editor_modules().find(module.toStdString());
    if (!m) return tr("No module named '%1'").arg(module);
    Dict complete;
    try {
        complete = gen::complete_parameters(*m, params);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    if (const auto why = gen::check_run_on_part(*m, complete)) return QString::fromStdString(*why);
    if (const auto why = gen::check_module_inputs(*document_.world(), *m, complete))
        return QString::fromStdString(*why);
    // The part is the selection's vertex set: its vertices and the corners of its faces.
    std::vector<Vertex> part = selection.vertices;
    for (const Face f : selection.faces)
        for (const Vertex v : f.vertices(document_.world()->mesh()))
            part.push_back(v);
    gen::Pipeline pipeline;
    pipeline.steps.push_back({module.toStdString(), complete});
    if (!run_on_document(pipeline, tr("Run %1 on the selection").arg(module)))
        return tr("Something is running already");
    state_->part = std::move(part);
    state_->part_module = m;
    state_->part_params = complete;
    return std::nullopt;
}

std::optional<QString> Job_runner::rerun_step(std::size_t step) {
    if (!document_.world()) return tr("there is no world");
    const auto& steps = document_.world()->provenance().steps;
    if (step >= steps.size()) return tr("the world has no step %1").arg(step + 1);
    const QString module = QString::fromStdString(steps[step].module);
    return run_module(module, steps[step].params, tr("Re-run %1").arg(module));
}

bool Job_runner::running() const { return state_->running; }

void Job_runner::finish() {
    if (!state_->running) return;
    state_->watcher.waitForFinished();
    take_result();
}

void Job_runner::cancel() {
    if (state_->running) state_->cancel->store(true);
}

bool Job_runner::start(const gen::Pipeline& pipeline, std::optional<World> start,
                       const QString& step_text) {
    State& g = *state_;
    if (g.running) return false;
    g.running = true;
    g.pipeline = pipeline;
    g.step_text = step_text;
    g.document_serial = document_.serial();
    g.cancel->store(false);
    g.permille->store(0);
    g.step->store(0);
    // The worker shares the document's chunks: editing meanwhile would race its copies.
    if (start) document_.set_busy(tr("a module is running; edit when it has finished"));
    if (!g.dialog) {
        g.dialog = new QProgressDialog(dialog_parent_);
        g.dialog->setObjectName("generation_progress");
        g.dialog->setWindowTitle(tr("Generating"));
        g.dialog->setRange(0, 1000);
        g.dialog->setMinimumDuration(300);
        g.dialog->setAutoClose(false);
        g.dialog->setAutoReset(false);
        g.dialog->setWindowModality(Qt::WindowModal);
        connect(g.dialog, &QProgressDialog::canceled, this, &Job_runner::cancel);
        g.timer = new QTimer(this);
        g.timer->setInterval(100);
        connect(g.timer, &QTimer::timeout, this, [this] {
            State& s = *state_;
            const int step = s.step->load();
            const int steps = int(s.pipeline.steps.size());
            s.dialog->setValue(s.permille->load());
            if (step < steps)
                s.dialog->setLabelText(
                    tr("Step %1 of %2: %3")
                        .arg(step + 1)
                        .arg(steps)
                        .arg(QString::fromStdString(s.pipeline.steps[std::size_t(step)].module)));
        });
    }
    g.dialog->reset();
    g.dialog->setValue(0);
    g.dialog->setLabelText(tr("Generating a world…"));
    g.timer->start();

    auto job = [pipeline, cancel = g.cancel, permille = g.permille, step = g.step,
                start_world = std::move(start)]() {
        auto result = std::make_shared<State::Result>();
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
            gen::run_pipeline(world, pipeline, editor_modules(), options);
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

void Job_runner::take_result() {
    State& g = *state_;
    if (!g.running) return;
    g.running = false;
    const std::vector<Vertex> part = std::move(g.part);
    const gen::Module* part_module = std::exchange(g.part_module, nullptr);
    const Dict part_params = std::move(g.part_params);
    document_.set_busy(QString());
    g.timer->stop();
    g.dialog->reset();
    g.dialog->hide();
    const std::shared_ptr<State::Result> result = g.watcher.result();
    g.watcher.setFuture(QFuture<std::shared_ptr<State::Result>>());
    if (result->cancelled) {
        Q_EMIT finished(g.step_text.isEmpty()
                            ? tr("Generation cancelled; nothing changed")
                            : tr("%1 cancelled; nothing changed").arg(g.step_text));
        return;
    }
    if (!result->world) {
        Q_EMIT failed(g.step_text.isEmpty() ? tr("Cannot generate a world")
                                            : tr("%1 failed").arg(g.step_text),
                      result->error);
        return;
    }
    if (!g.step_text.isEmpty()) {
        // A module run on the document: one step, unless the document changed meanwhile.
        if (g.document_serial != document_.serial() || !document_.world()) {
            Q_EMIT failed(tr("%1 not applied").arg(g.step_text),
                          tr("the world changed while the module ran; run it again"));
            return;
        }
        World after = std::move(*result->world);
        if (part_module)
            after = gen::keep_inside_part(*document_.world(), std::move(after), part, *part_module,
                                          part_params);
        document_.push(g.step_text, std::move(after), std::nullopt);
        Q_EMIT finished(tr("%1 in %2 s").arg(g.step_text).arg(result->seconds, 0, 'f', 2));
        return;
    }
    last_pipeline_ = g.pipeline;
    document_.reset(std::move(*result->world), QString(), true);
    Q_EMIT finished(tr("Generated in %1 s").arg(result->seconds, 0, 'f', 2));
}

} // namespace orbis::ui
