// SPDX-License-Identifier: MIT
#include "orbis/gen/module.hpp"

#include "orbis/core/provenance.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace orbis::gen {

namespace {

std::string number_text(double v) {
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

std::string range_text(const Parameter& p) {
    return "[" + number_text(p.min) + ", " + number_text(p.max) + "]";
}

std::string where(const Module& module, const Parameter& p) {
    return "module '" + std::string(module.name()) + "', parameter '" + p.name + "'";
}

// Edits (insert, delete, substitute, swap two neighbours) that turn a into b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

const Parameter* find_parameter(const std::vector<Parameter>& parameters, std::string_view name) {
    for (const auto& p : parameters)
        if (p.name == name) return &p;
    return nullptr;
}

// The value in the parameter's own type, or a Pipeline_error saying what was wrong.
Dict_value checked_value(const Module& module, const Parameter& p, const Dict_value& v) {
    const auto wrong_type = [&] {
        return Pipeline_error(where(module, p) + ": expected " +
                              std::string(parameter_kind_name(p.kind)) + ", got " +
                              std::string(v.kind_name()));
    };
    switch (p.kind) {
    case Parameter_kind::boolean:
        if (!v.is<bool>()) throw wrong_type();
        return v;
    case Parameter_kind::string:
        if (!v.is<std::string>()) throw wrong_type();
        return v;
    case Parameter_kind::integer: {
        if (!v.is<std::int64_t>()) throw wrong_type();
        const auto i = v.as<std::int64_t>();
        if (double(i) < p.min || double(i) > p.max)
            throw Pipeline_error(where(module, p) + ": " + std::to_string(i) +
                                 " is outside the allowed range " + range_text(p));
        return v;
    }
    case Parameter_kind::real: {
        double d = 0;
        if (v.is<double>())
            d = v.as<double>();
        else if (v.is<std::int64_t>())
            d = double(v.as<std::int64_t>());
        else
            throw wrong_type();
        if (!std::isfinite(d) || d < p.min || d > p.max)
            throw Pipeline_error(where(module, p) + ": " + number_text(d) +
                                 " is outside the allowed range " + range_text(p));
        return Dict_value(d);
    }
    }
    throw wrong_type();
}

} // namespace

Cancelled::Cancelled(std::string_view module)
    : std::runtime_error("module '" + std::string(module) + "' was cancelled") {}

std::string_view parameter_kind_name(Parameter_kind kind) {
    switch (kind) {
    case Parameter_kind::boolean:
        return "bool";
    case Parameter_kind::integer:
        return "int";
    case Parameter_kind::real:
        return "double";
    case Parameter_kind::string:
        return "string";
    }
    return "?";
}

void Progress::report(std::string_view module, double fraction) const {
    if (callback_) callback_(fraction < 0 ? 0 : fraction > 1 ? 1 : fraction);
    if (cancelled()) throw Cancelled(module);
}

Dict parameters_dict(const Module& module) {
    Dict out;
    for (const auto& p : module.parameters()) {
        Dict d;
        d.set("type", std::string(parameter_kind_name(p.kind)));
        d.set("default", p.default_value);
        if (p.kind == Parameter_kind::integer || p.kind == Parameter_kind::real) {
            d.set("min", p.min);
            d.set("max", p.max);
        }
        d.set("description", p.description);
        out.set(p.name, std::move(d));
    }
    return out;
}

Dict complete_parameters(const Module& module, const Dict& given) {
    const auto parameters = module.parameters();
    for (const auto& entry : given.entries()) {
        if (find_parameter(parameters, entry.key)) continue;
        const std::string nearest = nearest_name(entry.key, [&] {
            std::vector<std::string> names;
            for (const auto& p : parameters)
                names.push_back(p.name);
            return names;
        }());
        std::string known;
        for (const auto& p : parameters)
            known += (known.empty() ? "" : ", ") + p.name;
        throw Pipeline_error("module '" + std::string(module.name()) + "': unknown parameter '" +
                             entry.key + "'" +
                             (nearest.empty() ? "" : "; did you mean '" + nearest + "'?") +
                             " (known: " + (known.empty() ? "none" : known) + ")");
    }
    Dict out;
    for (const auto& p : parameters) {
        const Dict_value* v = given.find(p.name);
        out.set(p.name, checked_value(module, p, v ? *v : p.default_value));
    }
    return out;
}

std::string nearest_name(std::string_view name, const std::vector<std::string>& names) {
    std::string best;
    std::size_t best_distance = 0;
    for (const auto& n : names) {
        const std::size_t d = edit_distance(name, n);
        if (best.empty() || d < best_distance) {
            best = n;
            best_distance = d;
        }
    }
    // Close means at most a third of the name wrong (at least one edit allowed).
    return best_distance <= std::max<std::size_t>(1, name.size() / 3) ? best : std::string();
}

std::optional<std::string> check_module_inputs(const World& world, const Module& module,
                                               const Dict& params) {
    for (const auto& use : module.layers(params).reads) {
        if (!use.required) continue;
        const auto why = [&](const std::string& what) {
            return "module '" + std::string(module.name()) + "' reads " + use.describe() + ", " +
                   what;
        };
        switch (use.kind) {
        case Layer_use_kind::mesh:
            if (world.mesh().face_count() == 0)
                return why("but the World has no mesh yet (run 'sphere' first)");
            break;
        case Layer_use_kind::dict:
            if (!world.version_of(use.name) || world.find_layer(use.name))
                return why("which the World does not have");
            break;
        case Layer_use_kind::typed: {
            const Layer_base* layer = world.find_layer(use.name);
            if (!layer) return why("which the World does not have");
            if (layer->value_tag() != use.value || layer->type() != use.type)
                return why("but the World's layer '" + use.name + "' is " +
                           std::string(layer->value_name()) + ", " +
                           std::string(layer_type_name(layer->type())));
            break;
        }
        }
    }
    return std::nullopt;
}

std::uint64_t random_fingerprint(const World& world) {
    std::mt19937_64 copy = world.random();
    return copy();
}

std::uint32_t next_run(const World& world) {
    const auto& steps = world.provenance().steps;
    return steps.empty() ? 1 : steps.back().run + 1;
}

void record_step(World& world, const Module& module, const Dict& params, std::uint64_t seed,
                 std::uint32_t run) {
    const Layer_uses uses = module.layers(params);
    Provenance provenance = world.provenance();
    Step_record step;
    step.module = std::string(module.name());
    step.params = params;
    step.seed = seed;
    step.run = run;
    for (const auto& w : uses.writes) {
        if (std::find(step.writes.begin(), step.writes.end(), w.name) == step.writes.end())
            step.writes.push_back(w.name);
        step.edits_mesh = step.edits_mesh || w.kind == Layer_use_kind::mesh;
    }
    for (const auto& r : uses.reads) {
        // A layer the step itself writes is its output, not an input that can go stale.
        if (std::find(step.writes.begin(), step.writes.end(), r.name) != step.writes.end())
            continue;
        if (const auto version = input_version(world, r.name))
            step.reads.push_back({r.name, *version});
    }
    for (auto& earlier : provenance.steps)
        std::erase_if(earlier.writes, [&](const std::string& layer) {
            return std::find(step.writes.begin(), step.writes.end(), layer) != step.writes.end();
        });
    provenance.steps.push_back(std::move(step));
    world.set_provenance(std::move(provenance));
}

void end_run(World& world, std::size_t count) {
    Provenance provenance = world.provenance();
    const std::size_t n = provenance.steps.size();
    for (std::size_t s = n - std::min(count, n); s < n; ++s)
        for (auto& input : provenance.steps[s].reads)
            if (const auto version = input_version(world, input.layer)) input.version = *version;
    world.set_provenance(std::move(provenance));
}

// Declared hints go on before the run, so that the module may refine them (plate names).
void apply_hints(World& world, const Module& module, const Dict& params) {
    for (const auto& w : module.layers(params).writes)
        if (w.kind != Layer_use_kind::mesh && !w.hints.empty()) world.set_hints(w.name, w.hints);
}

Dict run_module(World& world, const Module& module, const Dict& params, const Progress& progress) {
    const Dict complete = complete_parameters(module, params);
    if (const auto why = check_module_inputs(world, module, complete)) throw Pipeline_error(*why);
    World before = world;
    try {
        const std::uint64_t seed = random_fingerprint(world);
        apply_hints(world, module, complete);
        Dict report = module.run(world, complete, progress);
        record_step(world, module, complete, seed, next_run(world));
        return report;
    } catch (const std::exception&) {
        world = std::move(before);
        throw;
    } catch (...) {
        world = std::move(before);
        throw std::runtime_error("module '" + std::string(module.name()) +
                                 "' failed with an exception that is not a std::exception");
    }
}

Layer_use Layer_use::mesh() {
    Layer_use u;
    u.kind = Layer_use_kind::mesh;
    u.name = std::string(mesh_input);
    return u;
}

Layer_use Layer_use::dict(std::string name) {
    Layer_use u;
    u.kind = Layer_use_kind::dict;
    u.name = std::move(name);
    return u;
}

Layer_use Layer_use::optional() const {
    Layer_use u = *this;
    u.required = false;
    return u;
}

Layer_use Layer_use::with_hints(Layer_hints h) const {
    Layer_use u = *this;
    u.hints = std::move(h);
    return u;
}

std::string Layer_use::describe() const {
    switch (kind) {
    case Layer_use_kind::mesh:
        return "the mesh";
    case Layer_use_kind::dict:
        return "Dict layer '" + name + "'";
    case Layer_use_kind::typed:
        break;
    }
    const std::string_view value_name =
        with_value_type(value, []<class T>() { return layer_value_name<T>(); });
    return "layer '" + name + "' (" + std::string(value_name) + ", " +
           std::string(layer_type_name(type)) + ")";
}

bool Layer_use::same_layer(const Layer_use& other) const {
    if (kind != other.kind || name != other.name) return false;
    return kind != Layer_use_kind::typed || (value == other.value && type == other.type);
}

} // namespace orbis::gen
