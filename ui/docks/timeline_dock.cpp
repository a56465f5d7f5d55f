// SPDX-License-Identifier: MIT
// The Timeline dock: plates that move. Play, Pause, Step and a slider over the kept steps.
#include "ui/docks/timeline_dock.hpp"

#include "ui/document.hpp"
#include "ui/editor_modules.hpp"
#include "ui/live_water.hpp"

#include "orbis/core/colour_map.hpp"
#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/tectonics_module.hpp"
#include "orbis/io/equirectangular.hpp"
#include "orbis/io/png.hpp"

#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace orbis::ui {

namespace {

using Clock = std::chrono::steady_clock;

// "2nd", "4th", "32nd": how the label names the thinning stride.
QString ordinal(std::int64_t n) {
    const std::int64_t tens = n % 100;
    const char* suffix = "th";
    if (tens < 11 || tens > 13) {
        if (n % 10 == 1) {
            suffix = "st";
        } else if (n % 10 == 2) {
            suffix = "nd";
        } else if (n % 10 == 3) {
            suffix = "rd";
        }
    }
    return QString::number(n) + suffix;
}

// Million years simulated so far by `world` (the "tectonics" Dict's time; 0 before any step).
double simulated_time(const World& world) {
    const Dict* state = world.layer(gen::tectonics_dict_name);
    const Dict_value* time = state ? state->find("time") : nullptr;
    if (time && time->is<double>()) return time->as<double>();
    return 0.0;
}

// One step of `tectonics` of `dt` million years on `world`. The provenance records a run of
// steps as one step "tectonics" with `steps` = how many: when the world's last step is
// tectonics with these parameters but for `steps`, that record is extended instead of a new
// one added, so that a re-run of it from the world before the run gives the same world.
// \throws std::runtime_error as the module does, or when it is missing.
void advance(World& world, double dt, std::optional<std::int32_t> rift) {
    const auto* module =
        dynamic_cast<const gen::Tectonics_module*>(editor_modules().find("tectonics"));
    if (!module) throw std::runtime_error("the tectonics module is not available");
    Dict given;
    given.set("steps", std::int64_t(1));
    given.set("dt", dt);
    // A rift is a step of its own in the provenance: its parameters differ from the run's.
    if (rift) given.set("rift", std::to_string(*rift));
    const Dict params = gen::complete_parameters(*module, given);
    const auto& steps = world.provenance().steps;
    if (!steps.empty() && steps.back().module == module->name()) {
        Dict as_one = steps.back().params;
        const Dict_value* count = as_one.find("steps");
        if (count && count->is<std::int64_t>()) {
            const std::int64_t done = count->as<std::int64_t>();
            as_one.set("steps", std::int64_t(1));
            if (as_one == params) {
                gen::tectonic_step(world, module->parameter_list().bind(params));
                Provenance provenance = world.provenance();
                provenance.steps.back().params.set("steps", done + 1);
                world.set_provenance(std::move(provenance));
                return;
            }
        }
    }
    gen::run_module(world, *module, params);
}

// The kept steps to draw as frames: snapshots, so the GUI thread may go on meanwhile.
struct Frames_job {
    std::vector<std::pair<std::int64_t, World>> steps;
    std::filesystem::path folder;
    std::string layer;
};

// The map settings of every frame of `job`, fixed by its first step: the colour map its hints
// (or value kind) choose and, for the continuous maps, its range of values.
io::Map_options frame_options(const Frames_job& job) {
    io::Map_options options = io::fixed_map_options(job.steps.front().second, job.layer);
    options.width = 1024;
    return options;
}

// Writes the frames of `job`; returns what failed, or nothing.
QString write_frames(const Frames_job& job) {
    try {
        io::Map_options options = frame_options(job);
        for (const auto& [step, world] : job.steps) {
            options.hints = world.hints(job.layer); // a step may name new plates
            char name[32];
            std::snprintf(name, sizeof name, "frame_%04lld.png", static_cast<long long>(step));
            // Fast compression and no fsync: frames are many and can be made again.
            io::save_png(job.folder / name, io::render_equirectangular(world, job.layer, options),
                         io::Png_compression::fast, io::Sync::none);
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

struct Timeline_dock::State {
    struct Result {
        std::optional<World> world;
        QString error;
    };
    QFutureWatcher<std::shared_ptr<Result>> watcher;
    QFutureWatcher<QString> frames; // the export's error, empty when it wrote every frame
    bool exporting = false;
    QString frames_folder;
    std::size_t frame_count = 0;
    QTimer* pace = nullptr; // waits between steps at a chosen speed
    bool running = false;
    bool drop = false;         // the running step's result is not wanted any more
    bool step_pending = false; // Step was pressed while a dropped step ran
    std::int64_t step = 0;     // the step number being computed
    Clock::time_point started; // when it started
};

Timeline_dock::Timeline_dock(Document& document, Live_water& water, QWidget* window)
    : QDockWidget(tr("Timeline"), window)
    , document_(document)
    , water_(water)
    , state_(std::make_unique<State>()) {
    setObjectName("timeline_dock");
    auto* body = new QWidget(this);
    auto* grid = new QGridLayout(body);
    play_ = new QPushButton(tr("Play"), body);
    play_->setObjectName("timeline_play");
    play_->setToolTip(tr("Move the plates step after step; each step is shown when ready"));
    step_ = new QPushButton(tr("Step"), body);
    step_->setObjectName("timeline_step");
    step_->setToolTip(tr("Move the plates by one step"));
    rift_button_ = new QPushButton(tr("Rift Plate…"), body);
    rift_button_->setObjectName("timeline_rift");
    rift_button_->setToolTip(tr("Split a plate in two along a random great circle, then step"));
    export_ = new QPushButton(tr("Export Frames…"), body);
    export_->setObjectName("timeline_export");
    export_->setToolTip(tr("Write every kept step as a map of the elevation (PNG), for a video"));
    speed_ = new QSpinBox(body);
    speed_->setObjectName("timeline_speed");
    speed_->setRange(0, 60);
    speed_->setSpecialValueText(tr("as fast as possible"));
    speed_->setSuffix(tr(" steps/s"));
    speed_->setToolTip(tr("Steps per second while playing"));
    dt_ = new QDoubleSpinBox(body);
    dt_->setObjectName("timeline_dt");
    dt_->setRange(0.1, 20.0);
    dt_->setSingleStep(0.5);
    dt_->setValue(1.0);
    dt_->setSuffix(tr(" My/step"));
    dt_->setToolTip(tr("Million years per step"));
    budget_ = new QSpinBox(body);
    budget_->setObjectName("timeline_budget");
    budget_->setRange(1, 1 << 20);
    budget_->setSingleStep(64);
    budget_->setValue(int(timeline_.budget() >> 20));
    budget_->setSuffix(tr(" MiB"));
    budget_->setToolTip(tr("Memory the kept steps may hold; beyond it the old steps are thinned "
                           "(every 2nd kept, then every 4th, …)"));
    slider_ = new QSlider(Qt::Horizontal, body);
    slider_->setObjectName("timeline_slider");
    slider_->setToolTip(tr("Scrub through the kept steps; the step shown is the run's result"));
    label_ = new QLabel(body);
    label_->setObjectName("timeline_label");
    grid->addWidget(play_, 0, 0);
    grid->addWidget(step_, 0, 1);
    grid->addWidget(new QLabel(tr("Speed"), body), 0, 2);
    grid->addWidget(speed_, 0, 3);
    grid->addWidget(new QLabel(tr("dt"), body), 0, 4);
    grid->addWidget(dt_, 0, 5);
    grid->addWidget(new QLabel(tr("Keep"), body), 0, 6);
    grid->addWidget(budget_, 0, 7);
    grid->addWidget(rift_button_, 0, 8);
    grid->addWidget(export_, 0, 9);
    grid->addWidget(slider_, 1, 0, 1, 10);
    grid->addWidget(label_, 2, 0, 1, 10);
    grid->setRowStretch(3, 1);
    setWidget(body);

    state_->pace = new QTimer(this);
    state_->pace->setSingleShot(true);
    connect(state_->pace, &QTimer::timeout, this, &Timeline_dock::start_step);
    connect(&state_->watcher, &QFutureWatcher<std::shared_ptr<State::Result>>::finished, this,
            &Timeline_dock::take_result);
    connect(play_, &QPushButton::clicked, this, [this] { playing_ ? pause() : play(); });
    connect(step_, &QPushButton::clicked, this, &Timeline_dock::step);
    connect(&state_->frames, &QFutureWatcher<QString>::finished, this, &Timeline_dock::take_frames);
    connect(rift_button_, &QPushButton::clicked, this, [this] {
        const std::size_t count = plate_count();
        if (count == 0) {
            Q_EMIT message(tr("No plates to rift: run the plates module first"));
            return;
        }
        bool ok = false;
        const int plate = QInputDialog::getInt(this, tr("Rift Plate"), tr("Plate to split:"), 0, 0,
                                               int(count) - 1, 1, &ok);
        if (!ok) return;
        if (const auto why = rift(plate)) Q_EMIT message(*why);
    });
    connect(export_, &QPushButton::clicked, this, [this] {
        if (timeline_.empty()) return;
        const World& first = timeline_.world_at(0);
        const QString layer = first.find_layer("elevation") ? "elevation" : "plate_id";
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Export Frames To"));
        if (folder.isEmpty()) return;
        if (const auto why = export_frames(folder, layer)) Q_EMIT message(*why);
    });
    connect(slider_, &QSlider::valueChanged, this,
            [this](int value) { show_step(std::size_t(std::max(value, 0))); });
    connect(budget_, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int mib) { set_memory_budget(std::size_t(mib) << 20); });
    connect(&document_, &Document::world_changed, this, &Timeline_dock::document_changed);
    // Undo and redo show their state before the stack's index moves: whether the run's step is
    // still the last one is known only then.
    connect(document_.undo_stack(), &QUndoStack::indexChanged, this,
            &Timeline_dock::document_changed);
    connect(&document_, &Document::document_replaced, this, [this] {
        stop_playing();
        timeline_.clear();
        shown_ = 0;
        gesture_ = 0;
        update_controls();
    });
    update_controls();
}

Timeline_dock::~Timeline_dock() {
    if (state_->running) state_->watcher.waitForFinished();
    if (state_->exporting) state_->frames.waitForFinished();
}

std::optional<QString> Timeline_dock::export_frames(const QString& folder, const QString& layer) {
    if (state_->exporting) return tr("Frames are being written already");
    if (timeline_.empty()) return tr("No kept steps to export: Play or Step first");
    const Layer_base* l = timeline_.world_at(0).find_layer(layer.toStdString());
    if (!l || l->type() != Layer_type::vertex)
        return tr("Frames draw a vertex layer; the world has no vertex layer %1").arg(layer);
    Frames_job job;
    for (std::size_t i = 0; i < timeline_.count(); ++i)
        job.steps.emplace_back(timeline_.step_at(i), timeline_.world_at(i));
    job.folder = folder.toStdString();
    job.layer = layer.toStdString();
    state_->exporting = true;
    state_->frames_folder = folder;
    state_->frame_count = job.steps.size();
    state_->frames.setFuture(
        QtConcurrent::run([job = std::move(job)] { return write_frames(job); }));
    update_controls();
    return std::nullopt;
}

bool Timeline_dock::exporting() const { return state_->exporting; }

void Timeline_dock::finish_export() {
    if (!state_->exporting) return;
    state_->frames.waitForFinished();
    take_frames();
}

void Timeline_dock::take_frames() {
    State& s = *state_;
    if (!s.exporting) return;
    s.exporting = false;
    const QString error = s.frames.result();
    s.frames.setFuture(QFuture<QString>());
    Q_EMIT message(error.isEmpty()
                       ? tr("Wrote %1 frames to %2").arg(s.frame_count).arg(s.frames_folder)
                       : tr("Frames not written: %1").arg(error));
    update_controls();
}

bool Timeline_dock::busy() const { return state_->running || state_->pace->isActive(); }

bool Timeline_dock::current() const {
    if (timeline_.empty() || !document_.world()) return false;
    // Before its first step the run has no undo step yet: it is current while the document
    // has not moved.
    return gesture_ != 0 ? document_.last_step_gesture() == gesture_
                         : document_.serial() == base_serial_;
}

void Timeline_dock::play() {
    if (playing_ || !begin_run()) return;
    playing_ = true;
    // Water every step would cost more than the step: it follows the step shown on pause.
    water_was_on_ = water_.enabled();
    water_.set_enabled(false);
    if (!state_->running) start_step();
    update_controls();
}

void Timeline_dock::pause() {
    if (!playing_) return;
    stop_playing();
    update_controls();
}

void Timeline_dock::step() {
    pause();
    if (!begin_run()) return;
    if (state_->running) {
        // A step that pause dropped is still running: the new one starts after it.
        if (state_->drop) state_->step_pending = true;
        return;
    }
    start_step();
    update_controls();
}

std::size_t Timeline_dock::plate_count() const {
    const World* world = document_.world();
    try {
        return world ? gen::read_plates(*world).size() : 0;
    } catch (const std::exception&) {
        return 0; // no "plates" Dict, or one the module would refuse
    }
}

std::optional<QString> Timeline_dock::rift(std::int32_t plate) {
    const std::size_t count = plate_count();
    if (count == 0) return tr("No plates to rift: run the plates module first");
    if (plate < 0 || std::size_t(plate) >= count)
        return tr("No plate %1: the plates are 0 to %2").arg(plate).arg(count - 1);
    rift_ = plate;
    step();
    return std::nullopt;
}

std::vector<World> Timeline_dock::steps_near_shown(std::size_t reach) const {
    std::vector<World> near;
    // While playing, the cores belong to the steps still to come.
    if (!current() || playing_) return near;
    for (std::size_t d = 1; d <= reach; ++d) {
        if (shown_ + d < timeline_.count()) near.push_back(timeline_.world_at(shown_ + d));
        if (d <= shown_) near.push_back(timeline_.world_at(shown_ - d));
    }
    return near;
}

void Timeline_dock::show_step(std::size_t index) {
    if (!current() || index >= timeline_.count()) return;
    pause();
    if (state_->running) state_->drop = true; // a Step for the step that was shown
    state_->step_pending = false;
    if (index == shown_) return;
    if (const auto why = document_.check_edit()) {
        Q_EMIT message(tr("Timeline: %1").arg(*why));
        update_controls();
        return;
    }
    show_index(index);
}

void Timeline_dock::show_index(std::size_t index) {
    shown_ = index;
    const World& world = timeline_.world_at(index);
    showing_ = true;
    if (gesture_ != 0) {
        document_.amend_last_step(tr("Move plates"), world);
    } else if (index != 0) {
        // The run's first step: its undo step, tagged so that the run knows it is still shown.
        gesture_ = document_.new_gesture();
        document_.push(tr("Move plates"), world, std::nullopt, Command_id::none, gesture_);
    }
    showing_ = false;
    update_controls();
}

void Timeline_dock::set_speed(int steps_per_second) { speed_->setValue(steps_per_second); }

void Timeline_dock::set_memory_budget(std::size_t bytes) {
    const std::int64_t shown_step = timeline_.empty() ? 0 : timeline_.step_at(shown_);
    const bool live = current();
    timeline_.set_budget(bytes);
    if (!timeline_.empty()) {
        // Thinning may have dropped the step shown: the nearest earlier one is shown instead.
        const std::size_t index = timeline_.index_at_or_before(shown_step);
        if (live && timeline_.step_at(index) != shown_step) {
            show_index(index);
        } else {
            shown_ = index;
        }
    }
    {
        const QSignalBlocker block(budget_);
        budget_->setValue(int(std::clamp<std::size_t>(bytes >> 20, 1, 1 << 20)));
    }
    update_controls();
}

bool Timeline_dock::begin_run() {
    if (const auto why = document_.check_edit()) {
        Q_EMIT message(tr("Timeline: %1").arg(*why));
        return false;
    }
    if (!current()) {
        // A new run from the world shown: its step 0.
        timeline_.clear();
        timeline_.add(0, *document_.world());
        shown_ = 0;
        gesture_ = 0;
        base_serial_ = document_.serial();
        thinning_ = 1;
    }
    // Going on from an earlier step: the steps after it are another future, dropped.
    if (shown_ + 1 < timeline_.count()) timeline_.drop_after(shown_);
    return true;
}

void Timeline_dock::start_step() {
    State& s = *state_;
    if (s.running || timeline_.empty()) return;
    s.running = true;
    s.drop = false;
    s.step = timeline_.step_at(shown_) + 1;
    s.started = Clock::now();
    auto job = [start = timeline_.world_at(shown_), dt = dt_->value(),
                rift = std::exchange(rift_, std::nullopt)]() mutable {
        auto result = std::make_shared<State::Result>();
        try {
            advance(start, dt, rift);
            result->world = std::move(start);
        } catch (const std::exception& e) {
            result->error = QString::fromStdString(e.what());
        }
        return result;
    };
    s.watcher.setFuture(QtConcurrent::run(std::move(job)));
}

void Timeline_dock::take_result() {
    State& s = *state_;
    if (!s.running) return;
    s.running = false;
    const std::shared_ptr<State::Result> result = s.watcher.result();
    s.watcher.setFuture(QFuture<std::shared_ptr<State::Result>>());
    if (s.drop) {
        // Paused or scrubbed meanwhile: the step is for a state no longer wanted. A new Play
        // or Step may be waiting for the worker.
        if (playing_ || std::exchange(s.step_pending, false)) start_step();
        update_controls();
        return;
    }
    if (!current()) {
        stop_playing();
        update_controls();
        return;
    }
    if (!result->error.isEmpty()) {
        stop_playing();
        Q_EMIT message(tr("Timeline step failed: %1").arg(result->error));
        update_controls();
        return;
    }
    if (const auto why = document_.check_edit()) {
        stop_playing();
        Q_EMIT message(tr("Timeline stopped: %1").arg(*why));
        update_controls();
        return;
    }
    timeline_.add(s.step, std::move(*result->world));
    show_index(timeline_.count() - 1);
    if (timeline_.thinning() != thinning_) {
        thinning_ = timeline_.thinning();
        Q_EMIT message(tr("Timeline over its %1 MiB budget: keeping every %2 step")
                           .arg(timeline_.budget() >> 20)
                           .arg(ordinal(thinning_)));
    }
    if (playing_) {
        const int period = speed_->value() > 0 ? 1000 / speed_->value() : 0;
        const auto spent =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - s.started);
        s.pace->start(std::max(0, period - int(spent.count())));
    }
    update_controls();
}

void Timeline_dock::stop_playing() {
    if (state_->running) state_->drop = true;
    state_->pace->stop();
    if (!playing_) return;
    playing_ = false;
    water_.set_enabled(water_was_on_);
}

void Timeline_dock::document_changed() {
    if (showing_) return;
    if (playing_ && !current()) {
        stop_playing();
        Q_EMIT message(tr("The world changed: the timeline stopped"));
    }
    update_controls();
}

QString Timeline_dock::label_text() const {
    if (timeline_.empty()) return tr("Play or Step moves the plates of the world shown");
    const double time = simulated_time(timeline_.world_at(shown_));
    QString text = tr("step %1 of %2, t = %3 My")
                       .arg(timeline_.step_at(shown_))
                       .arg(timeline_.step_at(timeline_.count() - 1))
                       .arg(time, 0, 'f', 1);
    if (timeline_.thinning() > 1)
        text += tr(" (keeping every %1 step)").arg(ordinal(timeline_.thinning()));
    text += tr(" · %1 kept, %2 MiB")
                .arg(timeline_.count())
                .arg(double(timeline_.bytes()) / double(1 << 20), 0, 'f', 1);
    if (!current()) text += tr(" · the world changed: Play starts a new run");
    return text;
}

void Timeline_dock::update_controls() {
    const bool live = current();
    const bool world = document_.world() != nullptr;
    play_->setText(playing_ ? tr("Pause") : tr("Play"));
    play_->setEnabled(world);
    step_->setEnabled(world && !playing_);
    rift_button_->setEnabled(world && !playing_);
    export_->setEnabled(!timeline_.empty() && !state_->exporting);
    {
        const QSignalBlocker block(slider_);
        slider_->setRange(0, live ? int(timeline_.count()) - 1 : 0);
        slider_->setValue(live ? int(shown_) : 0);
    }
    slider_->setEnabled(live && timeline_.count() > 1);
    label_->setText(label_text());
}

} // namespace orbis::ui
