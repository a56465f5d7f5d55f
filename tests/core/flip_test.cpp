// SPDX-License-Identifier: MIT
// flip (SPEC "Modification", seed 002).
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

namespace orbis {
namespace {

// Expects flip(e) to be refused with `kind` by check_flip, try_flip and flip, each leaving the
// mesh == to a copy taken before.
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

} // namespace
} // namespace orbis
