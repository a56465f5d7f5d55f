// SPDX-License-Identifier: MIT
// collapse (SPEC "Modification", seed 002), and the reuse of deleted ids.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace orbis {
namespace {

void expect_collapse_refused(Mesh& m, Edge e, Refusal_kind kind, float t = 0.5f) {
    SCOPED_TRACE("collapse(" + to_string(e) + ", " + std::to_string(t) + ")");
    const Mesh before = m.deep_copy();
    const auto checked = m.check_collapse(e, t);
    ASSERT_TRUE(checked.has_value());
    EXPECT_EQ(checked->kind, kind) << checked->message();
    EXPECT_STREQ(checked->operation, "collapse");
    const auto tried = m.try_collapse(e, t);
    ASSERT_TRUE(tried.has_value());
    EXPECT_EQ(tried->kind, kind);
    EXPECT_TRUE(m == before);
    const Collapse_plan plan = m.plan_collapse(e, t);
    ASSERT_TRUE(plan.refusal().has_value());
    EXPECT_EQ(plan.refusal()->kind, kind);
    const auto tried_plan = m.try_collapse(plan);
    ASSERT_TRUE(tried_plan.has_value());
    EXPECT_EQ(tried_plan->kind, kind);
    EXPECT_THROW(m.collapse(plan), Edit_refused);
    EXPECT_TRUE(m == before);
    try {
        m.collapse(e, t);
        ADD_FAILURE() << "collapse did not throw";
    } catch (const Edit_refused& x) {
        EXPECT_EQ(x.refusal().kind, kind);
        EXPECT_NE(std::string(x.what()).find("collapse"), std::string::npos);
    }
    EXPECT_TRUE(m == before);
}

Mesh from_triangles(std::uint32_t vertices, const std::vector<Triangle>& triangles) {
    Mesh m;
    m.add_vertices(vertices);
    for (const auto& t : triangles)
        m.add_face(Vertex{t[0]}, Vertex{t[1]}, Vertex{t[2]});
    return m;
}

std::set<Vertex> neighbor_set(const Mesh& m, Vertex v) {
    return {v.neighbors(m).begin(), v.neighbors(m).end()};
}

// What a collapse of e = a->z with left face (a, z, c) and right face (z, a, d) must produce.
struct Before_collapse {
    Vertex a, z, c, d;
    Face left, right;
    Edge e, zc, dz, ca, ad;
    std::vector<Edge> other_z_edges; // z's edges that survive, now starting at a
    std::set<Vertex> expected_neighbors;
    Face beyond_zc, beyond_dz; // faces on the far side of z-c and d-z
    int valence_c = 0, valence_d = 0;
    std::size_t vertices, faces, edges;
    int euler;

