// SPDX-License-Identifier: MIT
#include "orbis/gen/module.hpp"

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
        std::string known;
        for (const auto& p : parameters)
            known += (known.empty() ? "" : ", ") + p.name;
        throw Pipeline_error("module '" + std::string(module.name()) + "': unknown parameter '" +
                             entry.key + "' (known: " + (known.empty() ? "none" : known) + ")");
    }
    Dict out;
    for (const auto& p : parameters) {
        const Dict_value* v = given.find(p.name);
        out.set(p.name, checked_value(module, p, v ? *v : p.default_value));
    }
    return out;
}

Dict run_module(World& world, const Module& module, const Dict& params, const Progress& progress) {
    const Dict complete = complete_parameters(module, params);
    World before = world;
    try {
        return module.run(world, complete, progress);
    } catch (...) {
        world = std::move(before);
        throw;
    }
}

} // namespace orbis::gen
