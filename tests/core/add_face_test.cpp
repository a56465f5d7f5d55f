// SPDX-License-Identifier: MIT
// add_face (SPEC "Construction", seed 001): every case of pre-existing edges, fans that touch at
// a vertex and their merge, every refusal, and whole shapes built in many random orders.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace orbis {
namespace {

Mesh with_vertices(std::uint32_t n) {
    Mesh m;
    m.add_vertices(n);
    return m;
}

// Adds (a, b, c), expects success, a valid mesh and the face with exactly these corners.
Face add(Mesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    SCOPED_TRACE("add_face(" + std::to_string(a) + ", " + std::to_string(b) + ", " +
                 std::to_string(c) + ")");
    const std::size_t faces = m.face_count();
    EXPECT_FALSE(m.check_add_face(Vertex{a}, Vertex{b}, Vertex{c}).has_value());
    Face f = no_face;
    const auto refusal = m.try_add_face(Vertex{a}, Vertex{b}, Vertex{c}, &f);
    EXPECT_FALSE(refusal.has_value()) << refusal->message();
    EXPECT_TRUE(m.contains(f));
    EXPECT_EQ(m.face_count(), faces + 1);
    EXPECT_TRUE(test::valid(m));
    if (m.contains(f)) {
        EXPECT_EQ(test::canonical(test::corners(m, f)), test::canonical({a, b, c}));
    }
    return f;
}

// Expects add_face(a, b, c) to be refused with `kind`, by all three entry points, each leaving
// the mesh == to a copy taken before.
void expect_refused(Mesh& m, Vertex a, Vertex b, Vertex c, Refusal_kind kind) {
    SCOPED_TRACE("add_face(" + to_string(a) + ", " + to_string(b) + ", " + to_string(c) + ")");
    const Mesh before = m.deep_copy();
    const auto checked = m.check_add_face(a, b, c);
    ASSERT_TRUE(checked.has_value());
    EXPECT_EQ(checked->kind, kind) << checked->message();
    EXPECT_STREQ(checked->operation, "add_face");
    EXPECT_NE(checked->message().find("add_face"), std::string::npos);

    Face out = Face{12345};
    const auto tried = m.try_add_face(a, b, c, &out);
    ASSERT_TRUE(tried.has_value());
    EXPECT_EQ(tried->kind, kind);
    EXPECT_EQ(out, Face{12345}) << "a refused face is not reported";
    EXPECT_TRUE(m == before);

    try {
        m.add_face(a, b, c);
        ADD_FAILURE() << "add_face did not throw";
    } catch (const Edit_refused& e) {
        EXPECT_EQ(e.refusal().kind, kind);
        EXPECT_EQ(std::string(e.what()), e.refusal().message());
    }
    EXPECT_TRUE(m == before);
}

void expect_refused(Mesh& m, std::uint32_t a, std::uint32_t b, std::uint32_t c, Refusal_kind kind) {
    expect_refused(m, Vertex{a}, Vertex{b}, Vertex{c}, kind);
}

// The edges around the outside of the loop that contains boundary edge `e` (outside on the left).
std::size_t boundary_loop_length(const Mesh& m, Edge e) {
    std::size_t n = 0;
    Edge x = e;
    do {
        ++n;
        x = x.left_next(m);
    } while (x != e && n <= m.edge_count());
    return n;
}

// Number of open wedges (edges with no face on their left) at v: its number of open fans.
int open_wedges(const Mesh& m, Vertex v) {
    return static_cast<int>(
        std::ranges::count_if(v.edges(m), [&](Edge e) { return !e.left(m).valid(); }));
}

TEST(AddFace, FirstFaceCreatesThreeEdgesAndTwoRings) {
    // Case 0: no edge exists yet.
    Mesh m = with_vertices(3);
    const Face f = add(m, 0, 1, 2);
    EXPECT_EQ(f, Face{0});
    EXPECT_EQ(m.edge_count(), 3u);
    for (const Vertex v : m.vertices()) {
        EXPECT_EQ(v.valence(m), 2);
        EXPECT_EQ(open_wedges(m, v), 1);
    }
    const Edge e = m.find_edge(Vertex{0}, Vertex{1});
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.left(m), f);
    EXPECT_EQ(e.right(m), no_face);
    // The dual: one ring of three around the face, one of three around the outside.
    EXPECT_EQ(e.inv_rot().origin_ccw(m).size(), 3u);
    EXPECT_EQ(e.rot().origin_ccw(m).size(), 3u);
    EXPECT_EQ(boundary_loop_length(m, e.sym()), 3u);
    EXPECT_EQ(test::euler_characteristic(m), 1);
}

