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

template <class T, std::size_t Bits>
void from_bytes(std::span<const std::byte> in, Chunked_array<T, Bits>& out, const char* what) {
    if (in.size() % sizeof(T) != 0)
        throw std::invalid_argument(std::string(what) + " is not a whole number of entries");
    out.assign_bytes(in);
}

// How many of the words at `first`, `first + stride`, ... of `bytes` differ from `dead`.
std::size_t count_words(std::span<const std::byte> bytes, std::size_t first, std::size_t stride,
                        std::uint32_t dead) {
    std::size_t live = 0;
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

Mesh mesh_from_arrays(const Mesh_arrays_view& a) {
    if (a.quads.size() % sizeof(Mesh::Quad_record) != 0)
        throw std::invalid_argument("the quad-edge array is not a whole number of records");
    if (a.quads.size() / sizeof(Mesh::Quad_record) >= (std::size_t{1} << 30))
        throw std::invalid_argument("more quad-edges than a mesh can hold (2^30)");
    if (a.vertex_edge.size() / 4 >= UINT32_MAX || a.face_edge.size() / 4 >= UINT32_MAX)
        throw std::invalid_argument("more vertices or faces than 32-bit ids can name");
    Mesh m;
    from_bytes(a.vertex_edge, m.vertex_edge_, "the vertex array");
    from_bytes(a.face_edge, m.face_edge_, "the face array");
    from_bytes(a.quads, m.quads_, "the quad-edge array");
    from_bytes(a.free_vertices, m.free_vertices_, "the free vertex list");
    from_bytes(a.free_faces, m.free_faces_, "the free face list");
    from_bytes(a.free_quads, m.free_quads_, "the free edge list");
    // Counted on the flat input rather than through the chunk tables.
    m.vertex_count_ = count_words(a.vertex_edge, 0, 1, Mesh::deleted_edge.mask());
    m.face_count_ = count_words(a.face_edge, 0, 1, no_face.index());
    m.quad_count_ = count_words(a.quads, offsetof(Mesh::Quad_record, origin) / 4,
                                mesh_words_per_quad, no_vertex.index());
    // validate() reads only ids it has range-checked (see mesh_validate.cpp), so it is safe on
    // arbitrary words and rejects everything that is not a mesh.
    if (auto problem = m.validate()) throw std::invalid_argument("not a valid mesh: " + *problem);
    return m;
}

} // namespace orbis
