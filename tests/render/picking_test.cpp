// SPDX-License-Identifier: MIT
// Tests of the exact orientation predicate without CGAL and of Picker on Fibonacci spheres.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "orbis/core/exact_orientation.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_predicates.hpp"
#include "orbis/render/picking.hpp"

namespace orbis::render {
namespace {

__extension__ typedef __int128 Int;

// Exact sign of c . (a x b) for coordinates on the grids 2^-12 (a, b) and 2^-30 (c).
int reference_sign(const glm::vec3& a, const glm::vec3& b, const glm::dvec3& c) {
    const auto fa = [](double v, int bits) { return static_cast<Int>(std::ldexp(v, bits)); };
    const Int ax = fa(a.x, 12), ay = fa(a.y, 12), az = fa(a.z, 12);
    const Int bx = fa(b.x, 12), by = fa(b.y, 12), bz = fa(b.z, 12);
    const Int cx = fa(c.x, 30), cy = fa(c.y, 30), cz = fa(c.z, 30);
    const Int det = cx * (ay * bz - az * by) + cy * (az * bx - ax * bz) + cz * (ax * by - ay * bx);
    return (det > 0) - (det < 0);
}

float grid_float(std::mt19937_64& rng) {
    return static_cast<float>(std::ldexp(double(std::int64_t(rng() % 65536) - 32768), -12));
}

glm::vec3 grid_vec(std::mt19937_64& rng) {
    return {grid_float(rng), grid_float(rng), grid_float(rng)};
}

TEST(Picking, ExactOrientationMatchesGenOnRandomFloats) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> u(-2.f, 2.f);
    for (int i = 0; i < 100000; ++i) {
        const glm::vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)),
            c(u(rng), u(rng), u(rng));
        ASSERT_EQ(orbis::detail::orientation_on_sphere(a, b, c),
                  gen::detail::orientation_on_sphere_cgal(a, b, c));
        ASSERT_EQ(orbis::detail::orientation_on_sphere_exact(a, b, glm::dvec3(c)),
                  gen::detail::orientation_on_sphere_cgal(a, b, c));
    }
}

TEST(Picking, ExactOrientationMatchesGenNearDegenerate) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    int zeros = 0;
    for (int i = 0; i < 50000; ++i) {
        const glm::vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng));
        const float s = u(rng), w = u(rng);
        // Nearly on the plane of a and b (rounding moves it off by an ulp or so), exactly on it
        // (powers of two), and tiny or huge magnitudes that a naive filter mishandles.
        const std::vector<glm::vec3> cs = {
            a * s + b * w,
            a * 2.f,
            b * -0.5f,
            a,
            a + b,
            (a - b) * 1e-30f,
            a * 1e30f,
            glm::vec3(0.f),
            std::nextafter(1.f, 2.f) * a + b * 1e-7f,
        };
        for (const glm::vec3& c : cs) {
            const int expected = gen::detail::orientation_on_sphere_cgal(a, b, c);
            ASSERT_EQ(orbis::detail::orientation_on_sphere(a, b, c), expected);
            ASSERT_EQ(orbis::detail::orientation_on_sphere_exact(a, b, glm::dvec3(c)), expected);
            zeros += expected == 0;
        }
    }
    EXPECT_GT(zeros, 50000 * 4); // the exactly coplanar cases really are decided as 0
}

TEST(Picking, ExactOrientationOnDoublePointsMatchesIntegers) {
    std::mt19937_64 rng(13);
    for (int i = 0; i < 50000; ++i) {
        const glm::vec3 a = grid_vec(rng), b = grid_vec(rng);
        // c exactly on the plane (small integer combination), then nudged by one grid step.
        const double k = double(std::int64_t(rng() % 9) - 4),
                     l = double(std::int64_t(rng() % 9) - 4);
        glm::dvec3 c = k * glm::dvec3(a) + l * glm::dvec3(b);
        const int axis = int(rng() % 3);
        const double nudge = std::ldexp(double(std::int64_t(rng() % 3) - 1), -30);
        c[axis] += nudge;
        ASSERT_EQ(orbis::detail::orientation_on_sphere(a, b, c), reference_sign(a, b, c));
        ASSERT_EQ(orbis::detail::orientation_on_sphere_exact(a, b, c), reference_sign(a, b, c));
    }
}

