// SPDX-License-Identifier: MIT
// The values split and collapse give new or merged elements (SPEC "Layers", Interpolation table).
//
// Decisions where SPEC is silent:
// - Which modes a type refuses (why_not): lerp and slerp on bool; slerp on anything but vec3 and
//   dvec3; min_value and max_value on vectors. Everything else is allowed for every type.
// - lerp on integers is allowed: the result is rounded to the nearest integer (halves up, towards
//   the larger value, whichever side is src) and never leaves [min(src, dest), max(src, dest)],
//   so it cannot overflow.
// - dont_care returns src (the cheapest deterministic choice); the World may skip the call.
// - lerp and slerp of equal sides return that value exactly (no rounding drift when split
//   copies a value to both halves).
// - reset_all and remove_layer return the initial value: they act on the whole layer, which is
//   the World's job; for the one element this function sees, "reset" is the honest answer.
// - min_value / max_value on floating types ignore a NaN side (like std::fmin / std::fmax),
//   since a NaN is a missing value rather than a small or large one; on ties src wins.
// - slerp: t = 0 and t = 1 give src and dest exactly; a zero-length side has no direction, so
//   the other side's direction is used (both zero gives zero); directions that coincide (up to
//   rounding) keep that direction; exactly opposite directions (up to rounding) turn through the
//   plane spanned by src and the coordinate axis least aligned with src (x before y before z on
//   ties), i.e. towards normalize(cross(src, axis)). Non-finite inputs give unspecified values.
#pragma once

#include "orbis/core/layer_info.hpp"

