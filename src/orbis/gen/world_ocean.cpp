// SPDX-License-Identifier: MIT
#include "orbis/gen/world_ocean.hpp"

#include <algorithm>

namespace orbis::gen {

namespace {

// Both overloads: `slot_of` is null when the graph is in slot order.
std::vector<std::uint8_t> ocean_of(const Vertex_adjacency& g, const std::vector<float>& elevation,
                                   const std::uint32_t* slot_of, float sea_level,
                                   double min_fraction) {
    const std::uint32_t slots = g.slots();
    // Union-find over the adjacency rows in slot order rather than a search from each body's
    // first vertex: the rows are read sequentially, and neighbours mostly lie near in slot
    // order, where a search jumps across the mesh and misses the cache on every row. Each root
    // is its component's smallest slot, so the components come out in the order a search in
    // slot order would find them (which decides between two largest bodies of equal size).
    constexpr std::uint32_t none = ~0u;
    std::vector<std::uint32_t> parent(slots, none);
    const auto find = [&](std::uint32_t v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    };
    std::uint32_t live = 0;
    for (std::uint32_t s = 0; s < slots; ++s) {
        const bool alive = g.first[s] != g.first[s + 1];
        live += alive;
        if (!alive || !(elevation[s] < sea_level)) continue;
        parent[s] = s;
        std::uint32_t root = s;
        for (const std::uint32_t n : g.neighbours(s)) {
            if (n >= s || parent[n] == none) continue; // later slots join when they come
            const std::uint32_t other = find(n);
            if (other == root) continue;
            // The smaller slot stays the root.
            if (other < root) {
                parent[root] = other;
                root = other;
            } else {
                parent[other] = root;
            }
        }
    }
    // Component sizes, counted at the roots, in slot order.
    std::vector<std::uint32_t> size(slots, 0);
    std::uint32_t best = none, best_size = 0;
    for (std::uint32_t s = 0; s < slots; ++s)
        if (parent[s] != none) {
            parent[s] = parent[parent[s]]; // roots come first, so this is the root
            ++size[parent[s]];
        }
    if (!slot_of) {
        for (std::uint32_t s = 0; s < slots; ++s)
            if (size[s] > best_size) {
                best_size = size[s];
                best = s;
            }
    } else {
        // Renumbered: ties go to the body holding the smaller original slot, which is the
        // body the slot-order scan above meets first.
        std::vector<std::uint32_t> lowest_slot(slots, none);
        for (std::uint32_t s = 0; s < slots; ++s)
            if (parent[s] != none)
                lowest_slot[parent[s]] = std::min(lowest_slot[parent[s]], slot_of[s]);
        for (std::uint32_t s = 0; s < slots; ++s)
            if (size[s] > best_size ||
                (size[s] == best_size && size[s] > 0 && lowest_slot[s] < lowest_slot[best])) {
                best_size = size[s];
                best = s;
            }
    }
    std::vector<std::uint8_t> ocean(slots, 0);
    if (best == none) return ocean;
    for (std::uint32_t s = 0; s < slots; ++s) {
        if (parent[s] == none) continue;
        const std::uint32_t root = parent[s];
        ocean[s] = root == best || double(size[root]) >= min_fraction * double(live);
    }
    return ocean;
}

} // namespace

std::vector<std::uint8_t> world_ocean(const Vertex_adjacency& g,
                                      const std::vector<float>& elevation, float sea_level,
                                      double min_fraction) {
    return ocean_of(g, elevation, nullptr, sea_level, min_fraction);
}

std::vector<std::uint8_t> world_ocean(const Vertex_adjacency& g,
                                      const std::vector<float>& elevation,
                                      const std::vector<std::uint32_t>& slot_of, float sea_level,
                                      double min_fraction) {
    return ocean_of(g, elevation, slot_of.data(), sea_level, min_fraction);
}

} // namespace orbis::gen
