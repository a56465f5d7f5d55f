// SPDX-License-Identifier: MIT
// Layer statistics in two passes over the live slots of one typed layer: count, range and sum
// first, then the histogram, which needs the range. The value type and element kind are
// resolved once per layer, so the loops call nothing virtual.
#include "orbis/render/layer_stats.hpp"

#include "orbis/render/live_slots.hpp"

#include "orbis/core/world.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace orbis::render {

namespace {

// The length of a vector whose squared components overflowed: scaled by its largest component
// first. Infinite only when a component is.
template <class T>
double scaled_length(const T& v) {
    double largest = 0.0;
    for (int i = 0; i < layer_value_length<T>; ++i)
        largest = std::max(largest, std::abs(static_cast<double>(v[i])));
    if (!std::isfinite(largest) || largest == 0.0) return largest;
    double sum = 0.0;
    for (int i = 0; i < layer_value_length<T>; ++i) {
        const double c = static_cast<double>(v[i]) / largest;
        sum += c * c;
    }
    return largest * std::sqrt(sum);
}

// What a value contributes to the statistics: a scalar itself, a vector its length.
template <class T>
double quantity(const T& v) {
    if constexpr (Layer_scalar<T>) {
        return static_cast<double>(v);
    } else {
        double sum = 0.0;
        for (int i = 0; i < layer_value_length<T>; ++i) {
            const double c = static_cast<double>(v[i]);
            sum += c * c;
        }
        const double length = std::sqrt(sum);
        // Only double vectors can overflow here (a float squared stays far below 1e308).
        return std::isinf(length) ? scaled_length(v) : length;
    }
}

template <class T, Layer_type Type>
void summarise(const Layer<T, Type>& layer, const Mesh& m, int bins, Layer_stats& out) {
    if (layer.size() != Layer<T, Type>::slot_count(m))
        throw std::logic_error("layer_stats: layer '" + layer.name() +
                               "' does not match its world's mesh");
    std::size_t count = 0, finite = 0;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0.0;
    detail::for_each_live_slot<Type>(m, [&](std::size_t s) {
        ++count;
        const double x = quantity(layer.at_slot(s));
        if (!std::isfinite(x)) return;
        ++finite;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
    });
    out.count = count;
    out.finite = finite;
    if (finite == 0) return;
    out.min = lo;
    out.max = hi;

    out.histogram.assign(static_cast<std::size_t>(bins), 0);
    if (lo == hi) {
        out.histogram[0] = finite;
        out.mean = lo;
        return;
    }
    const double n = static_cast<double>(finite);
    // A sum past the largest double (values near 1e308) is redone as a sum of x / n.
    const bool resum = !std::isfinite(sum);
    // Halved values when the range itself is wider than the largest double.
    const bool halve = !std::isfinite(hi - lo);
    const double base = halve ? lo * 0.5 : lo;
    const double width = halve ? hi * 0.5 - lo * 0.5 : hi - lo;
    const std::size_t last = out.histogram.size() - 1;
    double fraction_sum = 0.0;
    detail::for_each_live_slot<Type>(m, [&](std::size_t s) {
        const double x = quantity(layer.at_slot(s));
        if (!std::isfinite(x)) return;
        if (resum) fraction_sum += x / n;
        // x >= lo, so the difference is never negative; max lands on `bins`, clamped to the
        // last bin.
        const double t = ((halve ? x * 0.5 : x) - base) / width * bins;
        ++out.histogram[std::min(static_cast<std::size_t>(t), last)];
    });
    // Rounding can put the mean a unit in the last place outside the range.
    out.mean = std::clamp(resum ? fraction_sum : sum / n, lo, hi);
}

Layer_stats stats_of(const World& world, std::string_view name, int bins) {
    Layer_stats out;
    out.name = std::string(name);
    if (const Layer_base* base = world.find_layer(name)) {
        out.type = base->type();
        out.value_type = std::string(base->value_name());
        with_value_type(base->value_tag(), [&]<class T>() {
            with_layer_type(base->type(), [&]<Layer_type Type>() {
                summarise(dynamic_cast<const Layer<T, Type>&>(*base), world.mesh(), bins, out);
            });
        });
        return out;
    }
    if (const Dict* dict = world.layer(name)) {
        out.is_dict = true;
        out.value_type = "dict";
        out.count = dict->size();
        return out;
    }
    throw std::invalid_argument("layer_stats: no layer '" + out.name + "'");
}

void check_bins(int bins) {
    if (bins < 1)
        throw std::invalid_argument("layer_stats: " + std::to_string(bins) +
                                    " histogram bins; at least 1 is needed");
}

} // namespace

Layer_stats layer_stats(const World& world, std::string_view name, int bins) {
    check_bins(bins);
    return stats_of(world, name, bins);
}

std::vector<Layer_stats> all_layer_stats(const World& world, int bins) {
    check_bins(bins);
    std::vector<Layer_stats> out;
    for (const std::string& name : world.layer_names())
        out.push_back(stats_of(world, name, bins));
    return out;
}

} // namespace orbis::render