#include <glm/geometric.hpp>

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace orbis {

/// The name of an Interpolation mode as it appears in error messages ("lerp", ...).
constexpr std::string_view interpolation_name(Interpolation mode) {
    switch (mode) {
    case Interpolation::dont_care:
        return "dont_care";
    case Interpolation::reset_affected:
        return "reset_affected";
    case Interpolation::reset_all:
        return "reset_all";
    case Interpolation::remove_layer:
        return "remove_layer";
    case Interpolation::keep_src:
        return "keep_src";
    case Interpolation::keep_dest:
        return "keep_dest";
    case Interpolation::lerp:
        return "lerp";
    case Interpolation::slerp:
        return "slerp";
    case Interpolation::min_value:
        return "min_value";
    case Interpolation::max_value:
        return "max_value";
    case Interpolation::min_weight:
        return "min_weight";
    case Interpolation::max_weight:
        return "max_weight";
    }
    return "unknown";
}

/// Why `mode` makes no sense for values of type T, or nullopt when it does.
/// The World refuses a layer whose info has such a mode and shows this message.
template <Layer_value T>
constexpr std::optional<std::string_view> why_not(Interpolation mode) {
    switch (mode) {
    case Interpolation::lerp:
        if constexpr (std::same_as<T, bool>)
            return "lerp needs values in between src and dest, and a bool has none; use "
                   "min_weight, max_weight, keep_src, keep_dest, or min_value / max_value "
                   "(logical and / or)";
        break;
    case Interpolation::slerp:
        if constexpr (!std::same_as<T, glm::vec3> && !std::same_as<T, glm::dvec3>)
            return "slerp turns a direction on the sphere and needs a vec3 or dvec3; use lerp "
                   "for other numbers and vectors";
        break;
    case Interpolation::min_value:
    case Interpolation::max_value:
        if constexpr (Layer_vector<T>)
            return "min_value and max_value compare values, and vectors have no order (a "
                   "per-component result would be a value neither side had); use min_weight, "
                   "max_weight, keep_src, keep_dest or lerp";
        break;
    default:
        break;
    }
    return std::nullopt;
}

/// Whether `mode` makes sense for values of type T (see why_not).
template <Layer_value T>
constexpr bool interpolation_allowed(Interpolation mode) {
    return !why_not<T>(mode).has_value();
}

namespace detail {

template <class T>
T lerp_value(const T& src, const T& dest, float t) {
    if constexpr (std::same_as<T, bool>) {
        return src; // unreachable: refused by why_not, checked by interpolate
    } else if constexpr (std::integral<T>) {
        // Endpoints exact, so no rounding can move a value that did not change.
        if (t <= 0.0f) return src;
        if (t >= 1.0f) return dest;
        // Measure from the lower end with the higher end's weight, so the result does not
        // depend on which side is src. The distance is exact in uint64 (no overflow for any
        // pair of int64 values); only the offset goes through double, and it is clamped to the
        // distance, so the result never leaves [lo, hi].
        const bool ascending = src <= dest;
        const T lo = ascending ? src : dest;
        const T hi = ascending ? dest : src;
        const double w_hi = ascending ? static_cast<double>(t) : 1.0 - static_cast<double>(t);
        const auto distance = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        const double offset = std::round(static_cast<double>(distance) * w_hi);
        if (offset >= static_cast<double>(distance)) return hi;
        return static_cast<T>(static_cast<std::uint64_t>(lo) + static_cast<std::uint64_t>(offset));
    } else {
        using S = Layer_component_t<T>;
        const S w = static_cast<S>(t);
        return src * (S(1) - w) + dest * w;
    }
}

template <class V>
V slerp_direction_fallback(const V& unit) {
    using S = typename V::value_type;
    int axis = 0;
    for (int i = 1; i < 3; ++i)
        if (std::abs(unit[i]) < std::abs(unit[axis])) axis = i;
    V e(S(0));
    e[axis] = S(1);
    return glm::normalize(glm::cross(unit, e));
}

template <class V>
V slerp_value(const V& src, const V& dest, float t) {
    using S = typename V::value_type;
    if (t <= 0.0f) return src;
    if (t >= 1.0f) return dest;
    const S w = static_cast<S>(t);
    const S la = glm::length(src);
    const S lb = glm::length(dest);
    const S len = la * (S(1) - w) + lb * w;
    if (la == S(0) && lb == S(0)) return V(S(0));
    if (la == S(0)) return dest * (len / lb);
    if (lb == S(0)) return src * (len / la);
    const V ua = src / la;
    const V ub = dest / lb;
    const S c = glm::dot(ua, ub);
    // Work with the part of ub orthogonal to ua and atan2 for the angle: unlike acos(dot) it is
    // accurate near 0 and pi, and ua * cos + perp * sin stays on the unit sphere.
    V perp = ub - ua * c;
    const S s = glm::length(perp);
    S angle;
    if (s <= S(64) * std::numeric_limits<S>::epsilon()) {
        if (c > S(0)) return ua * len;
        perp = slerp_direction_fallback(ua);
        angle = std::numbers::pi_v<S>;
    } else {
        // A second Gram-Schmidt pass: near pi the subtraction above cancels, and the leftover
        // component along ua would pull the result off the sphere by up to 1e-5 in float.
        perp -= ua * glm::dot(ua, perp);
        perp = glm::normalize(perp);
        angle = std::atan2(s, c);
    }
    const S a = w * angle;
    return (ua * std::cos(a) + perp * std::sin(a)) * len;
}

template <class T>
T min_value(const T& src, const T& dest) {
    if constexpr (std::floating_point<T>) {
        if (std::isnan(src)) return dest;
        if (std::isnan(dest)) return src;
    }
    return dest < src ? dest : src;
}

template <class T>
T max_value(const T& src, const T& dest) {
    if constexpr (std::floating_point<T>) {
        if (std::isnan(src)) return dest;
        if (std::isnan(dest)) return src;
    }
    return src < dest ? dest : src;
}

} // namespace detail

/// The value for an element created by split or merged by collapse, per SPEC's table.
/// src weighs 1 - t, dest weighs t. Preconditions: 0 <= t <= 1 (the mesh refuses other t);
/// interpolation_allowed<T>(mode), otherwise std::invalid_argument is thrown with why_not's
/// message (the World refuses such layers on creation, so this is a programming error).
template <Layer_value T>
T interpolate(Interpolation mode, const T& src, const T& dest, float t, const T& initial) {
    switch (mode) {
    case Interpolation::dont_care:
        return src;
    case Interpolation::reset_affected:
    case Interpolation::reset_all:
    case Interpolation::remove_layer:
        return initial;
    case Interpolation::keep_src:
        return src;
    case Interpolation::keep_dest:
        return dest;
    case Interpolation::min_weight:
        return t >= 0.5f ? src : dest;
    case Interpolation::max_weight:
        return t >= 0.5f ? dest : src;
    default:
        break;
    }
    if (const auto why = why_not<T>(mode))
        throw std::invalid_argument(std::string("interpolate: ") +
                                    std::string(interpolation_name(mode)) + " on " +
                                    std::string(layer_value_name<T>()) + ": " + std::string(*why));
    // Equal sides give that value exactly: src * (1 - t) + src * t can miss it by an ulp,
    // and split copies values this way (both halves of an edge or face), so repeated splits
    // would drift.
    if ((mode == Interpolation::lerp || mode == Interpolation::slerp) && src == dest) return src;
    switch (mode) {
    case Interpolation::lerp:
        return detail::lerp_value(src, dest, t);
    case Interpolation::slerp:
        if constexpr (std::same_as<T, glm::vec3> || std::same_as<T, glm::dvec3>)
            return detail::slerp_value(src, dest, t);
        break;
    case Interpolation::min_value:
        if constexpr (Layer_scalar<T>) return detail::min_value(src, dest);
        break;
    case Interpolation::max_value:
        if constexpr (Layer_scalar<T>) return detail::max_value(src, dest);
        break;
    default:
        break;
    }
    throw std::invalid_argument("interpolate: unknown Interpolation value");
}

} // namespace orbis
