// SPDX-License-Identifier: MIT
// A module's parameters, declared once and bound to the fields of a struct: the editor's forms,
// the pipeline JSON, the command line's overrides and the module's own code all read the same
// declaration, so no parameter's name, default or range is written twice.
#pragma once

#include "orbis/core/dict.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace orbis::gen {

/// The type of a parameter's value (stored in a Dict as bool, int64, double or string).
enum class Parameter_kind { boolean, integer, real, string };

/// Name of a kind as parameter dicts and messages spell it: "bool", "int", "double", "string".
std::string_view parameter_kind_name(Parameter_kind kind);

/// One parameter a module takes: name, type, default, inclusive range (numbers), unit and
/// meaning.
struct Parameter {
    std::string name;         ///< key in the params Dict
    Parameter_kind kind;      ///< type of its value
    Dict_value default_value; ///< used when a pipeline leaves it out; inside the range
    double min = 0;           ///< smallest allowed value (integer and real only)
    double max = 0;           ///< largest allowed value (integer and real only)
    std::string unit;         ///< unit of numbers ("km", "m"), empty for none
    std::string description;  ///< one line for `orbis-cli modules` and the editor
};

/// The parameter struct of a module that takes none.
struct No_parameters {};

/// The parameters of a module whose code reads them from a struct P: each one is declared once
/// with the field it binds to; its default is that field's value in a default-constructed P.
/// Precondition: P is default-constructible and copyable.
template <class P>
class Parameter_list {
public:
    /// Declares a bool parameter bound to `field`.
    Parameter_list& add(std::string name, bool P::*field, std::string description) {
        return add_parameter({std::move(name),
                              Parameter_kind::boolean,
                              Dict_value(P{}.*field),
                              0,
                              0,
                              {},
                              std::move(description)},
                             field);
    }
    /// Declares an integer parameter bound to `field`, allowed in [min, max].
    Parameter_list& add(std::string name, std::int64_t P::*field, std::int64_t min,
                        std::int64_t max, std::string unit, std::string description) {
        return add_parameter({std::move(name), Parameter_kind::integer, Dict_value(P{}.*field),
                              double(min), double(max), std::move(unit), std::move(description)},
                             field);
    }
    /// Declares a real parameter bound to `field`, allowed in [min, max] (finite only).
    Parameter_list& add(std::string name, double P::*field, double min, double max,
                        std::string unit, std::string description) {
        return add_parameter({std::move(name), Parameter_kind::real, Dict_value(P{}.*field), min,
                              max, std::move(unit), std::move(description)},
                             field);
    }
    /// Declares a string parameter bound to `field`.
    Parameter_list& add(std::string name, std::string P::*field, std::string description) {
        return add_parameter({std::move(name),
                              Parameter_kind::string,
                              Dict_value(P{}.*field),
                              0,
                              0,
                              {},
                              std::move(description)},
                             field);
    }

    /// The declarations, in the order added.
    const std::vector<Parameter>& parameters() const { return parameters_; }

    /// A P with every declared field read from `complete` (complete_parameters' output: every
    /// parameter present, of its kind); fields not declared keep their defaults.
    /// \throws Dict_error when a parameter is missing or of another kind.
    P bind(const Dict& complete) const {
        P values{};
        for (const auto& store : stores_)
            store(values, complete);
        return values;
    }

    /// The declared fields of `values` as a params Dict (complete, if the values are in range).
    Dict dict(const P& values) const {
        Dict out;
        for (const auto& load : loads_)
            load(values, out);
        return out;
    }

private:
    template <class T>
    Parameter_list& add_parameter(Parameter p, T P::*field) {
        const std::string name = p.name;
        stores_.push_back([name, field](P& values, const Dict& complete) {
            values.*field = complete.at(name).template as<T>();
        });
        loads_.push_back([name, field](const P& values, Dict& out) {
            out.set(name, Dict_value(values.*field));
        });
        parameters_.push_back(std::move(p));
        return *this;
    }

    std::vector<Parameter> parameters_;
    std::vector<std::function<void(P&, const Dict&)>> stores_;
    std::vector<std::function<void(const P&, Dict&)>> loads_;
};

} // namespace orbis::gen
