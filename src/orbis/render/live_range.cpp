// SPDX-License-Identifier: MIT
// The automatic colour range of a layer, per storage chunk. Each chunk's extremes are found in
// slot order and the chunks are combined in chunk order, the order a single pass over the live
// slots takes, so a cached range is bit for bit the one found from scratch (signed zeros
// included).
#include "orbis/render/live_range.hpp"

#include "orbis/render/live_slots.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/world.hpp"
#include "orbis/core/world_delta.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace orbis::render {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

template <class T>
double component(const T& v, int i) {
    if constexpr (Layer_scalar<T>) {
        (void)i;
        return static_cast<double>(v);
    } else {
        return static_cast<double>(v[i]);
    }
}

// The finite extremes of the live slots of chunk c of `layer`; lo > hi when it has none.
template <class T, Layer_type Type>
std::pair<double, double> chunk_range(const Layer<T, Type>& layer, const Mesh& m, std::size_t c) {
    const std::span<const T> values = layer.chunk(c);
    const std::size_t first = c * Chunked_array<T>::chunk_size;
    double lo = infinity;
    double hi = -infinity;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!detail::is_live_slot<Type>(m, first + i)) continue;
        for (int k = 0; k < layer_value_length<T>; ++k) {
            const double x = component(values[i], k);
            if (std::isfinite(x)) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
        }
    }
    return {lo, hi};
}

std::pair<double, double> or_unit(double lo, double hi) {
    return lo <= hi ? std::pair{lo, hi} : std::pair{0.0, 1.0};
}

const Layer_base& find_typed(const World& world, std::string_view name) {
    const Layer_base* base = world.find_layer(name);
    if (!base)
        throw std::invalid_argument("render: there is no typed layer '" + std::string(name) +
                                    "' to find the range of");
    return *base;
}

template <class T, Layer_type Type>
const Layer<T, Type>& checked(const Layer_base& base, const Mesh& m) {
    const auto& layer = static_cast<const Layer<T, Type>&>(base);
    if (layer.size() != Layer<T, Type>::slot_count(m))
        throw std::invalid_argument("render: layer '" + layer.name() +
                                    "' does not match its world's mesh");
    return layer;
}

// Calls f.template operator()<T, Type>() for the value type and kind of `base`.
template <class F>
decltype(auto) with_types(const Layer_base& base, F&& f) {
    return with_value_type(base.value_tag(), [&]<class T>() -> decltype(auto) {
        return with_layer_type(base.type(), [&]<Layer_type Type>() -> decltype(auto) {
            return f.template operator()<T, Type>();
        });
    });
}

} // namespace

std::pair<double, double> live_range(const World& world, std::string_view name) {
    const Layer_base& base = find_typed(world, name);
    const Mesh& m = world.mesh();
    return with_types(base, [&]<class T, Layer_type Type>() {
        const auto& layer = checked<T, Type>(base, m);
        double lo = infinity;
        double hi = -infinity;
        for (std::size_t c = 0; c < layer.chunk_count(); ++c) {
            const auto [a, b] = chunk_range(layer, m, c);
            lo = std::min(lo, a);
            hi = std::max(hi, b);
        }
        return or_unit(lo, hi);
    });
}

std::pair<double, double> Live_range_cache::range(const World& world, std::string_view name,
                                                  const World_delta* delta) {
    const Layer_base& base = find_typed(world, name);
    if (snapshot_ && name_ == name && mesh_version_ == world.mesh_version() &&
        layer_version_ == base.version()) {
        read_ = 0;
        return range_;
    }
    try {
        with_types(base, [&]<class T, Layer_type Type>() { update<T, Type>(world, base, delta); });
    } catch (const std::invalid_argument&) {
        throw; // a refused layer leaves the cache as it was
    } catch (...) {
        clear(); // out of memory halfway: the chunks no longer match the snapshot
        throw;
    }
    return range_;
}

template <class T, auto Type>
void Live_range_cache::update(const World& world, const Layer_base& base,
                              const World_delta* delta) {
    const Mesh& m = world.mesh();
    const auto& layer = checked<T, Type>(base, m);
    const std::size_t count = layer.chunk_count();
    constexpr std::size_t chunk_size = Chunked_array<T>::chunk_size;

    // Which chunks to read: all of them unless the last call's snapshot says otherwise.
    std::vector<char> stale(count, 1);
    const Layer_base* before =
        snapshot_ && name_ == base.name() ? snapshot_->find_layer(name_) : nullptr;
    const bool same_kind =
        before && before->type() == base.type() && before->value_tag() == base.value_tag();
    const bool same_mesh = same_kind && mesh_version_ == world.mesh_version();
    const bool follows =
        same_kind && !same_mesh && delta && delta->from_mesh_version == mesh_version_;
    if (same_mesh || follows) {
        const auto& old = static_cast<const Layer<T, Type>&>(*before);
        const std::size_t known = std::min({count, old.chunk_count(), chunks_.size()});
        for (std::size_t c = 0; c < known; ++c)
            stale[c] = layer.chunk(c).data() != old.chunk(c).data() ||
                       layer.chunk(c).size() != chunks_[c].slots;
    }
    if (follows) {
        // The elements whose life may have changed: their chunks' live slots differ.
        auto mark = [&](std::size_t slot) {
            if (slot / chunk_size < count) stale[slot / chunk_size] = 1;
        };
        if constexpr (Type == Layer_type::vertex) {
            for (const Vertex v : delta->vertices)
                mark(v.index());
        } else if constexpr (Type == Layer_type::face) {
            for (const Face f : delta->faces)
                mark(f.index());
        } else {
            // Both directions of a quad-edge share a chunk (chunk_size is even).
            auto mark_edge = [&](Edge e) {
                mark(is_directed(Type) ? 2 * std::size_t{e.quad_index()}
                                       : std::size_t{e.quad_index()});
            };
            for (const Edge e : delta->edges)
                if (e.valid()) mark_edge(e);
            for (const Vertex v : delta->vertices)
                if (m.contains(v))
                    for (const Edge e : v.edges(m))
                        mark_edge(e);
            for (const Face f : delta->faces)
                if (m.contains(f))
                    for (const Edge e : f.edges(m))
                        mark_edge(e);
        }
    }

    // A snapshot keeps the chunks compared next time alive. A World with a lock open cannot be
    // copied: then the next call reads every chunk.
    std::shared_ptr<const World> snapshot;
    try {
        snapshot = std::make_shared<const World>(world);
    } catch (const Layer_error&) {
    }

    chunks_.resize(count);
    read_ = 0;
    double lo = infinity;
    double hi = -infinity;
    for (std::size_t c = 0; c < count; ++c) {
        Bounds& b = chunks_[c];
        if (stale[c]) {
            std::tie(b.lo, b.hi) = chunk_range(layer, m, c);
            b.slots = layer.chunk(c).size();
            ++read_;
        }
        lo = std::min(lo, b.lo);
        hi = std::max(hi, b.hi);
    }
    range_ = or_unit(lo, hi);
    snapshot_ = std::move(snapshot);
    name_ = base.name();
    mesh_version_ = world.mesh_version();
    layer_version_ = base.version();
}

} // namespace orbis::render
