// SPDX-License-Identifier: MIT
#include "orbis/gen/world_ocean.hpp"

#include "orbis/gen/parallel_ranges.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <utility>

namespace orbis::gen {

namespace {

constexpr std::uint32_t none = ~0u;

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t v) {
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

} // namespace

// The bodies below sea level of a graph: a union-find forest whose roots are each body's
// smallest id, with each root's size and (renumbered graphs) smallest original slot.
struct Ocean_tracker::Bodies {
    std::vector<std::uint32_t> parent; // none above sea level and on dead slots
    std::vector<std::uint32_t> size;   // at roots
    std::vector<std::uint32_t> lowest; // at roots: the smallest original slot (renumbered only)
    std::uint32_t best = none;         // the largest body's root
    std::uint32_t live = 0;
    std::vector<std::uint8_t> ocean;
};

namespace {

// Whether body `a` wins over body `b` as the largest (roots; b may be none): more vertices,
// or as many and met first by a scan in original slot order.
bool larger(const Ocean_tracker::Bodies& w, std::uint32_t a, std::uint32_t b, bool renumbered) {
    if (b == none) return w.size[a] > 0;
    if (w.size[a] != w.size[b]) return w.size[a] > w.size[b];
    return renumbered ? w.lowest[a] < w.lowest[b] : a < b;
}

// Both overloads: `slot_of` is null when the graph is in slot order.
void find_bodies(Ocean_tracker::Bodies& w, const Vertex_adjacency& g,
                 const std::vector<float>& elevation, const std::uint32_t* slot_of, float sea_level,
                 double min_fraction) {
    const std::uint32_t slots = g.slots();
    // Union-find over the adjacency rows in slot order rather than a search from each body's
    // first vertex: the rows are read sequentially, and neighbours mostly lie near in slot
    // order, where a search jumps across the mesh and misses the cache on every row. Each root
    // is its component's smallest slot, so the components come out in the order a search in
    // slot order would find them (which decides between two largest bodies of equal size).
    std::vector<std::uint32_t>& parent = w.parent;
    parent.assign(slots, none);
    const auto below = [&](std::uint32_t s) {
        return g.first[s] != g.first[s + 1] && elevation[s] < sea_level;
    };
    // On two threads, each over its own part of the slots: the second leaves the edges into
    // the first part (whose forest the other thread is building) for afterwards. The forest
    // always hangs the larger root under the smaller, so it comes out the same either way.
    std::uint32_t live[2] = {0, 0};
    std::vector<std::array<std::uint32_t, 2>> across; // (s, n): n in the first part
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        for (std::uint32_t s = begin; s < end; ++s) {
            live[part] += g.first[s] != g.first[s + 1];
            if (!below(s)) continue;
            parent[s] = s;
            std::uint32_t root = s;
            for (const std::uint32_t n : g.neighbours(s)) {
                if (n >= s) continue; // later slots join when they come
                if (n < begin) {
                    if (below(n)) across.push_back({s, n});
                    continue;
                }
                if (parent[n] == none) continue;
                const std::uint32_t other = find_root(parent, n);
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
    });
    w.live = live[0] + live[1];
    for (const auto [s, n] : across) {
        const std::uint32_t a = find_root(parent, s), b = find_root(parent, n);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    // Component sizes, counted at the roots, in slot order.
    w.size.assign(slots, 0);
    for (std::uint32_t s = 0; s < slots; ++s)
        if (parent[s] != none) {
            parent[s] = parent[parent[s]]; // roots come first, so this is the root
            ++w.size[parent[s]];
        }
    // Renumbered: ties go to the body holding the smaller original slot, which is the body
    // the slot-order scan above meets first.
    w.lowest.clear();
    if (slot_of) {
        w.lowest.assign(slots, none);
        for (std::uint32_t s = 0; s < slots; ++s)
            if (parent[s] != none) w.lowest[parent[s]] = std::min(w.lowest[parent[s]], slot_of[s]);
    }
    w.best = none;
    for (std::uint32_t s = 0; s < slots; ++s)
        if (w.size[s] > 0 && larger(w, s, w.best, slot_of != nullptr)) w.best = s;
    w.ocean.assign(slots, 0);
    if (w.best == none) return;
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t s = begin; s < end; ++s) {
            if (parent[s] == none) continue;
            const std::uint32_t root = parent[s];
            w.ocean[s] = root == w.best || double(w.size[root]) >= min_fraction * double(w.live);
        }
    });
}

std::vector<std::uint8_t> ocean_of(const Vertex_adjacency& g, const std::vector<float>& elevation,
                                   const std::uint32_t* slot_of, float sea_level,
                                   double min_fraction) {
    Ocean_tracker::Bodies w;
    find_bodies(w, g, elevation, slot_of, sea_level, min_fraction);
    return std::move(w.ocean);
}

} // namespace