// ---- picking ----

World sphere_world(std::uint32_t count, float perturbation, float radius = 1.f) {
    return gen::make_sphere_world(gen::Fibonacci_params{count, radius, perturbation, 42});
}

glm::dvec3 position(const World& w, Vertex v) { return glm::dvec3((*w.layer(position_layer))[v]); }

std::vector<Vertex> corners_of(const World& w, Face f) {
    std::vector<Vertex> out;
    for (Vertex v : f.vertices(w.mesh()))
        out.push_back(v);
    return out;
}

bool has_corner(const World& w, Face f, Vertex v) {
    const auto c = corners_of(w, f);
    return std::find(c.begin(), c.end(), v) != c.end();
}

// The lowest-id face whose cone contains x by the exact predicate, by testing every face.
Face brute_force_locate(const World& w, const glm::dvec3& x) {
    const auto& pos = *w.layer(position_layer);
    for (Face f : w.mesh().faces()) {
        const auto c = corners_of(w, f);
        bool inside = true;
        for (int i = 0; i < 3; ++i)
            inside = inside &&
                     orbis::detail::orientation_on_sphere(pos[c[i]], pos[c[(i + 1) % 3]], x) >= 0;
        if (inside) return f;
    }
    return no_face;
}

bool cone_contains(const World& w, Face f, const glm::dvec3& x) {
    const auto& pos = *w.layer(position_layer);
    const auto c = corners_of(w, f);
    for (int i = 0; i < 3; ++i)
        if (orbis::detail::orientation_on_sphere(pos[c[i]], pos[c[(i + 1) % 3]], x) < 0)
            return false;
    return true;
}

// Every pick must name live elements that fit together, and its face must contain its point
// exactly. Where the cones tile the sphere (no folded faces) it must also be the lowest-id
// such face; after random collapses a few faces fold and cones overlap, so only containment.
void expect_consistent(const World& w, const Pick& p, bool tiling = true) {
    const Mesh& m = w.mesh();
    ASSERT_TRUE(m.contains(p.face));
    ASSERT_TRUE(m.contains(p.vertex));
    ASSERT_TRUE(m.contains(p.edge));
    EXPECT_EQ(p.edge.left(m), p.face);
    EXPECT_TRUE(has_corner(w, p.face, p.vertex));
    EXPECT_TRUE(cone_contains(w, p.face, p.point));
    if (tiling) {
        EXPECT_EQ(brute_force_locate(w, p.point), p.face);
    }
}

Ray ray_toward(const glm::dvec3& target, const glm::dvec3& offset) {
    const glm::dvec3 origin = 3.0 * target + offset;
    return {origin, target - origin};
}

TEST(Picking, RayTowardVertexPicksIt) {
    const World w = sphere_world(20000, 0.5f);
    const Picker picker(w);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> jitter(-0.3, 0.3);
    for (int i = 0; i < 150; ++i) {
        const Vertex v(std::uint32_t(rng() % w.mesh().vertex_slots()));
        const glm::dvec3 offset =
            i % 2 ? glm::dvec3(0.0) : glm::dvec3(jitter(rng), jitter(rng), jitter(rng));
        const auto p = picker.pick(w, ray_toward(position(w, v), offset));
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->vertex, v);
        EXPECT_TRUE(has_corner(w, p->face, v));
        expect_consistent(w, *p);
    }
}

