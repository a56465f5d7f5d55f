// SPDX-License-Identifier: MIT
#include "ui/live_water.hpp"

#include "ui/document.hpp"
#include "ui/editor_modules.hpp"

#include "orbis/gen/module.hpp"
#include "orbis/gen/refresh.hpp"
#include "orbis/gen/run_memory.hpp"

#include <QFutureWatcher>
#include <QSettings>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>
#include <chrono>
#include <optional>

namespace orbis::ui {

namespace {

// Up to this many vertices, climate, hydrology and biome keep what they computed between runs
// (about 270 bytes a vertex in all, 0.48 GB at a million sphere points), so that live water
// redoes only what a stroke reaches: 3 times faster at a million points. Above it (the 10M
// worlds, whose editor must fit in 3 GB) every update is a whole run.
constexpr std::uint32_t run_memory_vertices = 4'000'000;

} // namespace

struct Live_water::State {
    struct Result {
        std::optional<World> world;
        std::size_t ran = 0;
        QString error;
        double seconds = 0;
    };
    QFutureWatcher<std::shared_ptr<Result>> watcher;
    QTimer* timer = nullptr; // coalesces the signals of one event-loop turn into one check
    bool running = false;
    std::uint64_t serial = 0; // the document state the running update started from
    // The mesh whose water the modules last computed (an update or a preparation), 0 for none.
    std::uint64_t prepared_mesh = 0;
};

Live_water::Live_water(Document& document, QObject* parent)
    : QObject(parent)
    , document_(document)
    , enabled_(QSettings().value("water/live", true).toBool())
    , state_(std::make_unique<State>()) {
    gen::set_run_memory_limit(run_memory_vertices);
    state_->timer = new QTimer(this);
    state_->timer->setSingleShot(true);
    state_->timer->setInterval(0);
    connect(state_->timer, &QTimer::timeout, this, &Live_water::check);
    connect(&state_->watcher, &QFutureWatcher<std::shared_ptr<State::Result>>::finished, this,
            &Live_water::take_result);
    connect(&document_, &Document::world_changed, state_->timer, qOverload<>(&QTimer::start));
    connect(&document_, &Document::document_replaced, state_->timer, qOverload<>(&QTimer::start));
}

Live_water::~Live_water() {
    if (state_->running) state_->watcher.waitForFinished();
}

void Live_water::set_enabled(bool on) {
    enabled_ = on;
    if (on) state_->timer->start();
}

bool Live_water::busy() const { return state_->running || state_->timer->isActive(); }

void Live_water::finish() {
    for (int guard = 0; guard < 16 && busy(); ++guard) {
        if (state_->timer->isActive()) {
            state_->timer->stop();
            check();
        }
        if (state_->running) {
            state_->watcher.waitForFinished();
            take_result();
        }
    }
}

void Live_water::check() {
    if (!enabled_ || state_->running) return;
    const World* world = document_.world();
    if (!world) return;
    if (gen::first_stale_step(*world, gen::live_water_modules))
        start();
    else if (state_->prepared_mesh != world->mesh_version())
        prepare();
}

void Live_water::prepare() {
    State& s = *state_;
    const World& world = *document_.world();
    s.prepared_mesh = world.mesh_version();
    if (world.mesh().vertex_count() > gen::run_memory_limit()) return;
    bool has_water = false;
    for (const Step_record& step : world.provenance().steps)
        has_water |= std::find(gen::live_water_modules.begin(), gen::live_water_modules.end(),
                               step.module) != gen::live_water_modules.end();
    if (!has_water) return;
    s.running = true;
    s.serial = document_.serial();
    // The water steps again on a copy, whose results are dropped: what matters is what the
    // modules keep, so that the first stroke's update redoes only what it reaches.
    auto job = [copy = world]() mutable {
        auto result = std::make_shared<State::Result>();
        try {
            for (const Step_record& step : copy.provenance().steps)
                if (std::find(gen::live_water_modules.begin(), gen::live_water_modules.end(),
                              step.module) != gen::live_water_modules.end())
                    if (const gen::Module* module = editor_modules().find(step.module))
                        gen::run_module(copy, *module, step.params);
        } catch (const std::exception&) {
            // Nothing is lost: the first update will be a whole run, and say why if it fails.
        }
        return result;
    };
    s.watcher.setFuture(QtConcurrent::run(std::move(job)));
}

void Live_water::start() {
    State& s = *state_;
    s.running = true;
    s.serial = document_.serial();
    s.prepared_mesh = document_.world()->mesh_version();
    auto job = [start = *document_.world()]() mutable {
        auto result = std::make_shared<State::Result>();
        const auto began = std::chrono::steady_clock::now();
        try {
            result->ran =
                gen::refresh_stale_steps(start, editor_modules(), gen::live_water_modules);
            result->world = std::move(start);
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        result->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        return result;
    };
    s.watcher.setFuture(QtConcurrent::run(std::move(job)));
}

void Live_water::take_result() {
    State& s = *state_;
    if (!s.running) return;
    s.running = false;
    const std::shared_ptr<State::Result> result = s.watcher.result();
    s.watcher.setFuture(QFuture<std::shared_ptr<State::Result>>());
    if (document_.serial() != s.serial) {
        // The document moved on (another dab, an undo): what we computed is for a state that
        // is gone. Look again at the new one.
        s.timer->start();
        return;
    }
    if (!result->error.isEmpty()) {
        Q_EMIT failed(tr("Live water: %1").arg(result->error));
        return;
    }
    if (const auto why = document_.check_edit()) {
        s.timer->start();
        return;
    }
    if (!result->world || result->ran == 0) return;
    document_.amend_last_step(tr("Update water"), std::move(*result->world));
    Q_EMIT updated(tr("Water and climate updated in %1 s").arg(result->seconds, 0, 'f', 2));
}

} // namespace orbis::ui
