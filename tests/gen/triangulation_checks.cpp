// SPDX-License-Identifier: MIT
#include "triangulation_checks.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "orbis/gen/sphere_predicates.hpp"

namespace orbis::gen::testing {

namespace {

std::uint32_t next_half_edge(std::uint32_t h) { return h % 3 == 2 ? h - 2 : h + 1; }
std::uint32_t prev_half_edge(std::uint32_t h) { return h % 3 == 0 ? h + 2 : h - 1; }

std::uint32_t corner(const Sphere_triangulation& t, std::uint32_t h) {
    return t.triangles[h / 3][h % 3];
}

std::array<std::uint32_t, 3> rotated_to_min(std::array<std::uint32_t, 3> tri) {
    std::rotate(tri.begin(), std::min_element(tri.begin(), tri.end()), tri.end());
    return tri;
}

/// True if half-edge h's quad (its two triangles) is exactly cocircular.
bool in_cocircular_quad(std::span<const glm::vec3> points, const Sphere_triangulation& t,
                        std::uint32_t h) {
    const std::uint32_t g = t.opposite[h];
    return direction_orientation(points[corner(t, h)], points[corner(t, next_half_edge(h))],
                                 points[corner(t, prev_half_edge(h))],
                                 points[corner(t, prev_half_edge(g))]) == 0;
}

/// Triangles of `a` missing from `b` must each touch an exactly cocircular quad in `a`.
::testing::AssertionResult
differences_are_cocircular(std::span<const glm::vec3> points, const Sphere_triangulation& a,
                           const std::vector<std::array<std::uint32_t, 3>>& in_b, const char* name,
                           std::size_t& count) {
    count = 0;
    for (std::uint32_t i = 0; i < a.triangles.size(); ++i) {
        if (std::binary_search(in_b.begin(), in_b.end(), rotated_to_min(a.triangles[i]))) continue;
        ++count;
        bool cocircular = false;
        for (std::uint32_t k = 0; k < 3 && !cocircular; ++k) {
            cocircular = in_cocircular_quad(points, a, 3 * i + k);
        }
        if (!cocircular) {
            const auto& tri = a.triangles[i];
            return ::testing::AssertionFailure()
                   << name << " has triangle (" << tri[0] << ", " << tri[1] << ", " << tri[2]
                   << ") that the other lacks, and none of its quads is cocircular";
        }
    }
    return ::testing::AssertionSuccess();
}

} // namespace

::testing::AssertionResult is_sphere_delaunay(std::span<const glm::vec3> points,
                                              const Sphere_triangulation& t, Origin origin) {
    const std::size_t n = points.size();
    if (t.triangles.size() != 2 * n - 4) {
        return ::testing::AssertionFailure()
               << t.triangles.size() << " triangles for " << n << " points, expected " << 2 * n - 4;
    }
    if (t.opposite.size() != 3 * t.triangles.size()) {
        return ::testing::AssertionFailure() << "opposite has " << t.opposite.size() << " entries";
    }
    std::vector<std::uint32_t> degree(n, 0);
    std::vector<std::uint32_t> out_edge(n, UINT32_MAX);
    for (std::uint32_t i = 0; i < t.triangles.size(); ++i) {
        const auto& tri = t.triangles[i];
        for (std::uint32_t k = 0; k < 3; ++k) {
            if (tri[k] >= n) return ::testing::AssertionFailure() << "vertex out of range";
            ++degree[tri[k]];
            out_edge[tri[k]] = 3 * i + k;
        }
        if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0]) {
            return ::testing::AssertionFailure() << "triangle " << i << " repeats a vertex";
        }
        const int turn = orientation_on_sphere(points[tri[0]], points[tri[1]], points[tri[2]]);
        if (origin == Origin::inside && turn <= 0) {
            return ::testing::AssertionFailure()
                   << "triangle " << i << " (" << tri[0] << ", " << tri[1] << ", " << tri[2]
                   << ") is not counterclockwise seen from outside";
        }
    }
    for (std::uint32_t v = 0; v < n; ++v) {
        if (degree[v] == 0) return ::testing::AssertionFailure() << "point " << v << " unused";
    }
    for (std::uint32_t h = 0; h < t.opposite.size(); ++h) {
        const std::uint32_t g = t.opposite[h];
        if (g >= t.opposite.size() || g == h || t.opposite[g] != h ||
            corner(t, g) != corner(t, next_half_edge(h)) ||
            corner(t, next_half_edge(g)) != corner(t, h)) {
            return ::testing::AssertionFailure() << "half-edge " << h << " has a bad twin";
        }
    }
    // Turning around each vertex must visit all of its triangles in one cycle.
    for (std::uint32_t v = 0; v < n; ++v) {
        std::uint32_t h = out_edge[v];
        std::uint32_t steps = 0;
        do {
            h = next_half_edge(t.opposite[h]);
            if (corner(t, h) != v || ++steps > degree[v]) {
                return ::testing::AssertionFailure()
                       << "the triangles at point " << v << " do not form a single fan";
            }
        } while (h != out_edge[v]);
        if (steps != degree[v]) {
            return ::testing::AssertionFailure() << "point " << v << " has more than one fan";
        }
    }
    const std::size_t bad = count_non_delaunay_edges(points, t);
    if (bad != 0) return ::testing::AssertionFailure() << bad << " edges are not Delaunay";
    return ::testing::AssertionSuccess();
}