    Before_collapse(const Mesh& m, Edge edge)
        : a(edge.origin(m))
        , z(edge.dest(m))
        , c(edge.left(m).valid() ? edge.left_next(m).dest(m) : no_vertex)
        , d(edge.right(m).valid() ? edge.right_prev(m).dest(m) : no_vertex)
        , left(edge.left(m))
        , right(edge.right(m))
        , e(edge)
        , zc(left.valid() ? edge.left_next(m) : no_edge)
        , dz(right.valid() ? edge.right_prev(m).sym() : no_edge)
        , ca(left.valid() ? edge.left_prev(m) : no_edge)
        , ad(right.valid() ? edge.right_next(m).sym() : no_edge)
        , vertices(m.vertex_count())
        , faces(m.face_count())
        , edges(m.edge_count())
        , euler(test::euler_characteristic(m)) {
        for (const Edge x : z.edges(m))
            if (x != e.sym() && x.base() != zc.base() && x.base() != dz.base())
                other_z_edges.push_back(x);
        expected_neighbors = neighbor_set(m, a);
        for (const Vertex x : z.neighbors(m))
            expected_neighbors.insert(x);
        expected_neighbors.erase(a);
        expected_neighbors.erase(z);
        if (zc.valid()) {
            beyond_zc = zc.right(m);
            valence_c = c.valence(m);
        }
        if (dz.valid()) {
            beyond_dz = dz.right(m);
            valence_d = d.valence(m);
        }
    }
};

void expect_collapse_result(const Mesh& m, Vertex survivor, const Before_collapse& old) {
    const int sides = (old.left.valid() ? 1 : 0) + (old.right.valid() ? 1 : 0);
    EXPECT_EQ(survivor, old.a) << "the origin survives";
    EXPECT_TRUE(m.contains(old.a));
    EXPECT_FALSE(m.contains(old.z)) << "the destination is deleted";
    EXPECT_FALSE(m.contains(old.e)) << "the edge is deleted";
    EXPECT_EQ(m.vertex_count(), old.vertices - 1);
    EXPECT_EQ(m.face_count(), old.faces - static_cast<std::size_t>(sides));
    EXPECT_EQ(m.edge_count(), old.edges - 1 - static_cast<std::size_t>(sides));
    EXPECT_EQ(test::euler_characteristic(m), old.euler);
    if (old.left.valid()) {
        EXPECT_FALSE(m.contains(old.left));
        EXPECT_FALSE(m.contains(old.zc)) << "z->c is deleted";
        ASSERT_TRUE(m.contains(old.ca)) << "c->a survives";
        EXPECT_EQ(old.ca.origin(m), old.c);
        EXPECT_EQ(old.ca.dest(m), old.a);
        EXPECT_EQ(old.ca.left(m), old.beyond_zc) << "c->a takes over the face beyond c->z";
        EXPECT_EQ(old.c.valence(m), old.valence_c - 1);
    }
    if (old.right.valid()) {
        EXPECT_FALSE(m.contains(old.right));
        EXPECT_FALSE(m.contains(old.dz)) << "d->z is deleted";
        ASSERT_TRUE(m.contains(old.ad)) << "a->d survives";
        EXPECT_EQ(old.ad.origin(m), old.a);
        EXPECT_EQ(old.ad.dest(m), old.d);
        EXPECT_EQ(old.ad.left(m), old.beyond_dz) << "a->d takes over the face beyond z->d";
        EXPECT_EQ(old.d.valence(m), old.valence_d - 1);
    }
    for (const Edge x : old.other_z_edges) {
        EXPECT_TRUE(m.contains(x));
        EXPECT_EQ(x.origin(m), old.a) << x << " now starts at the survivor";
    }
    EXPECT_EQ(neighbor_set(m, old.a), old.expected_neighbors);
    EXPECT_TRUE(test::valid(m));
}

TEST(Collapse, InteriorEdgeMergesTheDestinationIntoTheOrigin) {
    const Mesh original = test::build(test::icosphere(1));
    for (const Edge b : original.edges())
        for (const Edge e : {b, b.sym()}) {
            Mesh m = original;
            const Before_collapse old(m, e);
            expect_collapse_result(m, m.collapse(e, 0.25f), old);
        }
}

TEST(Collapse, BoundaryEdgeDeletesOneFace) {
    const Mesh original = test::build(test::disc(2));
    int collapsed = 0;
    for (const Edge b : original.edges()) {
        if (!original.is_boundary(b)) continue;
        for (const Edge e : {b, b.sym()}) {
            Mesh m = original;
            const Before_collapse old(m, e);
            if (m.check_collapse(e)) continue; // a corner of the rim: see DanglingEdge
            expect_collapse_result(m, m.collapse(e), old);
            ++collapsed;
        }
    }
    EXPECT_GT(collapsed, 0);
}

TEST(Collapse, InteriorEdgeWithOneBoundaryEnd) {
    // An edge from the disc's inner ring to its rim, in both directions.
    const Mesh original = test::build(test::disc(2));
    int collapsed = 0;
    for (const Edge b : original.edges()) {
        if (original.is_boundary(b)) continue;
        if (original.is_boundary(b.origin(original)) == original.is_boundary(b.dest(original)))
            continue;
        for (const Edge e : {b, b.sym()}) {
            Mesh m = original;
            const Before_collapse old(m, e);
            if (m.check_collapse(e)) continue;
            expect_collapse_result(m, m.collapse(e), old);
            EXPECT_TRUE(m.is_boundary(old.a));
            ++collapsed;
        }
    }
    EXPECT_GT(collapsed, 10);
}

TEST(Collapse, RemovingAValenceThreeVertexRestoresTheOctahedron) {
    // Octahedron face (0, 2, 4) split into three around a new vertex 6.
    auto tris = test::octahedron().triangles;
    tris.erase(tris.begin());
    for (const Triangle t : {Triangle{0, 2, 6}, Triangle{2, 4, 6}, Triangle{4, 0, 6}})
        tris.push_back(t);
    Mesh m = from_triangles(7, tris);
    ASSERT_TRUE(test::valid(m));
    const Edge e = m.find_edge(Vertex{0}, Vertex{6});
    const Before_collapse old(m, e);
    expect_collapse_result(m, m.collapse(e), old);
    EXPECT_EQ(test::face_corners(m), test::canonical_sorted(test::octahedron().triangles));
}

TEST(Collapse, DeletedIdsAreReusedByTheNextSplit) {
    Mesh m = test::build(test::icosphere(1));
    const auto slots = std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()};
    const Edge e = m.find_edge(Vertex{0}, *Vertex{0}.neighbors(m).begin());
    const Before_collapse old(m, e);
    m.collapse(e);
    const Edge n = m.split(old.ca);
    // The split creates exactly what the collapse deleted: one vertex, two faces, three edges.
    EXPECT_EQ(n.origin(m), old.z);
    const std::set<Face> new_faces{n.left(m), n.right(m)};
    EXPECT_EQ(new_faces, (std::set<Face>{old.left, old.right}));
    std::set<std::uint32_t> new_quads;
    for (const Edge x : n.origin(m).edges(m))
        if (x.base() != old.ca.base()) new_quads.insert(x.quad_index());
    EXPECT_EQ(new_quads, (std::set<std::uint32_t>{old.e.quad_index(), old.zc.quad_index(),
                                                  old.dz.quad_index()}));
    EXPECT_EQ((std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()}), slots);
    EXPECT_TRUE(test::valid(m));

    // add_vertex and add_face reuse them too.
    Mesh k = test::build(test::icosphere(1));
    const Before_collapse o2(k, Edge{0});
    k.collapse(Edge{0});
    EXPECT_EQ(k.add_vertex(), o2.z);
    const Vertex x = k.add_vertex(), y = k.add_vertex();
    const Face f = k.add_face(o2.z, x, y);
    EXPECT_TRUE(f == o2.left || f == o2.right);
    EXPECT_TRUE(k.contains(o2.e) || k.contains(o2.zc) || k.contains(o2.dz));
    EXPECT_TRUE(test::valid(k));
}

