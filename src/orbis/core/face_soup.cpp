// SPDX-License-Identifier: MIT
// Face soups: a bulk O(n) path for well-formed input, and add_face with retries for the rest.
#include "orbis/core/face_soup.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace orbis {

namespace {
constexpr std::uint32_t none = UINT32_MAX;
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
        return assemble(mesh, vertex_count, hs, numbering);
    }

    // Closed triangulations whose twins are known.
    static bool build_closed(Mesh& mesh, std::uint32_t vertex_count, std::span<const Triangle> tris,
                             std::span<const std::uint32_t> twin) {
        const Halves hs{tris};
        const std::size_t halves = hs.size();
        if (twin.size() != halves) return false;
        for (std::size_t h = 0; h < halves; ++h) {
            const std::uint32_t t = twin[h];
            if (hs.origin(h) >= vertex_count || t >= halves || twin[t] != h ||
                hs.origin(t) != hs.dest(h) || hs.dest(t) != hs.origin(h) ||
                hs.origin(h) == hs.dest(h))
                return false;
        }
        return assemble(mesh, vertex_count, hs, number_by_lower_vertex(hs, vertex_count, twin));
    }

    // Numbers the quad-edges vertex by vertex, each after the lower-numbered of its two vertices,
    // in half-edge order within a vertex. A vertex's ring then lies in its own few records and
    // in those of its lower neighbours, so that walking the rings in vertex order (validation,
    // one-ring queries, a loaded file's check) stays in cache when the vertices are numbered
    // along a curve, as Fibonacci points are. Precondition: origins are below vertex_count and
    // every half-edge has a twin, mutually.
    static Numbering number_by_lower_vertex(const Halves& hs, std::uint32_t vertex_count,
                                            std::span<const std::uint32_t> twin) {
        const std::size_t halves = hs.size();
        // The half-edge from the lower end owns the quad-edge (closed input: every half-edge
        // has a twin).
        auto owns = [&](std::size_t h) { return hs.origin(h) < hs.dest(h); };
        std::vector<std::uint32_t> start(std::size_t{vertex_count} + 1, 0);
        for (std::size_t h = 0; h < halves; ++h)
            if (owns(h)) ++start[hs.origin(h) + 1];
        for (std::uint32_t v = 0; v < vertex_count; ++v)
            start[v + 1] += start[v];
        Numbering numbering;
        numbering.edge_of.assign(halves, no_edge);
        numbering.halves_of.resize(start[vertex_count]);
        for (std::size_t h = 0; h < halves; ++h)
            if (owns(h)) numbering.set(start[hs.origin(h)]++, std::uint32_t(h), twin[h]);
        return numbering;
    }

    // Writes the records quad-edge by quad-edge, then checks that each vertex has one ring
    // through all its edges, with no two edges to the same neighbour (so no pinched fans and
    // no doubled edges get through).
    static bool assemble(Mesh& mesh, std::uint32_t vertex_count, const Halves& hs,
                         const Numbering& numbering) {
        const auto quads = static_cast<std::uint32_t>(numbering.halves_of.size());
        const auto& edge_of = numbering.edge_of;
        auto face_next = [](std::size_t h) { return h / 3 * 3 + (h + 1) % 3; };
        auto face_prev = [](std::size_t h) { return h / 3 * 3 + (h + 2) % 3; };

        // Boundary half-edges leaving and reaching each vertex: a ring continues across the gap
        // from the outside half of the one arriving to the one leaving.
        std::vector<std::uint32_t> boundary_out(vertex_count, none),
            boundary_in(vertex_count, none);
        for (const auto& [h, twin] : numbering.halves_of) {
            if (twin != none) continue;
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
        std::vector<std::uint32_t> degree(vertex_count, 0);
        std::vector<Edge> vertex_edge(vertex_count, no_edge);
        for (std::uint32_t q = 0; q < quads; ++q) {
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
                vertex_edge[b] = Edge{2 * q + 1};
            } else {
                b = hs.origin(face_next(h0));
                // Set whenever the gap exists (the loop above pairs them); kept as a guard so
                // that nothing below can index with `none`.
                if (boundary_out[b] == none || boundary_in[a] == none) return false;
                r.left[1] = no_face;
                r.next[1] = edge_of[boundary_out[b]];
                r.prev[0] = edge_of[boundary_in[a]].sym();
            }
            r.origin[1] = Vertex{b};
            vertex_edge[a] = Edge{2 * q};
            ++degree[a];
            ++degree[b];
        }

        constexpr std::uint32_t small = 64;
        Vertex around[small];
        for (std::uint32_t v = 0; v < vertex_count; ++v) {
            const Edge first = vertex_edge[v];
            if (!first.valid()) continue;
            std::uint32_t n = 0;
            Edge e = first;
            do {
                const auto& r = built.quads_[e.quad_index()];
                const Vertex dest = r.origin[(e.mask() & 1) ^ 1];
                if (n < small) {
                    for (std::uint32_t i = 0; i < n; ++i)
                        if (around[i] == dest) return false;
                    around[n] = dest;
                } else if (built.find_edge(Vertex{v}, dest) != e) {
                    return false;
                }
                e = r.next[e.mask() & 1];
                if (++n > degree[v]) return false;
            } while (e != first);
            if (n != degree[v]) return false;
        }

        std::vector<Edge> face_edge(hs.tris.size());
        for (std::size_t t = 0; t < face_edge.size(); ++t)
            face_edge[t] = edge_of[3 * t];
        assign(built.vertex_edge_, vertex_edge);
        assign(built.face_edge_, face_edge);
        built.vertex_count_ = vertex_count;
        built.face_count_ = face_edge.size();
        built.quad_count_ = quads;
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
                                     std::span<const std::uint32_t> opposite) {
    Mesh mesh;
    if (!Mesh_builder::build_closed(mesh, vertex_count, triangles, opposite) ||
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

} // namespace orbis