Ocean_tracker::Ocean_tracker(const Vertex_adjacency& g, const std::vector<float>& elevation,
                             const std::vector<std::uint32_t>& slot_of, float sea_level,
                             double min_fraction)
    : bodies_(std::make_unique<Bodies>())
    , sea_level_(sea_level)
    , min_fraction_(min_fraction) {
    find_bodies(*bodies_, g, elevation, slot_of.data(), sea_level, min_fraction);
}

Ocean_tracker::Ocean_tracker(Ocean_tracker&&) noexcept = default;
Ocean_tracker& Ocean_tracker::operator=(Ocean_tracker&&) noexcept = default;
Ocean_tracker::~Ocean_tracker() = default;

const std::vector<std::uint8_t>& Ocean_tracker::ocean() const { return bodies_->ocean; }

void Ocean_tracker::update(const Vertex_adjacency& g, const std::vector<float>& elevation,
                           const std::vector<std::uint32_t>& slot_of,
                           const std::vector<std::uint32_t>& crossed,
                           std::vector<std::uint32_t>& changed) {
    Bodies& w = *bodies_;
    const auto again = [&] {
        std::vector<std::uint8_t> before = std::move(w.ocean);
        find_bodies(w, g, elevation, slot_of.data(), sea_level_, min_fraction_);
        for (std::uint32_t s = 0; s < before.size(); ++s)
            if (before[s] != w.ocean[s]) changed.push_back(s);
    };
    // A vertex that rose may split a body: found again whole.
    for (const std::uint32_t a : crossed)
        if (!(elevation[a] < sea_level_) || w.parent[a] != none) return again();
    if (crossed.empty() || w.best == none) return again();

    // The bodies the sunk vertices touch, with whether they were ocean.
    std::vector<std::uint8_t> sunk(w.parent.size(), 0);
    for (const std::uint32_t a : crossed)
        sunk[a] = 1;
    std::vector<std::uint32_t> touched; // old roots
    for (const std::uint32_t a : crossed)
        for (const std::uint32_t n : g.neighbours(a))
            if (!sunk[n] && w.parent[n] != none) touched.push_back(find_root(w.parent, n));
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    std::vector<std::uint8_t> was_ocean(touched.size());
    for (std::size_t i = 0; i < touched.size(); ++i)
        was_ocean[i] = w.ocean[touched[i]];
    const std::uint32_t old_best = w.best;

    // Join the sunk vertices to their below-sea neighbours; the smaller id stays the root.
    const auto join = [&](std::uint32_t a, std::uint32_t b) {
        a = find_root(w.parent, a);
        b = find_root(w.parent, b);
        if (a == b) return;
        if (b < a) std::swap(a, b);
        w.parent[b] = a;
        w.size[a] += w.size[b];
        w.lowest[a] = std::min(w.lowest[a], w.lowest[b]);
    };
    for (const std::uint32_t a : crossed) {
        w.parent[a] = a;
        w.size[a] = 1;
        w.lowest[a] = slot_of[a];
    }
    for (const std::uint32_t a : crossed)
        for (const std::uint32_t n : g.neighbours(a))
            if (w.parent[n] != none) join(a, n);

    // The largest body: the old one, grown or not, or one that grew past it. Merging only
    // grows bodies, so every untouched body still loses to the old largest.
    std::uint32_t best = find_root(w.parent, old_best);
    for (const std::uint32_t a : crossed)
        if (const std::uint32_t r = find_root(w.parent, a); larger(w, r, best, true)) best = r;
    w.best = best;
    const double threshold = min_fraction_ * double(w.live);
    const auto is_ocean = [&](std::uint32_t root) {
        return root == best || double(w.size[root]) >= threshold;
    };
    // The old largest body lost its place to one that does not hold it: it may no longer be
    // ocean (two bodies of about the same size), which a search of it would have to tell.
    if (best != find_root(w.parent, old_best) && !is_ocean(find_root(w.parent, old_best)))
        return again();

    for (const std::uint32_t a : crossed) {
        w.ocean[a] = is_ocean(find_root(w.parent, a));
        if (w.ocean[a]) changed.push_back(a);
    }
    // Bodies that were not ocean and now are: every vertex of theirs changes. They are below
    // the threshold, so small; each is searched through its own old vertices.
    std::vector<std::uint32_t> stack;
    for (std::size_t i = 0; i < touched.size(); ++i) {
        if (was_ocean[i] || !is_ocean(find_root(w.parent, touched[i]))) continue;
        stack.push_back(touched[i]);
        w.ocean[touched[i]] = 1;
        changed.push_back(touched[i]);
        while (!stack.empty()) {
            const std::uint32_t v = stack.back();
            stack.pop_back();
            for (const std::uint32_t n : g.neighbours(v))
                if (!sunk[n] && w.parent[n] != none && !w.ocean[n]) {
                    w.ocean[n] = 1;
                    changed.push_back(n);
                    stack.push_back(n);
                }
        }
    }
}

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