TEST(Collapse, RefusesWhenTheLinkConditionFails) {
    // Octahedron face (0, 2, 4) split into three around vertex 6: 0 and 2 now share neighbour 4
    // besides their opposite corners 6 and 5, so collapsing 0-2 would fold the mesh.
    auto tris = test::octahedron().triangles;
    tris.erase(tris.begin());
    for (const Triangle t : {Triangle{0, 2, 6}, Triangle{2, 4, 6}, Triangle{4, 0, 6}})
        tris.push_back(t);
    Mesh m = from_triangles(7, tris);
    const Edge e = m.find_edge(Vertex{0}, Vertex{2});
    for (const Edge x : {e, e.sym()}) {
        expect_collapse_refused(m, x, Refusal_kind::link_condition);
        EXPECT_EQ(m.check_collapse(x)->vertex, Vertex{4});
    }
}

TEST(Collapse, RefusesJoiningTwoBoundaryVerticesThroughTheInterior) {
    // In disc(1), flipping a spoke gives an interior edge between two rim vertices.
    Mesh m = test::build(test::disc(1));
    const Edge spoke = m.find_edge(Vertex{0}, Vertex{1});
    m.flip(spoke);
    ASSERT_TRUE(m.is_boundary(spoke.origin(m)) && m.is_boundary(spoke.dest(m)));
    ASSERT_FALSE(m.is_boundary(spoke));
    expect_collapse_refused(m, spoke, Refusal_kind::unconnected_fans);
    expect_collapse_refused(m, spoke.sym(), Refusal_kind::unconnected_fans);
}

TEST(Collapse, RefusesLeavingAnEdgeWithoutFaces) {
    // A single triangle: collapsing an edge would leave the other two edges faceless.
    Mesh t = from_triangles(3, {{0, 1, 2}});
    for (const Edge b : t.edges())
        for (const Edge e : {b, b.sym()})
            expect_collapse_refused(t, e, Refusal_kind::dangling_edge);
    // One triangle of a bow-tie: it hangs on vertex 0 only.
    Mesh s = from_triangles(5, {{0, 1, 2}, {0, 3, 4}});
    expect_collapse_refused(s, s.find_edge(Vertex{1}, Vertex{2}), Refusal_kind::dangling_edge);
    expect_collapse_refused(s, s.find_edge(Vertex{0}, Vertex{1}), Refusal_kind::dangling_edge);
}

