// SPDX-License-Identifier: MIT
// Tests of the triangle clusters that frames use to skip what the eye cannot see: a skipped
// cluster holds only triangles that back-face culling or clipping would drop, and the far
// side of a planet is skipped.
#include "orbis/render/triangle_clusters.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/render/mesh_buffers.hpp"

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <random>

namespace orbis::render {
namespace {

constexpr float radius = 6371.f;

World planet() {
    return gen::make_sphere_world(
        {.count = 60'000, .radius = radius, .perturbation = 0.5f, .seed = 5});
}

struct View {
    glm::dvec3 eye;
    glm::dmat4 view_projection;
};

// An eye at `distance` radii from the centre in a random direction, looking at a random point
// near the centre, with the editor's field of view.
View random_view(std::mt19937_64& rng, double distance) {
    std::normal_distribution<double> normal;
    const glm::dvec3 dir = glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
    const glm::dvec3 eye = dir * (distance * radius);
    const glm::dvec3 target(0.3 * radius * normal(rng), 0.3 * radius * normal(rng), 0.0);
    const glm::dvec3 up = std::abs(dir.z) < 0.9 ? glm::dvec3(0, 0, 1) : glm::dvec3(1, 0, 0);
    const glm::dmat4 proj =
        glm::perspective(glm::radians(45.0), 1280.0 / 800.0, 0.01 * radius, 20.0 * radius);
    return {eye, proj * glm::lookAt(eye, target, up)};
}

// True when every corner of triangle t lies outside one and the same clip plane.
bool clipped_whole(const Triangle_buffers& b, std::size_t t, const glm::dmat4& vp) {
    glm::dvec4 clip[3];
    for (int k = 0; k < 3; ++k)
        clip[k] = vp * glm::dvec4(glm::dvec3(b.positions[b.corner(t, k)]), 1.0);
    for (int axis = 0; axis < 3; ++axis)
        for (const double sign : {1.0, -1.0}) {
            bool all = true;
            for (int k = 0; k < 3; ++k)
                all = all && clip[k].w + sign * clip[k][axis] < 0.0;
            if (all) return true;
        }
    return false;
}

// True when the eye sees the back of triangle t (or it is degenerate and draws nothing).
bool back_facing(const Triangle_buffers& b, std::size_t t, const glm::dvec3& eye) {
    const glm::dvec3 a(b.positions[b.corner(t, 0)]), p(b.positions[b.corner(t, 1)]),
        c(b.positions[b.corner(t, 2)]);
    const glm::dvec3 n = glm::cross(p - a, c - a);
    return glm::dot(n, a - eye) >= 0.0;
}

class Clusters : public ::testing::TestWithParam<Shading> {};

TEST_P(Clusters, SkippedClustersHoldOnlyTrianglesTheFrameWouldDrop) {
    const World w = planet();
    const Triangle_buffers b = triangles(w.mesh(), vertex_positions(w), GetParam());
    ASSERT_EQ(b.clusters, triangle_clusters(b));
    ASSERT_EQ(b.clusters.size(), (b.face_of.size() + cluster_triangles - 1) / cluster_triangles);
    std::mt19937_64 rng(17);
    for (const double distance : {1.05, 1.5, 3.0, 8.0}) {
        std::size_t drawn = 0, skipped_far = 0, skipped_outside = 0;
        for (int view = 0; view < 6; ++view) {
            const View v = random_view(rng, distance);
            const auto runs =
                visible_triangle_runs(b.clusters, b.face_of.size(), v.eye, v.view_projection);
            std::vector<bool> shown(b.face_of.size(), false);
            for (std::size_t r = 0; r < runs.size(); ++r) {
                const auto [first, last] = runs[r];
                ASSERT_LT(first, last);
                ASSERT_LE(last, b.face_of.size());
                if (r > 0) {
                    ASSERT_GT(first, runs[r - 1].second) << "ascending, neighbours merged";
                }
                for (std::uint32_t t = first; t < last; ++t)
                    shown[t] = true;
            }
            for (std::size_t k = 0; k < b.clusters.size(); ++k) {
                const Triangle_cluster& c = b.clusters[k];
                const bool away = faces_away(c, v.eye);
                const bool outside = outside_view(c, v.view_projection);
                const std::size_t first = k * cluster_triangles;
                const std::size_t last = std::min(first + cluster_triangles, b.face_of.size());
                ASSERT_EQ(shown[first], !away && !outside) << "cluster " << k;
                for (std::size_t t = first; t < last; ++t) {
                    ASSERT_EQ(shown[t], shown[first]);
                    if (away) {
                        ASSERT_TRUE(back_facing(b, t, v.eye))
                            << "triangle " << t << " faces the eye at " << distance << " radii";
                    }
                    if (outside) {
                        ASSERT_TRUE(clipped_whole(b, t, v.view_projection))
                            << "triangle " << t << " reaches into the view";
                    }
                }
                skipped_far += away ? last - first : 0;
                skipped_outside += outside && !away ? last - first : 0;
                drawn += shown[first] ? last - first : 0;
            }
        }
        // Most of the far side is skipped: from d radii the eye sees a cap of (1 - 1/d) / 2 of
        // the sphere and the backs of the rest. Clusters near the horizon hold triangles of
        // both sides (a 60,000-point planet has about 120 clusters of some 0.3 radians each).
        const double far = double(skipped_far) / double(6 * b.face_of.size());
        const double cap = (1.0 - 1.0 / distance) / 2.0;
        EXPECT_GT(far, 0.5 * (1.0 - cap)) << distance << " radii";
        EXPECT_LT(drawn, 6 * b.face_of.size());
        // Close up, much of the near side lies outside the view too.
        if (distance < 1.1) {
            EXPECT_GT(skipped_outside, b.face_of.size() / 10);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(BothShadings, Clusters, ::testing::Values(Shading::flat, Shading::smooth));

// From the centre of a planet every triangle shows its back; a cluster of only degenerate
// triangles bounds nothing and is always drawn (it draws nothing).
TEST(Clusters, EdgeCases) {
    const World w = planet();
    const Triangle_buffers b = triangles(w.mesh(), vertex_positions(w), Shading::smooth);
    // (Where the curve jumps from one face of the cube to the next, a cluster holds two
    // patches whose normals spread too far for any test: those are always drawn.)
    std::size_t away = 0;
    for (const Triangle_cluster& c : b.clusters) {
        if (c.cos_spread > 0.5f) {
            EXPECT_TRUE(faces_away(c, glm::dvec3(0.0)));
        }
        away += faces_away(c, glm::dvec3(0.0)) ? 1 : 0;
    }
    EXPECT_GT(away, b.clusters.size() * 9 / 10) << "from the centre, only backs are seen";

    Triangle_buffers flat;
    flat.shading = Shading::flat;
    flat.positions.assign(3 * 10, glm::vec3(1.f, 2.f, 3.f));
    flat.normals.assign(10, glm::vec3(0.f));
    flat.vertex_of.assign(3 * 10, no_vertex);
    flat.face_of.assign(10, no_face);
    const auto clusters = triangle_clusters(flat);
    ASSERT_EQ(clusters.size(), 1u);
    EXPECT_FALSE(faces_away(clusters[0], glm::dvec3(100.0)));
    const auto runs = visible_triangle_runs(clusters, 10, glm::dvec3(100.0), glm::dmat4(1.0));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0], (std::pair<std::uint32_t, std::uint32_t>{0, 10}));
    // Triangles past the last cluster (appended, not bounded yet) are always drawn.
    const auto more = visible_triangle_runs({}, 7, glm::dvec3(100.0), glm::dmat4(1.0));
    ASSERT_EQ(more.size(), 1u);
    EXPECT_EQ(more[0], (std::pair<std::uint32_t, std::uint32_t>{0, 7}));
}

// Bounds gathered face by face in slot order are those gathered triangle by triangle, bit for
// bit, with dead face slots and a triangle order that is not the faces' (the curve's).
TEST(Clusters, GatheredFaceByFaceTheyAreTheSameBounds) {
    World w = planet();
    for (int i = 0; i < 300; ++i) {
        const Vertex v{static_cast<std::uint32_t>(97 * i + 5)};
        if (!w.mesh().contains(v)) continue;
        const Edge e = v.edge(w.mesh());
        if (e.valid()) (void)w.lock_mesh().try_collapse(e, 0.5f);
    }
    ASSERT_LT(w.mesh().face_count(), w.mesh().face_slots());
    const auto p = vertex_positions(w);
    const Triangle_buffers b = triangles(w.mesh(), p, Shading::smooth);
    const Triangle_index index = index_triangles(b, w.mesh());
    const auto by_face =
        triangle_clusters_by_face(w.mesh(), p, index.triangle_of_face, b.face_of.size());
    ASSERT_EQ(by_face.size(), b.clusters.size());
    EXPECT_EQ(by_face, b.clusters);
}

} // namespace
} // namespace orbis::render
