// SPDX-License-Identifier: MIT
// A generation module: one step of world generation that talks to the others only through the
// World's mesh and layers (seed 003), with declared parameters, progress and cancellation.
#pragma once

#include "orbis/core/dict.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/layer_use.hpp"
#include "orbis/gen/parameter_list.hpp"

#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace orbis::gen {

/// Parameters or a pipeline were refused before anything ran; the message names the module,
/// the parameter and what is allowed.
class Pipeline_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A module stopped because its run was cancelled; the World it ran on is unchanged.
class Cancelled : public std::runtime_error {
public:
    /// Cancellation of `module`.
    explicit Cancelled(std::string_view module);
};

/// Where a running module reports how far it is and learns that it should stop.
class Progress {
public:
    /// Called with the module's fraction done, in [0, 1].
    using Callback = std::function<void(double fraction)>;

    /// Reports nowhere and never cancels.
    Progress() = default;
    /// Reports to `callback` (may be empty) and cancels when `*cancel` becomes true (may be
    /// null). `cancel` must outlive the Progress.
    Progress(Callback callback, const std::atomic<bool>* cancel)
        : callback_(std::move(callback))
        , cancel_(cancel) {}

    /// Reports `fraction` done. \throws Cancelled naming `module` when cancellation was asked
    /// for; modules call it between steps whose partial results may be thrown away.
    void report(std::string_view module, double fraction) const;
    /// True when cancellation was asked for.
    bool cancelled() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }

private:
    Callback callback_;
    const std::atomic<bool>* cancel_ = nullptr;
};

/// One step of world generation. A module reads and writes the World only through its mesh,
/// layers and random generator, so modules can be combined in any order that provides the
/// layers each one reads. Implementations are stateless: run() is const. Most modules derive
/// from Module_of<P>, which binds the parameters to a struct.
class Module {
public:
    virtual ~Module() = default;

    /// Unique name, as pipelines and the command line spell it.
    virtual std::string_view name() const = 0;
    /// One sentence on what it does.
    virtual std::string_view description() const = 0;
    /// The parameters it takes, in the order `orbis-cli modules` lists them.
    virtual std::vector<Parameter> parameters() const = 0;
    /// What it reads and writes when run with `params` (complete and checked; a layer a module
    /// reads may be a parameter).
    virtual Layer_uses layers(const Dict& params) const = 0;
    /// Runs on `world` with `params` complete and checked (see complete_parameters). Returns
    /// a report of what it did (counts, e.g. {"flips": 12}). May throw Cancelled (through
    /// progress.report) or std::runtime_error; run_module then restores the World.
    virtual Dict run(World& world, const Dict& params, const Progress& progress) const = 0;
};

/// A Module whose parameters are the declared fields of a struct P (see Parameter_list): it
/// implements parameters(), layers() and run() from parameter_list(), layers_for() and run_with().
template <class P>
class Module_of : public Module {
public:
    /// The parameter struct.
    using Params = P;

    /// The declarations parameter_list() gives.
    std::vector<Parameter> parameters() const final { return parameter_list().parameters(); }
    /// layers_for the bound parameters.
    Layer_uses layers(const Dict& params) const final {
        return layers_for(parameter_list().bind(params));
    }
    /// run_with the bound parameters.
    Dict run(World& world, const Dict& params, const Progress& progress) const final {
        return run_with(world, parameter_list().bind(params), progress);
    }

    /// The parameters, each bound to its field of P; built once per module.
    virtual const Parameter_list<P>& parameter_list() const = 0;
    /// What the module reads and writes with `params`.
    virtual Layer_uses layers_for(const P& params) const = 0;
    /// Runs with `params` (in range); as Module::run.
    virtual Dict run_with(World& world, const P& params, const Progress& progress) const = 0;
};

/// The module's parameters as a Dict: {name: {type, default, min, max, description}}, with
/// min and max only for numbers.
Dict parameters_dict(const Module& module);

/// `given` with every missing parameter set to its default and integers given for real
/// parameters turned into doubles. \throws Pipeline_error naming the module and parameter for
/// an unknown parameter (with the nearest known name when one is close), a value of the wrong
/// type, or a number outside its range (message gives the range).
Dict complete_parameters(const Module& module, const Dict& given);

/// Of `names`, the one nearest to `name` (fewest edits), when at most a third of it differs;
/// empty otherwise. For "did you mean" in messages.
std::string nearest_name(std::string_view name, const std::vector<std::string>& names);

/// Sets on `world` the display hints that `module` declares for the layers it writes with
/// `params`; run_module calls it before the run, so that the module may refine them.
void apply_hints(World& world, const Module& module, const Dict& params);

/// Why `module` cannot run on `world` with `params` (complete): the first required input it
/// declares that the World lacks or holds with another type; nothing when it can.
std::optional<std::string> check_module_inputs(const World& world, const Module& module,
                                               const Dict& params);

/// Runs `module` on `world` with complete_parameters(module, params) and returns its report.
/// Before it runs, check_module_inputs must pass (else Pipeline_error). After it, the World's
/// provenance records the step (see record_step) and the hints of the layers it declares
/// writing are set. When the module throws (cancellation included), the World goes back to
/// what it was before the run and the exception propagates; so does a foreign exception (a
/// plugin's), as std::runtime_error naming the module. Cost: the module's, plus an
/// O(layers) snapshot.
Dict run_module(World& world, const Module& module, const Dict& params,
                const Progress& progress = {});

/// Records in `world`'s provenance that `module` ran with `params` (complete) on it as the
/// step that just ended, in run number `run` (see next_run), `seed` being the generator
/// fingerprint from before it (see random_fingerprint). Steps that owned a layer it writes lose it.
/// run_module and run_pipeline call it; a module that is run some other way may too.
void record_step(World& world, const Module& module, const Dict& params, std::uint64_t seed,
                 std::uint32_t run);

/// The run number for the next run on `world`: one more than its last step's.
std::uint32_t next_run(const World& world);

/// Ends a run of several steps, the last `count` of `world`'s provenance: each takes the
/// current versions of its inputs. A pipeline is consistent as its author ordered it: layers
/// carried through a later step's mesh edit (refine's) by their interpolation rules, or
/// classified again by a later step (plate_boundaries), are not stale.
void end_run(World& world, std::size_t count);

/// A fingerprint of `world`'s random generator state: the next number it would draw.
std::uint64_t random_fingerprint(const World& world);

} // namespace orbis::gen
