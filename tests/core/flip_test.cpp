// SPDX-License-Identifier: MIT
// flip (SPEC "Modification", seed 002).
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace orbis {
namespace {

// Expects flip(e) to be refused with `kind` by check_flip, try_flip and flip, and by the plan
// path (plan_flip, try_flip(plan), flip(plan)), each leaving the mesh == to a copy taken before.
void expect_flip_refused(Mesh& m, Edge e, Refusal_kind kind) {
    SCOPED_TRACE("flip(" + to_string(e) + ")");
    const Mesh before = m.deep_copy();
    const auto checked = m.check_flip(e);
    ASSERT_TRUE(checked.has_value());
    EXPECT_EQ(checked->kind, kind) << checked->message();
    EXPECT_STREQ(checked->operation, "flip");
    EXPECT_NE(checked->message().find("flip"), std::string::npos);
    const auto tried = m.try_flip(e);
    ASSERT_TRUE(tried.has_value());
    EXPECT_EQ(tried->kind, kind);
    EXPECT_TRUE(m == before);
    const Flip_plan plan = m.plan_flip(e);
    ASSERT_TRUE(plan.refusal().has_value());
    EXPECT_EQ(plan.refusal()->kind, kind);
    EXPECT_EQ(m.check_flip(plan)->kind, kind);
    const auto tried_plan = m.try_flip(plan);
    ASSERT_TRUE(tried_plan.has_value());
    EXPECT_EQ(tried_plan->kind, kind);
    EXPECT_THROW(m.flip(plan), Edit_refused);
    EXPECT_TRUE(m == before);
    try {
        m.flip(e);
        ADD_FAILURE() << "flip did not throw";
    } catch (const Edit_refused& x) {
        EXPECT_EQ(x.refusal().kind, kind);
    }
    EXPECT_TRUE(m == before);
}

Triangle corner_ids(const Mesh& m, Face f) { return test::canonical(test::corners(m, f)); }
Triangle tri(Vertex a, Vertex b, Vertex c) {
    return test::canonical({a.index(), b.index(), c.index()});
}

TEST(Flip, AnyPartOfTheQuadEdgeGivesTheSameResult) {
    // SPEC: flip(e) == flip(e.sym()) == flip(e.rot()) == flip(e.inv_rot()).
    const Mesh original = test::build(test::icosphere(1));
    for (const Edge b : original.edges()) {
        ASSERT_FALSE(original.check_flip(b).has_value());
        Mesh m1 = original, m2 = original, m3 = original, m4 = original;
        m1.flip(b);
        m2.flip(b.sym());
        m3.flip(b.rot());
        m4.flip(b.inv_rot());
        EXPECT_TRUE(m1 == m2) << b;
        EXPECT_TRUE(m1 == m3) << b;
        EXPECT_TRUE(m1 == m4) << b;
        for (const Edge e : {b.sym(), b.rot(), b.inv_rot()})
            EXPECT_FALSE(original.check_flip(e).has_value());
    }
}

TEST(Flip, ConnectsTheOppositeCornersAndKeepsIds) {
    // SPEC: with n = old origin_next(b), p = old origin_prev(b): origin(b) = old dest(p),
    // dest(b) = old dest(n); left(b), right(b) keep their ids; nothing is created or deleted.
    for (const auto& shape : {test::icosphere(1), test::torus(4, 4), test::disc(2)}) {
        SCOPED_TRACE(shape.name);
        const Mesh original = test::build(shape);
        for (const Edge base : original.edges()) {
            if (original.is_boundary(base)) continue;
            Mesh m = original;
            const Edge b = base;
            const Vertex a = b.origin(m), z = b.dest(m);
            const Vertex c = b.origin_next(m).dest(m), d = b.origin_prev(m).dest(m);
            ASSERT_EQ(c, b.left_next(m).dest(m));
            ASSERT_EQ(d, b.right_prev(m).dest(m));
            const Face l = b.left(m), r = b.right(m);
            const int va = a.valence(m), vz = z.valence(m), vc = c.valence(m), vd = d.valence(m);
            const auto slots = std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()};

            const std::array parts{b, b.sym(), b.rot(), b.inv_rot()};
            m.flip(parts[b.quad_index() % 4]);
            EXPECT_EQ(b.origin(m), d);
            EXPECT_EQ(b.dest(m), c);
            EXPECT_EQ(b.left(m), l);
            EXPECT_EQ(b.right(m), r);
            // The faces now lie on either side of d->c: (d, c, a) and (c, d, z).
            EXPECT_EQ(corner_ids(m, l), tri(d, c, a));
            EXPECT_EQ(corner_ids(m, r), tri(c, d, z));
            EXPECT_EQ(m.find_edge(a, z), no_edge);
            EXPECT_EQ(m.find_edge(d, c), b);
            EXPECT_EQ(a.valence(m), va - 1);
            EXPECT_EQ(z.valence(m), vz - 1);
            EXPECT_EQ(c.valence(m), vc + 1);
            EXPECT_EQ(d.valence(m), vd + 1);
            EXPECT_EQ(m.vertex_count(), original.vertex_count());
            EXPECT_EQ(m.face_count(), original.face_count());
            EXPECT_EQ(m.edge_count(), original.edge_count());
            EXPECT_EQ((std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()}), slots);
            ASSERT_TRUE(test::valid(m)) << "after flip(" << b << ")";
            EXPECT_EQ(test::euler_characteristic(m), shape.euler);
        }
    }
}

