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
    // Returns false (mesh untouched) when the input is not manifold with at most one open
    // wedge per vertex; `twins` may be empty, then twins are found through the vertices.
    static bool build(Mesh& mesh, std::uint32_t vertex_count, std::span<const Triangle> tris,
                      std::span<const std::uint32_t> twins_in) {
        const std::size_t halves = tris.size() * 3;
        auto origin_of = [&](std::size_t h) { return tris[h / 3][h % 3]; };
        auto dest_of = [&](std::size_t h) { return tris[h / 3][(h + 1) % 3]; };

        // Outgoing half-edges of each vertex, in compressed rows.
        std::vector<std::uint32_t> start(vertex_count + 1, 0);
        for (const auto& t : tris)
            for (std::uint32_t v : t) {
                if (v >= vertex_count) return false;
                ++start[v + 1];
            }
        for (std::uint32_t v = 0; v < vertex_count; ++v)
            start[v + 1] += start[v];
        std::vector<std::uint32_t> out(halves);
        {
            std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
            for (std::size_t h = 0; h < halves; ++h)
                out[fill[origin_of(h)]++] = std::uint32_t(h);
        }

        std::vector<std::uint32_t> twin;
        if (twins_in.empty()) {
            twin.assign(halves, none);
            for (std::size_t h = 0; h < halves; ++h) {
                const std::uint32_t u = origin_of(h), v = dest_of(h);
                if (u == v) return false;
                for (std::uint32_t k = start[v]; k < start[v + 1]; ++k) {
                    if (dest_of(out[k]) != u) continue;
                    if (twin[h] != none) return false; // two edges v->u
                    twin[h] = out[k];
                }
                for (std::uint32_t k = start[u]; k < start[u + 1]; ++k)
                    if (out[k] != h && dest_of(out[k]) == v) return false; // u->v twice
            }
        } else {
            if (twins_in.size() != halves) return false;
            twin.assign(twins_in.begin(), twins_in.end());
            for (std::size_t h = 0; h < halves; ++h)
                if (twin[h] >= halves || twin[twin[h]] != h || origin_of(twin[h]) != dest_of(h) ||
                    dest_of(twin[h]) != origin_of(h))
                    return false;
            // Consistent twins can still pair two different edges between the same vertices.
            for (std::uint32_t v = 0; v < vertex_count; ++v)
                for (std::uint32_t i = start[v]; i < start[v + 1]; ++i)
                    for (std::uint32_t k = i + 1; k < start[v + 1]; ++k)
                        if (dest_of(out[i]) == dest_of(out[k])) return false;
        }

        // Quad-edges numbered vertex by vertex, so the edges of a vertex sit together.
        std::vector<Edge> edge_of(halves, no_edge);
        std::vector<std::uint32_t> boundary_out(vertex_count, none); // the half after the gap
        std::uint32_t quads = 0;
        for (std::uint32_t v = 0; v < vertex_count; ++v) {
            for (std::uint32_t k = start[v]; k < start[v + 1]; ++k) {
                const std::uint32_t h = out[k];
                if (twin[h] == none) {
                    if (boundary_out[v] != none) return false; // two open wedges at v
                    boundary_out[v] = h;
                    edge_of[h] = Edge{2 * quads++};
                } else if (v < dest_of(h)) {
                    edge_of[h] = Edge{2 * quads};
                    edge_of[twin[h]] = Edge{2 * quads + 1};
                    ++quads;
                }
            }
        }

        const std::size_t slots = std::size_t{quads} * 2;
        std::vector<Vertex> origin(slots);
        std::vector<Edge> next(slots, no_edge);
        std::vector<Face> left(slots, no_face);
        for (std::size_t h = 0; h < halves; ++h) {
            const Edge e = edge_of[h];
            origin[e.index()] = Vertex{origin_of(h)};
            left[e.index()] = Face{std::uint32_t(h / 3)};
            const std::size_t prev = h / 3 * 3 + (h + 2) % 3;
            next[e.index()] = edge_of[prev].sym();
            if (twin[h] == none) {
                // The outside half runs dest -> origin; after it comes the gap, then the
                // boundary half-edge that starts at dest.
                const Edge o = e.sym();
                const std::uint32_t d = dest_of(h);
                if (boundary_out[d] == none) return false;
                origin[o.index()] = Vertex{d};
                next[o.index()] = edge_of[boundary_out[d]];
            }
        }

        // Each vertex must have a single ring through all its edges (no pinched fans).
        std::vector<Edge> vertex_edge(vertex_count, no_edge);
        for (std::uint32_t v = 0; v < vertex_count; ++v) {
            // Outgoing triangle half-edges plus the outside half that ends the open wedge.
            const std::uint32_t degree =
                start[v + 1] - start[v] + (boundary_out[v] != none ? 1u : 0u);
            if (start[v + 1] == start[v]) continue;
            const Edge first = edge_of[out[start[v]]];
            vertex_edge[v] = first;
            std::uint32_t n = 0;
            Edge e = first;
            do {
                e = next[e.index()];
                if (++n > degree) return false;
            } while (e != first);
            if (n != degree) return false;
        }

        std::vector<Mesh::Quad_record> records(quads);
        for (std::size_t i = 0; i < slots; ++i) {
            const Edge p{std::uint32_t(i)};
            const Edge x = next[i];
            const Edge xr = x.rot(), pl = p.inv_rot();
            records[i >> 1].next[i & 1] = x;
            records[i >> 1].origin[i & 1] = origin[i];
            records[xr.quad_index()].dual_next[xr.mask() & 1] = pl;
            records[pl.quad_index()].dual_origin[pl.mask() & 1] = left[i];
        }
        std::vector<Edge> face_edge(tris.size());
        for (std::size_t t = 0; t < tris.size(); ++t)
            face_edge[t] = edge_of[3 * t];

        mesh = Mesh{};
        assign(mesh.vertex_edge_, vertex_edge);
        assign(mesh.face_edge_, face_edge);
        assign(mesh.quads_, records);
        mesh.vertex_count_ = vertex_count;
        mesh.face_count_ = tris.size();
        mesh.quad_count_ = quads;
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

Face_soup_result build_from_face_soup(std::uint32_t vertex_count,
                                      std::span<const Triangle> triangles) {
    Face_soup_result result;
    if (Mesh_builder::build(result.mesh, vertex_count, triangles, {})) {
        result.faces.resize(triangles.size());
        for (std::size_t i = 0; i < triangles.size(); ++i)
            result.faces[i] = Face{std::uint32_t(i)};
        return result;
    }

    Mesh& m = result.mesh;
    m.add_vertices(vertex_count);
    result.faces.assign(triangles.size(), no_face);
    std::vector<std::size_t> pending(triangles.size());
    for (std::size_t i = 0; i < pending.size(); ++i)
        pending[i] = i;
    std::vector<std::optional<Refusal>> last(triangles.size());
    while (!pending.empty()) {
        std::vector<std::size_t> retry;
        for (const std::size_t i : pending) {
            const auto& t = triangles[i];
            auto refusal =
                m.try_add_face(Vertex{t[0]}, Vertex{t[1]}, Vertex{t[2]}, &result.faces[i]);
            if (!refusal) continue;
            last[i] = refusal;
            if (refusal->kind == Refusal_kind::ambiguous_fan)
                retry.push_back(i);
            else
                result.refused.push_back({i, *refusal});
        }
        if (retry.size() == pending.size()) {
            for (const std::size_t i : retry)
                result.refused.push_back({i, *last[i]});
            break;
        }
        pending = std::move(retry);
    }
    std::sort(result.refused.begin(), result.refused.end(),
              [](const Refused_face& a, const Refused_face& b) { return a.index < b.index; });
    return result;
}

Mesh build_from_closed_triangulation(std::uint32_t vertex_count,
                                     std::span<const Triangle> triangles,
                                     std::span<const std::uint32_t> opposite) {
    Mesh mesh;
    if (!Mesh_builder::build(mesh, vertex_count, triangles, opposite) ||
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
