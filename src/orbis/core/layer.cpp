// SPDX-License-Identifier: MIT
#include "orbis/core/layer.hpp"

#include <atomic>

namespace orbis {

std::uint64_t next_version() noexcept {
    static std::atomic<std::uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

std::string Layer_base::element_name(std::size_t slot) const {
    const auto i = static_cast<std::uint32_t>(slot);
    switch (type_) {
    case Layer_type::vertex:
        return to_string(Vertex{i});
    case Layer_type::face:
        return to_string(Face{i});
    case Layer_type::edge_primal:
        return to_string(Edge{2 * i});
    case Layer_type::edge_primal_directed:
        return to_string(Edge{i});
    case Layer_type::edge_dual:
        return to_string(Edge{2 * i}.rot());
    case Layer_type::edge_dual_directed:
        return to_string(Edge{i}.rot());
    }
    return "?";
}

std::string Layer_base::describe() const {
    return "layer '" + name_ + "' (" + std::string(value_name()) + ", " +
           std::string(layer_type_name(type_)) + ")";
}

#define ORBIS_LAYER(T, Type) template class Layer<T, Type>;
ORBIS_FOR_EACH_LAYER(ORBIS_LAYER)
#undef ORBIS_LAYER

} // namespace orbis
