// SPDX-License-Identifier: MIT
#include "simulate_command.hpp"

#include <orbis/core/colour_map.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/tectonics_module.hpp>
#include <orbis/io/equirectangular.hpp>
#include <orbis/io/formats.hpp>
#include <orbis/io/png.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace orbis::cli {

namespace {

using namespace orbis::gen;
using Clock = std::chrono::steady_clock;

// Set by SIGINT; the run stops at the next step boundary. A lock-free atomic is one of the few
// things a signal handler may touch.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void on_sigint(int) { interrupted.store(true, std::memory_order_relaxed); }

// Catches SIGINT for its lifetime. SA_RESETHAND: a second Ctrl+C, during a step that takes too
// long, kills the process the usual way. A SIGINT that was ignored when we started (nohup, a
// background job of a script) stays ignored, as a well-behaved program does.
class Sigint_catcher {
public:
    Sigint_catcher() {
        interrupted.store(false);
        struct sigaction action {};
        action.sa_handler = on_sigint;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        sigaction(SIGINT, &action, &previous_);
        if (previous_.sa_handler == SIG_IGN) sigaction(SIGINT, &previous_, nullptr);
    }
    ~Sigint_catcher() { sigaction(SIGINT, &previous_, nullptr); }
    Sigint_catcher(const Sigint_catcher&) = delete;
    Sigint_catcher& operator=(const Sigint_catcher&) = delete;

private:
    struct sigaction previous_ {};
};

// Thrown (and caught in run_simulate) when SIGINT stops the run between steps.
struct Interrupted {
    std::int64_t steps_done;
};

// "step 12/100, 1.2 s" on stderr: redrawn in place on a terminal; otherwise one line for the
// first and last step and at most one a second in between, so a log stays readable.
class Step_progress {
public:
    explicit Step_progress(std::int64_t steps)
        : steps_(steps)
        , tty_(isatty(STDERR_FILENO) != 0) {}
    void done(std::int64_t step) {
        const auto now = Clock::now();
        const double seconds = std::chrono::duration<double>(now - start_).count();
        if (tty_) {
            std::fprintf(stderr, "\rstep %lld/%lld, %.1f s   ", static_cast<long long>(step),
                         static_cast<long long>(steps_), seconds);
            drawn_ = true;
        } else if (step == 1 || step == steps_ || now - printed_ >= std::chrono::seconds(1)) {
            std::fprintf(stderr, "step %lld/%lld, %.1f s\n", static_cast<long long>(step),
                         static_cast<long long>(steps_), seconds);
            printed_ = now;
        }
        std::fflush(stderr);
    }
    // Ends the line redrawn in place, so that what follows starts on a clean line.
    void finish() {
        if (drawn_) std::fputc('\n', stderr);
        drawn_ = false;
    }
    double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

private:
    std::int64_t steps_;
    bool tty_;
    bool drawn_ = false;
    Clock::time_point start_ = Clock::now();
    Clock::time_point printed_{};
};

bool is_scalar(Value_type t) {
    return t == Value_type::boolean || t == Value_type::int32 || t == Value_type::uint32 ||
           t == Value_type::int64 || t == Value_type::float32 || t == Value_type::float64;
}

// Checks that the frames can draw `layer`, before anything runs. Returns false when the input
// lacks the layer but the module makes it (then there is no frame of the input).
bool check_frame_layer(const World& world, const Module& module, const Dict& params,
                       const std::string& layer, const std::string& input) {
    const std::string what = "simulate: --layer '" + layer + "'";
    if (const Layer_base* l = world.find_layer(layer)) {
        if (l->type() != Layer_type::vertex || !is_scalar(l->value_tag()))
            throw std::invalid_argument(what + " is a " + std::string(l->value_name()) + " " +
                                        std::string(layer_type_name(l->type())) +
                                        " layer; frames draw scalar vertex layers");
        return true;
    }
    if (world.layer(std::string_view(layer)))
        throw std::invalid_argument(what + " is a Dict layer; frames draw scalar vertex layers");
    for (const Layer_use& use : module.layers(params).writes)
        if (use.kind == Layer_use_kind::typed && use.name == layer &&
            use.type == Layer_type::vertex && is_scalar(use.value))
            return false;
    std::string names;
    for (const auto& name : world.layer_names())
        if (const Layer_base* l = world.find_layer(name))
            if (l->type() == Layer_type::vertex && is_scalar(l->value_tag()))
                names += (names.empty() ? "" : ", ") + name;
    throw std::invalid_argument(what + ": " + input +
                                " has no such layer and the tectonics module does not make it "
                                "(scalar vertex layers: " +
                                (names.empty() ? "none" : names) + ")");
}

// Draws the frames as `orbis-cli map` draws a layer with its defaults, except that the colour
// map and its range are fixed at the first frame, so that a colour means the same value in
// every frame of a video.
class Frame_writer {
public:
    Frame_writer(std::filesystem::path folder, std::string layer, std::uint32_t width)
        : folder_(std::move(folder))
        , layer_(std::move(layer))
        , width_(width) {}

