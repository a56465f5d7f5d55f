// SPDX-License-Identifier: MIT
#include "orbis/gen/vertex_adjacency.hpp"

#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/scratch_buffer.hpp"

namespace orbis::gen {

namespace {

// Walking the rings is the cost (scattered quad-edge records), so two threads take half the
// slots each: the first writes its rows straight into `next`, the second into its own array,
// appended after, so the rows come out as one thread would write them.
Vertex_adjacency ring_adjacency(const Mesh& m) {
    const std::uint32_t slots = m.vertex_slots();
    Vertex_adjacency a;
    a.first.resize(std::size_t{slots} + 1);
    a.next.reserve(2 * m.edge_count());
    advise_huge_pages(a.next);
    std::vector<std::uint32_t> tail;
    std::uint32_t tail_begin = slots;
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        std::vector<std::uint32_t>& out = part == 0 ? a.next : tail;
        if (part == 1) {
            tail_begin = begin;
            // Rows hold 2 * edges / vertices ~ 6 entries on average; a little slack saves a
            // reallocation for uneven halves.
            tail.reserve(std::size_t(double(a.next.capacity()) * (double(end - begin) / slots)) +
                         (std::size_t{1} << 12));
        }
        for (std::uint32_t i = begin; i < end; ++i) {
            a.first[i] = static_cast<std::uint32_t>(out.size());
            if (!m.contains(Vertex{i})) continue;
            for (const Vertex n : Vertex{i}.neighbors(m))
                out.push_back(n.index());
        }
    });
    const auto offset = static_cast<std::uint32_t>(a.next.size());
    for (std::uint32_t i = tail_begin; i < slots; ++i)
        a.first[i] += offset;
    a.next.insert(a.next.end(), tail.begin(), tail.end());
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
    a.next.reserve(total);
    advise_huge_pages(a.next);
    a.next.resize(total);
    for (const Edge e : m.edges()) {
        const std::uint32_t o = e.origin(m).index(), d = e.dest(m).index();
        a.next[--a.first[o]] = d;
        a.next[--a.first[d]] = o;
    }
    return a;
}

} // namespace

Vertex_adjacency renumbered_adjacency(const Mesh& m, const std::vector<std::uint32_t>& new_id,
                                      std::uint32_t count) {
    // The same two passes as edge_scan_adjacency, with the ends renamed as they are read.
    Vertex_adjacency a;
    a.first.assign(std::size_t{count} + 1, 0);
    for (const Edge e : m.edges()) {
        ++a.first[new_id[e.origin(m).index()]];
        ++a.first[new_id[e.dest(m).index()]];
    }
    std::uint32_t total = 0;
    for (std::uint32_t v = 0; v < count; ++v)
        a.first[v] = total += a.first[v];
    a.first[count] = total;
    a.next.reserve(total);
    advise_huge_pages(a.next);
    a.next.resize(total);
    for (const Edge e : m.edges()) {
        const std::uint32_t o = new_id[e.origin(m).index()], d = new_id[e.dest(m).index()];
        a.next[--a.first[o]] = d;
        a.next[--a.first[d]] = o;
    }
    return a;
}

Vertex_adjacency vertex_adjacency(const Mesh& m, Neighbour_order order) {
    return order == Neighbour_order::ring ? ring_adjacency(m) : edge_scan_adjacency(m);
}

} // namespace orbis::gen