TEST(AddFace, OneExistingEdge) {
    // Case 1: the new face (1, 0, 3) shares edge 0-1; vertex 3 is isolated.
    Mesh m = with_vertices(4);
    const Face f0 = add(m, 0, 1, 2);
    const Face f1 = add(m, 1, 0, 3);
    EXPECT_EQ(m.edge_count(), 5u);
    const Edge e = m.find_edge(Vertex{0}, Vertex{1});
    EXPECT_EQ(e.left(m), f0);
    EXPECT_EQ(e.right(m), f1);
    EXPECT_FALSE(m.is_boundary(e));
    EXPECT_EQ(Vertex{3}.valence(m), 2);
    EXPECT_EQ(boundary_loop_length(m, m.find_edge(Vertex{2}, Vertex{1})), 4u);
}

TEST(AddFace, OneExistingEdgeAndAThirdCornerWithAFan) {
    // Case 1 where the third corner already has a fan of its own: the face goes into its gap.
    Mesh m = with_vertices(6);
    add(m, 0, 1, 2);
    add(m, 3, 4, 5);
    add(m, 1, 0, 3);
    EXPECT_EQ(Vertex{3}.valence(m), 4);
    EXPECT_EQ(open_wedges(m, Vertex{3}), 2); // two fans meet at 3
    EXPECT_EQ(test::euler_characteristic(m), 1);
}

TEST(AddFace, TwoExistingEdges) {
    // Case 2: (0, 3, 1) uses 3->0 and 0->1 reversed; only 3-1 is new. Vertex 0 gets closed.
    Mesh m = with_vertices(4);
    add(m, 0, 1, 2);
    add(m, 0, 2, 3);
    EXPECT_EQ(m.edge_count(), 5u);
    add(m, 0, 3, 1);
    EXPECT_EQ(m.edge_count(), 6u);
    EXPECT_FALSE(m.is_boundary(Vertex{0}));
    EXPECT_EQ(Vertex{0}.valence(m), 3);
    EXPECT_EQ(boundary_loop_length(m, m.find_edge(Vertex{2}, Vertex{1})), 3u);
}

TEST(AddFace, ThreeExistingEdgesFillAHole) {
    // Case 3: the last face of a tetrahedron creates no edge and closes the mesh.
    Mesh m = with_vertices(4);
    add(m, 0, 1, 2);
    add(m, 0, 2, 3);
    add(m, 0, 3, 1);
    add(m, 1, 3, 2);
    EXPECT_EQ(m.edge_count(), 6u);
    EXPECT_EQ(test::euler_characteristic(m), 2);
    EXPECT_TRUE(std::ranges::none_of(m.vertices(), [&](Vertex v) { return m.is_boundary(v); }));
    EXPECT_TRUE(m == test::build(test::tetrahedron()));

    // A hole in the middle of a disc, refilled.
    const auto shape = test::disc(2);
    Mesh d = with_vertices(shape.vertex_count);
    for (std::size_t i = 1; i < shape.triangles.size(); ++i) {
        const auto& t = shape.triangles[i];
        d.add_face(Vertex{t[0]}, Vertex{t[1]}, Vertex{t[2]});
    }
    const std::size_t edges = d.edge_count();
    const auto& t = shape.triangles[0];
    add(d, t[0], t[1], t[2]);
    EXPECT_EQ(d.edge_count(), edges);
    EXPECT_EQ(test::euler_characteristic(d), 1);
}