TEST(Flip, TwoFlipsReverseTheEdgeFourRestoreIt) {
    // Each flip turns the edge a quarter of the quad a-d-z-c: the second flip gives back the
    // old diagonal, reversed (z -> a), with the two faces' corners swapped; four flips give
    // back the same connectivity.
    const Mesh original = test::build(test::icosphere(1));
    for (const Edge b : original.edges()) {
        Mesh m = original;
        const Vertex a = b.origin(m), z = b.dest(m);
        const Face l = b.left(m), r = b.right(m);
        const Triangle left_corners = corner_ids(m, l), right_corners = corner_ids(m, r);
        m.flip(b);
        m.flip(b);
        EXPECT_EQ(b.origin(m), z);
        EXPECT_EQ(b.dest(m), a);
        EXPECT_EQ(b.left(m), l);
        EXPECT_EQ(corner_ids(m, l), right_corners);
        EXPECT_EQ(corner_ids(m, r), left_corners);
        EXPECT_EQ(test::face_corners(m), test::face_corners(original));
        m.flip(b);
        m.flip(b);
        EXPECT_EQ(b.origin(m), a);
        EXPECT_EQ(b.dest(m), z);
        EXPECT_TRUE(test::same_connectivity(m, original)) << "four flips of " << b;
        EXPECT_TRUE(test::valid(m));
    }
}

TEST(Flip, RefusesBoundaryEdges) {
    Mesh m = test::build(test::disc(2));
    int boundary = 0;
    for (const Edge b : m.edges()) {
        if (!m.is_boundary(b)) continue;
        ++boundary;
        for (const Edge e : {b, b.sym(), b.rot(), b.inv_rot()})
            expect_flip_refused(m, e, Refusal_kind::boundary_edge);
    }
    EXPECT_EQ(boundary, 12);
    // A lone triangle: every edge is a boundary edge.
    Mesh t;
    t.add_vertices(3);
    t.add_face(Vertex{0}, Vertex{1}, Vertex{2});
    expect_flip_refused(t, Edge{0}, Refusal_kind::boundary_edge);
}

