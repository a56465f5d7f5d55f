// SPDX-License-Identifier: MIT
// The editor's refusals of layers and values, in words a user reads in a status bar.
#include "orbis/edit/layer_values.hpp"

#include <sstream>

namespace orbis::edit {

namespace {

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// Six significant digits: enough to recognise the number typed, short enough for a status bar.
template <class T>
std::string shown(T x) {
    std::ostringstream out;
    out.precision(6);
    out << +x; // +: a number even for a character-sized type
    return out.str();
}

template <class T>
std::optional<std::string> representable(double value, const std::string& name,
                                         std::string_view what) {
    if (!std::isfinite(value)) return std::string(what) + " must be a finite number";
    if constexpr (std::is_same_v<T, bool>) {
        if (value != 0.0 && value != 1.0)
            return "layer " + quoted(name) + " holds bool values; " + std::string(what) +
                   " must be 0 or 1, not " + shown(value);
    } else if constexpr (std::is_integral_v<T>) {
        // 2^digits is one past the largest T and exact as a double (INT64_MAX is not).
        if (value != std::floor(value) ||
            value < static_cast<double>(std::numeric_limits<T>::lowest()) ||
            value >= std::ldexp(1.0, std::numeric_limits<T>::digits))
            return "layer " + quoted(name) + " holds " + std::string(layer_value_name<T>()) +
                   " values; " + std::string(what) + ", " + shown(value) + ", is not a " +
                   std::string(layer_value_name<T>());
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> check_scalar_layer(const World& world, const std::string& name,
                                              std::string_view use) {
    if (name.empty()) return "no layer is chosen";
    const Layer_base* base = world.find_layer(name);
    if (!base) {
        if (world.layer(std::string_view(name)))
            return "layer " + quoted(name) + " is a Dict layer; " + std::string(use);
        return "there is no layer " + quoted(name);
    }
    if (is_edge_layer(base->type()))
        return "layer " + quoted(name) + " is an edge layer (" +
               std::string(layer_type_name(base->type())) + "); " + std::string(use);
    if (!with_scalar_layer(*base, [](const auto&) {}))
        return "layer " + quoted(name) + " holds " + std::string(base->value_name()) + " values; " +
               std::string(use);
    return std::nullopt;
}

std::optional<std::string> check_representable(const Layer_base& layer, double value,
                                               std::string_view what) {
    return with_value_type(layer.value_tag(), [&]<class T>() -> std::optional<std::string> {
        if constexpr (Layer_scalar<T>)
            return representable<T>(value, layer.name(), what);
        else
            return "layer " + quoted(layer.name()) + " does not hold numbers";
    });
}

std::optional<std::string> check_in_range(const Layer_base& layer, double value,
                                          std::string_view what) {
    if (auto why = check_representable(layer, value, what)) return why;
    std::optional<std::string> why;
    const bool scalar = with_scalar_layer(layer, [&](const auto& typed) {
        using T = typename std::decay_t<decltype(typed)>::value_type;
        const auto& info = typed.info();
        if constexpr (std::is_same_v<T, float>) {
            if (std::abs(value) > double(std::numeric_limits<float>::max())) {
                why = std::string(what) + ", " + shown(value) + ", is too large for the float " +
                      "layer " + quoted(layer.name());
                return;
            }
        }
        if (!info.in_range(static_cast<T>(value)))
            why = std::string(what) + ", " + shown(value) + ", is outside the range [" +
                  shown(info.min_value()) + ", " + shown(info.max_value()) + "] of layer " +
                  quoted(layer.name());
    });
    if (!scalar) return "layer " + quoted(layer.name()) + " is not a scalar vertex or face layer";
    return why;
}

} // namespace orbis::edit