TEST(AddFace, FaceTouchingAVertexWithOneFan) {
    // The new face shares only vertex 0 with the existing fan: a bow-tie, two fans at 0.
    Mesh m = with_vertices(5);
    const Face a = add(m, 0, 1, 2);
    const Face b = add(m, 0, 3, 4);
    EXPECT_EQ(Vertex{0}.valence(m), 4);
    EXPECT_EQ(open_wedges(m, Vertex{0}), 2);
    std::vector<Face> faces(Vertex{0}.faces(m).begin(), Vertex{0}.faces(m).end());
    std::ranges::sort(faces);
    EXPECT_EQ(faces, (std::vector<Face>{a, b}));
    EXPECT_TRUE(m.is_boundary(Vertex{0}));
}

TEST(AddFace, FanMergeJoinsTwoFansAtAVertex) {
    // Bow-tie at 0, then (0, 2, 3) connects the fans through two existing edges: one fan.
    Mesh m = with_vertices(5);
    add(m, 0, 1, 2);
    add(m, 0, 3, 4);
    add(m, 0, 2, 3);
    EXPECT_EQ(open_wedges(m, Vertex{0}), 1);
    EXPECT_EQ(m.edge_count(), 7u);
    std::vector<Vertex> around(Vertex{0}.neighbors(m).begin(), Vertex{0}.neighbors(m).end());
    std::ranges::rotate(around, std::ranges::find(around, Vertex{1}));
    EXPECT_EQ(around, (std::vector<Vertex>{Vertex{1}, Vertex{2}, Vertex{3}, Vertex{4}}));
    // Closing the fan makes 0 an interior vertex.
    add(m, 0, 4, 1);
    EXPECT_FALSE(m.is_boundary(Vertex{0}));
    EXPECT_EQ(test::euler_characteristic(m), 1);
}

TEST(AddFace, FanMergeOnTheOtherSide) {
    // The same bow-tie merged through the other pair of edges first.
    Mesh m = with_vertices(5);
    add(m, 0, 1, 2);
    add(m, 0, 3, 4);
    add(m, 0, 4, 1);
    EXPECT_EQ(open_wedges(m, Vertex{0}), 1);
    add(m, 0, 2, 3);
    EXPECT_EQ(open_wedges(m, Vertex{0}), 0);
}

TEST(AddFace, StripAddedOutOfOrderMergesFansAtSeveralVertices) {
    // Strip 0-2-4-6 over 1-3-5-7: the ends first, then the middle touching them at vertices
    // only, then the faces that merge the fans.
    const std::vector<Triangle> strip{{0, 1, 2}, {2, 1, 3}, {2, 3, 4},
                                      {4, 3, 5}, {4, 5, 6}, {6, 5, 7}};
    for (const auto& order : std::vector<std::vector<int>>{
             {0, 4, 2, 1, 3, 5}, {5, 0, 2, 3, 1, 4}, {2, 0, 4, 3, 5, 1}, {0, 2, 4, 5, 3, 1}}) {
        Mesh m = with_vertices(8);
        for (const int i : order)
            add(m, strip[i][0], strip[i][1], strip[i][2]);
        EXPECT_EQ(m.edge_count(), 13u);
        EXPECT_EQ(test::face_corners(m), test::canonical_sorted(strip));
        for (const Vertex v : m.vertices())
            EXPECT_EQ(open_wedges(m, v), 1) << v;
    }
}

TEST(AddFace, RefusesTheForbiddenCase) {
    // Seed 001's forbidden case: 0 has two unconnected fans and the new face shares no edge at 0,
    // so nothing decides which gap it goes into.
    Mesh m = with_vertices(9);
    add(m, 0, 1, 2);
    add(m, 0, 3, 4);
    expect_refused(m, 0, 5, 6, Refusal_kind::ambiguous_fan);
    EXPECT_EQ(m.check_add_face(Vertex{0}, Vertex{5}, Vertex{6})->vertex, Vertex{0});
    // Also when the face shares an edge elsewhere.
    add(m, 5, 7, 6);
    expect_refused(m, 5, 6, 0, Refusal_kind::ambiguous_fan);
    // Sharing an edge at 0 decides it.
    add(m, 0, 8, 1);
    add(m, 0, 5, 8);
}

