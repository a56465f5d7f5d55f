// SPDX-License-Identifier: MIT
// Bounds of runs of consecutive triangles for skipping the runs a frame cannot show.
#include "orbis/render/triangle_clusters.hpp"

#include "orbis/render/mesh_buffers.hpp"
#include "orbis/render/parallel.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace orbis::render {
namespace {

// The cluster of triangles [first, last) of b (at most cluster_triangles).
Triangle_cluster bound(const Triangle_buffers& b, const Mesh* m, std::size_t first,
                       std::size_t last) {
    // Each live triangle's unit normal and corners, kept for the second pass.
    struct Seen {
        glm::dvec3 normal;
        glm::dvec3 corner[3];
    };
    std::vector<Seen> seen;
    seen.reserve(last - first);
    glm::dvec3 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    glm::dvec3 sum(0.0);
    for (std::size_t t = first; t < last; ++t) {
        Seen x;
        if (!b.with_indices && !b.face_of[t].valid()) continue; // collapsed: draws nothing
        const std::array<std::uint32_t, 3> corner =
            b.with_indices ? std::array{b.corner(t, 0), b.corner(t, 1), b.corner(t, 2)}
                           : triangle_corners(*m, b, t);
        for (int k = 0; k < 3; ++k)
            x.corner[k] = glm::dvec3(b.positions[corner[k]]);
        x.normal = glm::cross(x.corner[1] - x.corner[0], x.corner[2] - x.corner[0]);
        const double len = glm::length(x.normal);
        if (!(len > 0.0) || !std::isfinite(len)) continue; // degenerate: draws nothing
        x.normal /= len;
        sum += x.normal;
        for (const glm::dvec3& c : x.corner) {
            lo = glm::min(lo, c);
            hi = glm::max(hi, c);
        }
        seen.push_back(x);
    }
    Triangle_cluster c;
    if (seen.empty()) return c; // nothing drawn: never skipped, costs nothing to draw
    const glm::dvec3 centre = 0.5 * (lo + hi);
    const double sum_len = glm::length(sum);
    const glm::dvec3 axis = sum_len > 0.0 ? sum / sum_len : glm::dvec3(0.0);
    double radius2 = 0.0, min_dot = 1.0;
    for (const Seen& x : seen) {
        min_dot = std::min(min_dot, glm::dot(axis, x.normal));
        for (const glm::dvec3& corner : x.corner)
            radius2 = std::max(radius2, glm::dot(corner - centre, corner - centre));
    }
    c.centre = glm::vec3(centre);
    // Rounded outwards: the float centre moved by up to half an ulp of its coordinates, and
    // the float radius and cosine must not shrink the bounds.
    const double moved = glm::length(glm::dvec3(c.centre) - centre);
    c.radius = std::nextafter(static_cast<float>(std::sqrt(radius2) + moved),
                              std::numeric_limits<float>::max());
    c.axis = glm::vec3(axis);
    c.cos_spread = sum_len > 0.0 ? static_cast<float>(min_dot) - 1e-6f : -1.f;
    return c;
}

std::size_t cluster_count(std::size_t triangles) {
    return (triangles + cluster_triangles - 1) / cluster_triangles;
}

Triangle_cluster bound_cluster(const Triangle_buffers& b, const Mesh* m, std::size_t k) {
    const std::size_t first = k * cluster_triangles;
    return bound(b, m, first, std::min(first + cluster_triangles, b.face_of.size()));
}

// Smooth triangles without indices read their corners from the mesh.
void require_mesh(const Triangle_buffers& b, const Mesh* m) {
    if (!b.with_indices && !m)
        throw std::invalid_argument("triangle clusters: triangles without indices need a mesh");
}

} // namespace

