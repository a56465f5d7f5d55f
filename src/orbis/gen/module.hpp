// SPDX-License-Identifier: MIT
// A generation module: one step of world generation that talks to the others only through the
// World's mesh and layers (seed 003), with declared parameters, progress and cancellation.
#pragma once

#include "orbis/core/dict.hpp"
#include "orbis/core/world.hpp"

#include <atomic>
#include <functional>
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

/// The type of a parameter's value (stored in a Dict as bool, int64, double or string).
enum class Parameter_kind { boolean, integer, real, string };

/// Name of a kind as parameter dicts and messages spell it: "bool", "int", "double", "string".
std::string_view parameter_kind_name(Parameter_kind kind);

/// One parameter a module takes: name, type, default, inclusive range (numbers) and meaning.
struct Parameter {
    std::string name;         ///< key in the params Dict
    Parameter_kind kind;      ///< type of its value
    Dict_value default_value; ///< used when a pipeline leaves it out; inside the range
    double min = 0;           ///< smallest allowed value (integer and real only)
    double max = 0;           ///< largest allowed value (integer and real only)
    std::string description;  ///< one line for `orbis-cli modules` and the editor
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
/// layers each one reads. Implementations are stateless: run() is const.
class Module {
public:
    virtual ~Module() = default;

    /// Unique name, as pipelines and the command line spell it.
    virtual std::string_view name() const = 0;
    /// One sentence on what it does, the layers it reads and those it writes.
    virtual std::string_view description() const = 0;
    /// The parameters it takes, in the order `orbis-cli modules` lists them.
    virtual std::vector<Parameter> parameters() const = 0;
    /// Runs on `world` with `params` complete and checked (see complete_parameters). Returns
    /// a report of what it did (counts, e.g. {"flips": 12}). May throw Cancelled (through
    /// progress.report) or std::runtime_error; run_module then restores the World.
    virtual Dict run(World& world, const Dict& params, const Progress& progress) const = 0;
};

/// The module's parameters as a Dict: {name: {type, default, min, max, description}}, with
/// min and max only for numbers.
Dict parameters_dict(const Module& module);

/// `given` with every missing parameter set to its default and integers given for real
/// parameters turned into doubles. \throws Pipeline_error naming the module and parameter for
/// an unknown parameter, a value of the wrong type, or a number outside its range (message
/// gives the range).
Dict complete_parameters(const Module& module, const Dict& given);

/// Runs `module` on `world` with complete_parameters(module, params) and returns its report.
/// When the module throws (cancellation included), the World goes back to what it was before
/// the run and the exception propagates. Cost: the module's, plus an O(layers) snapshot.
Dict run_module(World& world, const Module& module, const Dict& params,
                const Progress& progress = {});

} // namespace orbis::gen