    void write(const World& world, std::int64_t number) {
        io::Map_options options =
            io::default_map_options(world, layer_); // a step may rename plates
        if (!colour_map_) {
            const io::Map_options first = io::fixed_map_options(world, layer_);
            colour_map_ = first.colour_map;
            range_ = first.range;
        }
        options.width = width_;
        options.colour_map = *colour_map_;
        options.range = range_;
        options.hillshade = options.colour_map == Colour_map_kind::terrain;
        char name[32];
        std::snprintf(name, sizeof name, "frame_%04lld.png", static_cast<long long>(number));
        // Fast compression and no fsync: frames are many, and cheap to make again.
        io::save_png(folder_ / name, io::render_equirectangular(world, layer_, options),
                     io::Png_compression::fast, io::Sync::none);
        if (count_++ == 0) first_ = name;
        last_ = name;
    }

    std::int64_t count() const { return count_; }
    const std::string& first() const { return first_; }
    const std::string& last() const { return last_; }

private:
    std::filesystem::path folder_;
    std::string layer_;
    std::uint32_t width_;
    std::optional<Colour_map_kind> colour_map_;
    std::optional<io::Value_range> range_;
    std::int64_t count_ = 0;
    std::string first_, last_;
};

// What the steps did, summed.
struct Totals {
    std::int64_t flips = 0, splits = 0, collapses = 0, refused = 0, folded = 0, rebuilt = 0,
                 rifts = 0, sutures = 0;
};

std::int64_t count_in(const Dict& report, std::string_view key) {
    const Dict_value* v = report.find(key);
    return v && v->is<std::int64_t>() ? v->as<std::int64_t>() : 0;
}

// One run of the module for all the steps: the module system records it as one provenance
// step, restores the World on failure, and cancels through Progress.
Totals run_whole(World& world, const Module& module, const Dict& params, std::int64_t steps,
                 Step_progress& progress) {
    std::int64_t done = 0;
    const Progress reporter(
        [&](double fraction) {
            // The module reports fraction k / steps before step k + 1: k steps are done (floor,
            // in case it ever reports within a step too; the epsilon absorbs the rounding).
            const auto k = static_cast<std::int64_t>(std::floor(fraction * double(steps) + 1e-6));
            if (k > done) progress.done(done = k);
        },
        &interrupted);
    Dict report;
    try {
        report = run_module(world, module, params, reporter);
    } catch (const Cancelled&) {
        throw Interrupted{done};
    }
    progress.done(steps);
    return {.flips = count_in(report, "flips"),
            .splits = count_in(report, "splits"),
            .collapses = count_in(report, "collapses"),
            .refused = count_in(report, "refused"),
            .folded = count_in(report, "folded"),
            .rebuilt = count_in(report, "rebuilt"),
            .rifts = count_in(report, "rifts"),
            .sutures = count_in(report, "sutures")};
}

// The same run, step by step, with a frame between steps: what run_module does around the
// module (inputs checked, hints set, the step recorded with the generator's fingerprint from
// before), and what Tectonics_module::run_with does inside, one tectonic_step per step. So the
// saved World is byte for byte the one run_whole gives (a test checks it).
Totals run_with_frames(World& world, const Module& module, const Dict& params, std::int64_t steps,
                       std::int64_t every, Frame_writer& frames, Step_progress& progress) {
    const auto* tectonics = dynamic_cast<const Tectonics_module*>(&module);
    if (!tectonics) throw std::logic_error("simulate: 'tectonics' is not the built-in module");
    if (const auto why = check_module_inputs(world, module, params)) throw Pipeline_error(*why);
    const Tectonics_params p = tectonics->parameter_list().bind(params);
    const std::uint64_t seed = random_fingerprint(world);
    apply_hints(world, module, params);
    Totals t;
    for (std::int64_t step = 1; step <= steps; ++step) {
        if (interrupted.load(std::memory_order_relaxed)) throw Interrupted{step - 1};
        const Tectonic_step_stats s = tectonic_step(world, p);
        t.flips += s.flips;
        t.splits += s.splits;
        t.collapses += s.collapses;
        t.refused += s.refused;
        t.folded += s.folded;
        t.rebuilt += s.rebuilt;
        t.rifts += s.rifts;
        t.sutures += s.sutures;
        progress.done(step);
        if (step % every == 0) frames.write(world, step / every);
    }
    record_step(world, module, params, seed, next_run(world));
    return t;
}

} // namespace

