// SPDX-License-Identifier: MIT
// An ordered list of modules with parameters, read from and written to JSON, and its run.
#pragma once

#include "orbis/gen/module_registry.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace orbis::gen {

/// One module of a pipeline and the parameters it runs with.
struct Pipeline_step {
    std::string module; ///< a registered module's name
    Dict params;        ///< complete: every parameter of the module, checked
    /// Same module and parameters.
    friend bool operator==(const Pipeline_step&, const Pipeline_step&) = default;
};

/// Modules to run in order on one World.
struct Pipeline {
    std::vector<Pipeline_step> steps; ///< in running order
    /// Same steps.
    friend bool operator==(const Pipeline&, const Pipeline&) = default;
};

/// The pipeline in `json`:
/// `{"format": "orbis-pipeline", "version": 1, "steps": [{"module": "sphere", "params": {...}}]}`
/// ("params" may be left out; missing parameters get their defaults).
/// \throws Pipeline_error for malformed JSON (with line and column), a missing or newer
/// version, an unknown module (listing the known ones) and every parameter error of
/// complete_parameters. Nothing runs before the whole pipeline has been checked.
Pipeline pipeline_from_json(std::string_view json, const Module_registry& registry);

/// The pipeline as JSON that pipeline_from_json reads back to an equal Pipeline.
std::string pipeline_to_json(const Pipeline& pipeline);

/// pipeline_from_json of a file's contents. \throws Pipeline_error naming the file when it
/// cannot be read or is refused.
Pipeline load_pipeline(const std::filesystem::path& path, const Module_registry& registry);

/// The pipeline Orbis ships (resources/default_pipeline.json, compiled in): a planet with
/// plates, elevation and adaptive resolution.
Pipeline default_pipeline();

/// `pipeline` with only the steps whose module is in `modules`, in the pipeline's order.
/// \throws Pipeline_error for a name that is no step of the pipeline.
Pipeline select_steps(const Pipeline& pipeline, std::span<const std::string> modules);

/// Sets parameter `name` to `value` in every step that has it, or only in the steps of module
/// `only_module` when that is not empty; returns how many steps changed.
/// \throws Pipeline_error when the value is refused for one of them (nothing changed then).
int override_parameter(Pipeline& pipeline, const Module_registry& registry, std::string_view name,
                       const Dict_value& value, std::string_view only_module = {});

/// Why `pipeline` cannot run on `start`: the first step that reads a required input which no
/// earlier step writes and `start` does not have (or has with another type), naming the step,
/// the input and a module of `registry` that writes it; or a step whose module `registry`
/// lacks. Nothing when it can. Cost: O(steps × declared layers); nothing runs.
std::optional<std::string> check_pipeline(const Pipeline& pipeline, const Module_registry& registry,
                                          const World& start);

/// What run_pipeline tells its caller, and how it is stopped.
struct Pipeline_run_options {
    /// Called with the step's index and the step's fraction done.
    std::function<void(std::size_t step, double fraction)> progress;
    /// Called after each step with its wall-clock seconds and the module's report.
    std::function<void(std::size_t step, double seconds, const Dict& report)> step_done;
    /// Set to true (from any thread) to cancel; may be null.
    const std::atomic<bool>* cancel = nullptr;
};

/// Runs the steps in order on `world`, after check_pipeline (its refusal is thrown as
/// Pipeline_error before anything runs). Each step is recorded in the World's provenance and
/// the run ends with end_run. All or nothing: when a step throws (Cancelled included), `world`
/// goes back to what it was before the first step and the exception propagates.
void run_pipeline(World& world, const Pipeline& pipeline, const Module_registry& registry,
                  const Pipeline_run_options& options = {});

/// A new World made by running the steps of `provenance` again, each run (steps sharing a run
/// number) as one run_pipeline, on a World() as `orbis-cli generate` starts from. For a world
/// that nobody edited by hand, the result equals it (files byte-identical).
/// `mismatched_seeds`, when given, receives the indices of steps whose generator fingerprint
/// differs from the recorded one (a sign that something else drew numbers in between).
/// \throws Pipeline_error for a module `registry` lacks or refused parameters; what
/// run_pipeline throws.
World replay(const Provenance& provenance, const Module_registry& registry,
             std::vector<std::size_t>* mismatched_seeds = nullptr);

/// Every module of `registry` as JSON: {"format": "orbis-modules", "version": 1, "modules":
/// [{"name", "description", "parameters": [{"name", "type", "default", "min", "max", "unit",
/// "description"}], "reads": [...], "writes": [...]}]}, reads and writes with their default
/// parameters, each {"name", "kind": "mesh"|"typed"|"dict", "value", "element", "required"}.
std::string modules_to_json(const Module_registry& registry);

} // namespace orbis::gen
