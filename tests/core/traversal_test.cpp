// SPDX-License-Identifier: MIT
// Traversal (SPEC "Traversal"): every operation against SPEC's definitions and against the
// geometry of hand-built meshes; the ranges, their use with <algorithm>, and their cost.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <new>
#include <ranges>
#include <set>
#include <string>
#include <vector>

// Counts every allocation of the test program, to show that traversal allocates nothing.
namespace {
std::atomic<std::size_t> allocation_count{0};
void* counted_alloc(std::size_t n) {
    allocation_count.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
} // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace orbis {
namespace {

using test::Point;

std::vector<test::Shape> shapes() {
    return {test::tetrahedron(), test::octahedron(), test::icosphere(1), test::torus(3, 4),
            test::disc(2)};
}

// Every directed primal edge of the mesh.
std::vector<Edge> primal_edges(const Mesh& m) {
    std::vector<Edge> out;
    for (const Edge e : m.edges()) {
        out.push_back(e);
        out.push_back(e.sym());
    }
    return out;
}

// ---- a little vector algebra for the geometric checks ----
Point sub(Point a, Point b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Point add(Point a, Point b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Point scale(Point a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
double dot(Point a, Point b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Point cross(Point a, Point b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// Positions with the outward normal at each point (the sphere's radius, or +z for the disc).
struct Geometry {
    std::vector<Point> pos;
    bool planar = false;
    Point normal(Point p) const { return planar ? Point{0, 0, 1} : p; }
    Point at(Vertex v) const { return pos[v.index()]; }
    Point centroid(const Mesh& m, Face f) const {
        Point c{0, 0, 0};
        for (const Vertex v : f.vertices(m))
            c = add(c, at(v));
        return scale(c, 1.0 / 3);
    }
    // True when `p` lies left of the directed segment from -> to, seen from outside.
    bool left_of(Point from, Point to, Point p) const {
        const Point mid = scale(add(from, to), 0.5);
        return dot(cross(sub(to, from), sub(p, from)), normal(mid)) > 1e-9;
    }
};

// The total counterclockwise turn, seen from outside, when walking the directions from `v` to
// `around` in order: 2 pi exactly when they go once around counterclockwise.
double total_turn(const Geometry& g, Vertex v, const std::vector<Vertex>& around) {
    const Point n = g.normal(g.at(v));
    auto tangent = [&](Vertex u) {
        const Point w = sub(g.at(u), g.at(v));
        return sub(w, scale(n, dot(w, n) / dot(n, n)));
    };
    const double two_pi = 2 * std::acos(-1.0);
    double sum = 0;
    for (std::size_t i = 0; i < around.size(); ++i) {
        const Point a = tangent(around[i]), b = tangent(around[(i + 1) % around.size()]);
        double angle = std::atan2(dot(cross(a, b), n) / std::sqrt(dot(n, n)), dot(a, b));
        if (angle <= 0) angle += two_pi;
        sum += angle;
    }
    return sum;
}

void expect_matches_geometry(const Mesh& m, const Geometry& g) {
    const double two_pi = 2 * std::acos(-1.0);
    for (const Vertex v : m.vertices()) {
        std::vector<Vertex> around(v.neighbors(m).begin(), v.neighbors(m).end());
        EXPECT_NEAR(total_turn(g, v, around), two_pi, 1e-9) << "neighbours of " << v;
    }
    for (const Edge e : primal_edges(m)) {
        const Point a = g.at(e.origin(m)), b = g.at(e.dest(m));
        if (e.left(m).valid()) {
            EXPECT_TRUE(g.left_of(a, b, g.centroid(m, e.left(m)))) << "left of " << e;
        }
        if (e.right(m).valid()) {
            EXPECT_FALSE(g.left_of(a, b, g.centroid(m, e.right(m)))) << "right of " << e;
        }
        // The dual edge e.rot() crosses e from its right face to its left face.
        if (e.left(m).valid() && e.right(m).valid()) {
            const Edge d = e.rot();
            const Point from = g.centroid(m, d.origin_face(m)), to = g.centroid(m, d.dest_face(m));
            EXPECT_TRUE(g.left_of(a, b, to)) << "dest_face of " << d;
            EXPECT_FALSE(g.left_of(a, b, from)) << "origin_face of " << d;
        }
    }
}

// Counts the dual edges whose left_vertex / right_vertex is not on that side geometrically.
int misplaced_dual_vertices(const Mesh& m, const Geometry& g, std::string& first) {
    int bad = 0;
    for (const Edge e : primal_edges(m)) {
        if (!e.left(m).valid() || !e.right(m).valid()) continue;
        for (const Edge d : {e.rot(), e.inv_rot()}) {
            const Point from = g.centroid(m, d.origin_face(m)), to = g.centroid(m, d.dest_face(m));
            if (g.left_of(from, to, g.at(d.left_vertex(m))) &&
                !g.left_of(from, to, g.at(d.right_vertex(m))))
                continue;
            if (bad++ == 0)
                first = to_string(d) + " (crossing " + to_string(e) + " from " +
                        to_string(e.origin(m)) + " to " + to_string(e.dest(m)) + "): left_vertex " +
                        to_string(d.left_vertex(m)) + ", right_vertex " +
                        to_string(d.right_vertex(m));
        }
    }
    return bad;
}

// A dual edge d = e.rot() runs from right(e) to left(e), so seen from outside e.origin lies on
// its left and e.dest on its right: the same rule as `left = inv_rot().origin_face` for primal
// edges, applied to the dual (left_vertex = inv_rot().origin).
TEST(Traversal, DualEdgeVertexSidesMatchGeometry) {
    std::string first;
    const Mesh octahedron = test::build(test::octahedron());
    EXPECT_EQ(
        misplaced_dual_vertices(octahedron, Geometry{test::octahedron_positions(), false}, first),
        0)
        << "first: " << first;
    const Mesh disc = test::build(test::disc(2));
    EXPECT_EQ(misplaced_dual_vertices(disc, Geometry{test::disc_positions(2), true}, first), 0)
        << "first: " << first;
    const Edge e = octahedron.find_edge(Vertex{4}, Vertex{0});
    EXPECT_EQ(e.rot().left_vertex(octahedron), e.origin(octahedron));
    EXPECT_EQ(e.rot().right_vertex(octahedron), e.dest(octahedron));
}

TEST(Traversal, DerivedOperationsFollowSpecDefinitions) {
    for (const auto& shape : shapes()) {
        SCOPED_TRACE(shape.name);
        const Mesh m = test::build(shape);
        for (const Edge b : m.edges())
            for (const Edge e : {b, b.rot(), b.sym(), b.inv_rot()}) {
                EXPECT_EQ(e.origin_prev(m), e.rot().origin_next(m).rot());
                EXPECT_EQ(e.dest_next(m), e.sym().origin_next(m).sym());
                EXPECT_EQ(e.dest_prev(m), e.inv_rot().origin_next(m).inv_rot());
                EXPECT_EQ(e.left_next(m), e.inv_rot().origin_next(m).rot());
                EXPECT_EQ(e.left_prev(m), e.origin_next(m).sym());
                EXPECT_EQ(e.right_next(m), e.rot().origin_next(m).inv_rot());
                EXPECT_EQ(e.right_prev(m), e.sym().origin_next(m));
                if (e.is_primal()) {
                    EXPECT_EQ(e.left(m), e.inv_rot().origin_face(m));
                    EXPECT_EQ(e.right(m), e.rot().origin_face(m));
                    EXPECT_EQ(e.dest(m), e.sym().origin(m));
                } else {
                    EXPECT_EQ(e.dest_face(m), e.sym().origin_face(m));
                }
            }
    }
}

TEST(Traversal, PrimalOperationsReachTheExpectedElements) {
    for (const auto& shape : shapes()) {
        SCOPED_TRACE(shape.name);
        const Mesh m = test::build(shape);
        for (const Edge e : primal_edges(m)) {
            const Vertex a = e.origin(m), b = e.dest(m);
            const Face l = e.left(m), r = e.right(m);
            // Rings around the origin and the destination.
            EXPECT_EQ(e.origin_next(m).origin(m), a);
            EXPECT_EQ(e.origin_prev(m).origin(m), a);
            EXPECT_EQ(e.origin_next(m).origin_prev(m), e);
            EXPECT_EQ(e.origin_prev(m).origin_next(m), e);
            EXPECT_EQ(e.dest_next(m).dest(m), b);
            EXPECT_EQ(e.dest_prev(m).dest(m), b);
            EXPECT_EQ(e.dest_next(m).dest_prev(m), e);
            // The wedge after e (counterclockwise) is its left face, the wedge before it its
            // right face; this holds for the outside (no_face) too.
            EXPECT_EQ(e.origin_next(m).right(m), l);
            EXPECT_EQ(e.origin_prev(m).left(m), r);
            EXPECT_EQ(e.dest_next(m).left(m), r);
            EXPECT_EQ(e.dest_prev(m).right(m), l);
            // Walks around the faces on either side.
            EXPECT_EQ(e.left_next(m).origin(m), b);
            EXPECT_EQ(e.left_prev(m).dest(m), a);
            EXPECT_EQ(e.left_next(m).left_prev(m), e);
            EXPECT_EQ(e.right_next(m).dest(m), a);
            EXPECT_EQ(e.right_prev(m).origin(m), b);
            EXPECT_EQ(e.right_next(m).right_prev(m), e);
            if (l.valid()) {
                EXPECT_EQ(e.left_next(m).left(m), l);
                EXPECT_EQ(e.left_prev(m).left(m), l);
                EXPECT_EQ(e.left_next(m).left_next(m).left_next(m), e);
                EXPECT_EQ(e.left_next(m).left_next(m), e.left_prev(m));
            }
            if (r.valid()) {
                EXPECT_EQ(e.right_next(m).right(m), r);
                EXPECT_EQ(e.right_prev(m).right(m), r);
                EXPECT_EQ(e.right_next(m).right_next(m).right_next(m), e);
            }
            // The dual edges of e cross it: rot from right to left, inv_rot from left to right.
            EXPECT_EQ(e.rot().origin_face(m), r);
            EXPECT_EQ(e.rot().dest_face(m), l);
            EXPECT_EQ(e.inv_rot().origin_face(m), l);
            EXPECT_EQ(e.inv_rot().dest_face(m), r);
            EXPECT_EQ(e.sym().left(m), r);
        }
    }
}

TEST(Traversal, TetrahedronAndOctahedronFacesAreTheInputTriangles) {
    for (const auto& shape : {test::tetrahedron(), test::octahedron()}) {
        const Mesh m = test::build(shape);
        EXPECT_EQ(test::face_corners(m), test::canonical_sorted(shape.triangles));
        for (const auto& t : shape.triangles) {
            // The face left of a->b of triangle (a, b, c) has c as its third corner.
            const Edge e = m.find_edge(Vertex{t[0]}, Vertex{t[1]});
            ASSERT_TRUE(e.valid());
            EXPECT_EQ(e.left_next(m).dest(m), Vertex{t[2]});
            EXPECT_EQ(e.left_prev(m).origin(m), Vertex{t[2]});
        }
    }
}

TEST(Traversal, OctahedronRingsAreCounterclockwiseSeenFromOutside) {
    const Mesh m = test::build(test::octahedron());
    expect_matches_geometry(m, Geometry{test::octahedron_positions(), false});
    // +z (4) seen from above: +x, +y, -x, -y counterclockwise.
    std::vector<Vertex> around(Vertex{4}.neighbors(m).begin(), Vertex{4}.neighbors(m).end());
    ASSERT_EQ(around.size(), 4u);
    std::rotate(around.begin(), std::find(around.begin(), around.end(), Vertex{0}), around.end());
    EXPECT_EQ(around, (std::vector<Vertex>{Vertex{0}, Vertex{2}, Vertex{1}, Vertex{3}}));
}

TEST(Traversal, DiscMatchesPlanarGeometryIncludingBoundary) {
    const auto shape = test::disc(3);
    const Geometry g{test::disc_positions(3), true};
    ASSERT_EQ(g.pos.size(), shape.vertex_count);
    for (const auto& t : shape.triangles) // the positions fit the fixture's orientation
        ASSERT_TRUE(g.left_of(g.pos[t[0]], g.pos[t[1]], g.pos[t[2]]));
    const Mesh m = test::build(shape);
    expect_matches_geometry(m, g);
}

TEST(Traversal, OctahedronBuiltInRandomOrdersMatchesGeometry) {
    // Geometry of a closed mesh built in a random order: the rings do not depend on the order.
    std::mt19937_64 rng(3);
    const auto shape = test::octahedron();
    for (int i = 0; i < 10; ++i) {
        const Mesh m = test::build(shape, test::shuffled(shape.triangles, rng));
        expect_matches_geometry(m, Geometry{test::octahedron_positions(), false});
    }
}

TEST(Traversal, OriginCwIsOriginCcwReversed) {
    const Mesh m = test::build(test::disc(2));
    for (const Edge e : primal_edges(m)) {
        const std::vector<Edge> ccw(e.origin_ccw(m).begin(), e.origin_ccw(m).end());
        const std::vector<Edge> cw(e.origin_cw(m).begin(), e.origin_cw(m).end());
        ASSERT_EQ(ccw.size(), cw.size());
        ASSERT_FALSE(ccw.empty());
        EXPECT_EQ(ccw.front(), e);
        EXPECT_EQ(cw.front(), e);
        for (std::size_t i = 1; i < ccw.size(); ++i)
            EXPECT_EQ(cw[i], ccw[ccw.size() - i]);
        EXPECT_EQ(static_cast<int>(ccw.size()), e.origin(m).valence(m));
    }
}

TEST(Traversal, VertexRangesOnClosedAndOpenMeshes) {
    for (const auto& shape : shapes()) {
        SCOPED_TRACE(shape.name);
        const Mesh m = test::build(shape);
        for (const Vertex v : m.vertices()) {
            const Edge first = v.edge(m);
            ASSERT_TRUE(first.valid());
            EXPECT_EQ(first.origin(m), v);
            std::vector<Vertex> dests;
            for (const Edge e : v.edges(m)) {
                EXPECT_EQ(e.origin(m), v);
                dests.push_back(e.dest(m));
            }
            EXPECT_EQ(std::vector<Vertex>(v.neighbors(m).begin(), v.neighbors(m).end()), dests);
            EXPECT_EQ(v.valence(m), static_cast<int>(dests.size()));
            EXPECT_EQ(v.edges(m).size(), dests.size());
            EXPECT_EQ(*v.edges(m).begin(), first);

            // Faces: one per wedge, except the outside wedge of a boundary vertex.
            std::vector<Face> faces;
            for (const Face f : v.faces(m)) {
                EXPECT_TRUE(f.valid());
                const auto corners = f.vertices(m);
                EXPECT_NE(std::ranges::find(corners, v), corners.end());
                faces.push_back(f);
            }
            EXPECT_EQ(v.faces(m).size(), faces.size());
            const std::size_t outside = m.is_boundary(v) ? 1 : 0;
            EXPECT_EQ(faces.size() + outside, dests.size());
            EXPECT_EQ(std::set<Face>(faces.begin(), faces.end()).size(), faces.size());
        }
    }
}

TEST(Traversal, FaceRangesWalkTheThreeEdges) {
    for (const auto& shape : shapes()) {
        SCOPED_TRACE(shape.name);
        const Mesh m = test::build(shape);
        for (const Face f : m.faces()) {
            const Edge first = f.edge(m);
            ASSERT_TRUE(first.valid());
            EXPECT_TRUE(first.is_primal());
            EXPECT_EQ(first.left(m), f);
            const std::vector<Edge> edges(f.edges(m).begin(), f.edges(m).end());
            const std::vector<Vertex> corners(f.vertices(m).begin(), f.vertices(m).end());
            ASSERT_EQ(edges.size(), 3u);
            ASSERT_EQ(corners.size(), 3u);
            EXPECT_EQ(edges[0], first);
            for (int i = 0; i < 3; ++i) {
                EXPECT_EQ(edges[i].left(m), f);
                EXPECT_EQ(edges[i].origin(m), corners[i]);
                EXPECT_EQ(edges[i].dest(m), corners[(i + 1) % 3]);
                EXPECT_EQ(edges[i].left_next(m), edges[(i + 1) % 3]);
            }
        }
    }
}

TEST(Traversal, IsolatedVertexHasEmptyRanges) {
    Mesh m;
    const Vertex v = m.add_vertex();
    EXPECT_EQ(v.edge(m), no_edge);
    EXPECT_TRUE(v.edges(m).empty());
    EXPECT_TRUE(v.neighbors(m).empty());
    EXPECT_TRUE(v.faces(m).empty());
    EXPECT_EQ(v.valence(m), 0);
    EXPECT_FALSE(m.is_boundary(v));
    EXPECT_EQ(m.find_edge(v, v), no_edge);
    EXPECT_TRUE(test::valid(m));
}

TEST(Traversal, ElementRangesSkipDeletedElements) {
    Mesh m = test::build(test::icosphere(1));
    const Edge e = *m.edges().begin();
    const Vertex gone = e.dest(m);
    const Face l = e.left(m), r = e.right(m);
    const Edge e1 = e.left_next(m), e4 = e.sym().left_next(m).left_next(m);
    m.collapse(e);
    ASSERT_TRUE(test::valid(m));

    std::vector<Vertex> vertices(m.vertices().begin(), m.vertices().end());
    EXPECT_EQ(vertices.size(), m.vertex_count());
    EXPECT_EQ(std::ranges::find(vertices, gone), vertices.end());
    EXPECT_TRUE(std::ranges::is_sorted(vertices));
    EXPECT_TRUE(std::ranges::all_of(vertices, [&](Vertex v) { return m.contains(v); }));

    std::vector<Face> faces(m.faces().begin(), m.faces().end());
    EXPECT_EQ(faces.size(), m.face_count());
    EXPECT_EQ(std::ranges::find(faces, l), faces.end());
    EXPECT_EQ(std::ranges::find(faces, r), faces.end());
    EXPECT_TRUE(std::ranges::all_of(faces, [&](Face f) { return m.contains(f); }));

    std::vector<Edge> edges(m.edges().begin(), m.edges().end());
    EXPECT_EQ(edges.size(), m.edge_count());
    for (const Edge x : edges) {
        EXPECT_TRUE(m.contains(x));
        EXPECT_EQ(x, x.base());
    }
    for (const Edge x : {e, e1, e4})
        EXPECT_EQ(std::ranges::find(edges, x.base()), edges.end());
    EXPECT_TRUE(std::ranges::is_sorted(edges));
}

TEST(Traversal, RangesWorkWithStandardAlgorithms) {
    const Mesh m = test::build(test::disc(2));
    const Vertex centre{0};
    const auto ring = centre.neighbors(m);
    EXPECT_EQ(std::distance(ring.begin(), ring.end()), 6);
    EXPECT_EQ(std::ranges::distance(ring), 6);
    EXPECT_EQ(std::count_if(ring.begin(), ring.end(), [&](Vertex v) { return m.is_boundary(v); }),
              0);
    const Vertex outer{7}; // ring 2
    const auto outer_ring = outer.neighbors(m);
    EXPECT_GT(std::ranges::count_if(outer_ring, [&](Vertex v) { return m.is_boundary(v); }), 0);

    const Face f = *m.faces().begin();
    const auto corners = f.vertices(m);
    const Vertex second = *std::next(corners.begin());
    EXPECT_EQ(*std::find(corners.begin(), corners.end(), second), second);
    EXPECT_EQ(std::find(corners.begin(), corners.end(), Vertex{999}), corners.end());
    EXPECT_TRUE(std::ranges::any_of(m.vertices(), [&](Vertex v) { return v == outer; }));
    EXPECT_EQ(std::ranges::count_if(m.edges(), [&](Edge e) { return m.is_boundary(e); }), 12);
    const auto verts = m.vertices();
    auto boundary = verts | std::views::filter([&](Vertex v) { return m.is_boundary(v); });
    EXPECT_EQ(std::ranges::distance(boundary), 12);
    EXPECT_EQ(*std::ranges::max_element(verts), Vertex{m.vertex_slots() - 1});
}

TEST(Traversal, SkipDropsTheFirstEdgesOfARing) {
    // Seed 002 iterates `origin_ccw(m).skip(2)`.
    const Mesh m = test::build(test::icosphere(1));
    for (const Edge e : primal_edges(m)) {
        const auto all = e.origin_ccw(m);
        const auto rest = all.skip(2);
        EXPECT_EQ(rest.size() + 2, all.size());
        EXPECT_EQ(*rest.begin(), e.origin_next(m).origin_next(m));
        EXPECT_EQ(all.skip(0).size(), all.size());
        EXPECT_TRUE(all.skip(all.size()).empty());
        EXPECT_TRUE(all.skip(all.size() + 5).empty());
    }
}

TEST(Traversal, TraversalAllocatesNothing) {
    const Mesh m = test::build(test::icosphere(3));
    std::size_t sink = 0;
    const std::size_t before = allocation_count.load();
    for (const Vertex v : m.vertices()) {
        for (const Edge e : v.edges(m))
            sink += e.origin_prev(m).mask() + e.dest_next(m).mask() + e.right_prev(m).mask();
        for (const Edge e : v.edge(m).origin_cw(m))
            sink += e.mask();
        for (const Vertex u : v.neighbors(m))
            sink += u.index();
        for (const Face f : v.faces(m))
            sink += f.index();
        sink += static_cast<std::size_t>(v.valence(m));
        sink += static_cast<std::size_t>(
            std::ranges::count_if(v.neighbors(m), [](Vertex u) { return u.index() % 2 == 0; }));
        sink += v.edge(m).origin_ccw(m).skip(2).size();
    }
    for (const Face f : m.faces()) {
        for (const Edge e : f.edges(m))
            sink += e.left_next(m).mask();
        const auto corners = f.vertices(m);
        sink += std::find(corners.begin(), corners.end(), Vertex{5}) != corners.end();
    }
    for (const Edge e : m.edges())
        sink += e.left(m).index() + e.right(m).index() + e.rot().origin_next(m).mask();
    sink += m.find_edge(Vertex{0}, Vertex{1}).mask();
    sink += m.is_boundary(Vertex{0});
    const std::size_t after = allocation_count.load();
    EXPECT_EQ(after - before, 0u);
    EXPECT_NE(sink, 0u);
    // The counter does count: a vector allocates.
    const std::vector<Vertex> copy(m.vertices().begin(), m.vertices().end());
    EXPECT_GT(allocation_count.load(), after);
}

TEST(Traversal, RefusalsAllocateNothing) {
    // SPEC/refusal.hpp: building a Refusal allocates nothing; only message() does.
    const Mesh t = test::build(test::tetrahedron());
    std::size_t sink = 0;
    const std::size_t before = allocation_count.load();
    for (const Edge e : t.edges()) {
        sink += static_cast<std::size_t>(t.check_flip(e)->kind);
        sink += static_cast<std::size_t>(t.check_collapse(e)->kind);
        sink += static_cast<std::size_t>(t.check_split(e, 2.0f)->kind);
        sink += static_cast<std::size_t>(t.check_split(e.rot())->kind);
    }
    sink += static_cast<std::size_t>(t.check_add_face(Vertex{0}, Vertex{1}, Vertex{2})->kind);
    sink += static_cast<std::size_t>(t.check_add_face(Vertex{0}, Vertex{0}, Vertex{2})->kind);
    EXPECT_EQ(allocation_count.load() - before, 0u);
    EXPECT_NE(sink, 0u);
}

TEST(Traversal, FindEdgeAndIsBoundary) {
    const Mesh m = test::build(test::disc(1));
    for (const Edge e : primal_edges(m)) {
        EXPECT_EQ(m.find_edge(e.origin(m), e.dest(m)), e);
        EXPECT_EQ(m.is_boundary(e), m.is_boundary(e.sym()));
        EXPECT_EQ(m.is_boundary(e), !e.left(m).valid() || !e.right(m).valid());
    }
    EXPECT_EQ(m.find_edge(Vertex{1}, Vertex{4}), no_edge); // across the centre
    EXPECT_FALSE(m.is_boundary(Vertex{0}));
    for (std::uint32_t i = 1; i <= 6; ++i)
        EXPECT_TRUE(m.is_boundary(Vertex{i}));
}

// The primal edges whose left is the outside, walked as the dual ring of the outside face from
// the dual edge that leaves the outside across `start`.
std::vector<Edge> outside_ring(const Mesh& m, Edge start) {
    std::vector<Edge> out;
    const Edge first = start.inv_rot(); // dual, from left(start) = no_face to right(start)
    Edge d = first;
    do {
        EXPECT_EQ(d.origin_face(m), no_face);
        out.push_back(d.rot()); // the primal edge this dual edge crosses, outside on its left
        d = d.origin_next(m);
    } while (d != first && out.size() <= 2 * m.edge_count());
    return out;
}

TEST(Traversal, BoundaryDualEdgesFormOneRingAroundTheOutside) {
    const Mesh m = test::build(test::disc(2));
    std::set<Edge> boundary;
    for (const Edge e : primal_edges(m)) {
        EXPECT_TRUE(e.left(m).valid() || e.right(m).valid());
        if (!e.left(m).valid()) boundary.insert(e);
    }
    ASSERT_EQ(boundary.size(), 12u); // ring 2 of the disc has 12 vertices

    const std::vector<Edge> ring = outside_ring(m, *boundary.begin());
    EXPECT_EQ(ring.size(), boundary.size());
    EXPECT_EQ(std::set<Edge>(ring.begin(), ring.end()), boundary);
    for (std::size_t i = 0; i < ring.size(); ++i) {
        // Consecutive dual edges cross consecutive boundary edges: a walk around the outside.
        EXPECT_EQ(ring[i].left(m), no_face);
        EXPECT_EQ(ring[i].dest(m), ring[(i + 1) % ring.size()].origin(m));
        EXPECT_EQ(ring[i].left_next(m), ring[(i + 1) % ring.size()]);
    }
    // A real face's dual ring has three edges.
    const Face f = *m.faces().begin();
    const auto face_ring = f.edge(m).inv_rot().origin_ccw(m);
    EXPECT_EQ(face_ring.size(), 3u);
    for (const Edge d : face_ring)
        EXPECT_EQ(d.origin_face(m), f);
}

TEST(Traversal, EachBoundaryLoopHasItsOwnDualRing) {
    // An annulus: disc(2) without the faces around the centre has an inner and an outer loop.
    auto shape = test::disc(2);
    std::erase_if(shape.triangles, [](const Triangle& t) { return std::ranges::count(t, 0u) > 0; });
    Mesh m;
    m.add_vertices(shape.vertex_count);
    for (const auto& t : shape.triangles)
        m.add_face(Vertex{t[0]}, Vertex{t[1]}, Vertex{t[2]});
    ASSERT_TRUE(test::valid(m));
    std::vector<std::size_t> lengths;
    std::set<Edge> seen;
    for (const Edge e : primal_edges(m))
        if (!e.left(m).valid() && !seen.contains(e)) {
            const auto ring = outside_ring(m, e);
            seen.insert(ring.begin(), ring.end());
            lengths.push_back(ring.size());
        }
    std::ranges::sort(lengths);
    EXPECT_EQ(lengths, (std::vector<std::size_t>{6, 12}));
}

TEST(MeshElements, SlotsCountsAndContains) {
    Mesh m;
    EXPECT_EQ(m.vertex_slots(), 0u);
    EXPECT_EQ(m.face_slots(), 0u);
    EXPECT_EQ(m.edge_slots(), 0u);
    EXPECT_FALSE(m.contains(Vertex{0}));
    EXPECT_FALSE(m.contains(Face{0}));
    EXPECT_FALSE(m.contains(Edge{0}));

    EXPECT_EQ(m.add_vertices(4), Vertex{0});
    EXPECT_EQ(m.add_vertex(), Vertex{4});
    EXPECT_EQ(m.vertex_slots(), 5u);
    EXPECT_EQ(m.vertex_count(), 5u);
    const Face f = m.add_face(Vertex{0}, Vertex{1}, Vertex{2});
    EXPECT_EQ(m.face_slots(), 1u);
    EXPECT_EQ(m.edge_slots(), 6u); // three quad-edges, two directed edges each
    EXPECT_EQ(m.edge_count(), 3u);
    EXPECT_TRUE(m.contains(f));
    EXPECT_TRUE(m.contains(Vertex{4}));
    EXPECT_FALSE(m.contains(Vertex{5}));
    EXPECT_FALSE(m.contains(no_vertex));
    EXPECT_FALSE(m.contains(Face{1}));
    EXPECT_FALSE(m.contains(no_face));
    for (std::uint32_t i = 0; i < 6; ++i) {
        EXPECT_TRUE(m.contains(Edge{i}));
        EXPECT_TRUE(m.contains(Edge{i}.rot()));
    }
    EXPECT_FALSE(m.contains(Edge{6}));
    EXPECT_FALSE(m.contains(Edge{6}.rot()));
    EXPECT_FALSE(m.contains(no_edge));
    EXPECT_EQ(m.add_vertices(3), Vertex{5});
    EXPECT_EQ(m.vertex_slots(), 8u);
}

TEST(MeshElements, DeletedIdsLeaveTheirSlotsAndComeBack) {
    Mesh m = test::build(test::octahedron());
    const auto slots = std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()};
    const Edge e = m.find_edge(Vertex{0}, Vertex{4});
    const Vertex gone = e.dest(m);
    const Face l = e.left(m);
    m.collapse(e);
    EXPECT_EQ((std::array{m.vertex_slots(), m.face_slots(), m.edge_slots()}), slots);
    EXPECT_FALSE(m.contains(gone));
    EXPECT_FALSE(m.contains(l));
    EXPECT_FALSE(m.contains(e));
    EXPECT_FALSE(m.contains(e.rot()));
    EXPECT_EQ(gone.edge(m), no_edge);
    EXPECT_EQ(m.vertex_count(), 5u);

    // add_vertex reuses the freed id; add_vertices appends consecutive new ones.
    EXPECT_EQ(m.add_vertex(), gone);
    EXPECT_TRUE(m.contains(gone));
    EXPECT_TRUE(gone.edges(m).empty());
    EXPECT_EQ(m.add_vertices(2), Vertex{slots[0]});
    EXPECT_EQ(m.vertex_count(), 8u);
    EXPECT_TRUE(test::valid(m));
}

} // namespace
} // namespace orbis