// A world large enough for the picker's start cells to be filled on two threads picks as
// exactly as a small one.
TEST(Picking, ALargeWorldsPickerFindsEveryVertex) {
    const World w = sphere_world(400'000, 0.5f);
    const Picker picker(w);
    std::mt19937_64 rng(3);
    for (int i = 0; i < 300; ++i) {
        const Vertex v(std::uint32_t(rng() % w.mesh().vertex_slots()));
        const auto p = picker.pick(w, ray_toward(position(w, v), glm::dvec3(0.0)));
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->vertex, v);
        EXPECT_TRUE(cone_contains(w, p->face, p->point));
    }
}

// Under 768 vertices the index has one start cell per cube side: every pick walks across a
// side, and must still land on the lowest-id face containing its point.
TEST(Picking, ASmallWorldsCoarseIndexPicksExactly) {
    for (const std::uint32_t count : {12u, 200u, 700u}) {
        const World w = sphere_world(count, 0.5f);
        const Picker picker(w);
        std::mt19937_64 rng(count);
        std::normal_distribution<double> normal;
        for (int i = 0; i < 300; ++i) {
            const glm::dvec3 target =
                glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
            const auto p = picker.pick(w, ray_toward(target, glm::dvec3(0.0)));
            ASSERT_TRUE(p.has_value()) << count << " vertices, ray " << i;
            expect_consistent(w, *p);
            const auto f = picker.locate(w, target);
            ASSERT_TRUE(f.has_value());
            EXPECT_EQ(*f, brute_force_locate(w, target)) << count << " vertices, ray " << i;
        }
    }
}

TEST(Picking, RayTowardFaceCentroidPicksIt) {
    const World w = sphere_world(20000, 0.5f, 3.f);
    const Picker picker(w);
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> jitter(-0.5, 0.5);
    for (int i = 0; i < 150; ++i) {
        const Face f(std::uint32_t(rng() % w.mesh().face_slots()));
        glm::dvec3 centroid(0.0);
        for (Vertex v : corners_of(w, f))
            centroid += position(w, v) / 3.0;
        const auto p =
            picker.pick(w, ray_toward(centroid, {jitter(rng), jitter(rng), jitter(rng)}));
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->face, f);
        EXPECT_NEAR(glm::length(p->point - centroid), 0.0, 1e-9);
        EXPECT_NEAR(p->barycentric.x + p->barycentric.y + p->barycentric.z, 1.0, 1e-12);
        expect_consistent(w, *p);
    }
}

TEST(Picking, RayTowardEdgeMidpointPicksIt) {
    const World w = sphere_world(20000, 0.5f);
    const Mesh& m = w.mesh();
    const Picker picker(w);
    std::mt19937_64 rng(3);
    for (int i = 0; i < 150; ++i) {
        const Edge e(2 * std::uint32_t(rng() % (m.edge_slots() / 2)));
        const glm::dvec3 mid = 0.5 * (position(w, e.origin(m)) + position(w, e.dest(m)));
        const auto p = picker.pick(w, ray_toward(mid, {0.1, -0.2, 0.05}));
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->edge.base(), e.base());
        EXPECT_TRUE(p->face == e.left(m) || p->face == e.right(m));
        expect_consistent(w, *p);
    }
}

TEST(Picking, RaysThroughPolesPickPoleVerticesWithLowestFaceRule) {
    const World w = sphere_world(5000, 0.f, 2.f);
    const Mesh& m = w.mesh();
    const Picker picker(w);
    const Vertex north(0), south(m.vertex_slots() - 1);
    ASSERT_EQ(position(w, north), glm::dvec3(0, 2, 0));
    ASSERT_EQ(position(w, south), glm::dvec3(0, -2, 0));
    for (const auto& [v, sign] : {std::pair{north, 1.0}, std::pair{south, -1.0}}) {
        // Exactly through the vertex: every face around it contains the hit direction, and the
        // documented answer is the lowest id among them.
        const auto p = picker.pick(w, {{0, 5 * sign, 0}, {0, -sign, 0}});
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->vertex, v);
        Face lowest = no_face;
        for (Face f : v.faces(m))
            lowest = std::min(lowest, f);
        EXPECT_EQ(p->face, lowest);
        expect_consistent(w, *p);
        // Slightly off the pole, in many directions, across the spiral's start.
        for (int k = 0; k < 64; ++k) {
            const double a = k * 0.0981748;
            const glm::dvec3 off(1e-3 * std::cos(a), 0, 1e-3 * std::sin(a));
            const auto q = picker.pick(w, {{off.x, 5 * sign, off.z}, {0, -sign, 0}});
            ASSERT_TRUE(q.has_value());
            EXPECT_EQ(q->vertex, v);
            expect_consistent(w, *q);
        }
    }
}

