// SPDX-License-Identifier: MIT
// make_sphere: the mesh built from the triangulation is the Delaunay triangulation of the
// points, every point is a vertex with edges, and faces are counterclockwise seen from outside.
#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/gen/sphere_delaunay.hpp>
#include <orbis/gen/sphere_predicates.hpp>

#include "triangulation_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

namespace {

using orbis::Edge;
using orbis::Mesh;
using orbis::Vertex;
using orbis::gen::Fibonacci_params;

using orbis::gen::testing::mesh_triangles;

std::vector<orbis::Triangle> canonical(std::vector<orbis::Triangle> tris) {
    return orbis::gen::testing::canonical_triangles(std::move(tris));
}

class SphereMeshFromPoints : public testing::TestWithParam<std::tuple<std::uint32_t, float>> {};

TEST_P(SphereMeshFromPoints, IsTheDelaunayTriangulationOfEveryPoint) {
    const auto [n, perturbation] = GetParam();
    const auto s = orbis::gen::make_sphere({.count = n, .perturbation = perturbation, .seed = 3});
    const Mesh& m = s.mesh;
    ASSERT_EQ(m.validate(), std::nullopt);
    EXPECT_EQ(m.vertex_count(), n);
    EXPECT_EQ(m.face_count(), 2 * std::size_t{n} - 4);
    EXPECT_EQ(long(m.vertex_count()) - long(m.edge_count()) + long(m.face_count()), 2);
    for (const Vertex v : m.vertices())
        EXPECT_GE(v.valence(m), 3) << v;

    // Counterclockwise seen from outside (exact orientation of the directions; the smallest
    // spheres do not contain the origin strictly inside every face's cone, so skip them).
    if (n > 6)
        for (const orbis::Face f : m.faces()) {
            const Edge e = f.edge(m);
            const auto& p = s.positions;
            EXPECT_EQ(orbis::gen::orientation_on_sphere(p[e.origin(m).index()],
                                                        p[e.dest(m).index()],
                                                        p[e.left_next(m).dest(m).index()]),
                      1)
                << f;
        }

    // Every edge locally Delaunay: the corner opposite on the right is not inside the circle
    // through the left face.
    for (const Edge e : m.edges()) {
        const auto& p = s.positions;
        const Vertex a = e.origin(m), b = e.dest(m), c = e.left_next(m).dest(m),
                     d = e.sym().left_next(m).dest(m);
        EXPECT_LE(orbis::gen::direction_orientation(p[a.index()], p[b.index()], p[c.index()],
                                                    p[d.index()]),
                  0)
            << e;
    }

    // The same triangles as CGAL's Delaunay_triangulation_on_sphere_2.
    EXPECT_EQ(canonical(mesh_triangles(m)),
              canonical(orbis::gen::delaunay_on_sphere_cgal(s.positions).triangles));
}

INSTANTIATE_TEST_SUITE_P(Sizes, SphereMeshFromPoints,
                         testing::Combine(testing::Values(4u, 5u, 12u, 100u, 1000u, 20000u),
                                          testing::Values(0.f, 0.5f)));

// The sphere's faces in random orders, through add_face and through the face soup builder:
// always a valid closed mesh with the same faces.
TEST(SphereMesh, BuildsFromFacesInAnyOrder) {
    const auto s = orbis::gen::make_sphere({.count = 3000, .perturbation = 0.5f, .seed = 9});
    const auto reference = canonical(mesh_triangles(s.mesh));
    std::mt19937_64 rng(5);
    for (int round = 0; round < 10; ++round) {
        auto order = mesh_triangles(s.mesh);
        std::shuffle(order.begin(), order.end(), rng);
        for (auto& t : order)
            std::rotate(t.begin(), t.begin() + rng() % 3, t.end());

        const auto soup = orbis::build_from_face_soup(3000, order);
        ASSERT_TRUE(soup.refused.empty());
        ASSERT_EQ(soup.mesh.validate(), std::nullopt);
        EXPECT_EQ(canonical(mesh_triangles(soup.mesh)), reference);

        Mesh m;
        m.add_vertices(3000);
        // Only order-dependent refusals may happen, and they are retried.
        ASSERT_TRUE(orbis::add_faces(m, order).empty());
        ASSERT_EQ(m.validate(), std::nullopt);
        EXPECT_EQ(long(m.vertex_count()) - long(m.edge_count()) + long(m.face_count()), 2);
        EXPECT_EQ(canonical(mesh_triangles(m)), reference);
    }
}

} // namespace