TEST(Flip, RefusesWhenTheOppositeCornersAreConnected) {
    // In a tetrahedron the two corners opposite any edge share an edge already.
    Mesh m = test::build(test::tetrahedron());
    for (const Edge b : m.edges()) {
        expect_flip_refused(m, b, Refusal_kind::already_connected);
        const auto r = m.check_flip(b);
        const Vertex c = b.left_next(m).dest(m), d = b.right_prev(m).dest(m);
        EXPECT_TRUE((r->vertex == c && r->other_vertex == d) ||
                    (r->vertex == d && r->other_vertex == c));
    }
}

TEST(Flip, RefusesInvalidAndDeletedEdges) {
    Mesh m = test::build(test::octahedron());
    expect_flip_refused(m, no_edge, Refusal_kind::invalid_element);
    expect_flip_refused(m, Edge{m.edge_slots()}, Refusal_kind::invalid_element);
    expect_flip_refused(m, Edge{m.edge_slots()}.rot(), Refusal_kind::invalid_element);
    const Edge e = m.find_edge(Vertex{0}, Vertex{4});
    const Edge gone = e.left_next(m); // 4 -> c, deleted with the collapse
    m.collapse(e);
    ASSERT_FALSE(m.contains(gone));
    expect_flip_refused(m, e, Refusal_kind::invalid_element);
    expect_flip_refused(m, gone.rot(), Refusal_kind::invalid_element);
}

TEST(Flip, RefusesWhenBothFacesHaveTheSameOppositeCorner) {
    // Two faces on the same three vertices, back to back: flipping would make a loop.
    Mesh m;
    m.add_vertices(3);
    m.add_face(Vertex{0}, Vertex{1}, Vertex{2});
    if (m.try_add_face(Vertex{0}, Vertex{2}, Vertex{1}))
        GTEST_SKIP() << "the back face of a lone triangle is refused";
    ASSERT_TRUE(test::valid(m));
    for (const Edge b : m.edges())
        expect_flip_refused(m, b, Refusal_kind::degenerate_flip);
}

TEST(Flip, RandomFlipsKeepTheMeshValid) {
    std::mt19937_64 rng(23);
    for (const auto& shape : {test::icosphere(2), test::torus(6, 5), test::disc(4)}) {
        SCOPED_TRACE(shape.name);
        Mesh m = test::build(shape);
        const Mesh original = m;
        int done = 0;
        for (int i = 0; i < 3000; ++i) {
            const Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots())};
            const Edge part = rng() % 2 ? e : e.rot();
            if (auto r = m.try_flip(part)) {
                EXPECT_TRUE(r->kind == Refusal_kind::boundary_edge ||
                            r->kind == Refusal_kind::already_connected)
                    << r->message();
                continue;
            }
            ++done;
            if (i % 100 == 0) {
                ASSERT_TRUE(test::valid(m)) << "after " << i << " steps";
            }
        }
        ASSERT_TRUE(test::valid(m));
        EXPECT_GT(done, 1000);
        EXPECT_EQ(test::euler_characteristic(m), shape.euler);
        EXPECT_EQ(m.face_count(), original.face_count());
        int valence_sum = 0;
        for (const Vertex v : m.vertices())
            valence_sum += v.valence(m);
        EXPECT_EQ(valence_sum, static_cast<int>(2 * m.edge_count()));
        // Boundary edges never move.
        for (const Edge b : original.edges()) {
            if (!original.is_boundary(b)) continue;
            EXPECT_EQ(b.origin(m), b.origin(original));
            EXPECT_EQ(b.dest(m), b.dest(original));
        }
    }
}

