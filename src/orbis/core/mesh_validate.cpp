// SPDX-License-Identifier: MIT
// Mesh::validate: every invariant of the quad-edge structure, first violation in words.
#include "orbis/core/mesh.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <sstream>
#include <thread>
#include <vector>

namespace orbis {

namespace {
template <class... Parts>
std::string words(const Parts&... parts) {
    std::ostringstream s;
    (s << ... << parts);
    return s.str();
}
// A neighbour that appears twice around a vertex, if any. Rings are short (6 on average), where
// pairwise comparison beats sorting; longer ones are sorted in place.
std::optional<Vertex> repeated(std::span<Vertex> around) {
    if (around.size() <= 16) {
        for (std::size_t a = 1; a < around.size(); ++a)
            for (std::size_t b = 0; b < a; ++b)
                if (around[a] == around[b]) return around[a];
        return std::nullopt;
    }
    std::sort(around.begin(), around.end());
    if (auto it = std::adjacent_find(around.begin(), around.end()); it != around.end()) return *it;
    return std::nullopt;
}

} // namespace

// Below this many edge slots the checks run on one thread: a thread costs more than it saves.
constexpr std::uint32_t parallel_from = 1u << 16;

std::optional<std::string> Mesh::validate() const {
    if (holds_quickly()) return std::nullopt;
    if (auto problem = validate_by_walking()) return problem;
    return "the quick and the walking checks disagree (a bug in Mesh::validate)";
}

// The quick check proves the same invariants as validate_by_walking, loading each edge's
// record once, which is what a million-vertex load waits on. Each live vertex's ring is walked
// from its edge; every step checks, on the record of x = origin_next(e) it loads anyway, that x
// starts at the same vertex, that origin_prev(x) == e and that right(x) == left(e).
// - A walk ends: with origin_prev(next) == current at every step, the first repeated edge can
//   only be the first one. Walks from distinct vertices share no edge (every edge walked starts
//   at the walk's vertex), so all walks together take at most one step per edge.
// - If the walks cover all 2 * quad_count live edges, every edge is on its origin's one ring,
//   origin_next is a permutation of the live primal edges that keeps origins, with
//   origin_prev its inverse, and the dual rings (read off the same records) follow. Edges of
//   deleted or isolated vertices would not be reached.
// - Faces on the left are counted per face, modulo 256. Each live face's edge must be live with
//   the face on its left and the face counted 3 times; with 3 * face_count counts in all, every
//   live face has exactly 3 edges and deleted faces none. Those 3 edges are closed under
//   left_next (left(left_next(e)) == right(origin_next(left_next(e))) == left(e)), and their
//   orbits cannot be a loop (refused) or two edges between the same vertices (a repeated
//   neighbour, refused), so they are one triangle.
// - validate_elements (counts, free lists, no half-deleted quad-edge) is shared with the walk;
//   the counts above are only meaningful once it passes, which it must for a true answer.
bool Mesh::holds_quickly() const {
    const std::uint32_t faces = face_slots();
    const std::uint32_t vertices = vertex_slots();
    const bool parallel = edge_slots() >= parallel_from;
    std::vector<std::uint8_t> face_hits[2];
    std::size_t with_face[2] = {0, 0};
    std::size_t ring_edges[2] = {0, 0};
    face_hits[0].assign(faces, 0);
    bool holds[2] = {true, true};
    if (parallel) {
        face_hits[1].assign(faces, 0);
        std::thread other([&] {
            holds[1] = rings_hold(vertices / 2, vertices, face_hits[1].data(), with_face[1],
                                  ring_edges[1]);
        });
        holds[0] = rings_hold(0, vertices / 2, face_hits[0].data(), with_face[0], ring_edges[0]);
        other.join();
    } else {
        holds[0] = rings_hold(0, vertices, face_hits[0].data(), with_face[0], ring_edges[0]);
    }
    if (!holds[0] || !holds[1]) return false;
    if (ring_edges[0] + ring_edges[1] != 2 * quad_count_) return false;
    if (with_face[0] + with_face[1] != 3 * face_count_) return false;
    // The element checks (counts, free lists, no half-deleted quad-edge) beside the faces'.
    const std::uint8_t* other_hits = parallel ? face_hits[1].data() : nullptr;
    if (!parallel)
        return faces_hold(0, faces, face_hits[0].data(), other_hits) && !validate_elements();
    bool elements_hold = false;
    std::thread other([&] { elements_hold = !validate_elements(); });
    const bool faces_held = faces_hold(0, faces, face_hits[0].data(), other_hits);
    other.join();
    return faces_held && elements_hold;
}

bool Mesh::rings_hold(std::uint32_t first_vertex, std::uint32_t end_vertex, std::uint8_t* face_hits,
                      std::size_t& with_face, std::size_t& ring_edges) const {
    const std::uint32_t slots = edge_slots();
    const std::uint32_t faces = face_slots();
    constexpr std::size_t short_ring = 16; // longer rings are checked for repeats by sorting
    std::array<Vertex, short_ring> around;
    std::vector<Vertex> long_ring;
    std::size_t faces_seen = 0, edges_seen = 0;
    for (std::uint32_t i = first_vertex; i < end_vertex; ++i) {
        const Edge first = vertex_edge_[i];
        if (first == deleted_edge || !first.valid()) continue;
        if (first.mask() >= slots) return false; // also dual edges: their top bit is set
        const Vertex v{i};
        const Quad_record* r = &quads_[first.quad_index()];
        std::uint32_t h = first.mask() & 1;
        if (r->origin[h] != v) return false;
        std::size_t n = 0;
        Edge e = first;
        do {
            const Vertex dest = r->origin[h ^ 1];
            if (dest == v) return false;
            if (n < short_ring) around[n] = dest;
            ++n;
            const Face f = r->left[h];
            if (f.valid()) {
                if (f.index() >= faces) return false;
                ++face_hits[f.index()];
                ++faces_seen;
            }
            const Edge x = r->next[h];
            if (x.mask() >= slots) return false;
            const Quad_record* rx = &quads_[x.quad_index()];
            const std::uint32_t hx = x.mask() & 1;
            if (rx->origin[hx] != v || rx->prev[hx] != e || rx->left[hx ^ 1] != f) return false;
            e = x;
            r = rx;
            h = hx;
        } while (e != first);
        edges_seen += n;
        if (n <= short_ring) {
            if (repeated(std::span(around.data(), n))) return false;
        } else {
            long_ring.clear();
            for (const Edge x : Origin_ccw_range{*this, first})
                long_ring.push_back(x.dest(*this));
            if (repeated(long_ring)) return false;
        }
    }
    with_face += faces_seen;
    ring_edges += edges_seen;
    return true;
}

bool Mesh::faces_hold(std::uint32_t first_face, std::uint32_t end_face,
                      const std::uint8_t* face_hits_a, const std::uint8_t* face_hits_b) const {
    const std::uint32_t slots = edge_slots();
    for (std::uint32_t i = first_face; i < end_face; ++i) {
        const Edge e = face_edge_[i];
        if (!e.valid()) continue;
        if (e.mask() >= slots) return false;
        const Quad_record& r = quads_[e.quad_index()];
        const std::uint32_t h = e.mask() & 1;
        if (!r.origin[h].valid() || r.left[h] != Face{i}) return false;
        const auto hits =
            static_cast<std::uint8_t>(face_hits_a[i] + (face_hits_b ? face_hits_b[i] : 0));
        if (hits != 3) return false;
    }
    return true;
}

std::optional<std::string> Mesh::validate_by_walking() const {
    if (auto problem = validate_elements()) return problem;
    // The link checks and the ring and face checks read the mesh independently (each guards
    // its own reads, so neither relies on the other having passed), so on large meshes they run
    // side by side; the links' verdict comes first either way, as in a sequential run.
    std::size_t with_face = 0;         // live primal edges with a face on their left
    std::vector<std::uint8_t> on_face; // per edge slot: on the boundary of the face on its left
    std::optional<std::string> links, rings;
    if (edge_slots() < parallel_from) {
        links = validate_links(with_face);
        if (!links) rings = validate_rings_and_faces(on_face);
    } else {
        std::thread other([&] { rings = validate_rings_and_faces(on_face); });
        links = validate_links(with_face);
        other.join();
    }
    if (links) return links;
    if (rings) return rings;
    // Every face marked its three edges, each with the face on its left, so the marked edges
    // are among those with a face; equal counts mean no edge has a face it does not bound.
    if (with_face != 3 * face_count_) {
        for (std::uint32_t i = 0; i < edge_slots(); ++i) {
            const Edge e{i};
            if (!on_face[i] && contains(e) && e.left(*this).valid())
                return words(e, " has ", e.left(*this), " on its left but is not on its boundary");
        }
    }
    return std::nullopt;
}

std::optional<std::string> Mesh::validate_elements() const {
    const std::uint32_t slots = edge_slots();

    // Elements, counts and free lists.
    std::size_t live_vertices = 0, live_faces = 0, live_quads = 0;
    for (std::uint32_t i = 0; i < vertex_slots(); ++i)
        live_vertices += contains(Vertex{i});
    for (std::uint32_t i = 0; i < face_slots(); ++i)
        live_faces += contains(Face{i});
    for (std::uint32_t q = 0; q < slots / 2; ++q) {
        const bool a = quads_[q].origin[0].valid(), b = quads_[q].origin[1].valid();
        if (a != b) return words("quad-edge ", q, " is half deleted");
        live_quads += a;
    }
    if (live_vertices != vertex_count_) return "vertex count does not match the live vertices";
    if (live_faces != face_count_) return "face count does not match the live faces";
    if (live_quads != quad_count_) return "edge count does not match the live quad-edges";
    {
        std::vector<std::uint8_t> seen(vertex_slots(), 0);
        for (std::size_t i = 0; i < free_vertices_.size(); ++i) {
            const Vertex v = free_vertices_[i];
            if (v.index() >= vertex_slots() || contains(v) || seen[v.index()]++)
                return words("free vertex list entry ", v, " is live, repeated or out of range");
        }
        if (free_vertices_.size() != vertex_slots() - live_vertices)
            return "a deleted vertex is missing from the free list";
    }
    {
        std::vector<std::uint8_t> seen(face_slots(), 0);
        for (std::size_t i = 0; i < free_faces_.size(); ++i) {
            const Face f = free_faces_[i];
            if (f.index() >= face_slots() || contains(f) || seen[f.index()]++)
                return words("free face list entry ", f, " is live, repeated or out of range");
        }
        if (free_faces_.size() != face_slots() - live_faces)
            return "a deleted face is missing from the free list";
    }
    {
        std::vector<std::uint8_t> seen(slots / 2, 0);
        for (std::size_t i = 0; i < free_quads_.size(); ++i) {
            const std::uint32_t q = free_quads_[i];
            if (q >= slots / 2 || contains(Edge{2 * q}) || seen[q]++)
                return words("free edge list entry ", q, " is live, repeated or out of range");
        }
        if (free_quads_.size() != slots / 2 - live_quads)
            return "a deleted quad-edge is missing from the free list";
    }
    return std::nullopt;
}

std::optional<std::string> Mesh::validate_links(std::size_t& with_face) const {
    const std::uint32_t slots = edge_slots();
    // Primal rings: origins, links, and the dual rings that must follow them.
    std::vector<std::uint8_t> predecessors(slots, 0);
    for (std::uint32_t i = 0; i < slots; ++i) {
        const Edge p{i};
        if (!contains(p)) continue;
        const Vertex o = p.origin(*this);
        if (!contains(o)) return words(p, " starts at ", o, ", which is not a live vertex");
        if (o == p.dest(*this)) return words(p, " is a loop at ", o);
        const Edge x = p.origin_next(*this);
        if (!contains(x) || x.is_dual()) return words("origin_next of ", p, " is ", x);
        if (x.origin(*this) != o)
            return words("origin_next of ", p, " starts at ", x.origin(*this), ", not at ", o);
        if (predecessors[x.index()]++) return words(x, " follows two edges in its origin ring");
        if (x.origin_prev(*this) != p) return words("origin_prev of ", x, " is not ", p);
        const Face left = p.left(*this);
        if (left != x.right(*this))
            return words("the wedge between ", p, " and ", x, " has two faces, ", left, " and ",
                         x.right(*this));
        with_face += left.valid();
    }
    return std::nullopt;
}

std::optional<std::string>
Mesh::validate_rings_and_faces(std::vector<std::uint8_t>& on_face) const {
    const std::uint32_t slots = edge_slots();
    std::size_t live_quads = 0;
    for (std::uint32_t q = 0; q < slots / 2; ++q)
        live_quads += quads_[q].origin[0].valid();

    // Vertex rings: one ring per vertex through its edge, covering all its edges, no repeats.
    std::vector<std::uint8_t> in_ring(slots, 0);
    std::vector<Vertex> around;
    std::size_t ring_edges = 0;
    for (std::uint32_t i = 0; i < vertex_slots(); ++i) {
        const Vertex v{i};
        if (!contains(v)) continue;
        const Edge first = vertex_edge_[i];
        if (!first.valid()) continue;
        if (!contains(first) || first.is_dual() || first.origin(*this) != v)
            return words(v, " refers to ", first, ", which is not one of its edges");
        around.clear();
        Edge e = first;
        do {
            if (!contains(e) || e.is_dual())
                return words("the ring of ", v, " reaches ", e, ", which is not a live edge");
            if (in_ring[e.index()]++) return words("the ring of ", v, " does not close");
            around.push_back(e.dest(*this));
            e = e.origin_next(*this);
            ++ring_edges;
        } while (e != first);
        if (const auto twice = repeated(around))
            return words(v, " is connected to ", *twice, " by two edges");
    }
    if (ring_edges != 2 * live_quads) {
        for (std::uint32_t i = 0; i < slots; ++i)
            if (contains(Edge{i}) && !in_ring[i])
                return words(Edge{i}, " is not in the ring of its origin ", Edge{i}.origin(*this),
                             " (a second ring at that vertex, or an isolated vertex with edges)");
    }

    // Faces: each live face's boundary, from its edge, is a triangle of edges with the face on
    // their left; and every edge with a face on its left was reached that way. One walk per
    // face rather than per edge: on large meshes this loop dominates validate().
    on_face.assign(slots, 0);
    for (std::uint32_t i = 0; i < face_slots(); ++i) {
        const Face f{i};
        if (!contains(f)) continue;
        const Edge e = face_edge_[i];
        if (!contains(e) || e.is_dual() || e.left(*this) != f)
            return words(f, " refers to ", e, ", which does not have it on its left");
        const Edge e1 = e.left_next(*this);
        if (!contains(e1) || e1.is_dual()) return words("the boundary of ", f, " is broken");
        const Edge e2 = e1.left_next(*this);
        if (!contains(e2) || e2.is_dual() || e2.left_next(*this) != e || e1.left(*this) != f ||
            e2.left(*this) != f)
            return words("the boundary of ", f, " through ", e, " is not a triangle");
        for (const Edge x : {e, e1, e2})
            if (on_face[x.index()]++) return words(x, " lies on two faces' boundaries");
    }
    return std::nullopt;
}

} // namespace orbis
