// SPDX-License-Identifier: MIT
#include "generate_command.hpp"

#include <orbis/gen/parallel_ranges.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/io/formats.hpp>

#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace orbis::cli {

namespace {

using namespace orbis::gen;

// Applies a command-line override; refuses one that no step of the pipeline takes.
void apply_override(Pipeline& pipeline, const Module_registry& registry, const char* option,
                    const char* parameter, const Dict_value& value, std::string_view module = {}) {
    if (override_parameter(pipeline, registry, parameter, value, module) == 0)
        throw Pipeline_error(std::string(option) + ": no step of the pipeline has a '" + parameter +
                             "' parameter");
}

// A one-line progress bar on stderr, redrawn in place; only on a terminal.
class Progress_bar {
public:
    Progress_bar(const Pipeline& pipeline, bool enabled)
        : pipeline_(pipeline)
        , enabled_(enabled) {}
    ~Progress_bar() { clear(); }
    // Erases the bar, so that what goes to stdout next starts on a clean line.
    void clear() {
        if (drawn_) std::fprintf(stderr, "\r%-72s\r", "");
        drawn_ = false;
    }
    void show(std::size_t step, double fraction) {
        if (!enabled_) return;
        const double total =
            (double(step) + fraction) / double(std::max<std::size_t>(1, pipeline_.steps.size()));
        const int percent = int(total * 100 + 0.5);
        if (drawn_ && percent == percent_ && step == step_) return;
        percent_ = percent;
        step_ = step;
        const int filled = int(total * 30 + 0.5);
        std::fprintf(stderr, "\r[%.*s%*s] %3d%% %-24s", filled, "##############################",
                     30 - filled, "", percent, pipeline_.steps[step].module.c_str());
        std::fflush(stderr);
        drawn_ = true;
    }

private:
    const Pipeline& pipeline_;
    bool enabled_;
    bool drawn_ = false;
    int percent_ = -1;
    std::size_t step_ = 0;
};

// Generation allocates and frees arrays of hundreds of megabytes, module after module. glibc
// maps each array above 32 MB separately and unmaps it when freed, so the next module's arrays
// come back as fresh pages that the kernel must fault in and zero: about a million page faults
// and seconds of system time at 10 million points. A command that runs once and exits can keep
// everything it frees for reuse instead (at the price of a higher peak: what one module freed
// is not always the shape the next one needs).
void keep_freed_memory() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

// CPU time and page faults of the whole process (every thread) and of the calling thread so
// far, and the wall clock.
struct Usage {
    double wall = 0;
    double user = 0;
    double system = 0;
    double own = 0;  // user + system of the calling thread (Linux only; 0 elsewhere)
    long faults = 0; // minor and major: minor ones (first touch of fresh memory) dominate
};

double seconds_of(const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); }

Usage usage_now() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    double own = 0;
#if defined(RUSAGE_THREAD)
    rusage t{};
    if (getrusage(RUSAGE_THREAD, &t) == 0) own = seconds_of(t.ru_utime) + seconds_of(t.ru_stime);
#endif
    return {.wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
                    .count(),
            .user = seconds_of(r.ru_utime),
            .system = seconds_of(r.ru_stime),
            .own = own,
            .faults = r.ru_minflt + r.ru_majflt};
}

// "<wall> s, user <u> s, sys <s> s, main <m> s, <n> faults" for the span from `from` to `to`.
// user + sys above wall means more than one core worked; "main" is the CPU time of the thread
// that runs the pipeline, the rest ran on helper threads: on a machine busy with other work,
// main is close to what the wall time would be with two cores to itself.
std::string usage_text(double wall, const Usage& from, const Usage& to) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "%.3f s, user %.3f s, sys %.3f s, main %.3f s, %ld faults",
                  wall, to.user - from.user, to.system - from.system, to.own - from.own,
                  to.faults - from.faults);
    return buffer;
}

std::string text_of(const Dict_value& v) {
    if (v.is<bool>()) return v.as<bool>() ? "true" : "false";
    if (v.is<std::int64_t>()) return std::to_string(v.as<std::int64_t>());
    if (v.is<double>()) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.10g", v.as<double>());
        return buffer;
    }
    if (v.is<std::string>()) return "\"" + v.as<std::string>() + "\"";
    return std::string(v.kind_name());
}

} // namespace

CLI::App* add_generate_command(CLI::App& app, Generate_options& o) {
    auto* cmd = app.add_subcommand(
        "generate", "Generate a world with a pipeline of modules (the default pipeline unless "
                    "--pipeline is given) and save it");
    cmd->add_option("--pipeline", o.pipeline, "Pipeline JSON file (see `orbis-cli modules`)")
        ->check(CLI::ExistingFile);
    cmd->add_option("-n,--vertices", o.vertices, "Override the sphere step's point count");
    cmd->add_option("-s,--seed", o.seed,
                    "Override every step's seed (the sphere's seeds the World's generator, "
                    "which later modules draw from)");
    cmd->add_option("-p,--perturbation", o.perturbation, "Override the sphere step's perturbation");
    cmd->add_option("--modules", o.modules,
                    "Run only these steps of the pipeline (comma-separated, pipeline order)")
        ->delimiter(',');
    cmd->add_flag("--timings", o.timings,
                  "Print one line per module: <module>: <wall seconds> s, user and system CPU "
                  "seconds (all threads), CPU seconds of the main thread, page faults, then the "
                  "module's report; also the total and the save");
    cmd->add_option("--threads", o.threads,
                    "Threads for the generation passes that split (1 or 2; default 2 on a "
                    "multi-core machine); the world is the same either way")
        ->check(CLI::Range(1, 2));
    cmd->add_flag("--print-pipeline", o.print_pipeline,
                  "Print the pipeline (after overrides) as JSON instead of running it");
    cmd->add_option("-o,--output", o.output, "World file to write (.orbis, .ply, .obj)");
    return cmd;
}

