// SPDX-License-Identifier: MIT
// Face soups: a bulk O(n) path for well-formed input, and add_face with retries for the rest.
#include "orbis/core/face_soup.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

namespace orbis {

namespace {
constexpr std::uint32_t none = UINT32_MAX;

/// Calls body(begin, end, part) on contiguous parts covering [0, n): one part, or two when
/// `threads` >= 2, part 1 on a second thread. `body` must not throw and its parts must write
/// disjoint data.
template <class Body>
void in_parts(std::size_t n, unsigned threads, Body&& body) {
    if (threads < 2 || n < 2) {
        body(std::size_t{0}, n, 0u);
        return;
    }
    const std::size_t middle = n / 2;
    std::thread other([&] { body(middle, n, 1u); });
    body(std::size_t{0}, middle, 0u);
    other.join();
}
} // namespace

/// Fills a Mesh's arrays directly from half-edges (friend of Mesh).
struct Mesh_builder {
    // Half-edge h = 3t+i runs from tris[t][i] to tris[t][(i+1)%3].
    struct Halves {
        std::span<const Triangle> tris;
        std::uint32_t origin(std::size_t h) const { return tris[h / 3][h % 3]; }
        std::uint32_t dest(std::size_t h) const { return tris[h / 3][(h + 1) % 3]; }
        std::size_t size() const { return tris.size() * 3; }
    };

    // The quad-edges' numbering: each half-edge's edge, and each quad-edge's two half-edges
    // (the second is `none` for a boundary edge, whose outside half has no triangle).
    struct Numbering {
        std::vector<Edge> edge_of;
        std::vector<std::array<std::uint32_t, 2>> halves_of;

        // Makes h (and its twin, if any) quad-edge q.
        void set(std::uint32_t q, std::uint32_t h, std::uint32_t twin) {
            edge_of[h] = Edge{2 * q};
            if (twin != none) edge_of[twin] = Edge{2 * q + 1};
            halves_of[q] = {h, twin};
        }
    };

    // Face soups. Every half-edge is filed under the lower of its two vertices, so a half-edge
    // and its twin share a short bucket; one pass over the buckets pairs the twins and numbers
    // the quad-edges in bucket order (each after its lower vertex, as number_by_lower_vertex
    // does for closed input). Returns false (mesh untouched) for input that is not manifold
    // with at most one open wedge per vertex.
    static bool build_soup(Mesh& mesh, std::uint32_t vertex_count, std::span<const Triangle> tris) {
        const Halves hs{tris};
        const std::size_t halves = hs.size();
        std::vector<std::uint32_t> start(std::size_t{vertex_count} + 1, 0);
        for (const auto& t : tris)
            for (int i = 0; i < 3; ++i) {
                const std::uint32_t a = t[i], b = t[(i + 1) % 3];
                if (a >= vertex_count || a == b) return false; // b is checked as an origin too
                ++start[std::min(a, b) + 1];
            }
        for (std::uint32_t v = 0; v < vertex_count; ++v)
            start[v + 1] += start[v];
        // A bucket entry: the half-edge, its upper vertex, and whether it leaves the lower one
        // (kept together so that the pairing below reads contiguous memory, not the triangles).
        struct Entry {
            std::uint32_t h, upper;
            bool from_lower;
        };
        std::vector<Entry> bucket(halves);
        {
            std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
            for (std::size_t t = 0; t < tris.size(); ++t)
                for (std::uint32_t i = 0; i < 3; ++i) {
                    const std::uint32_t a = tris[t][i], b = tris[t][(i + 1) % 3];
                    bucket[fill[std::min(a, b)]++] = {std::uint32_t(3 * t + i), std::max(a, b),
                                                      a < b};
                }
        }
        Numbering numbering;
        numbering.edge_of.assign(halves, no_edge);
        numbering.halves_of.resize(halves); // at most one quad-edge per half-edge
        std::uint32_t quads = 0;
        for (std::uint32_t u = 0; u < vertex_count; ++u)
            for (std::uint32_t i = start[u]; i < start[u + 1]; ++i) {
                const Entry& x = bucket[i];
                // The twin runs the other way between the same two vertices; a second half-edge
                // the same way is a non-manifold edge.
                std::uint32_t other = none;
                for (std::uint32_t k = start[u]; k < start[u + 1]; ++k) {
                    const Entry& y = bucket[k];
                    if (k == i || y.upper != x.upper) continue;
                    if (y.from_lower == x.from_lower || other != none) return false;
                    other = k;
                }
                if (other == none)
                    numbering.set(quads++, x.h, none);
                else if (x.from_lower)
                    numbering.set(quads++, x.h, bucket[other].h);
            }
        numbering.halves_of.resize(quads);
        return assemble(mesh, vertex_count, hs, numbering, true, 1);
    }

