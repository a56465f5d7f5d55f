// SPDX-License-Identifier: MIT
// Layer statistics in two passes over the live slots of one typed layer: count, range and sum
// first, then the histogram, which needs the range. The value type and element kind are
// resolved once per layer, so the loops call nothing virtual.
#include "orbis/render/layer_stats.hpp"

#include "orbis/core/world.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <thread>

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

// One bit per slot of one kind of element (vertex, face or quad-edge), set for the live ones:
// made once for all the layers of that kind, so that their two passes each read a bit a slot
// instead of the mesh's records (a quad-edge's is 32 bytes).
using Live_mask = std::vector<std::uint64_t>;

enum class Element_kind { vertex, face, quad };

Element_kind kind_of(Layer_type type) {
    if (type == Layer_type::vertex) return Element_kind::vertex;
    if (type == Layer_type::face) return Element_kind::face;
    return Element_kind::quad;
}

template <class Range, class Slot>
Live_mask mask_of(const Range& elements, std::size_t slots, Slot&& slot) {
    Live_mask mask((slots + 63) / 64, 0);
    for (const auto x : elements) {
        const std::uint32_t i = slot(x);
        mask[i >> 6] |= std::uint64_t{1} << (i & 63);
    }
    return mask;
}

Live_mask live_mask(const Mesh& m, Element_kind kind) {
    switch (kind) {
    case Element_kind::vertex:
        return mask_of(m.vertices(), m.vertex_slots(), [](Vertex v) { return v.index(); });
    case Element_kind::face:
        return mask_of(m.faces(), m.face_slots(), [](Face f) { return f.index(); });
    case Element_kind::quad:
        break;
    }
    return mask_of(m.edges(), m.edge_slots() / 2, [](Edge e) { return e.quad_index(); });
}

// Calls f(slot) for the slot of every live element of a layer of kind Type, in slot order,
// from the mask of its kind. O(slots / 64 + live elements).
template <Layer_type Type, class F>
void for_each_live_slot(const Live_mask& mask, F&& f) {
    for (std::size_t w = 0; w < mask.size(); ++w)
        for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
            const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
            if constexpr (is_directed(Type)) {
                // Both directions of a quad-edge: slots 2q and 2q + 1.
                f(2 * i);
                f(2 * i + 1);
            } else {
                f(i);
            }
        }
}

template <class T, Layer_type Type>
void summarise(const Layer<T, Type>& layer, const Mesh& m, const Live_mask& live, int bins,
               Layer_stats& out) {
    if (layer.size() != Layer<T, Type>::slot_count(m))
        throw std::logic_error("layer_stats: layer '" + layer.name() +
                               "' does not match its world's mesh");
    std::size_t count = 0, finite = 0;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0.0;
    for_each_live_slot<Type>(live, [&](std::size_t s) {
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
    for_each_live_slot<Type>(live, [&](std::size_t s) {
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

// The statistics of layer `name`; `live(kind)` gives the live mask of an element kind.
template <class Live>
Layer_stats stats_of(const World& world, std::string_view name, int bins, Live&& live) {
    Layer_stats out;
    out.name = std::string(name);
    if (const Layer_base* base = world.find_layer(name)) {
        out.type = base->type();
        out.value_type = std::string(base->value_name());
        out.version = base->version();
        out.mesh_version = world.mesh_version();
        const Live_mask& mask = live(kind_of(base->type()));
        with_value_type(base->value_tag(), [&]<class T>() {
            with_layer_type(base->type(), [&]<Layer_type Type>() {
                summarise(dynamic_cast<const Layer<T, Type>&>(*base), world.mesh(), mask, bins,
                          out);
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
    Live_mask mask;
    return stats_of(world, name, bins, [&](Element_kind kind) -> const Live_mask& {
        mask = live_mask(world.mesh(), kind);
        return mask;
    });
}

std::vector<Layer_stats> all_layer_stats(const World& world, int bins,
                                         const std::vector<Layer_stats>& previous,
                                         const std::function<bool(std::string_view)>& now) {
    check_bins(bins);
    const std::vector<std::string> names = world.layer_names();
    std::vector<Layer_stats> out(names.size());
    // The layers whose figures must be computed; the others come from `previous`.
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const Layer_base* base = world.find_layer(names[i]);
        const auto same = [&](const Layer_stats& s) {
            return base && !s.is_dict && !s.pending && s.name == names[i] &&
                   s.version == base->version() && s.mesh_version == world.mesh_version() &&
                   s.histogram.size() == (s.finite > 0 ? static_cast<std::size_t>(bins) : 0);
        };
        const auto kept = std::find_if(previous.begin(), previous.end(), same);
        if (kept != previous.end()) {
            out[i] = *kept;
        } else if (base && now && !now(names[i])) {
            out[i].name = names[i];
            out[i].type = base->type();
            out[i].value_type = std::string(base->value_name());
            out[i].pending = true;
        } else {
            todo.push_back(i);
        }
    }
    // Each kind's mask is made once, before the layers are shared out.
    Live_mask masks[3];
    bool needed[3] = {false, false, false};
    std::size_t work = 0;
    for (const std::size_t i : todo)
        if (const Layer_base* base = world.find_layer(names[i])) {
            needed[static_cast<int>(kind_of(base->type()))] = true;
            work += base->size();
        }
    for (int k = 0; k < 3; ++k)
        if (needed[k]) masks[k] = live_mask(world.mesh(), static_cast<Element_kind>(k));
    const auto live = [&](Element_kind kind) -> const Live_mask& {
        return masks[static_cast<int>(kind)];
    };
    // Whole layers on two threads: each layer's sums add in slot order on one thread, so the
    // figures are the same as one thread's.
    std::atomic<std::size_t> next{0};
    const auto run = [&] {
        for (std::size_t k; (k = next.fetch_add(1)) < todo.size();)
            out[todo[k]] = stats_of(world, names[todo[k]], bins, live);
    };
    constexpr std::size_t parallel_from = 1u << 18;
    if (work < parallel_from || todo.size() < 2) {
        run();
        return out;
    }
    std::exception_ptr failed;
    std::thread other([&] {
        try {
            run();
        } catch (...) {
            failed = std::current_exception();
            next = todo.size();
        }
    });
    try {
        run();
    } catch (...) {
        next = todo.size();
        other.join();
        throw;
    }
    other.join();
    if (failed) std::rethrow_exception(failed);
    return out;
}

} // namespace orbis::render