TEST(Flip, ConnectedCornersAreFoundAtEveryDegree) {
    // The check walks the far corner's ring from both ends; random flips make degrees from 3 up,
    // so the two walks meet on rings of every length, odd and even.
    std::mt19937_64 rng(41);
    for (const auto& shape : {test::icosphere(2), test::torus(6, 5), test::disc(4)}) {
        SCOPED_TRACE(shape.name);
        Mesh m = test::build(shape);
        int degrees_seen = 0;
        for (int round = 0; round < 40; ++round) {
            for (const Edge b : m.edges()) {
                if (m.is_boundary(b)) continue;
                const Vertex c = b.left_next(m).dest(m), d = b.right_prev(m).dest(m);
                const bool connected = c != d && m.find_edge(c, d).valid();
                const auto r = m.check_flip(b);
                EXPECT_EQ(r.has_value() && r->kind == Refusal_kind::already_connected, connected)
                    << to_string(b) << " with corner degrees " << c.valence(m) << " and "
                    << d.valence(m);
                degrees_seen |= 1 << std::min(c.valence(m), 12);
            }
            for (int i = 0; i < 200; ++i)
                (void)m.try_flip(Edge{static_cast<std::uint32_t>(rng() % m.edge_slots())});
        }
        ASSERT_TRUE(test::valid(m));
        for (int degree = 3; degree <= 8; ++degree) {
            EXPECT_TRUE(degrees_seen & (1 << degree)) << "no corner of degree " << degree;
        }
    }
}

// ---- Plans: one check per edit (issue 19, "Checking twice") ----

// A random edge id of `m` (primal or dual, maybe deleted).
Edge random_edge(const Mesh& m, std::mt19937_64& rng) {
    const Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots())};
    return rng() % 4 == 0 ? e.rot() : e;
}

TEST(FlipPlan, GivesTheSameMeshAndRefusalsAsTheCheckedFlip) {
    // Three meshes built separately (no plan or remembered check can pass from one to another)
    // take the same random flips: by try_flip, by check_flip then flip, and by plan_flip then
    // try_flip(plan).
    std::mt19937_64 rng(5);
    for (const auto& shape : {test::icosphere(2), test::torus(6, 5), test::disc(4)}) {
        SCOPED_TRACE(shape.name);
        Mesh by_try = test::build(shape), by_check = test::build(shape),
             by_plan = test::build(shape);
        int done = 0;
        for (int i = 0; i < 1500; ++i) {
            const Edge e = random_edge(by_try, rng);
            const auto tried = by_try.try_flip(e);
            const auto checked = by_check.check_flip(e);
            if (!checked) by_check.flip(e);
            const Flip_plan plan = by_plan.plan_flip(e);
            EXPECT_EQ(plan.edge(), e);
            const auto planned = by_plan.try_flip(plan);
            ASSERT_EQ(tried.has_value(), checked.has_value()) << i;
            ASSERT_EQ(tried.has_value(), planned.has_value()) << i;
            if (tried) {
                EXPECT_EQ(checked->kind, tried->kind);
                EXPECT_EQ(planned->kind, tried->kind);
                EXPECT_EQ(plan.refusal()->kind, tried->kind);
            } else {
                ++done;
            }
            if (i % 100 == 0) {
                ASSERT_TRUE(by_try == by_check) << "after " << i << " steps";
                ASSERT_TRUE(by_try == by_plan) << "after " << i << " steps";
            }
        }
        EXPECT_GT(done, 500);
        EXPECT_TRUE(by_try == by_check);
        EXPECT_TRUE(by_try == by_plan);
        EXPECT_TRUE(test::valid(by_plan));
    }
}

