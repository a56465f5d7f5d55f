// SPDX-License-Identifier: MIT
#include "orbis/gen/world_ocean.hpp"

namespace orbis::gen {

std::vector<std::uint8_t> world_ocean(const Vertex_adjacency& g,
                                      const std::vector<float>& elevation, float sea_level,
                                      double min_fraction) {
    const std::uint32_t slots = g.slots();
    constexpr std::uint32_t none = ~0u;
    std::vector<std::uint32_t> component(slots, none);
    std::vector<std::uint32_t> stack;
    std::uint32_t best = none, best_size = 0, count = 0, live = 0;
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t s = 0; s < slots; ++s) {
        live += g.first[s] != g.first[s + 1];
        if (component[s] != none || g.first[s] == g.first[s + 1] || !(elevation[s] < sea_level))
            continue;
        std::uint32_t size = 0;
        component[s] = count;
        stack.push_back(s);
        while (!stack.empty()) {
            const std::uint32_t v = stack.back();
            stack.pop_back();
            ++size;
            for (const std::uint32_t n : g.neighbours(v))
                if (component[n] == none && elevation[n] < sea_level) {
                    component[n] = count;
                    stack.push_back(n);
                }
        }
        sizes.push_back(size);
        if (size > best_size) {
            best_size = size;
            best = count;
        }
        ++count;
    }
    std::vector<std::uint8_t> ocean(slots, 0);
    if (best == none) return ocean;
    std::vector<std::uint8_t> is_ocean(sizes.size(), 0);
    for (std::size_t c = 0; c < sizes.size(); ++c)
        is_ocean[c] = c == best || double(sizes[c]) >= min_fraction * double(live);
    for (std::uint32_t s = 0; s < slots; ++s)
        ocean[s] = component[s] != none && is_ocean[component[s]];
    return ocean;
}

} // namespace orbis::gen
