// SPDX-License-Identifier: MIT
// build_from_face_soup, build_from_closed_triangulation and rebuild_closed_triangulation (SPEC
// "Construction").
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

namespace orbis {
namespace {

// Every face of the result is the input triangle at the same position (up to rotation).
void expect_faces_match_input(const Face_soup_result& r, const std::vector<Triangle>& input) {
    ASSERT_EQ(r.faces.size(), input.size());
    for (std::size_t i = 0; i < input.size(); ++i) {
        if (!r.faces[i].valid()) continue;
        ASSERT_TRUE(r.mesh.contains(r.faces[i])) << "input " << i;
        EXPECT_EQ(test::canonical(test::corners(r.mesh, r.faces[i])), test::canonical(input[i]))
            << "input " << i;
    }
}

TEST(FaceSoup, BulkPathNumbersFacesInInputOrder) {
    // Well-formed input in any order: face i is Face(i), nothing refused.
    std::mt19937_64 rng(11);
    for (const auto& shape : {test::tetrahedron(), test::octahedron(), test::icosphere(2),
                              test::torus(5, 4), test::disc(3)}) {
        SCOPED_TRACE(shape.name);
        for (int i = 0; i < 20; ++i) {
            const auto order = test::shuffled(shape.triangles, rng);
            const auto r = build_from_face_soup(shape.vertex_count, order);
            EXPECT_TRUE(r.refused.empty());
            ASSERT_EQ(r.faces.size(), order.size());
            for (std::size_t f = 0; f < order.size(); ++f)
                EXPECT_EQ(r.faces[f], Face{static_cast<std::uint32_t>(f)});
            expect_faces_match_input(r, order);
            ASSERT_TRUE(test::valid(r.mesh));
            // The bulk path's layout: each quad-edge after the lower of its vertices, so the
            // lower ends never decrease along the quad-edges (add_face would not give this).
            std::uint32_t lower = 0;
            for (std::uint32_t q = 0; q < r.mesh.edge_slots() / 2; ++q) {
                const Edge e{2 * q};
                const std::uint32_t v = std::min(e.origin(r.mesh).index(), e.dest(r.mesh).index());
                EXPECT_LE(lower, v) << "quad-edge " << q;
                lower = v;
            }
            EXPECT_EQ(r.mesh.vertex_count(), shape.vertex_count);
            EXPECT_EQ(r.mesh.face_count(), order.size());
            EXPECT_EQ(test::euler_characteristic(r.mesh), shape.euler);
        }
    }
}

TEST(FaceSoup, BulkResultSupportsEdits) {
    // The bulk path fills the arrays directly; edits afterwards must find them consistent.
    auto r = build_from_face_soup(162, test::icosphere(2).triangles);
    Mesh& m = r.mesh;
    const Edge n = m.split(Edge{0});
    m.flip(n.origin_next(m));
    m.collapse(n.sym());
    EXPECT_TRUE(test::valid(m));
    EXPECT_EQ(test::euler_characteristic(m), 2);
    const Vertex v = m.add_vertex();
    EXPECT_TRUE(v.edges(m).empty());
}

TEST(FaceSoup, EmptySoupAndUnusedVertices) {
    const auto empty = build_from_face_soup(3, {});
    EXPECT_EQ(empty.mesh.vertex_count(), 3u);
    EXPECT_EQ(empty.mesh.face_count(), 0u);
    EXPECT_TRUE(empty.refused.empty());
    EXPECT_TRUE(test::valid(empty.mesh));

    // Vertices no triangle uses stay isolated.
    const auto shape = test::octahedron();
    const auto r = build_from_face_soup(shape.vertex_count + 2, shape.triangles);
    EXPECT_TRUE(r.refused.empty());
    EXPECT_TRUE(test::valid(r.mesh));
    EXPECT_EQ(r.mesh.vertex_count(), shape.vertex_count + 2);
    EXPECT_EQ(Vertex{shape.vertex_count}.edge(r.mesh), no_edge);
}

TEST(FaceSoup, BowTieTakesTheAddFacePath) {
    // Two faces touching at one vertex: two open wedges there, which the bulk path rejects.
    const std::vector<Triangle> bow_tie{{0, 1, 2}, {0, 3, 4}};
    const auto r = build_from_face_soup(5, bow_tie);
    EXPECT_TRUE(r.refused.empty());
    ASSERT_TRUE(test::valid(r.mesh));
    EXPECT_EQ(r.mesh.face_count(), 2u);
    EXPECT_NE(r.faces[0], r.faces[1]);
    expect_faces_match_input(r, bow_tie);
    EXPECT_EQ(Vertex{0}.valence(r.mesh), 4);
}

TEST(FaceSoup, RetriesFacesRefusedForTheirOrder) {
    // A fan around 0 whose third face comes before the faces connecting it; a separate bow-tie
    // sends the whole soup down the add_face path. Everything gets added in the end.
    const std::vector<Triangle> soup{{0, 1, 2}, {0, 3, 4},   {0, 5, 6},  {0, 2, 3},  {0, 4, 5},
                                     {7, 8, 9}, {7, 10, 11}, {7, 9, 12}, {7, 13, 10}};
    const auto r = build_from_face_soup(14, soup);
    EXPECT_TRUE(r.refused.empty());
    ASSERT_TRUE(test::valid(r.mesh));
    EXPECT_EQ(r.mesh.face_count(), soup.size());
    EXPECT_TRUE(std::ranges::all_of(r.faces, [](Face f) { return f.valid(); }));
    expect_faces_match_input(r, soup);
    EXPECT_EQ(Vertex{0}.valence(r.mesh), 6);
    EXPECT_EQ(Vertex{0}.faces(r.mesh).size(), 5u);
}

TEST(FaceSoup, ReportsFacesThatCanNeverBeAdded) {
    const std::vector<Triangle> soup{
        {0, 1, 2},    // 0
        {0, 1, 2},    // 1: duplicate of 0
        {3, 4, 5},    // 2
        {4, 3, 6},    // 3
        {3, 4, 7},    // 4: third face on edge 3-4
        {0, 1, 99},   // 5: no vertex 99
        {8, 8, 9},    // 6: repeated vertex
        {10, 11, 12}, // 7
        {10, 13, 14}, // 8
        {10, 15, 16}, // 9: a third fan at 10 that nothing ever connects
        {2, 1, 17},   // 10
    };
    const auto r = build_from_face_soup(18, soup);
    ASSERT_TRUE(test::valid(r.mesh));
    ASSERT_EQ(r.refused.size(), 5u);
    const std::vector<std::pair<std::size_t, Refusal_kind>> expected{
        {1, Refusal_kind::duplicate_face},
        {4, Refusal_kind::edge_side_taken},
        {5, Refusal_kind::invalid_element},
        {6, Refusal_kind::repeated_vertex},
        {9, Refusal_kind::ambiguous_fan}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(r.refused[i].index, expected[i].first);
        EXPECT_EQ(r.refused[i].refusal.kind, expected[i].second) << r.refused[i].refusal.message();
        EXPECT_EQ(r.faces[expected[i].first], no_face);
    }
    EXPECT_EQ(r.mesh.face_count(), soup.size() - r.refused.size());
    for (std::size_t i = 0; i < soup.size(); ++i) {
        const bool refused =
            std::ranges::any_of(r.refused, [&](const Refused_face& x) { return x.index == i; });
        EXPECT_EQ(r.mesh.contains(r.faces[i]), !refused) << "input " << i;
    }
    expect_faces_match_input(r, soup);
}

TEST(FaceSoup, PinchedInputIsReportedNotCorrupted) {
    // Two tetrahedra sharing vertex 0: the second cannot be attached to a closed vertex.
    std::vector<Triangle> soup = test::tetrahedron().triangles;
    for (auto t : test::tetrahedron().triangles) {
        for (auto& v : t)
            if (v != 0) v += 3;
        soup.push_back(t);
    }
    std::mt19937_64 rng(5);
    for (int i = 0; i < 10; ++i) {
        const auto order = test::shuffled(soup, rng);
        const auto r = build_from_face_soup(7, order);
        ASSERT_TRUE(test::valid(r.mesh));
        EXPECT_FALSE(r.refused.empty());
        EXPECT_EQ(r.mesh.face_count() + r.refused.size(), soup.size());
        expect_faces_match_input(r, order);
    }
}

TEST(ClosedTriangulation, BuildsFromTwinArrays) {
    std::mt19937_64 rng(17);
    for (int level : {0, 2, 3}) {
        const auto shape = test::icosphere(level);
        for (const auto& order : {shape.triangles, test::shuffled(shape.triangles, rng)}) {
            const auto twins = test::twin_half_edges(order);
            const Mesh m = build_from_closed_triangulation(shape.vertex_count, order, twins);
            ASSERT_TRUE(test::valid(m));
            EXPECT_EQ(m.vertex_count(), shape.vertex_count);
            EXPECT_EQ(m.face_count(), order.size());
            EXPECT_EQ(test::euler_characteristic(m), 2);
            for (std::size_t i = 0; i < order.size(); ++i)
                ASSERT_EQ(test::canonical(test::corners(m, Face{static_cast<std::uint32_t>(i)})),
                          test::canonical(order[i]));
            // The same surface as the face soup builds.
            EXPECT_EQ(test::face_corners(m),
                      test::face_corners(build_from_face_soup(shape.vertex_count, order).mesh));
        }
    }
}

TEST(ClosedTriangulation, TwoThreadsBuildTheSameMeshAsOne) {
    std::mt19937_64 rng(23);
    for (int level : {0, 1, 3}) {
        const auto shape = test::icosphere(level);
        for (const auto& order : {shape.triangles, test::shuffled(shape.triangles, rng)}) {
            const auto twins = test::twin_half_edges(order);
            const Mesh one = build_from_closed_triangulation(shape.vertex_count, order, twins, 1);
            const Mesh two = build_from_closed_triangulation(shape.vertex_count, order, twins, 2);
            ASSERT_TRUE(test::valid(two));
            EXPECT_TRUE(one == two) << "level " << level;
            // Every vertex keeps the edge one thread gives it (the last quad-edge naming it).
            for (const Vertex v : one.vertices())
                ASSERT_EQ(v.edge(one), v.edge(two)) << "vertex " << v.index();
        }
    }
}

/// Every refusal of build_from_closed_triangulation, on `threads` threads.
void refuses_open_or_inconsistent_input(unsigned threads) {
    const auto disc = test::disc(2);
    EXPECT_THROW(build_from_closed_triangulation(disc.vertex_count, disc.triangles,
                                                 test::twin_half_edges(disc.triangles), threads),
                 std::invalid_argument);

    const auto ico = test::icosphere(1);
    const auto twins = test::twin_half_edges(ico.triangles);
    // Too few twins.
    EXPECT_THROW(build_from_closed_triangulation(
                     ico.vertex_count, ico.triangles,
                     std::span<const std::uint32_t>(twins.data(), twins.size() - 1), threads),
                 std::invalid_argument);
    // Twins that do not pair up.
    auto swapped = twins;
    std::swap(swapped[0], swapped[1]);
    EXPECT_THROW(build_from_closed_triangulation(ico.vertex_count, ico.triangles, swapped, threads),
                 std::invalid_argument);
    // A vertex in no triangle.
    EXPECT_THROW(
        build_from_closed_triangulation(ico.vertex_count + 1, ico.triangles, twins, threads),
        std::invalid_argument);
    // A vertex index out of range.
    EXPECT_THROW(
        build_from_closed_triangulation(ico.vertex_count - 1, ico.triangles, twins, threads),
        std::invalid_argument);
    // Two tetrahedra sharing a vertex: closed, twins consistent, but pinched at vertex 0.
    std::vector<Triangle> pinched = test::tetrahedron().triangles;
    for (auto t : test::tetrahedron().triangles) {
        for (auto& v : t)
            if (v != 0) v += 3;
        pinched.push_back(t);
    }
    EXPECT_THROW(
        build_from_closed_triangulation(7, pinched, test::twin_half_edges(pinched), threads),
        std::invalid_argument);
    // The same faults at the far end of the input, where a second thread finds them: twins
    // that do not pair up among the last half-edges, and the pinch at the last vertex.
    auto swapped_last = twins;
    std::swap(swapped_last[swapped_last.size() - 1], swapped_last[swapped_last.size() - 2]);
    EXPECT_THROW(
        build_from_closed_triangulation(ico.vertex_count, ico.triangles, swapped_last, threads),
        std::invalid_argument);
    std::vector<Triangle> pinched_last;
    for (const std::uint32_t shift : {0u, 3u})
        for (auto t : test::tetrahedron().triangles) {
            for (auto& v : t)
                v = v == 0 ? 6 : v - 1 + shift;
            pinched_last.push_back(t);
        }
    EXPECT_THROW(build_from_closed_triangulation(7, pinched_last,
                                                 test::twin_half_edges(pinched_last), threads),
                 std::invalid_argument);
}

/// A double cone over a `k`-gon: vertices 0..k-1 around the equator, k and k+1 the apexes, each
/// of degree k.
std::vector<Triangle> bipyramid(std::uint32_t k) {
    std::vector<Triangle> triangles;
    for (std::uint32_t i = 0; i < k; ++i) {
        const std::uint32_t next = (i + 1) % k;
        triangles.push_back({i, next, k});
        triangles.push_back({next, i, k + 1});
    }
    return triangles;
}

TEST(ClosedTriangulation, BuildsVerticesOfHighDegree) {
    // Rings longer than the ring check's small buffer are checked through find_edge.
    const std::uint32_t k = 100;
    const auto triangles = bipyramid(k);
    for (const unsigned threads : {1u, 2u}) {
        const Mesh m = build_from_closed_triangulation(k + 2, triangles,
                                                       test::twin_half_edges(triangles), threads);
        ASSERT_TRUE(test::valid(m));
        EXPECT_EQ(Vertex{k}.valence(m), int(k));
        EXPECT_EQ(Vertex{k + 1}.valence(m), int(k));
        EXPECT_EQ(test::euler_characteristic(m), 2);
    }
    const auto r = build_from_face_soup(k + 2, triangles);
    ASSERT_TRUE(test::valid(r.mesh));
    EXPECT_TRUE(r.refused.empty());
    EXPECT_EQ(r.mesh.face_count(), triangles.size());
}

TEST(ClosedTriangulation, RefusesOpenOrInconsistentInput) {
    for (const unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(threads);
        refuses_open_or_inconsistent_input(threads);
    }
}

TEST(ClosedTriangulation, NeverReturnsAnInvalidMesh) {
    // Two tetrahedra on edge 0-1 (vertices 0, 1, 2, 3 and 0, 1, 4, 5), each cut open along 0-1
    // and glued crosswise: twins pair up consistently and every vertex has one ring, but 0 and 1
    // end up joined by two edges, which a Mesh cannot hold. It must be refused, not built.
    const std::vector<Triangle> tris{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2},
                                     {0, 1, 4}, {0, 4, 5}, {0, 5, 1}, {1, 5, 4}};
    auto twins = test::twin_half_edges({tris.begin(), tris.begin() + 4});
    for (const auto t : test::twin_half_edges({tris.begin() + 4, tris.end()}))
        twins.push_back(t + 12);
    // Half-edges 0 (0->1 of face 0) and 8 (1->0 of face 2) were twins; so were 12 and 20.
    ASSERT_EQ(twins[0], 8u);
    ASSERT_EQ(twins[12], 20u);
    twins[0] = 20, twins[20] = 0, twins[12] = 8, twins[8] = 12;
    for (const unsigned threads : {1u, 2u}) {
        try {
            const Mesh m = build_from_closed_triangulation(6, tris, twins, threads);
            EXPECT_TRUE(test::valid(m)) << "accepted a closed surface with two edges v0-v1";
        } catch (const std::invalid_argument&) {
            SUCCEED();
        }
    }
    // The face soup of the same triangles (no twins given) stays valid too.
    const auto r = build_from_face_soup(6, tris);
    EXPECT_TRUE(test::valid(r.mesh));
    EXPECT_EQ(r.mesh.face_count() + r.refused.size(), tris.size());
}

/// A level-2 icosphere after `n` collapses: dead vertex slots on the free list, in the order
/// the collapses freed them.
Mesh collapsed_icosphere(int n) {
    const auto shape = test::icosphere(2);
    Mesh m = build_from_closed_triangulation(shape.vertex_count, shape.triangles,
                                             test::twin_half_edges(shape.triangles));
    for (std::uint32_t q = 0; n > 0 && q < m.edge_slots() / 2; q += 7) {
        const Edge e{2 * q};
        if (!m.contains(e) || m.try_collapse(e)) continue;
        --n;
    }
    return m;
}

TEST(RebuiltTriangulation, KeepsTheVertexSlotsAndTheirFreeList) {
    const Mesh old = collapsed_icosphere(5);
    ASSERT_EQ(old.vertex_count() + 5, old.vertex_slots());
    const auto tris = test::face_corners(old);
    const auto twins = test::twin_half_edges(tris);
    EXPECT_TRUE(rebuild_closed_triangulation(old, tris, twins, 1) ==
                rebuild_closed_triangulation(old, tris, twins, 2));
    for (const unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(threads);
        Mesh m = rebuild_closed_triangulation(old, tris, twins, threads);
        ASSERT_TRUE(test::valid(m));
        EXPECT_EQ(m.vertex_slots(), old.vertex_slots());
        EXPECT_EQ(m.vertex_count(), old.vertex_count());
        for (std::uint32_t v = 0; v < old.vertex_slots(); ++v)
            EXPECT_EQ(m.contains(Vertex{v}), old.contains(Vertex{v})) << "vertex " << v;
        EXPECT_EQ(test::face_corners(m), tris);
        EXPECT_EQ(m.face_slots(), tris.size()); // faces numbered afresh, no holes
        // New vertices take the ids `old` would have given them, most recently freed first.
        Mesh copy = old;
        for (int i = 0; i < 6; ++i)
            EXPECT_EQ(m.add_vertex(), copy.add_vertex());
    }
}

TEST(RebuiltTriangulation, RefusesTrianglesThatDoNotMatchTheLiveVertices) {
    const auto shape = test::icosphere(2);
    const auto twins = test::twin_half_edges(shape.triangles);
    // Every vertex of the full sphere, where some slots are dead.
    EXPECT_THROW(rebuild_closed_triangulation(collapsed_icosphere(3), shape.triangles, twins),
                 std::invalid_argument);
    // A live vertex in no triangle.
    Mesh grown = build_from_closed_triangulation(shape.vertex_count, shape.triangles, twins);
    grown.add_vertex();
    EXPECT_THROW(rebuild_closed_triangulation(grown, shape.triangles, twins),
                 std::invalid_argument);
    // An open surface.
    const auto disc = test::disc(3);
    Mesh flat;
    flat.add_vertices(disc.vertex_count);
    EXPECT_THROW(
        rebuild_closed_triangulation(flat, disc.triangles, test::twin_half_edges(disc.triangles)),
        std::invalid_argument);
}

} // namespace
} // namespace orbis
