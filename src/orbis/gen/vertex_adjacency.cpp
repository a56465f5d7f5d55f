// SPDX-License-Identifier: MIT
#include "orbis/gen/vertex_adjacency.hpp"

namespace orbis::gen {

namespace {

Vertex_adjacency ring_adjacency(const Mesh& m) {
    const std::uint32_t slots = m.vertex_slots();
    Vertex_adjacency a;
    a.first.assign(std::size_t{slots} + 1, 0);
    a.next.reserve(2 * m.edge_count());
    for (std::uint32_t i = 0; i < slots; ++i) {
        a.first[i] = static_cast<std::uint32_t>(a.next.size());
        if (!m.contains(Vertex{i})) continue;
        for (const Vertex n : Vertex{i}.neighbors(m))
            a.next.push_back(n.index());
    }
    a.first[slots] = static_cast<std::uint32_t>(a.next.size());
    return a;
}

// Two passes over the quad-edges in slot order, which read the mesh sequentially (walking each
// vertex's ring instead costs three times as much): the first counts neighbours into first[v],
// the second fills each row backwards so that first[v] ends at its start.
Vertex_adjacency edge_scan_adjacency(const Mesh& m) {
    const std::uint32_t slots = m.vertex_slots();
    Vertex_adjacency a;
    a.first.assign(std::size_t{slots} + 1, 0);
    for (const Edge e : m.edges()) {
        ++a.first[e.origin(m).index()];
        ++a.first[e.dest(m).index()];
    }
    std::uint32_t total = 0;
    for (std::uint32_t v = 0; v < slots; ++v)
        a.first[v] = total += a.first[v];
    a.first[slots] = total;
    a.next.resize(total);
    for (const Edge e : m.edges()) {
        const std::uint32_t o = e.origin(m).index(), d = e.dest(m).index();
        a.next[--a.first[o]] = d;
        a.next[--a.first[d]] = o;
    }
    return a;
}

} // namespace

Vertex_adjacency vertex_adjacency(const Mesh& m, Neighbour_order order) {
    return order == Neighbour_order::ring ? ring_adjacency(m) : edge_scan_adjacency(m);
}

} // namespace orbis::gen