TEST(Picking, RaysAlongTheSeamAreExact) {
    // Longitude +-180 degrees is the half plane x < 0, z == 0; the rays stay in the plane z == 0
    // so that the hit directions lie exactly on it.
    const World w = sphere_world(20000, 0.3f);
    const Picker picker(w);
    Face previous = no_face;
    for (int k = 1; k < 400; ++k) {
        const double y = -1.0 + 2.0 * k / 400.0;
        const auto p = picker.pick(w, {{-5, y, 0}, {1, 0, 0}}, previous);
        ASSERT_TRUE(p.has_value()) << y;
        EXPECT_EQ(p->point.z, 0.0);
        EXPECT_LT(p->point.x, 0.0);
        expect_consistent(w, *p);
        previous = p->face;
    }
}

TEST(Picking, GrazingRaysPickTheFrontFace) {
    const World w = sphere_world(20000, 0.5f);
    const Mesh& m = w.mesh();
    const auto& pos = *w.layer(position_layer);
    const Picker picker(w);
    for (int k = 0; k < 50; ++k) {
        // Near the silhouette seen from -x: the hit must be the nearest front-facing one.
        const double h = 0.99 + 0.0002 * k;
        const Ray ray{{-5, h, 0.01 * k}, {1, 0, 0}};
        const auto p = picker.pick(w, ray);
        // Reference: the nearest front-facing plane hit inside its triangle, over all faces.
        double best = 1e300;
        for (Face f : m.faces()) {
            const auto c = corners_of(w, f);
            const glm::dvec3 a(pos[c[0]]), b(pos[c[1]]), d(pos[c[2]]);
            const glm::dvec3 n = glm::cross(b - a, d - a);
            const double nd = glm::dot(n, ray.direction);
            if (nd >= 0) continue;
            const double t = glm::dot(n, a - ray.origin) / nd;
            const glm::dvec3 x = ray.origin + t * ray.direction;
            if (glm::dot(glm::cross(b - a, x - a), n) >= 0 &&
                glm::dot(glm::cross(d - b, x - b), n) >= 0 &&
                glm::dot(glm::cross(a - d, x - d), n) >= 0)
                best = std::min(best, t);
        }
        if (best == 1e300) {
            EXPECT_FALSE(p.has_value()) << h;
            continue;
        }
        ASSERT_TRUE(p.has_value()) << h;
        EXPECT_NEAR(p->t, best, 1e-9) << h;
        EXPECT_LT(p->point.x, 0.0);
        expect_consistent(w, *p);
    }
}

TEST(Picking, MissingRaysReturnNothing) {
    const World w = sphere_world(2000, 0.5f);
    const Picker picker(w);
    EXPECT_FALSE(picker.pick(w, {{0, 0, 5}, {0, 0, 1}}).has_value());        // away from the sphere
    EXPECT_FALSE(picker.pick(w, {{5, 1.5, 0}, {-1, 0, 0}}).has_value());     // beside it
    EXPECT_FALSE(picker.pick(w, {{0, 0, -5}, {0, 1, 0}}).has_value());       // across above it
    EXPECT_FALSE(Picker().pick(w, {{0, 0, 5}, {0, 0, -1}}).has_value());     // never updated
    EXPECT_FALSE(picker.pick(World(), {{0, 0, 5}, {0, 0, -1}}).has_value()); // no mesh
}

