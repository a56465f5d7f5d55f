// SPDX-License-Identifier: MIT
// split (SPEC "Modification", seed 002).
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace orbis {
namespace {

Triangle corner_ids(const Mesh& m, Face f) { return test::canonical(test::corners(m, f)); }
Triangle tri(Vertex a, Vertex b, Vertex c) {
    return test::canonical({a.index(), b.index(), c.index()});
}

void expect_split_refused(Mesh& m, Edge e, float t, Refusal_kind kind) {
    SCOPED_TRACE("split(" + to_string(e) + ", " + std::to_string(t) + ")");
    const Mesh before = m.deep_copy();
    const auto checked = m.check_split(e, t);
    ASSERT_TRUE(checked.has_value());
    EXPECT_EQ(checked->kind, kind) << checked->message();
    EXPECT_STREQ(checked->operation, "split");
    const auto tried = m.try_split(e, t);
    ASSERT_TRUE(tried.has_value());
    EXPECT_EQ(tried->kind, kind);
    const Split_plan plan = m.plan_split(e, t);
    ASSERT_TRUE(plan.refusal().has_value());
    EXPECT_EQ(plan.refusal()->kind, kind);
    EXPECT_EQ(m.try_split(plan)->kind, kind);
    EXPECT_THROW(m.split(plan), Edit_refused);
    EXPECT_TRUE(m == before);
    try {
        m.split(e, t);
        ADD_FAILURE() << "split did not throw";
    } catch (const Edit_refused& x) {
        EXPECT_EQ(x.refusal().kind, kind);
        EXPECT_NE(std::string(x.what()).find("split"), std::string::npos);
    }
    EXPECT_TRUE(m == before);
}

// What a split of e = a->z with left face (a, z, c) and right face (z, a, d) must produce.
struct Before_split {
    Vertex a, z, c, d;
    Face left, right;
    int valence_a, valence_z, valence_c, valence_d;
    std::size_t vertices, faces, edges;

    Before_split(const Mesh& m, Edge e)
        : a(e.origin(m))
        , z(e.dest(m))
        , c(e.left(m).valid() ? e.left_next(m).dest(m) : no_vertex)
        , d(e.right(m).valid() ? e.right_prev(m).dest(m) : no_vertex)
        , left(e.left(m))
        , right(e.right(m))
        , valence_a(a.valence(m))
        , valence_z(z.valence(m))
        , valence_c(c.valid() ? c.valence(m) : 0)
        , valence_d(d.valid() ? d.valence(m) : 0)
        , vertices(m.vertex_count())
        , faces(m.face_count())
        , edges(m.edge_count()) {}
};

// Checks everything SPEC says about the split of `e` that returned `n`.
void expect_split_result(const Mesh& m, Edge e, Edge n, const Before_split& old) {
    const int sides = (old.left.valid() ? 1 : 0) + (old.right.valid() ? 1 : 0);
    const Vertex v = e.dest(m); // the new vertex
    EXPECT_TRUE(m.contains(v));
    EXPECT_EQ(e.origin(m), old.a) << "e keeps its origin";
    EXPECT_EQ(n.origin(m), v) << "the returned edge starts at the new vertex";
    EXPECT_EQ(n.dest(m), old.z) << "... and ends at the old destination";
    EXPECT_TRUE(n.is_primal());
    EXPECT_EQ(m.vertex_count(), old.vertices + 1);
    EXPECT_EQ(m.face_count(), old.faces + static_cast<std::size_t>(sides));
    EXPECT_EQ(m.edge_count(), old.edges + 1 + static_cast<std::size_t>(sides));
    EXPECT_EQ(v.valence(m), 2 + sides);
    EXPECT_EQ(old.a.valence(m), old.valence_a);
    EXPECT_EQ(old.z.valence(m), old.valence_z);
    EXPECT_EQ(m.find_edge(old.a, old.z), no_edge);
    EXPECT_EQ(m.is_boundary(v), sides == 1);
    // Each split face keeps its id on the side of the origin.
    EXPECT_EQ(e.left(m), old.left);
    EXPECT_EQ(e.right(m), old.right);
    if (old.left.valid()) {
        EXPECT_EQ(corner_ids(m, old.left), tri(old.a, v, old.c));
        EXPECT_EQ(corner_ids(m, n.left(m)), tri(v, old.z, old.c));
        EXPECT_NE(n.left(m), old.left);
        EXPECT_EQ(old.c.valence(m), old.valence_c + 1);
    } else {
        EXPECT_EQ(n.left(m), no_face);
    }
    if (old.right.valid()) {
        EXPECT_EQ(corner_ids(m, old.right), tri(v, old.a, old.d));
        EXPECT_EQ(corner_ids(m, n.right(m)), tri(old.z, v, old.d));
        EXPECT_NE(n.right(m), old.right);
        EXPECT_EQ(old.d.valence(m), old.valence_d + 1);
    } else {
        EXPECT_EQ(n.right(m), no_face);
    }
    EXPECT_TRUE(test::valid(m));
}

TEST(Split, InteriorEdgeAddsOneVertexTwoFacesThreeEdges) {
    const Mesh original = test::build(test::icosphere(1));
    for (const Edge b : original.edges())
        for (const Edge e : {b, b.sym()}) {
            Mesh m = original;
            const Before_split old(m, e);
            const Edge n = m.split(e, 0.3f);
            expect_split_result(m, e, n, old);
            // New ids are appended (there is nothing on the free lists).
            EXPECT_EQ(e.dest(m), Vertex{original.vertex_slots()});
            EXPECT_EQ(test::euler_characteristic(m), 2);
        }
}

TEST(Split, NewVertexRingIsCounterclockwise) {
    // Around the new vertex v on a->z: z, c, a, d counterclockwise (the quad a-d-z-c seen
    // from v).
    Mesh m = test::build(test::octahedron());
    const Edge e = m.find_edge(Vertex{4}, Vertex{0});
    const Before_split old(m, e);
    const Edge n = m.split(e);
    const Vertex v = n.origin(m);
    std::vector<Vertex> around(v.neighbors(m).begin(), v.neighbors(m).end());
    std::ranges::rotate(around, std::ranges::find(around, old.z));
    EXPECT_EQ(around, (std::vector<Vertex>{old.z, old.c, old.a, old.d}));
    // The ring of z has v where a was.
    EXPECT_EQ(n.sym().origin_next(m).dest(m), old.d);
    EXPECT_EQ(n.sym().origin_prev(m).dest(m), old.c);
}

TEST(Split, BoundaryEdgeAddsOneFaceTwoEdges) {
    const Mesh original = test::build(test::disc(2));
    int boundary = 0;
    for (const Edge b : original.edges()) {
        if (!original.is_boundary(b)) continue;
        ++boundary;
        // Both directions: the face on the left (outside right) or on the right.
        for (const Edge e : {b, b.sym()}) {
            Mesh m = original;
            const Before_split old(m, e);
            const Edge n = m.split(e, 0.5f);
            expect_split_result(m, e, n, old);
            EXPECT_EQ(test::euler_characteristic(m), 1);
            // The boundary loop got one edge longer.
            EXPECT_EQ(std::ranges::count_if(m.edges(), [&](Edge x) { return m.is_boundary(x); }),
                      13);
        }
    }
    EXPECT_EQ(boundary, 12);
    // A lone triangle.
    Mesh t;
    t.add_vertices(3);
    t.add_face(Vertex{0}, Vertex{1}, Vertex{2});
    const Before_split old(t, Edge{0});
    expect_split_result(t, Edge{0}, t.split(Edge{0}), old);
}

TEST(Split, AcceptsEveryTInTheClosedUnitInterval) {
    for (const float t : {0.0f, 1.0f, 0.5f, 1e-30f, std::nextafter(1.0f, 0.0f)}) {
        Mesh m = test::build(test::tetrahedron());
        EXPECT_FALSE(m.check_split(Edge{0}, t).has_value()) << t;
        m.split(Edge{0}, t);
        EXPECT_TRUE(test::valid(m));
    }
}

TEST(Split, Refusals) {
    Mesh m = test::build(test::octahedron());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    expect_split_refused(m, Edge{0}.rot(), 0.5f, Refusal_kind::dual_edge);
    expect_split_refused(m, Edge{0}.inv_rot(), 0.5f, Refusal_kind::dual_edge);
    for (const float t : {-0.1f, 1.1f, -0.0001f, nan, inf, -inf})
        expect_split_refused(m, Edge{0}, t, Refusal_kind::bad_parameter);
    expect_split_refused(m, no_edge, 0.5f, Refusal_kind::invalid_element);
    expect_split_refused(m, Edge{m.edge_slots()}, 0.5f, Refusal_kind::invalid_element);
    // A deleted edge.
    const Edge e = m.find_edge(Vertex{0}, Vertex{4});
    m.collapse(e);
    expect_split_refused(m, e, 0.5f, Refusal_kind::invalid_element);
    expect_split_refused(m, e.sym(), 0.5f, Refusal_kind::invalid_element);
}

TEST(Split, RepeatedSplitsOfTheSameEdgeKeepItsOrigin) {
    // e keeps its id and origin, so splitting it again and again walks towards a.
    Mesh m = test::build(test::icosphere(1));
    const Edge e{0};
    const Vertex a = e.origin(m);
    const Vertex z = e.dest(m);
    std::vector<Edge> returned;
    for (int i = 0; i < 20; ++i) {
        const Before_split old(m, e);
        returned.push_back(m.split(e, 0.5f));
        expect_split_result(m, e, returned.back(), old);
        EXPECT_EQ(e.origin(m), a);
    }
    // The returned edges form a path from e's end to the old destination.
    for (std::size_t i = returned.size() - 1; i > 0; --i)
        EXPECT_EQ(returned[i].dest(m), returned[i - 1].origin(m));
    EXPECT_EQ(returned.front().dest(m), z);
    EXPECT_EQ(e.dest(m), returned.back().origin(m));
}

TEST(Split, RandomSplitsKeepTheMeshValid) {
    std::mt19937_64 rng(31);
    for (const auto& shape : {test::icosphere(1), test::torus(4, 3), test::disc(2)}) {
        SCOPED_TRACE(shape.name);
        Mesh m = test::build(shape);
        for (int i = 0; i < 300; ++i) {
            const Edge b{2 * static_cast<std::uint32_t>(rng() % (m.edge_slots() / 2))};
            const Edge e = rng() % 2 ? b : b.sym();
            const Before_split old(m, e);
            const Edge n = m.split(e, std::uniform_real_distribution<float>(0, 1)(rng));
            if (i % 25 == 0) {
                expect_split_result(m, e, n, old);
            }
            EXPECT_EQ(test::euler_characteristic(m), shape.euler);
        }
        EXPECT_TRUE(test::valid(m));
        EXPECT_EQ(m.vertex_count(), shape.vertex_count + 300);
    }
}

// ---- Plans (issue 19, "Checking twice") ----

TEST(SplitPlan, GivesTheSameMeshAsSplit) {
    std::mt19937_64 rng(13);
    const auto shape = test::disc(3);
    Mesh by_split = test::build(shape), by_try = test::build(shape), by_plan = test::build(shape);
    for (int i = 0; i < 200; ++i) {
        const Edge e{static_cast<std::uint32_t>(rng() % by_split.edge_slots()) & ~1u};
        const float t = static_cast<float>(rng() % 5) / 4.f;
        const Edge n = by_split.split(e, t);
        Edge tried = no_edge;
        ASSERT_FALSE(by_try.try_split(e, t, &tried).has_value());
        const Split_plan plan = by_plan.plan_split(e, t);
        EXPECT_EQ(plan.edge(), e);
        EXPECT_EQ(plan.t(), t);
        EXPECT_EQ(by_plan.split(plan), n);
        EXPECT_EQ(tried, n);
    }
    EXPECT_TRUE(by_split == by_try);
    EXPECT_TRUE(by_split == by_plan);
    EXPECT_TRUE(test::valid(by_plan));
}

TEST(SplitPlan, AStalePlanIsRefusedAndChangesNothing) {
    Mesh m = test::build(test::octahedron());
    const Edge e = m.find_edge(Vertex{0}, Vertex{4});
    const Split_plan plan = m.plan_split(e, 0.5f);
    ASSERT_FALSE(plan.refusal().has_value());
    m.collapse(e);
    const Mesh before = m.deep_copy();
    Edge out = no_edge;
    const auto r = m.try_split(plan, &out);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, Refusal_kind::stale_plan);
    EXPECT_EQ(out, no_edge);
    EXPECT_EQ(m.check_split(plan)->kind, Refusal_kind::stale_plan);
    EXPECT_THROW(m.split(plan), Edit_refused);
    EXPECT_TRUE(m == before);
}

} // namespace
} // namespace orbis