    // Closed triangulations whose twins are known. The passes over half-edges, quad-edges and
    // vertices run on `threads` threads (1 or 2), with the same result; the prefix sum of the
    // numbering and the copies into the mesh's chunks stay on one.
    static bool build_closed(Mesh& mesh, std::uint32_t vertex_count, std::span<const Triangle> tris,
                             std::span<const std::uint32_t> twin, unsigned threads) {
        const Halves hs{tris};
        const std::size_t halves = hs.size();
        if (twin.size() != halves) return false;
        bool sound[2] = {true, true};
        in_parts(halves, threads, [&](std::size_t begin, std::size_t end, unsigned part) {
            for (std::size_t h = begin; h < end; ++h) {
                const std::uint32_t t = twin[h];
                if (hs.origin(h) >= vertex_count || t >= halves || twin[t] != h ||
                    hs.origin(t) != hs.dest(h) || hs.dest(t) != hs.origin(h) ||
                    hs.origin(h) == hs.dest(h)) {
                    sound[part] = false;
                    return;
                }
            }
        });
        if (!sound[0] || !sound[1]) return false;
        return assemble(mesh, vertex_count, hs,
                        number_by_lower_vertex(hs, vertex_count, twin, threads), false, threads);
    }

    // Numbers the quad-edges vertex by vertex, each after the lower-numbered of its two vertices,
    // in half-edge order within a vertex. A vertex's ring then lies in its own few records and
    // in those of its lower neighbours, so that walking the rings in vertex order (validation,
    // one-ring queries, a loaded file's check) stays in cache when the vertices are numbered
    // along a curve, as Fibonacci points are. Precondition: origins are below vertex_count and
    // every half-edge has a twin, mutually.
    //
    // On two threads each part counts its own half-edges per vertex; the second part's numbers
    // for a vertex start after the first part's, which is the one-thread order.
    static Numbering number_by_lower_vertex(const Halves& hs, std::uint32_t vertex_count,
                                            std::span<const std::uint32_t> twin, unsigned threads) {
        const std::size_t halves = hs.size();
        // The half-edge from the lower end owns the quad-edge (closed input: every half-edge
        // has a twin).
        auto owns = [&](std::size_t h) { return hs.origin(h) < hs.dest(h); };
        std::vector<std::uint32_t> next[2];
        next[0].assign(vertex_count, 0);
        if (threads >= 2) next[1].assign(vertex_count, 0);
        in_parts(halves, threads, [&](std::size_t begin, std::size_t end, unsigned part) {
            std::uint32_t* count = next[part].data();
            for (std::size_t h = begin; h < end; ++h)
                if (owns(h)) ++count[hs.origin(h)];
        });
        std::uint32_t quads = 0;
        for (std::uint32_t v = 0; v < vertex_count; ++v) {
            const std::uint32_t first = next[0][v];
            next[0][v] = quads;
            quads += first;
            if (threads < 2) continue;
            const std::uint32_t second = next[1][v];
            next[1][v] = quads;
            quads += second;
        }
        Numbering numbering;
        numbering.edge_of.resize(halves); // every half-edge is set below
        numbering.halves_of.resize(quads);
        in_parts(halves, threads, [&](std::size_t begin, std::size_t end, unsigned part) {
            std::uint32_t* q = next[part].data();
            for (std::size_t h = begin; h < end; ++h)
                if (owns(h)) numbering.set(q[hs.origin(h)]++, std::uint32_t(h), twin[h]);
        });
        return numbering;
    }