TEST(FlipPlan, AStalePlanIsRefusedAndChangesNothing) {
    Mesh m = test::build(test::icosphere(1));
    const Edge e{0}, other{10};
    const Flip_plan plan = m.plan_flip(e);
    ASSERT_FALSE(plan.refusal().has_value());
    const Mesh planned_on = m; // a snapshot of the content the plan was checked on
    m.flip(other);
    ASSERT_FALSE(m.check_flip(e).has_value()) << "the flip itself would still be allowed";
    const Mesh before = m.deep_copy();
    const auto r = m.try_flip(plan);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, Refusal_kind::stale_plan);
    EXPECT_EQ(r->edge, e);
    EXPECT_STREQ(r->operation, "flip");
    EXPECT_EQ(m.check_flip(plan)->kind, Refusal_kind::stale_plan);
    try {
        m.flip(plan);
        ADD_FAILURE() << "flip(plan) did not throw";
    } catch (const Edit_refused& x) {
        EXPECT_EQ(x.refusal().kind, Refusal_kind::stale_plan);
        EXPECT_NE(std::string(x.what()).find("plan"), std::string::npos);
    }
    EXPECT_TRUE(m == before);

    // The snapshot still has the content the plan was made on, so it accepts the plan; a mesh
    // built separately with equal content does not (the plan cannot know it is equal).
    Mesh copy = planned_on;
    EXPECT_FALSE(copy.try_flip(plan).has_value());
    Mesh expected = planned_on.deep_copy();
    expected.flip(e);
    EXPECT_TRUE(copy == expected);
    Mesh rebuilt = test::build(test::icosphere(1));
    ASSERT_TRUE(rebuilt == planned_on);
    EXPECT_EQ(rebuilt.try_flip(plan)->kind, Refusal_kind::stale_plan);
    EXPECT_TRUE(rebuilt == planned_on);

    // A move takes the content and the plans with it; the moved-from mesh refuses them.
    Mesh source = planned_on;
    Mesh moved = std::move(source);
    EXPECT_EQ(source.check_flip(plan)->kind, Refusal_kind::stale_plan);
    EXPECT_FALSE(moved.try_flip(plan).has_value());
    EXPECT_TRUE(moved == expected);

    // Adding an element is an edit too; a default plan belongs to no content.
    Mesh grown = planned_on;
    grown.add_vertex();
    EXPECT_EQ(grown.check_flip(plan)->kind, Refusal_kind::stale_plan);
    EXPECT_EQ(m.check_flip(Flip_plan{})->kind, Refusal_kind::stale_plan);
    EXPECT_TRUE(m == before);
}

TEST(FlipPlan, ARememberedCheckIsUsedOnlyOnTheContentItChecked) {
    // check_flip remembers its last accepted flip for the next edit on this thread. Here every
    // edit comes right after a check of the same edge, often with other edits in between; a
    // mesh built separately takes the same edits by try_flip alone, and both must agree.
    std::mt19937_64 rng(17);
    for (const auto& shape : {test::icosphere(2), test::disc(4)}) {
        SCOPED_TRACE(shape.name);
        Mesh m = test::build(shape), control = test::build(shape);
        Edge checked = Edge{0};
        for (int i = 0; i < 2000; ++i) {
            if (rng() % 2) {
                checked = random_edge(m, rng);
                (void)m.check_flip(checked);
            }
            const Edge e = rng() % 2 ? checked : random_edge(m, rng);
            const int what = static_cast<int>(rng() % 8);
            std::optional<Refusal> r, rc;
            if (what < 5) {
                r = m.try_flip(e);
                rc = control.try_flip(e);
            } else if (what < 7) {
                r = m.try_collapse(e, 0.5f);
                rc = control.try_collapse(e, 0.5f);
            } else {
                r = m.try_split(e, 0.5f);
                rc = control.try_split(e, 0.5f);
            }
            ASSERT_EQ(r.has_value(), rc.has_value()) << i;
            if (r) {
                EXPECT_EQ(r->kind, rc->kind);
            }
            if (i % 50 == 0) {
                ASSERT_TRUE(m == control) << "after " << i << " steps";
            }
        }
        EXPECT_TRUE(m == control);
        EXPECT_TRUE(test::valid(m));
    }
}

TEST(FlipPlan, ACheckThenACollapseOfTheEdgeLeavesNothingToFlip) {
    // The remembered check must not outlive the edge: after the collapse deletes e, flip(e) is
    // refused as for any deleted edge.
    Mesh m = test::build(test::icosphere(2));
    const Edge e{0};
    ASSERT_FALSE(m.check_flip(e).has_value());
    m.collapse(e);
    expect_flip_refused(m, e, Refusal_kind::invalid_element);
    EXPECT_TRUE(test::valid(m));
}

} // namespace
} // namespace orbis
