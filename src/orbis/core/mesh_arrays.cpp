// SPDX-License-Identifier: MIT
#include "orbis/core/mesh_arrays.hpp"

#include <stdexcept>
#include <string>

namespace orbis {

namespace {

template <class T, std::size_t Bits, class Word>
void to_words(const Chunked_array<T, Bits>& in, std::vector<std::uint32_t>& out, Word word) {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
        out[i] = word(in[i]);
}

} // namespace

Mesh_arrays mesh_arrays(const Mesh& m) {
    Mesh_arrays a;
    to_words(m.vertex_edge_, a.vertex_edge, [](Edge e) { return e.mask(); });
    to_words(m.face_edge_, a.face_edge, [](Edge e) { return e.mask(); });
    to_words(m.free_vertices_, a.free_vertices, [](Vertex v) { return v.index(); });
    to_words(m.free_faces_, a.free_faces, [](Face f) { return f.index(); });
    to_words(m.free_quads_, a.free_quads, [](std::uint32_t q) { return q; });
    a.quads.resize(m.quads_.size() * mesh_words_per_quad);
    for (std::size_t q = 0; q < m.quads_.size(); ++q) {
        const auto& r = m.quads_[q];
        std::uint32_t* w = a.quads.data() + q * mesh_words_per_quad;
        w[0] = r.next[0].mask();
        w[1] = r.next[1].mask();
        w[2] = r.prev[0].mask();
        w[3] = r.prev[1].mask();
        w[4] = r.origin[0].index();
        w[5] = r.origin[1].index();
        w[6] = r.left[0].index();
        w[7] = r.left[1].index();
    }
    return a;
}

Mesh mesh_from_arrays(const Mesh_arrays& a) {
    if (a.quads.size() % mesh_words_per_quad != 0)
        throw std::invalid_argument("the quad-edge array is not a whole number of records");
    const std::size_t quads = a.quads.size() / mesh_words_per_quad;
    if (quads >= (std::size_t{1} << 30))
        throw std::invalid_argument("more quad-edges than a mesh can hold (2^30)");
    if (a.vertex_edge.size() > UINT32_MAX - 1 || a.face_edge.size() > UINT32_MAX - 1)
        throw std::invalid_argument("more vertices or faces than 32-bit ids can name");
    Mesh m;
    m.vertex_edge_.resize(a.vertex_edge.size());
    for (std::size_t i = 0; i < a.vertex_edge.size(); ++i) {
        m.vertex_edge_.set(i, Edge{a.vertex_edge[i]});
        m.vertex_count_ += a.vertex_edge[i] != Mesh::deleted_edge.mask();
    }
    m.face_edge_.resize(a.face_edge.size());
    for (std::size_t i = 0; i < a.face_edge.size(); ++i) {
        m.face_edge_.set(i, Edge{a.face_edge[i]});
        m.face_count_ += a.face_edge[i] != no_edge.mask();
    }
    m.quads_.resize(quads);
    for (std::size_t q = 0; q < quads; ++q) {
        const std::uint32_t* w = a.quads.data() + q * mesh_words_per_quad;
        auto& r = m.quads_.mut(q);
        r.next = {Edge{w[0]}, Edge{w[1]}};
        r.prev = {Edge{w[2]}, Edge{w[3]}};
        r.origin = {Vertex{w[4]}, Vertex{w[5]}};
        r.left = {Face{w[6]}, Face{w[7]}};
        m.quad_count_ += r.origin[0].valid();
    }
    for (const std::uint32_t v : a.free_vertices)
        m.free_vertices_.push_back(Vertex{v});
    for (const std::uint32_t f : a.free_faces)
        m.free_faces_.push_back(Face{f});
    for (const std::uint32_t q : a.free_quads)
        m.free_quads_.push_back(q);
    // validate() reads only ids it has range-checked (see mesh_validate.cpp), so it is safe on
    // arbitrary words and rejects everything that is not a mesh.
    if (auto problem = m.validate()) throw std::invalid_argument("not a valid mesh: " + *problem);
    return m;
}

} // namespace orbis