std::vector<std::array<std::uint32_t, 3>> canonical_triangles(const Sphere_triangulation& t) {
    return canonical_triangles(t.triangles);
}

std::vector<std::array<std::uint32_t, 3>>
canonical_triangles(std::vector<std::array<std::uint32_t, 3>> triangles) {
    for (auto& tri : triangles)
        tri = rotated_to_min(tri);
    std::sort(triangles.begin(), triangles.end());
    return triangles;
}

std::vector<std::array<std::uint32_t, 3>> mesh_triangles(const Mesh& m) {
    std::vector<std::array<std::uint32_t, 3>> result;
    result.reserve(m.face_count());
    for (const Face f : m.faces()) {
        std::array<std::uint32_t, 3> t{};
        std::size_t i = 0;
        for (const Vertex v : f.vertices(m))
            t[i++] = v.index();
        result.push_back(t);
    }
    return result;
}

::testing::AssertionResult same_up_to_cocircular(std::span<const glm::vec3> points,
                                                 const Sphere_triangulation& ours,
                                                 const Sphere_triangulation& theirs,
                                                 std::size_t* degenerate) {
    std::size_t ours_only = 0;
    std::size_t theirs_only = 0;
    auto result =
        differences_are_cocircular(points, ours, canonical_triangles(theirs), "ours", ours_only);
    if (!result) return result;
    result = differences_are_cocircular(points, theirs, canonical_triangles(ours), "theirs",
                                        theirs_only);
    if (!result) return result;
    if (ours_only != theirs_only) {
        return ::testing::AssertionFailure()
               << ours_only << " triangles only in ours but " << theirs_only << " only in theirs";
    }
    if (degenerate != nullptr) *degenerate = ours_only;
    return ::testing::AssertionSuccess();
}

std::vector<glm::vec3> random_sphere_points(std::uint32_t count, std::uint64_t seed) {
    std::uint64_t state = seed;
    const auto unit = [&state] {
        state += 0x9e3779b97f4a7c15ull;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-53;
    };
    std::vector<glm::vec3> points;
    points.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        // Uniform height and angle give a uniform distribution on the sphere (Archimedes).
        const double y = 2.0 * unit() - 1.0;
        const double angle = 2.0 * std::numbers::pi * unit();
        const double r = std::sqrt(std::max(0.0, 1.0 - y * y));
        points.emplace_back(static_cast<float>(r * std::cos(angle)), static_cast<float>(y),
                            static_cast<float>(r * std::sin(angle)));
    }
    return points;
}

} // namespace orbis::gen::testing