CLI::App* add_simulate_command(CLI::App& app, Simulate_options& o) {
    auto* cmd = app.add_subcommand(
        "simulate", "Move the plates of a world with the tectonics module for a number of steps "
                    "(recorded as one step of its provenance), optionally drawing a map per step");
    cmd->add_option("input", o.input, "World file to start from (.orbis, with plates)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--steps", o.steps, "Steps to simulate")
        ->required()
        ->check(CLI::PositiveNumber);
    cmd->add_option("--dt", o.dt, "Million years per step")->capture_default_str();
    cmd->add_option("--seed", o.seed,
                    "Reseed the World's random generator first (rifts draw from it); without it "
                    "the run continues the input's generator, and `orbis-cli replay` can "
                    "reproduce the file");
    cmd->add_option("-o,--output", o.output,
                    "World file to write (.orbis, .ply, .obj); written only when every step "
                    "ran, atomically")
        ->required();
    auto* frames = cmd->add_option("--frames", o.frames,
                                   "Folder (created when missing) for equirectangular PNG maps: "
                                   "frame_0000.png is the input, frame_<k>.png the world after "
                                   "k * --every steps; frames written before a failure or Ctrl+C "
                                   "stay");
    cmd->add_option("--layer", o.layer,
                    "Scalar vertex layer the frames draw, coloured as `orbis-cli map` does")
        ->capture_default_str()
        ->needs(frames);
    cmd->add_option("--every", o.every, "Draw a frame every this many steps")
        ->check(CLI::PositiveNumber)
        ->capture_default_str()
        ->needs(frames);
    cmd->add_option("-w,--width", o.width, "Frame width in pixels; the height is half")
        ->check(CLI::Range(2u, 16384u))
        ->capture_default_str()
        ->needs(frames);
    cmd->footer("Progress goes to stderr. Ctrl+C stops between steps: the output is not written "
                "(exit code 130); a second Ctrl+C stops at once. See docs/simulate.md.");
    return cmd;
}

