// SPDX-License-Identifier: MIT
// The slots of a layer's live elements, for code that walks layers of any kind.
#pragma once

#include "orbis/core/layer.hpp"
#include "orbis/core/mesh.hpp"

#include <cstddef>
#include <cstdint>

namespace orbis::render::detail {

/// Calls f(slot) for the slot of every live element of a layer of kind Type. O(elements).
template <Layer_type Type, class F>
void for_each_live_slot(const Mesh& m, F&& f) {
    if constexpr (Type == Layer_type::vertex) {
        for (const Vertex v : m.vertices())
            f(std::size_t{v.index()});
    } else if constexpr (Type == Layer_type::face) {
        for (const Face x : m.faces())
            f(std::size_t{x.index()});
    } else if constexpr (is_directed(Type)) {
        // Both directions of each quad-edge; directed primal and dual slots are numbered alike.
        for (const Edge e : m.edges()) {
            f(std::size_t{e.index()});
            f(std::size_t{e.sym().index()});
        }
    } else {
        for (const Edge e : m.edges())
            f(std::size_t{e.quad_index()});
    }
}

/// Whether slot `s` of a layer of kind Type belongs to a live element of `m`.
template <Layer_type Type>
bool is_live_slot(const Mesh& m, std::size_t s) {
    const auto i = static_cast<std::uint32_t>(s);
    if constexpr (Type == Layer_type::vertex)
        return m.contains(Vertex(i));
    else if constexpr (Type == Layer_type::face)
        return m.contains(Face(i));
    else if constexpr (is_directed(Type))
        return m.contains(Edge(i));
    else
        return m.contains(Edge(2 * i));
}

} // namespace orbis::render::detail