TEST(Collapse, RefusesSquashingATetrahedron) {
    Mesh m = test::build(test::tetrahedron());
    for (const Edge b : m.edges())
        for (const Edge e : {b, b.sym()})
            expect_collapse_refused(m, e, Refusal_kind::tetrahedron);
}

TEST(Collapse, RefusesInvalidDualAndBadT) {
    Mesh m = test::build(test::octahedron());
    expect_collapse_refused(m, no_edge, Refusal_kind::invalid_element);
    expect_collapse_refused(m, Edge{m.edge_slots() + 2}, Refusal_kind::invalid_element);
    expect_collapse_refused(m, Edge{0}.rot(), Refusal_kind::dual_edge);
    for (const float t : {-0.5f, 2.0f, std::numeric_limits<float>::quiet_NaN()})
        expect_collapse_refused(m, Edge{0}, Refusal_kind::bad_parameter, t);
    EXPECT_FALSE(m.check_collapse(Edge{0}, 0.0f).has_value());
    EXPECT_FALSE(m.check_collapse(Edge{0}, 1.0f).has_value());
    const Edge e = m.find_edge(Vertex{0}, Vertex{4});
    m.collapse(e, 1.0f);
    expect_collapse_refused(m, e, Refusal_kind::invalid_element);
}

TEST(Collapse, HighValenceVertices) {
    // A bipyramid over a ring of 40: the apex has valence 40 (edit checks may take other paths
    // for long rings). Collapses towards and away from it.
    const std::uint32_t n = 40, top = n, bottom = n + 1;
    std::vector<Triangle> tris;
    for (std::uint32_t i = 0; i < n; ++i) {
        tris.push_back({top, i, (i + 1) % n});
        tris.push_back({bottom, (i + 1) % n, i});
    }
    const Mesh original = from_triangles(n + 2, tris);
    ASSERT_TRUE(test::valid(original));
    for (const Edge e :
         {original.find_edge(Vertex{top}, Vertex{0}), original.find_edge(Vertex{0}, Vertex{top})}) {
        Mesh m = original;
        const Before_collapse old(m, e);
        expect_collapse_result(m, m.collapse(e), old);
    }
    // Flipping ring edge 1-2 connects the apexes: now top and 0 share neighbour bottom.
    Mesh m = original;
    m.flip(m.find_edge(Vertex{1}, Vertex{2}));
    ASSERT_TRUE(m.find_edge(Vertex{top}, Vertex{bottom}).valid());
    for (const Edge e :
         {m.find_edge(Vertex{top}, Vertex{0}), m.find_edge(Vertex{0}, Vertex{top})}) {
        expect_collapse_refused(m, e, Refusal_kind::link_condition);
        EXPECT_EQ(m.check_collapse(e)->vertex, Vertex{bottom});
    }
    // An open fan of 40 faces: its centre and a rim vertex are both on the boundary.
    std::vector<Triangle> fan;
    for (std::uint32_t i = 0; i < n; ++i)
        fan.push_back({n + 1, i, i + 1});
    Mesh f = from_triangles(n + 2, fan);
    const Edge spoke = f.find_edge(Vertex{n + 1}, Vertex{5});
    expect_collapse_refused(f, spoke, Refusal_kind::unconnected_fans);
    expect_collapse_refused(f, spoke.sym(), Refusal_kind::unconnected_fans);
}

TEST(Collapse, RandomCollapsesKeepTheMeshValid) {
    std::mt19937_64 rng(41);
    for (const auto& shape : {test::icosphere(2), test::torus(8, 8), test::disc(5)}) {
        SCOPED_TRACE(shape.name);
        Mesh m = test::build(shape);
        int done = 0, refused = 0;
        for (int i = 0; i < 400; ++i) {
            Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots())};
            if (!m.contains(e)) continue;
            if (const auto r = m.check_collapse(e)) {
                ++refused;
                if (refused % 10 == 0) expect_collapse_refused(m, e, r->kind);
                continue;
            }
            const Before_collapse old(m, e);
            const Vertex survivor = m.collapse(e, 0.5f);
            if (done++ % 20 == 0) {
                expect_collapse_result(m, survivor, old);
            }
            EXPECT_EQ(test::euler_characteristic(m), shape.euler);
        }
        EXPECT_TRUE(test::valid(m));
        EXPECT_GT(done, 30);
    }
}