int run_generate(const Generate_options& o, const Module_registry& registry) {
    Pipeline pipeline =
        o.pipeline.empty() ? default_pipeline() : load_pipeline(o.pipeline, registry);
    if (o.vertices)
        apply_override(pipeline, registry, "--vertices", "count", *o.vertices, "sphere");
    if (o.seed) apply_override(pipeline, registry, "--seed", "seed", *o.seed);
    if (o.perturbation)
        apply_override(pipeline, registry, "--perturbation", "perturbation", *o.perturbation,
                       "sphere");
    if (!o.modules.empty()) pipeline = select_steps(pipeline, o.modules);
    if (o.print_pipeline) {
        std::fputs(pipeline_to_json(pipeline).c_str(), stdout);
        return 0;
    }
    if (o.output.empty()) throw Pipeline_error("generate: --output (-o) is required");
    keep_freed_memory();
    if (o.threads) {
        Parallel_settings settings = parallel_settings();
        settings.threads = unsigned(*o.threads);
        set_parallel_settings(settings);
    }
    World world;
    // Refuse a pipeline in the wrong order before anything runs.
    if (const auto why = check_pipeline(pipeline, registry, world)) throw Pipeline_error(*why);
    // Refuse an unknown extension before spending minutes on generation.
    io::format_of(o.output);

    Progress_bar bar(pipeline, isatty(STDERR_FILENO) != 0);
    Pipeline_run_options options;
    // The CPU counters are read when a step first reports progress (before it starts its clock)
    // and when it is done, so that they cover the same span as its wall-clock seconds.
    Usage step_start;
    std::size_t started = SIZE_MAX;
    options.progress = [&](std::size_t step, double fraction) {
        if (step != started) {
            started = step;
            if (o.timings) step_start = usage_now();
        }
        bar.show(step, fraction);
    };
    double total = 0;
    const Usage run_start = usage_now();
    options.step_done = [&](std::size_t step, double seconds, const Dict& report) {
        total += seconds;
        if (!o.timings) return;
        const Usage now = usage_now();
        bar.clear();
        std::string details;
        for (const auto& entry : report.entries())
            details += (details.empty() ? " (" : ", ") + entry.key + " " + text_of(entry.value);
        if (!details.empty()) details += ")";
        std::printf("%s: %s%s\n", pipeline.steps[step].module.c_str(),
                    usage_text(seconds, step_start, now).c_str(), details.c_str());
    };
    run_pipeline(world, pipeline, registry, options);
    bar.clear();
    if (o.timings) std::printf("total: %s\n", usage_text(total, run_start, usage_now()).c_str());
    const Usage save_start = usage_now();
    io::save_any(world, o.output, {});
    const Usage save_end = usage_now();
    std::printf("%s: %zu vertices, %zu faces, %zu layers\n", o.output.c_str(),
                world.mesh().vertex_count(), world.mesh().face_count(), world.layer_names().size());
    if (o.timings)
        std::printf("save: %s\n",
                    usage_text(save_end.wall - save_start.wall, save_start, save_end).c_str());
    return 0;
}

CLI::App* add_modules_command(CLI::App& app, bool& json) {
    auto* cmd = app.add_subcommand(
        "modules", "List the generation modules (built-in and plugins), their parameters and "
                   "the layers they read and write");
    cmd->add_flag("--json", json, "Print them as JSON (the schema the editor's forms use)");
    return cmd;
}

namespace {

std::string uses_text(const std::vector<Layer_use>& uses) {
    std::string out;
    for (const auto& u : uses)
        out += (out.empty() ? "" : ", ") + u.describe() + (u.required ? "" : " (optional)");
    return out.empty() ? "nothing" : out;
}

} // namespace

int run_modules(const Module_registry& registry, bool json) {
    if (json) {
        std::fputs(modules_to_json(registry).c_str(), stdout);
        return 0;
    }
    for (const Module* m : registry.modules()) {
        std::printf("%s\n  %s\n", std::string(m->name()).c_str(),
                    std::string(m->description()).c_str());
        for (const auto& p : m->parameters()) {
            std::string range;
            if (p.kind == Parameter_kind::integer || p.kind == Parameter_kind::real)
                range = ", range [" + text_of(p.min) + ", " + text_of(p.max) + "]";
            const std::string unit = p.unit.empty() ? "" : " " + p.unit;
            std::printf("    %s (%s, default %s%s%s): %s\n", p.name.c_str(),
                        std::string(parameter_kind_name(p.kind)).c_str(),
                        text_of(p.default_value).c_str(), unit.c_str(), range.c_str(),
                        p.description.c_str());
        }
        const Layer_uses uses = m->layers(complete_parameters(*m, {}));
        std::printf("  reads: %s\n  writes: %s\n", uses_text(uses.reads).c_str(),
                    uses_text(uses.writes).c_str());
    }
    return 0;
}

} // namespace orbis::cli
