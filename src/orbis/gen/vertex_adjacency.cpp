// SPDX-License-Identifier: MIT
#include "orbis/gen/vertex_adjacency.hpp"

#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/scratch_buffer.hpp"

#include <array>

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
                                      std::uint32_t count,
                                      Scratch_vector<std::array<std::uint32_t, 2>>* ends_out) {
    // The rows of edge_scan_adjacency, renamed: each row lists its edges from the last quad-edge
    // slot to the first. One pass reads the mesh (32-byte records) and renames the ends into
    // `ends`, counting degrees per part; a second pass over `ends` alone fills the rows. Either
    // pass splits the quad-edges in two halves on two threads: each part counts into its own
    // array, and the later half's entries go first in every row, as one backward pass puts them.
    constexpr std::uint32_t none = ~0u;
    const std::uint32_t quads = m.edge_slots() / 2;
    Scratch_vector<std::array<std::uint32_t, 2>> ends;
    ends.resize(quads);
    std::array<std::vector<std::uint32_t>, 2> degree;
    std::array<std::uint32_t, 3> bounds{0, quads, quads}; // part p covers [bounds[p], bounds[p+1])
    parallel_ranges(quads, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        std::vector<std::uint32_t>& d = degree[part];
        d.assign(count, 0);
        if (part == 1) bounds[1] = begin;
        for (std::uint32_t q = begin; q < end; ++q) {
            const Edge e{2 * q};
            if (!m.contains(e)) {
                ends[q] = {none, none};
                continue;
            }
            const std::uint32_t o = new_id[e.origin(m).index()], t = new_id[e.dest(m).index()];
            ends[q] = {o, t};
            ++d[o];
            ++d[t];
        }
    });
    const unsigned parts = bounds[1] < quads ? 2 : 1;
    Vertex_adjacency a;
    a.first.resize(std::size_t{count} + 1);
    std::uint32_t total = 0;
    for (std::uint32_t v = 0; v < count; ++v) {
        a.first[v] = total;
        const std::uint32_t later = parts == 2 ? degree[1][v] : 0;
        total += degree[0][v] + later;
        // Where each part's backward fill starts: the earlier half ends the row.
        degree[0][v] = total;
        if (parts == 2) degree[1][v] = a.first[v] + later;
    }
    a.first[count] = total;
    a.next.reserve(total);
    advise_huge_pages(a.next);
    a.next.resize(total);
    parallel_tasks(parts, [&](std::uint32_t part) {
        std::vector<std::uint32_t>& cursor = degree[part];
        for (std::uint32_t q = bounds[part]; q < bounds[part + 1]; ++q) {
            const auto [o, t] = ends[q];
            if (o == none) continue;
            a.next[--cursor[o]] = t;
            a.next[--cursor[t]] = o;
        }
    });
    if (ends_out) *ends_out = std::move(ends);
    return a;
}

Vertex_adjacency vertex_adjacency(const Mesh& m, Neighbour_order order) {
    return order == Neighbour_order::ring ? ring_adjacency(m) : edge_scan_adjacency(m);
}

} // namespace orbis::gen
