// SPDX-License-Identifier: MIT
// Which layers the editor writes numbers into (scalar vertex and face layers) and which numbers
// they take: the checks brushes and selection operations refuse with, and the conversion of a
// computed double into a layer's value.
#pragma once

#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace orbis::edit {

/// Why layer `name` of `world` is not a scalar vertex or face layer, in words for a status bar,
/// or nothing when it is. `use` ends the reason, saying what the caller does with such layers
/// ("brushes paint scalar vertex and face layers"). Refused: an empty name, no such layer, a Dict
/// layer, an edge layer, a layer of vectors. O(log layers).
std::optional<std::string> check_scalar_layer(const World& world, const std::string& name,
                                              std::string_view use);

/// Calls f(layer) with the typed layer when `base` is a scalar vertex or face layer (f must
/// accept every Layer<T, vertex / face> of a scalar T); false, without calling f, otherwise.
template <class F>
bool with_scalar_layer(const Layer_base& base, F&& f) {
    return with_value_type(base.value_tag(), [&]<class T>() {
        if constexpr (Layer_scalar<T>) {
            if (base.type() == Layer_type::vertex) {
                f(static_cast<const Layer<T, Layer_type::vertex>&>(base));
                return true;
            }
            if (base.type() == Layer_type::face) {
                f(static_cast<const Layer<T, Layer_type::face>&>(base));
                return true;
            }
        }
        return false;
    });
}

/// Why `value` cannot be stored exactly in `layer` (a scalar layer), or nothing: not finite; for
/// a bool layer, neither 0 nor 1; for an integer layer, not a whole number of its type. Floating
/// layers take any finite value here (check_in_range also asks for their range). `what` names
/// the value in the reason ("the value to set").
std::optional<std::string> check_representable(const Layer_base& layer, double value,
                                               std::string_view what);

/// Why `value` cannot be written to `layer` (a scalar layer) unchanged, or nothing:
/// check_representable's reasons, a float beyond the largest float, or a value outside the
/// layer's [min, max] (whether or not the layer validates). `what` as in check_representable.
std::optional<std::string> check_in_range(const Layer_base& layer, double value,
                                          std::string_view what);

/// The values a layer of T may hold: [lo, hi].
template <class T>
struct Value_bounds {
    /// Smallest value.
    T lo;
    /// Largest value.
    T hi;
};

/// The layer's own range, its Layer_info min and max.
template <class T, Layer_type Type>
Value_bounds<T> layer_bounds(const Layer_info<T, Type>& info) {
    return {info.min_value(), info.max_value()};
}

/// `b` with floating bounds held finite (an infinite or NaN bound becomes the type's limit), for
/// writers that must never produce an infinity; integer bounds unchanged.
template <class T>
Value_bounds<T> finite_bounds(Value_bounds<T> b) {
    using Lim = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>) {
        b.lo = std::isnan(b.lo) ? Lim::lowest() : std::max(b.lo, Lim::lowest());
        b.hi = std::isnan(b.hi) ? Lim::max() : std::min(b.hi, Lim::max());
    }
    return b;
}

/// `r` (not NaN) as a T within `b`: bool is r >= 0.5, integers round to nearest, then the value
/// is clamped to `b`; `clamped` is set when r lay outside (it is never cleared).
template <class T>
T to_layer_value(double r, const Value_bounds<T>& b, bool& clamped) {
    if constexpr (std::is_same_v<T, bool>) {
        return r >= 0.5;
    } else {
        if constexpr (std::is_integral_v<T>) r = std::round(r);
        const double lo = static_cast<double>(b.lo);
        const double hi = static_cast<double>(b.hi);
        if (r < lo) {
            clamped = true;
            return b.lo;
        }
        // `>=`: a bound like INT64_MAX rounds up as a double, so `hi` itself may not fit in T.
        if (r >= hi) {
            if (r > hi) clamped = true;
            return b.hi;
        }
        return static_cast<T>(r);
    }
}

} // namespace orbis::edit