TEST(Picking, CoherentHintsGiveTheSameAnswer) {
    const World w = sphere_world(20000, 0.5f);
    const Picker picker(w);
    Face previous = no_face;
    for (int k = 0; k < 500; ++k) {
        const double a = k * 0.002;
        const Ray ray{{5 * std::cos(a), 0.3, 5 * std::sin(a)}, {-std::cos(a), 0.01, -std::sin(a)}};
        const auto with_hint = picker.pick(w, ray, previous);
        const auto without = picker.pick(w, ray);
        ASSERT_TRUE(with_hint.has_value() && without.has_value());
        EXPECT_EQ(with_hint->face, without->face);
        previous = with_hint->face;
    }
}

// True when every face within two rings of `v` faces outwards: random collapses at midpoints can
// fold faces over a vertex, and then a ray aimed at it rightly hits the fold first.
bool unfolded_around(const World& w, Vertex v) {
    const Mesh& m = w.mesh();
    auto outwards = [&](Face f) {
        const auto c = corners_of(w, f);
        const glm::dvec3 a = position(w, c[0]), b = position(w, c[1]), d = position(w, c[2]);
        return glm::dot(glm::cross(b - a, d - a), a + b + d) > 0;
    };
    for (const Vertex n : v.neighbors(m))
        for (const Face f : n.faces(m))
            if (!outwards(f)) return false;
    return true;
}

TEST(Picking, PicksAfterSplitsAndCollapsesReferToLiveElements) {
    World w = sphere_world(5000, 0.5f);
    Picker stale(w); // never updated: its index is stale, its answers must still be right
    Picker fresh(w);
    std::mt19937_64 rng(5);
    std::vector<Vertex> created;
    std::vector<Vertex> survivors;
    for (int i = 0; i < 200; ++i) {
        auto lock = w.lock_mesh();
        const Edge e(2 * std::uint32_t(rng() % (lock->edge_slots() / 2)));
        if (!lock->contains(e)) continue;
        if (i % 2 == 0) {
            if (lock->check_split(e, 0.5f)) continue;
            created.push_back(lock.split(e, 0.5f).origin(*lock));
        } else {
            if (lock->check_collapse(e, 0.5f)) continue;
            survivors.push_back(lock.collapse(e, 0.5f));
        }
    }
    ASSERT_FALSE(w.mesh().validate().has_value());
    EXPECT_TRUE(fresh.update(w));
    EXPECT_FALSE(fresh.update(w));
    std::size_t checked = 0;
    for (const std::vector<Vertex>* list : {&created, &survivors}) {
        for (Vertex v : *list) {
            if (!w.mesh().contains(v)) continue; // a later collapse removed it
            for (const Picker* picker : {&stale, &fresh}) {
                const auto p = picker->pick(w, ray_toward(position(w, v), {0.02, 0.01, -0.03}));
                ASSERT_TRUE(p.has_value());
                if (unfolded_around(w, v)) {
                    EXPECT_EQ(p->vertex, v);
                }
                expect_consistent(w, *p, false);
            }
            ++checked;
        }
    }
    EXPECT_GT(created.size(), 50u);
    EXPECT_GT(survivors.size(), 50u);
    EXPECT_GT(checked, 100u);
}

TEST(Picking, LocateIsExactAtVertices) {
    const World w = sphere_world(3000, 0.5f);
    const Mesh& m = w.mesh();
    const Picker picker(w);
    for (Vertex v : m.vertices()) {
        if (v.index() % 7 != 0) continue;
        const auto f = picker.locate(w, position(w, v) * 3.0);
        ASSERT_TRUE(f.has_value());
        Face lowest = no_face;
        for (Face g : v.faces(m))
            lowest = std::min(lowest, g);
        EXPECT_EQ(*f, lowest);
    }
}

} // namespace
} // namespace orbis::render