    // Writes the records quad-edge by quad-edge, then checks that each vertex has one ring
    // through all its edges, with no two edges to the same neighbour (so no pinched fans and
    // no doubled edges get through). Only input that may_be_open is scanned for boundary
    // half-edges (a closed triangulation's twins are all known). On two threads each part writes
    // its own quad-edges' records; a vertex's edge is the last quad-edge's to name it, as on one
    // thread, so the second part's choice wins where it made one.
    static bool assemble(Mesh& mesh, std::uint32_t vertex_count, const Halves& hs,
                         const Numbering& numbering, bool may_be_open, unsigned threads) {
        const auto quads = static_cast<std::uint32_t>(numbering.halves_of.size());
        const auto& edge_of = numbering.edge_of;
        auto face_next = [](std::size_t h) { return h / 3 * 3 + (h + 1) % 3; };
        auto face_prev = [](std::size_t h) { return h / 3 * 3 + (h + 2) % 3; };

        // Boundary half-edges leaving and reaching each vertex: a ring continues across the gap
        // from the outside half of the one arriving to the one leaving.
        std::vector<std::uint32_t> boundary_out, boundary_in;
        for (const auto& [h, twin] :
             std::span(numbering.halves_of.data(), may_be_open ? numbering.halves_of.size() : 0)) {
            if (twin != none) continue;
            if (boundary_out.empty()) {
                boundary_out.assign(vertex_count, none);
                boundary_in.assign(vertex_count, none);
            }
            const std::uint32_t o = hs.origin(h), d = hs.origin(face_next(h));
            if (boundary_out[o] != none || boundary_in[d] != none)
                return false; // two open wedges at one vertex
            boundary_out[o] = h;
            boundary_in[d] = h;
        }

        // Written straight into the chunks of a new mesh that replaces `mesh` only on success.
        // Around its origin, a half-edge h is followed by the reverse of the face's half-edge
        // arriving there, face_prev(h), and preceded by the half-edge after its twin in the
        // twin's face (or, on the boundary, by the outside half arriving at the gap).
        Mesh built;
        built.quads_.resize(quads);
        std::vector<std::uint32_t> degree[2];
        std::vector<Edge> vertex_edge[2];
        for (unsigned part = 0; part < (threads >= 2 ? 2u : 1u); ++part) {
            degree[part].assign(vertex_count, 0);
            vertex_edge[part].assign(vertex_count, no_edge);
        }
        bool sound[2] = {true, true};
        in_parts(quads, threads, [&](std::size_t begin, std::size_t end, unsigned part) {
            std::uint32_t* degree_of = degree[part].data();
            Edge* edge_at = vertex_edge[part].data();
            for (auto q = std::uint32_t(begin); q < end; ++q) {
                const auto [h0, h1] = numbering.halves_of[q];
                Mesh::Quad_record& r = built.quads_.mut(q);
                const std::uint32_t a = hs.origin(h0);
                r.origin[0] = Vertex{a};
                r.left[0] = Face{h0 / 3};
                r.next[0] = edge_of[face_prev(h0)].sym();
                r.prev[1] = edge_of[face_next(h0)];
                std::uint32_t b;
                if (h1 != none) {
                    b = hs.origin(h1);
                    r.left[1] = Face{h1 / 3};
                    r.next[1] = edge_of[face_prev(h1)].sym();
                    r.prev[0] = edge_of[face_next(h1)];
                    edge_at[b] = Edge{2 * q + 1};
                } else {
                    b = hs.origin(face_next(h0));
                    // Set whenever the gap exists (the loop above pairs them); kept as a guard
                    // so that nothing below can index with `none`.
                    if (boundary_out.empty() || boundary_out[b] == none || boundary_in[a] == none) {
                        sound[part] = false;
                        return;
                    }
                    r.left[1] = no_face;
                    r.next[1] = edge_of[boundary_out[b]];
                    r.prev[0] = edge_of[boundary_in[a]].sym();
                }
                r.origin[1] = Vertex{b};
                edge_at[a] = Edge{2 * q};
                ++degree_of[a];
                ++degree_of[b];
            }
        });
        if (!sound[0] || !sound[1]) return false;
        if (!degree[1].empty())
            in_parts(vertex_count, threads, [&](std::size_t begin, std::size_t end, unsigned) {
                for (std::size_t v = begin; v < end; ++v) {
                    degree[0][v] += degree[1][v];
                    if (vertex_edge[1][v].valid()) vertex_edge[0][v] = vertex_edge[1][v];
                }
            });

        // The ring check below looks long rings up with find_edge, which starts from
        // vertex_edge_.
        assign(built.vertex_edge_, vertex_edge[0]);
        in_parts(vertex_count, threads, [&](std::size_t begin, std::size_t end, unsigned part) {
            constexpr std::uint32_t small = 64;
            Vertex around[small];
            for (auto v = std::uint32_t(begin); v < end; ++v) {
                const Edge first = vertex_edge[0][v];
                if (!first.valid()) continue;
                std::uint32_t n = 0;
                Edge e = first;
                do {
                    const auto& r = built.quads_[e.quad_index()];
                    const Vertex dest = r.origin[(e.mask() & 1) ^ 1];
                    if (n < small) {
                        for (std::uint32_t i = 0; i < n; ++i)
                            if (around[i] == dest) sound[part] = false;
                        around[n] = dest;
                    } else if (built.find_edge(Vertex{v}, dest) != e) {
                        sound[part] = false;
                    }
                    e = r.next[e.mask() & 1];
                    if (++n > degree[0][v]) sound[part] = false;
                } while (sound[part] && e != first);
                if (!sound[part] || n != degree[0][v]) {
                    sound[part] = false;
                    return;
                }
            }
        });
        if (!sound[0] || !sound[1]) return false;

        std::vector<Edge> face_edge(hs.tris.size());
        in_parts(face_edge.size(), threads, [&](std::size_t begin, std::size_t end, unsigned) {
            for (std::size_t t = begin; t < end; ++t)
                face_edge[t] = edge_of[3 * t];
        });
        assign(built.face_edge_, face_edge);
        built.vertex_count_ = vertex_count;
        built.face_count_ = face_edge.size();
        built.quad_count_ = quads;
        mesh = std::move(built);
        return true;
    }

