// SPDX-License-Identifier: MIT
// The neighbours of every vertex in one flat array, for generation steps that walk the mesh
// graph many times (growth, breadth-first and Dijkstra walks): reading 4 bytes per neighbour
// costs far less than following quad-edge records.
#pragma once

#include "orbis/core/mesh.hpp"
#include "orbis/gen/scratch_buffer.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace orbis::gen {

/// The order of each vertex's row in a Vertex_adjacency.
enum class Neighbour_order {
    /// Counterclockwise from Vertex::edge, as Vertex::neighbors gives them.
    ring,
    /// The order of one pass over the quad-edges in slot order, each row filled backwards. About
    /// three times cheaper to build than `ring` (the mesh is read sequentially), but the order
    /// follows the edge slots, not the geometry; kept because the `plates` module's worlds depend
    /// on it.
    edge_scan,
};

/// Neighbours of every vertex slot in compressed rows: the row of slot v is
/// next[first[v] .. first[v + 1]). Dead slots have empty rows.
struct Vertex_adjacency {
    /// Start of each slot's row in `next`; vertex_slots() + 1 entries, the last is next.size().
    std::vector<std::uint32_t> first;
    /// The neighbour slots of all rows, one after another.
    std::vector<std::uint32_t> next;

    /// The neighbours of `slot`. Precondition: slot < first.size() - 1.
    std::span<const std::uint32_t> neighbours(std::uint32_t slot) const {
        return {next.data() + first[slot], next.data() + first[slot + 1]};
    }
    /// Number of vertex slots (live or dead) the rows cover.
    std::uint32_t slots() const { return static_cast<std::uint32_t>(first.size() - 1); }
};

/// The neighbours of every vertex slot of `m`, each row in `order` (by default as
/// Vertex::neighbors gives them, so code switching to the array sees the same sequence).
/// Cost: O(vertex slots + edges) time, 4 * (slots + 1 + 2 * edges) bytes; ring order walks each
/// vertex's ring and so touches quad-edge records in scattered order, edge_scan order reads them
/// sequentially. The result is a copy: it goes stale when the mesh is edited.
Vertex_adjacency vertex_adjacency(const Mesh& m, Neighbour_order order = Neighbour_order::ring);

/// The edge_scan adjacency of `m` with every live vertex slot s renamed new_id[s]: row
/// new_id[s] holds new_id of the neighbours of s, in the same order as
/// vertex_adjacency(m, Neighbour_order::edge_scan) gives them, so results that depend on the
/// row order do not change. Lets a module renumber the vertices into a spatial order (whose
/// neighbours sit near in memory) without building the slot-order rows first.
/// Precondition: new_id has one entry per vertex slot and maps the live slots one-to-one onto
/// [0, count). With `ends`, also leaves there the renamed ends of every quad-edge q (origin
/// and dest of primal edge 2q; both ~0u for dead quad-edges), which lets a later pass over the
/// edges read 8 bytes a quad-edge instead of the mesh's 32-byte records.
/// Cost: as the edge_scan order, plus a scattered read of new_id per edge end.
Vertex_adjacency renumbered_adjacency(const Mesh& m, const std::vector<std::uint32_t>& new_id,
                                      std::uint32_t count,
                                      Scratch_vector<std::array<std::uint32_t, 2>>* ends = nullptr);

} // namespace orbis::gen
