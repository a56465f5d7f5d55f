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

    // Face soups. Every half-edge is filed under the lower of its two vertices, so a half-edge
    // and its twin share a short bucket; one pass over the buckets pairs the twins and numbers
    // the quad-edges in bucket order (each after its lower vertex, as number_by_lower_vertex
    // does for closed input). Returns false (mesh untouched) for input that is not manifold
    // with at most one open wedge per vertex.
    static bool build_soup(Mesh& mesh, std::uint32_t vertex_count, std::span<const Triangle> tris) {
        const Halves hs{tris};
        const std::size_t halves = hs.size();
        std::vector<std::uint32_t> start(vertex_count + 1, 0);
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
        std::vector<std::uint32_t> twin(halves, none);
        std::vector<Edge> edge_of(halves, no_edge);
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
                if (other == none) {
                    edge_of[x.h] = Edge{2 * quads++};
                } else if (x.from_lower) {
                    const std::uint32_t y = bucket[other].h;
                    twin[x.h] = y;
                    twin[y] = x.h;
                    edge_of[x.h] = Edge{2 * quads};
                    edge_of[y] = Edge{2 * quads + 1};
                    ++quads;
                }
            }
        return assemble(mesh, vertex_count, hs, twin, edge_of, quads);
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
        std::vector<Edge> edge_of;
        const std::uint32_t quads = number_by_lower_vertex(hs, vertex_count, twin, edge_of);
        return assemble(mesh, vertex_count, hs, twin, edge_of, quads);
    }

    // Numbers the quad-edges vertex by vertex, each after the lower-numbered of its two vertices,
    // in half-edge order within a vertex. A vertex's ring then lies in its own few records and
    // in those of its lower neighbours, so that walking the rings in vertex order (validation,
    // one-ring queries, a loaded file's check) stays in cache when the vertices are numbered
    // along a curve, as Fibonacci points are. Precondition: origins are below vertex_count and
    // twins are mutual. Returns the number of quad-edges.
    static std::uint32_t number_by_lower_vertex(const Halves& hs, std::uint32_t vertex_count,
                                                std::span<const std::uint32_t> twin,
                                                std::vector<Edge>& edge_of) {
        const std::size_t halves = hs.size();
        // The half-edge that owns its quad-edge: the boundary one, or the one from the lower end.
        auto owns = [&](std::size_t h) { return twin[h] == none || hs.origin(h) < hs.dest(h); };
        auto lower = [&](std::size_t h) { return std::min(hs.origin(h), hs.dest(h)); };
        std::vector<std::uint32_t> start(vertex_count + 1, 0);
        for (std::size_t h = 0; h < halves; ++h)
            if (owns(h)) ++start[lower(h) + 1];
        for (std::uint32_t v = 0; v < vertex_count; ++v)
            start[v + 1] += start[v];
        const std::uint32_t quads = start[vertex_count];
        edge_of.assign(halves, no_edge);
        for (std::size_t h = 0; h < halves; ++h)
            if (owns(h)) {
                const std::uint32_t q = start[lower(h)]++;
                edge_of[h] = Edge{2 * q};
                if (twin[h] != none) edge_of[twin[h]] = Edge{2 * q + 1};
            }
        return quads;
    }

    // Writes the records of every quad-edge, then checks that each vertex has one ring through
    // all its edges, with no two edges to the same neighbour (so no pinched fans and no
    // doubled edges get through).
    static bool assemble(Mesh& mesh, std::uint32_t vertex_count, const Halves& hs,
                         std::span<const std::uint32_t> twin, std::span<const Edge> edge_of,
                         std::uint32_t quads) {
        const std::size_t halves = hs.size();
        // The boundary half-edge leaving each vertex: where its ring continues after the gap.
        std::vector<std::uint32_t> boundary_out(vertex_count, none);
        std::vector<std::uint32_t> degree(vertex_count, 0);
        std::vector<Edge> vertex_edge(vertex_count, no_edge);
        for (std::size_t h = 0; h < halves; ++h) {
            const std::uint32_t o = hs.origin(h);
            ++degree[o];
            vertex_edge[o] = edge_of[h];
            if (twin[h] == none) {
                if (boundary_out[o] != none) return false; // two open wedges at o
                boundary_out[o] = std::uint32_t(h);
                ++degree[hs.dest(h)]; // the outside half runs dest -> origin
            }
        }

        // Written straight into the chunks of a new mesh that replaces `mesh` only on success.
        Mesh built;
        built.quads_.resize(quads);
        auto at = [&](Edge e) -> Mesh::Quad_record& { return built.quads_.mut(e.quad_index()); };
        auto link = [&](Edge p, Edge x) {
            at(p).next[p.mask() & 1] = x;
            at(x).prev[x.mask() & 1] = p;
        };
        for (std::size_t h = 0; h < halves; ++h) {
            const Edge e = edge_of[h];
            auto& r = at(e);
            r.origin[e.mask() & 1] = Vertex{hs.origin(h)};
            r.left[e.mask() & 1] = Face{std::uint32_t(h / 3)};
            // At the origin of h, the face's incoming half-edge comes back right after h.
            link(e, edge_of[h / 3 * 3 + (h + 2) % 3].sym());
            if (twin[h] == none) {
                // The outside half runs dest -> origin; after it comes the gap, then the
                // boundary half-edge that starts at dest.
                const Edge o = e.sym();
                const std::uint32_t d = hs.dest(h);
                if (boundary_out[d] == none) return false;
                at(o).origin[o.mask() & 1] = Vertex{d};
                link(o, edge_of[boundary_out[d]]);
            }
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