int run_simulate(const Simulate_options& o, const Module_registry& registry) {
    const Module* module = registry.find("tectonics");
    if (!module) throw std::runtime_error("simulate: no 'tectonics' module");
    Dict given;
    given.set("steps", o.steps);
    given.set("dt", o.dt);
    // Refused parameters and a bad extension are reported before the input is even loaded.
    const Dict params = complete_parameters(*module, given);
    io::format_of(o.output);

    World world = io::load_any(o.input);
    if (const auto why = check_module_inputs(world, *module, params))
        throw Pipeline_error(o.input + ": " + *why);
    bool frame_of_input = false;
    if (!o.frames.empty())
        frame_of_input = check_frame_layer(world, *module, params, o.layer, o.input);
    // No helper reseeds a World outside a module; the sphere module seeds it the same way.
    if (o.seed) world.lock_random()->seed(*o.seed);

    const std::size_t vertices_before = world.mesh().vertex_count();
    const Dict* state = world.layer(tectonics_dict_name);
    const Dict_value* time = state ? state->find("time") : nullptr;
    const double time_before = time && time->is<double>() ? time->as<double>() : 0.0;

    Sigint_catcher sigint;
    Step_progress progress(o.steps);
    Totals totals;
    std::optional<Frame_writer> frames;
    try {
        if (o.frames.empty()) {
            totals = run_whole(world, *module, params, o.steps, progress);
        } else {
            std::filesystem::create_directories(o.frames);
            frames.emplace(o.frames, o.layer, o.width);
            if (frame_of_input) {
                frames->write(world, 0);
            } else {
                std::fprintf(stderr,
                             "orbis-cli: note: %s has no layer '%s' yet (the tectonics module "
                             "makes it); frames start at frame_0001.png\n",
                             o.input.c_str(), o.layer.c_str());
            }
            totals = run_with_frames(world, *module, params, o.steps, o.every, *frames, progress);
        }
        // A Ctrl+C during the last step or frame still means "do not write".
        if (interrupted.load()) throw Interrupted{o.steps};
    } catch (const Interrupted& stop) {
        progress.finish();
        std::fprintf(stderr,
                     "orbis-cli: simulate: interrupted after %lld of %lld steps; %s not written\n",
                     static_cast<long long>(stop.steps_done), static_cast<long long>(o.steps),
                     o.output.c_str());
        return 130;
    }
    progress.finish();
    const double seconds = progress.seconds();
    io::save_any(world, o.output, {});

    std::printf("%s: %lld steps of %g My in %.1f s: %g My simulated (%g My in all)\n",
                o.output.c_str(), static_cast<long long>(o.steps), o.dt, seconds,
                double(o.steps) * o.dt, time_before + double(o.steps) * o.dt);
    std::printf("  vertices %zu -> %zu; flips %lld, splits %lld, collapses %lld (%lld refused); "
                "rifts %lld, sutures %lld\n",
                vertices_before, world.mesh().vertex_count(), static_cast<long long>(totals.flips),
                static_cast<long long>(totals.splits), static_cast<long long>(totals.collapses),
                static_cast<long long>(totals.refused), static_cast<long long>(totals.rifts),
                static_cast<long long>(totals.sutures));
    if (totals.rebuilt > 0)
        std::printf("  %lld step%s ended with a folded face or an edge it could not flip, and the "
                    "mesh was triangulated again\n",
                    static_cast<long long>(totals.rebuilt), totals.rebuilt == 1 ? "" : "s");
    if (totals.folded > 0)
        std::printf("  warning: %lld faces left folded\n", static_cast<long long>(totals.folded));
    if (frames && frames->count() > 0)
        std::printf("  frames: %lld maps of %s in %s (%s to %s)\n",
                    static_cast<long long>(frames->count()), o.layer.c_str(), o.frames.c_str(),
                    frames->first().c_str(), frames->last().c_str());
    else if (frames)
        std::printf("  frames: none (fewer steps than --every)\n");
    return 0;
}

} // namespace orbis::cli