    // build_closed over old's vertex slots, then old's dead slots marked dead again with its
    // free list, so that ids handed out later are the ones old would have handed out.
    static bool build_replacing(Mesh& mesh, const Mesh& old, std::span<const Triangle> tris,
                                std::span<const std::uint32_t> twin, unsigned threads) {
        Mesh built;
        if (!build_closed(built, old.vertex_slots(), tris, twin, threads)) return false;
        for (std::uint32_t v = 0; v < old.vertex_slots(); ++v) {
            const bool used = built.vertex_edge_[v].valid();
            if (used != old.contains(Vertex{v})) return false;
            if (!used) built.vertex_edge_.set(v, Mesh::deleted_edge);
        }
        built.free_vertices_ = old.free_vertices_;
        built.vertex_count_ = old.vertex_count();
        mesh = std::move(built);
        return true;
    }

    template <class T, std::size_t Bits>
    static void assign(Chunked_array<T, Bits>& dst, const std::vector<T>& src) {
        constexpr std::size_t n = Chunked_array<T, Bits>::chunk_size;
        dst.resize(src.size());
        for (std::size_t c = 0; c < dst.chunk_count(); ++c)
            std::copy_n(src.data() + c * n, std::min(n, src.size() - c * n), dst.mut_chunk(c));
    }
};

std::vector<Refused_face> add_faces(Mesh& m, std::span<const Triangle> triangles,
                                    std::vector<Face>* faces) {
    std::vector<Face> added(triangles.size(), no_face);
    std::vector<Refused_face> refused;
    std::vector<std::size_t> pending(triangles.size());
    for (std::size_t i = 0; i < pending.size(); ++i)
        pending[i] = i;
    std::vector<std::optional<Refusal>> last(triangles.size());
    while (!pending.empty()) {
        std::vector<std::size_t> retry;
        for (const std::size_t i : pending) {
            const auto& t = triangles[i];
            auto refusal = m.try_add_face(Vertex{t[0]}, Vertex{t[1]}, Vertex{t[2]}, &added[i]);
            if (!refusal) continue;
            last[i] = refusal;
            if (refusal->kind == Refusal_kind::ambiguous_fan)
                retry.push_back(i);
            else
                refused.push_back({i, *refusal});
        }
        if (retry.size() == pending.size()) {
            for (const std::size_t i : retry)
                refused.push_back({i, *last[i]});
            break;
        }
        pending = std::move(retry);
    }
    std::sort(refused.begin(), refused.end(),
              [](const Refused_face& a, const Refused_face& b) { return a.index < b.index; });
    if (faces) *faces = std::move(added);
    return refused;
}

Face_soup_result build_from_face_soup(std::uint32_t vertex_count,
                                      std::span<const Triangle> triangles) {
    Face_soup_result result;
    if (Mesh_builder::build_soup(result.mesh, vertex_count, triangles)) {
        result.faces.resize(triangles.size());
        for (std::size_t i = 0; i < triangles.size(); ++i)
            result.faces[i] = Face{std::uint32_t(i)};
        return result;
    }

    result.mesh.add_vertices(vertex_count);
    result.refused = add_faces(result.mesh, triangles, &result.faces);
    return result;
}

Mesh build_from_closed_triangulation(std::uint32_t vertex_count,
                                     std::span<const Triangle> triangles,
                                     std::span<const std::uint32_t> opposite, unsigned threads) {
    Mesh mesh;
    if (!Mesh_builder::build_closed(mesh, vertex_count, triangles, opposite, threads) ||
        mesh.vertex_count() != vertex_count)
        throw std::invalid_argument("build_from_closed_triangulation: the " +
                                    std::to_string(triangles.size()) +
                                    " triangles are not a closed manifold triangulation of " +
                                    std::to_string(vertex_count) + " vertices");
    for (std::uint32_t v = 0; v < vertex_count; ++v)
        if (!Vertex{v}.edge(mesh).valid())
            throw std::invalid_argument("build_from_closed_triangulation: vertex " +
                                        std::to_string(v) + " is in no triangle");
    return mesh;
}

Mesh rebuild_closed_triangulation(const Mesh& old, std::span<const Triangle> triangles,
                                  std::span<const std::uint32_t> opposite, unsigned threads) {
    Mesh mesh;
    if (!Mesh_builder::build_replacing(mesh, old, triangles, opposite, threads))
        throw std::invalid_argument("rebuild_closed_triangulation: the " +
                                    std::to_string(triangles.size()) +
                                    " triangles are not a closed manifold triangulation of the " +
                                    std::to_string(old.vertex_count()) + " live vertices");
    return mesh;
}

} // namespace orbis