// ---- Plans: one check per edit (issue 19, "Checking twice") ----

TEST(CollapsePlan, GivesTheSameMeshAndRefusalsAsTheCheckedCollapse) {
    // Meshes built separately take the same random collapses by try_collapse, by check_collapse
    // then collapse, and by plan_collapse then collapse(plan).
    std::mt19937_64 rng(9);
    for (const auto& shape : {test::icosphere(3), test::torus(8, 7), test::disc(5)}) {
        SCOPED_TRACE(shape.name);
        Mesh by_try = test::build(shape), by_check = test::build(shape),
             by_plan = test::build(shape);
        int done = 0;
        for (int i = 0; i < 400; ++i) {
            const Edge e{static_cast<std::uint32_t>(rng() % by_try.edge_slots())};
            const float t = i % 3 == 0 ? 0.25f : 0.5f;
            const Vertex survivor = by_try.contains(e) ? e.origin(by_try) : no_vertex;
            const auto tried = by_try.try_collapse(e, t);
            const auto checked = by_check.check_collapse(e, t);
            if (!checked) {
                EXPECT_EQ(by_check.collapse(e, t), survivor);
            }
            const Collapse_plan plan = by_plan.plan_collapse(e, t);
            EXPECT_EQ(plan.edge(), e);
            EXPECT_EQ(plan.t(), t);
            ASSERT_EQ(tried.has_value(), checked.has_value()) << i;
            ASSERT_EQ(tried.has_value(), plan.refusal().has_value()) << i;
            if (tried) {
                EXPECT_EQ(checked->kind, tried->kind);
                EXPECT_EQ(plan.refusal()->kind, tried->kind);
                EXPECT_EQ(by_plan.try_collapse(plan)->kind, tried->kind);
            } else {
                EXPECT_EQ(by_plan.collapse(plan), survivor);
                ++done;
            }
            if (i % 50 == 0) {
                ASSERT_TRUE(by_try == by_check) << "after " << i << " steps";
                ASSERT_TRUE(by_try == by_plan) << "after " << i << " steps";
            }
        }
        EXPECT_GT(done, 30);
        EXPECT_TRUE(by_try == by_check);
        EXPECT_TRUE(by_try == by_plan);
        EXPECT_TRUE(test::valid(by_plan));
    }
}

TEST(CollapsePlan, AStalePlanIsRefusedEvenWhereItWouldBreakTheMesh) {
    // After the collapse of a neighbouring edge, the plan's edges are partly gone: applying it
    // would corrupt the mesh, and the stamp check refuses it.
    Mesh m = test::build(test::icosphere(2));
    const Edge e{0};
    const Collapse_plan plan = m.plan_collapse(e, 0.5f);
    ASSERT_FALSE(plan.refusal().has_value());
    const Edge neighbour = e.left_next(m);
    m.collapse(neighbour, 0.5f);
    const Mesh before = m.deep_copy();
    const auto r = m.try_collapse(plan);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, Refusal_kind::stale_plan);
    EXPECT_STREQ(r->operation, "collapse");
    EXPECT_EQ(r->edge, e);
    EXPECT_THROW(m.collapse(plan), Edit_refused);
    EXPECT_TRUE(m == before);
    EXPECT_TRUE(test::valid(m));
}

TEST(CollapsePlan, ARememberedCheckHoldsOnlyForItsParameter) {
    // check_collapse(e, 0.5) remembers an accepted collapse; the same edge with a bad t is
    // still refused, and a collapse of a deleted edge is refused as before.
    Mesh m = test::build(test::icosphere(2));
    const Edge e{0};
    ASSERT_FALSE(m.check_collapse(e, 0.5f).has_value());
    expect_collapse_refused(m, e, Refusal_kind::bad_parameter, 2.f);
    ASSERT_FALSE(m.check_collapse(e, 0.5f).has_value());
    const Vertex a = e.origin(m);
    EXPECT_EQ(m.collapse(e, 0.5f), a);
    expect_collapse_refused(m, e, Refusal_kind::invalid_element);
    EXPECT_TRUE(test::valid(m));
}

} // namespace
} // namespace orbis
