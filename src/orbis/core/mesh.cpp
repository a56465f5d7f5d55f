// SPDX-License-Identifier: MIT
// Mesh storage: element allocation with free lists, queries, equality.
#include "orbis/core/mesh.hpp"

#include <algorithm>
#include <atomic>

namespace orbis {

std::uint64_t Mesh::Stamp::fresh() noexcept {
    // Blocks of 2^20 stamps from one counter: 2^44 blocks before it wraps. Stamps start at 2^20,
    // so 0 (a default plan's) is never a mesh's.
    constexpr std::uint64_t block = std::uint64_t{1} << 20;
    static std::atomic<std::uint64_t> next_block{1};
    constinit thread_local std::uint64_t next = 0;
    constinit thread_local std::uint64_t end = 0;
    if (next == end) {
        next = next_block.fetch_add(1, std::memory_order_relaxed) * block;
        end = next + block;
    }
    return next++;
}

Vertex Mesh::add_vertex() {
    stamp_.renew();
    ++vertex_count_;
    if (!free_vertices_.empty()) {
        const Vertex v = free_vertices_[free_vertices_.size() - 1];
        free_vertices_.resize(free_vertices_.size() - 1);
        vertex_edge_.set(v.index(), no_edge);
        return v;
    }
    vertex_edge_.push_back(no_edge);
    return Vertex{vertex_slots() - 1};
}

Vertex Mesh::add_vertices(std::uint32_t n) {
    const Vertex first{vertex_slots()};
    stamp_.renew();
    vertex_edge_.resize(vertex_edge_.size() + n, no_edge);
    vertex_count_ += n;
    return first;
}

void Mesh::reserve(std::size_t, std::size_t) {
    // Chunked storage grows a chunk at a time without moving existing elements, so there is
    // nothing to reserve; the function exists for callers written against vector-based meshes.
}

Edge Mesh::new_quad(Vertex from, Vertex to) {
    std::uint32_t q;
    if (!free_quads_.empty()) {
        q = free_quads_[free_quads_.size() - 1];
        free_quads_.resize(free_quads_.size() - 1);
    } else {
        q = edge_slots() / 2;
        quads_.push_back({});
    }
    ++quad_count_;
    const Edge e{2 * q};
    set_origin(e, from);
    set_origin(e.sym(), to);
    set_left(e, no_face);
    set_left(e.sym(), no_face);
    return e;
}

Face Mesh::new_face(Edge e) {
    ++face_count_;
    if (!free_faces_.empty()) {
        const Face f = free_faces_[free_faces_.size() - 1];
        free_faces_.resize(free_faces_.size() - 1);
        face_edge_.set(f.index(), e);
        return f;
    }
    face_edge_.push_back(e);
    return Face{face_slots() - 1};
}

void Mesh::delete_quad(Edge e) {
    quads_.set(e.quad_index(), {});
    free_quads_.push_back(e.quad_index());
    --quad_count_;
}

void Mesh::delete_face(Face f) {
    face_edge_.set(f.index(), no_edge);
    free_faces_.push_back(f);
    --face_count_;
}

void Mesh::delete_vertex(Vertex v) {
    vertex_edge_.set(v.index(), deleted_edge);
    free_vertices_.push_back(v);
    --vertex_count_;
}

Edge Mesh::find_edge(Vertex a, Vertex b) const {
    for (const Edge e : a.edges(*this))
        if (e.dest(*this) == b) return e;
    return no_edge;
}

bool Mesh::is_boundary(Vertex v) const {
    for (const Edge e : v.edges(*this))
        if (!e.left(*this).valid()) return true;
    return false;
}

bool Mesh::is_boundary(Edge e) const { return !e.left(*this).valid() || !e.right(*this).valid(); }

std::size_t Mesh::connectivity_bytes() const {
    return vertex_edge_.chunk_bytes() + face_edge_.chunk_bytes() + quads_.chunk_bytes() +
           free_vertices_.chunk_bytes() + free_faces_.chunk_bytes() + free_quads_.chunk_bytes();
}

std::size_t Mesh::private_connectivity_bytes() const {
    return vertex_edge_.private_chunk_bytes() + face_edge_.private_chunk_bytes() +
           quads_.private_chunk_bytes() + free_vertices_.private_chunk_bytes() +
           free_faces_.private_chunk_bytes() + free_quads_.private_chunk_bytes();
}

std::size_t Mesh::connectivity_bytes_not_shared_with(const Mesh& other) const {
    return vertex_edge_.chunk_bytes_not_shared_with(other.vertex_edge_) +
           face_edge_.chunk_bytes_not_shared_with(other.face_edge_) +
           quads_.chunk_bytes_not_shared_with(other.quads_) +
           free_vertices_.chunk_bytes_not_shared_with(other.free_vertices_) +
           free_faces_.chunk_bytes_not_shared_with(other.free_faces_) +
           free_quads_.chunk_bytes_not_shared_with(other.free_quads_);
}

bool operator==(const Mesh& a, const Mesh& b) {
    return a.vertex_count_ == b.vertex_count_ && a.face_count_ == b.face_count_ &&
           a.quad_count_ == b.quad_count_ && a.vertex_edge_ == b.vertex_edge_ &&
           a.face_edge_ == b.face_edge_ && a.quads_ == b.quads_ &&
           a.free_vertices_ == b.free_vertices_ && a.free_faces_ == b.free_faces_ &&
           a.free_quads_ == b.free_quads_;
}

Mesh Mesh::deep_copy() const {
    Mesh m;
    m.vertex_edge_ = vertex_edge_.deep_copy();
    m.face_edge_ = face_edge_.deep_copy();
    m.quads_ = quads_.deep_copy();
    m.free_vertices_ = free_vertices_.deep_copy();
    m.free_faces_ = free_faces_.deep_copy();
    m.free_quads_ = free_quads_.deep_copy();
    m.vertex_count_ = vertex_count_;
    m.face_count_ = face_count_;
    m.quad_count_ = quad_count_;
    m.stamp_ = stamp_; // the same content: plans checked on this mesh hold for the copy
    return m;
}

} // namespace orbis