TEST(AddFace, RefusesRepeatedVertices) {
    Mesh m = with_vertices(3);
    expect_refused(m, 0, 0, 1, Refusal_kind::repeated_vertex);
    expect_refused(m, 0, 1, 1, Refusal_kind::repeated_vertex);
    expect_refused(m, 1, 0, 1, Refusal_kind::repeated_vertex);
    expect_refused(m, 2, 2, 2, Refusal_kind::repeated_vertex);
    add(m, 0, 1, 2);
    expect_refused(m, 0, 1, 0, Refusal_kind::repeated_vertex);
}

TEST(AddFace, RefusesMissingAndInvalidVertices) {
    Mesh m = with_vertices(3);
    expect_refused(m, no_vertex, Vertex{1}, Vertex{2}, Refusal_kind::invalid_element);
    expect_refused(m, Vertex{0}, Vertex{3}, Vertex{2}, Refusal_kind::invalid_element);
    expect_refused(m, Vertex{0}, Vertex{1}, Vertex{UINT32_MAX - 1}, Refusal_kind::invalid_element);
    EXPECT_EQ(m.check_add_face(Vertex{0}, Vertex{7}, Vertex{2})->vertex, Vertex{7});

    // A deleted vertex is missing too.
    Mesh t = test::build(test::octahedron());
    const Edge e = t.find_edge(Vertex{0}, Vertex{4});
    t.collapse(e);
    ASSERT_FALSE(t.contains(Vertex{4}));
    t.add_vertices(2);
    expect_refused(t, Vertex{4}, Vertex{6}, Vertex{7}, Refusal_kind::invalid_element);
}

TEST(AddFace, RefusesDuplicateFaces) {
    Mesh m = with_vertices(4);
    const Face f = add(m, 0, 1, 2);
    expect_refused(m, 0, 1, 2, Refusal_kind::duplicate_face);
    expect_refused(m, 1, 2, 0, Refusal_kind::duplicate_face);
    expect_refused(m, 2, 0, 1, Refusal_kind::duplicate_face);
    EXPECT_EQ(m.check_add_face(Vertex{1}, Vertex{2}, Vertex{0})->face, f);
    add(m, 1, 0, 3);
    expect_refused(m, 3, 1, 0, Refusal_kind::duplicate_face);
}

TEST(AddFace, RefusesAnEdgeSideThatIsTaken) {
    // Wrong orientation: 0->1 has face (0, 1, 2) on its left already.
    Mesh m = with_vertices(5);
    const Face f = add(m, 0, 1, 2);
    expect_refused(m, 0, 1, 3, Refusal_kind::edge_side_taken);
    expect_refused(m, 3, 0, 1, Refusal_kind::edge_side_taken);
    const auto r = m.check_add_face(Vertex{0}, Vertex{1}, Vertex{3});
    EXPECT_EQ(r->face, f);
    EXPECT_EQ(r->edge, m.find_edge(Vertex{0}, Vertex{1}));
    // Non-manifold: a third face on edge 0-1, in either orientation.
    add(m, 1, 0, 3);
    expect_refused(m, 0, 1, 4, Refusal_kind::edge_side_taken);
    expect_refused(m, 1, 0, 4, Refusal_kind::edge_side_taken);
    // A whole tetrahedron glued on with the wrong orientation fails at its first face.
    Mesh t = test::build(test::tetrahedron());
    expect_refused(t, 0, 2, 1, Refusal_kind::edge_side_taken);
}

TEST(AddFace, RefusesAFaceAtAClosedVertex) {
    Mesh m = test::build(test::tetrahedron());
    m.add_vertices(2);
    expect_refused(m, 0, 4, 5, Refusal_kind::vertex_closed);
    EXPECT_EQ(m.check_add_face(Vertex{4}, Vertex{0}, Vertex{5})->vertex, Vertex{0});

    // Closing one fan of a bow-tie onto itself would shut the other fan out: 0 has no gap left.
    Mesh b = with_vertices(5);
    add(b, 0, 1, 2);
    add(b, 0, 3, 4);
    expect_refused(b, 0, 2, 1, Refusal_kind::vertex_closed);
}

