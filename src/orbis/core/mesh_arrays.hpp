// SPDX-License-Identifier: MIT
// A mesh's storage as plain 32-bit words, for file formats: everything needed to rebuild the
// mesh with the same ids, free lists included, and nothing else.
#pragma once

#include "orbis/core/mesh.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace orbis {

/// The stored arrays of a Mesh. Edges are written as their masks, vertices and faces as their
/// indices; 0xFFFFFFFF is no_edge / no_vertex / no_face.
struct Mesh_arrays {
    /// Per vertex slot: an outgoing edge, no_edge (isolated) or 0xFFFFFFFE (deleted).
    std::vector<std::uint32_t> vertex_edge;
    /// Per face slot: an edge with the face on its left, or no_edge (deleted).
    std::vector<std::uint32_t> face_edge;
    /// Per quad-edge slot, 8 words: origin_next of primal edges 2q and 2q+1, their
    /// origin_prev, their origins, their left faces. A deleted quad-edge has no_vertex origins
    /// and unspecified other words.
    std::vector<std::uint32_t> quads;
    /// Freed vertex ids, the next one to be reused last.
    std::vector<std::uint32_t> free_vertices;
    /// Freed face ids, the next one to be reused last.
    std::vector<std::uint32_t> free_faces;
    /// Freed quad-edge indices, the next one to be reused last.
    std::vector<std::uint32_t> free_quads;

    /// Same words.
    friend bool operator==(const Mesh_arrays&, const Mesh_arrays&) = default;
};

/// The same arrays as raw little-endian bytes in someone else's memory (a file being loaded),
/// each a whole number of 32-bit words; no alignment needed.
struct Mesh_arrays_view {
    std::span<const std::byte> vertex_edge;   ///< as Mesh_arrays::vertex_edge
    std::span<const std::byte> face_edge;     ///< as Mesh_arrays::face_edge
    std::span<const std::byte> quads;         ///< as Mesh_arrays::quads
    std::span<const std::byte> free_vertices; ///< as Mesh_arrays::free_vertices
    std::span<const std::byte> free_faces;    ///< as Mesh_arrays::free_faces
    std::span<const std::byte> free_quads;    ///< as Mesh_arrays::free_quads
};

/// mesh_from_arrays on bytes: the same checks, one copy less.
/// \throws std::invalid_argument as mesh_from_arrays.
Mesh mesh_from_arrays(const Mesh_arrays_view& arrays);

/// The stored arrays as byte spans over the mesh's own chunks, in Mesh_arrays order
/// (vertex_edge, face_edge, quads, free_vertices, free_faces, free_quads): what a file writer
/// needs without copying. Valid while the mesh lives unchanged.
struct Mesh_chunks {
    std::array<std::uint64_t, 6> words{};                          ///< words per array
    std::array<std::vector<std::span<const std::byte>>, 6> pieces; ///< each array's chunks
};

/// The chunks of `m`'s arrays (see Mesh_chunks). O(number of chunks).
Mesh_chunks mesh_chunks(const Mesh& m);

/// A mesh's storage, allocated for a loader to write its stored arrays straight into (the
/// reverse of Mesh_chunks), then checked as mesh_from_arrays checks: a file is read without
/// an intermediate copy, and nothing unchecked ever becomes a Mesh.
class Mesh_to_fill {
public:
    /// Room for arrays of these many 32-bit words, in Mesh_arrays order; O(words / 4,096),
    /// the memory itself is not touched. \throws std::invalid_argument when the sizes cannot
    /// be a mesh's (a quad-edge array that is not whole records, too many ids).
    explicit Mesh_to_fill(const std::array<std::uint64_t, 6>& words);
    /// Each array's bytes as writable pieces, in order. The loader writes every byte, from
    /// any threads (one writer per piece), before finish().
    const std::array<std::vector<std::span<std::byte>>, 6>& pieces() const { return pieces_; }
    /// The mesh, counted and validate()d. O(size).
    /// \throws std::invalid_argument as mesh_from_arrays.
    Mesh finish() &&;

private:
    Mesh mesh_;
    std::array<std::vector<std::span<std::byte>>, 6> pieces_;
};

/// Words per quad-edge in Mesh_arrays::quads.
inline constexpr std::size_t mesh_words_per_quad = 8;

} // namespace orbis
