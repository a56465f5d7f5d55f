// SPDX-License-Identifier: MIT
#include "orbis/core/mesh_arrays.hpp"

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace orbis {

namespace {

// Ids and quad-edge records are plain 32-bit words in memory, so arrays copy chunk by chunk.
template <class T, std::size_t Bits>
void to_words(const Chunked_array<T, Bits>& in, std::vector<std::uint32_t>& out) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0);
    constexpr std::size_t words = sizeof(T) / 4;
    out.resize(in.size() * words);
    for (std::size_t c = 0; c < in.chunk_count(); ++c) {
        const std::size_t first = c * in.chunk_size;
        const std::size_t n = std::min(in.chunk_size, in.size() - first);
        std::memcpy(out.data() + first * words, in.chunk_data(c), n * sizeof(T));
    }
}

// How many of the words at `first`, `first + stride`, ... of the concatenated `pieces` (each a
// whole number of strides) differ from `dead`.
std::size_t count_words(const std::vector<std::span<std::byte>>& pieces, std::size_t first,
                        std::size_t stride, std::uint32_t dead) {
    std::size_t live = 0;
    for (const auto& bytes : pieces)
        for (std::size_t i = 4 * first; i + 4 <= bytes.size(); i += 4 * stride) {
            std::uint32_t w;
            std::memcpy(&w, bytes.data() + i, 4);
            live += w != dead;
        }
    return live;
}

template <class T>
std::span<const std::byte> bytes_of(const std::vector<T>& v) {
    return std::as_bytes(std::span<const T>(v));
}

template <class T, std::size_t Bits>
void chunks_of(const Chunked_array<T, Bits>& in, std::uint64_t& words,
               std::vector<std::span<const std::byte>>& out) {
    words = in.size() * (sizeof(T) / 4);
    for (std::size_t c = 0; c < in.chunk_count(); ++c) {
        const std::size_t n = std::min(in.chunk_size, in.size() - c * in.chunk_size);
        out.push_back(std::as_bytes(std::span<const T>(in.chunk_data(c), n)));
    }
}

} // namespace

Mesh_chunks mesh_chunks(const Mesh& m) {
    Mesh_chunks c;
    chunks_of(m.vertex_edge_, c.words[0], c.pieces[0]);
    chunks_of(m.face_edge_, c.words[1], c.pieces[1]);
    chunks_of(m.quads_, c.words[2], c.pieces[2]);
    chunks_of(m.free_vertices_, c.words[3], c.pieces[3]);
    chunks_of(m.free_faces_, c.words[4], c.pieces[4]);
    chunks_of(m.free_quads_, c.words[5], c.pieces[5]);
    return c;
}

Mesh_arrays mesh_arrays(const Mesh& m) {
    static_assert(sizeof(Mesh::Quad_record) == 4 * mesh_words_per_quad);
    Mesh_arrays a;
    to_words(m.vertex_edge_, a.vertex_edge);
    to_words(m.face_edge_, a.face_edge);
    to_words(m.quads_, a.quads);
    to_words(m.free_vertices_, a.free_vertices);
    to_words(m.free_faces_, a.free_faces);
    to_words(m.free_quads_, a.free_quads);
    return a;
}

Mesh mesh_from_arrays(const Mesh_arrays& a) {
    return mesh_from_arrays(Mesh_arrays_view{bytes_of(a.vertex_edge), bytes_of(a.face_edge),
                                             bytes_of(a.quads), bytes_of(a.free_vertices),
                                             bytes_of(a.free_faces), bytes_of(a.free_quads)});
}

Mesh_to_fill::Mesh_to_fill(const std::array<std::uint64_t, 6>& words) {
    if (words[2] % mesh_words_per_quad != 0)
        throw std::invalid_argument("the quad-edge array is not a whole number of records");
    if (words[2] / mesh_words_per_quad >= (std::uint64_t{1} << 30))
        throw std::invalid_argument("more quad-edges than a mesh can hold (2^30)");
    if (words[0] >= UINT32_MAX || words[1] >= UINT32_MAX)
        throw std::invalid_argument("more vertices or faces than 32-bit ids can name");
    const auto n = [](std::uint64_t w) { return static_cast<std::size_t>(w); };
    pieces_[0] = mesh_.vertex_edge_.assign_to_fill(n(words[0]));
    pieces_[1] = mesh_.face_edge_.assign_to_fill(n(words[1]));
    pieces_[2] = mesh_.quads_.assign_to_fill(n(words[2] / mesh_words_per_quad));
    pieces_[3] = mesh_.free_vertices_.assign_to_fill(n(words[3]));
    pieces_[4] = mesh_.free_faces_.assign_to_fill(n(words[4]));
    pieces_[5] = mesh_.free_quads_.assign_to_fill(n(words[5]));
}

Mesh Mesh_to_fill::finish() && {
    Mesh m = std::move(mesh_);
    m.vertex_count_ = count_words(pieces_[0], 0, 1, Mesh::deleted_edge.mask());
    m.face_count_ = count_words(pieces_[1], 0, 1, no_face.index());
    m.quad_count_ = count_words(pieces_[2], offsetof(Mesh::Quad_record, origin) / 4,
                                mesh_words_per_quad, no_vertex.index());
    // validate() reads only ids it has range-checked (see mesh_validate.cpp), so it is safe on
    // arbitrary words and rejects everything that is not a mesh.
    if (auto problem = m.validate()) throw std::invalid_argument("not a valid mesh: " + *problem);
    return m;
}

Mesh mesh_from_arrays(const Mesh_arrays_view& a) {
    const std::span<const std::byte> in[6] = {a.vertex_edge,   a.face_edge,  a.quads,
                                              a.free_vertices, a.free_faces, a.free_quads};
    const char* names[6] = {"the vertex array",     "the face array",     "the quad-edge array",
                            "the free vertex list", "the free face list", "the free edge list"};
    std::array<std::uint64_t, 6> words{};
    for (int i = 0; i < 6; ++i) {
        if (in[i].size() % 4 != 0)
            throw std::invalid_argument(std::string(names[i]) +
                                        " is not a whole number of entries");
        words[i] = in[i].size() / 4;
    }
    Mesh_to_fill fill(words);
    for (int i = 0; i < 6; ++i) {
        std::size_t done = 0;
        for (const std::span<std::byte> piece : fill.pieces()[i]) {
            std::memcpy(piece.data(), in[i].data() + done, piece.size());
            done += piece.size();
        }
    }
    return std::move(fill).finish();
}

} // namespace orbis