TEST(AddFace, BackOfALoneTriangleGivesAValidClosedMeshOrIsRefused) {
    // SPEC is silent on (0, 2, 1) after (0, 1, 2); whatever the decision, the mesh stays valid.
    Mesh m = with_vertices(3);
    add(m, 0, 1, 2);
    const Mesh before = m;
    if (const auto r = m.try_add_face(Vertex{0}, Vertex{2}, Vertex{1})) {
        EXPECT_TRUE(m == before) << r->message();
    } else {
        EXPECT_TRUE(test::valid(m));
        EXPECT_EQ(test::euler_characteristic(m), 2);
    }
}

TEST(Refusal, EveryKindHasAMessageNamingTheOperationAndIds) {
    for (int k = 0; k <= static_cast<int>(Refusal_kind::tetrahedron); ++k) {
        const Refusal r{
            static_cast<Refusal_kind>(k), "collapse", Edge{6}, Vertex{3}, Vertex{4}, Face{2}};
        const std::string text = r.message();
        EXPECT_EQ(text.rfind("collapse e6", 0), 0u) << text;
        EXPECT_GT(text.size(), std::string("collapse e6: ").size() + 10) << text;
    }
    const Refusal r{
        Refusal_kind::ambiguous_fan, "add_face", no_edge, Vertex{7}, no_vertex, no_face};
    EXPECT_NE(r.message().find("v7"), std::string::npos) << r.message();
}

// Adds the faces of `order` to `m`, retrying faces refused as ambiguous; checks that every
// refusal is of that kind and leaves the mesh unchanged; validates after every add if asked.
void build_checked(Mesh& m, const std::vector<Triangle>& order, bool validate_each) {
    std::vector<Triangle> pending = order;
    while (!pending.empty()) {
        std::vector<Triangle> retry;
        for (const auto& t : pending) {
            const Vertex a{t[0]}, b{t[1]}, c{t[2]};
            // A snapshot only where a refusal is expected: after a snapshot, every write clones.
            if (const auto checked = m.check_add_face(a, b, c)) {
                const Mesh before = m;
                const auto r = m.try_add_face(a, b, c);
                ASSERT_TRUE(r.has_value());
                EXPECT_EQ(r->kind, checked->kind);
                EXPECT_EQ(r->kind, Refusal_kind::ambiguous_fan) << r->message();
                EXPECT_TRUE(m == before);
                retry.push_back(t);
            } else {
                EXPECT_FALSE(m.try_add_face(a, b, c).has_value());
                if (validate_each) {
                    EXPECT_TRUE(test::valid(m));
                }
            }
        }
        if (retry.size() == pending.size()) {
            ADD_FAILURE() << "stuck with " << retry.size() << " faces left";
            break;
        }
        pending = std::move(retry);
    }
}

void build_in_random_orders(const test::Shape& shape, int orders, bool validate_each) {
    SCOPED_TRACE(shape.name);
    std::mt19937_64 rng(std::hash<std::string>{}(shape.name));
    const auto expected = test::canonical_sorted(shape.triangles);
    for (int i = 0; i < orders; ++i) {
        Mesh m = with_vertices(shape.vertex_count);
        build_checked(m, test::shuffled(shape.triangles, rng), validate_each);
        ASSERT_TRUE(test::valid(m)) << "order " << i;
        EXPECT_EQ(m.vertex_count(), shape.vertex_count);
        EXPECT_EQ(m.face_count(), shape.triangles.size());
        EXPECT_EQ(test::euler_characteristic(m), shape.euler);
        ASSERT_EQ(test::face_corners(m), expected) << "order " << i;
        const auto boundary =
            std::ranges::count_if(m.edges(), [&](Edge e) { return m.is_boundary(e); });
        EXPECT_EQ(3 * m.face_count(), 2 * m.edge_count() - boundary);
    }
}

TEST(AddFace, SmallShapesInRandomOrdersValidateAfterEveryFace) {
    for (const auto& shape : {test::tetrahedron(), test::octahedron(), test::icosphere(1),
                              test::torus(3, 4), test::disc(2)})
        build_in_random_orders(shape, 50, true);
}

TEST(AddFace, LargerShapesInRandomOrders) {
    for (const auto& shape :
         {test::icosphere(2), test::icosphere(3), test::torus(8, 5), test::disc(5)})
        build_in_random_orders(shape, 50, false);
}

} // namespace
} // namespace orbis