std::vector<Triangle_cluster> triangle_clusters(const Triangle_buffers& b, const Mesh* m) {
    require_mesh(b, m);
    const std::size_t triangles = b.face_of.size();
    std::vector<Triangle_cluster> out(cluster_count(triangles));
    // Split by triangles; each cluster goes to the part that holds its first triangle.
    detail::in_parallel(triangles, [&](std::size_t first, std::size_t last) {
        for (std::size_t k = cluster_count(first); k < cluster_count(last); ++k)
            out[k] = bound_cluster(b, m, k);
    });
    return out;
}

void update_triangle_clusters(const Triangle_buffers& b, std::span<const std::uint32_t> triangles,
                              std::vector<Triangle_cluster>& clusters, const Mesh* m) {
    require_mesh(b, m);
    const std::size_t old_count = clusters.size();
    const std::size_t count = cluster_count(b.face_of.size());
    clusters.resize(count);
    std::vector<std::uint32_t> touched;
    touched.reserve(triangles.size());
    for (const std::uint32_t t : triangles)
        if (t / cluster_triangles < count)
            touched.push_back(static_cast<std::uint32_t>(t / cluster_triangles));
    // The last old cluster may have been short and gained appended triangles.
    for (std::size_t k = old_count == 0 ? 0 : old_count - 1; k < count; ++k)
        touched.push_back(static_cast<std::uint32_t>(k));
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (const std::uint32_t k : touched)
        clusters[k] = bound_cluster(b, m, k);
}

bool faces_away(const Triangle_cluster& c, const glm::dvec3& eye) {
    if (!(c.cos_spread > 0.f)) return false;
    // Every normal n within the spread of the axis and every point p within the sphere must
    // have dot(n, p - eye) > 0. The least dot(n, centre - eye) over the cone is
    // |d| cos(angle(axis, d) + spread); the sphere takes at most its radius off that.
    const glm::dvec3 d = glm::dvec3(c.centre) - eye;
    const double dd = glm::dot(d, d);
    const double along = glm::dot(glm::dvec3(c.axis), d);
    const double across = std::sqrt(std::max(dd - along * along, 0.0));
    const double cos_s = c.cos_spread;
    const double sin_s = std::sqrt(std::max(1.0 - cos_s * cos_s, 0.0));
    // A thousandth of a radian more spread (and the axis's float rounding) costs |d| / 1000.
    return along * cos_s - across * sin_s > double(c.radius) + 1e-3 * std::sqrt(dd);
}

bool outside_view(const Triangle_cluster& c, const glm::dmat4& view_projection) {
    const glm::dvec3 centre(c.centre);
    const auto row = [&](int i) {
        return glm::dvec4(view_projection[0][i], view_projection[1][i], view_projection[2][i],
                          view_projection[3][i]);
    };
    const glm::dvec4 w = row(3);
    for (int i = 0; i < 3; ++i) {
        for (const double sign : {1.0, -1.0}) {
            const glm::dvec4 plane = w + sign * row(i);
            const double len = glm::length(glm::dvec3(plane));
            if (!(len > 0.0)) continue;
            const double distance = (glm::dot(glm::dvec3(plane), centre) + plane.w) / len;
            if (distance < -(double(c.radius) * 1.001 + 1e-6 * glm::length(centre))) return true;
        }
    }
    return false;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>>
visible_triangle_runs(std::span<const Triangle_cluster> clusters, std::size_t triangle_count,
                      const glm::dvec3& eye, const glm::dmat4& view_projection) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> runs;
    const auto add = [&](std::size_t first, std::size_t last) {
        if (!runs.empty() && runs.back().second == first)
            runs.back().second = static_cast<std::uint32_t>(last);
        else
            runs.emplace_back(static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(last));
    };
    std::size_t k = 0;
    for (; k < clusters.size() && k * cluster_triangles < triangle_count; ++k) {
        if (faces_away(clusters[k], eye) || outside_view(clusters[k], view_projection)) continue;
        add(k * cluster_triangles, std::min((k + 1) * cluster_triangles, triangle_count));
    }
    if (k * cluster_triangles < triangle_count) add(k * cluster_triangles, triangle_count);
    return runs;
}

} // namespace orbis::render
