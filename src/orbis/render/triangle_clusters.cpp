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
#include <mutex>
#include <stdexcept>

namespace orbis::render {
namespace {

// What pass one of a cluster's bounds gathers: the box of its corners and the box of its
// unit normals. Minima and maxima do not depend on the order triangles come in, so bounds
// gathered face by face in slot order (triangle_clusters_by_face) equal those gathered
// triangle by triangle, bit for bit; a sum of normals would not.
struct Extent {
    glm::dvec3 lo{std::numeric_limits<double>::max()}, hi{-std::numeric_limits<double>::max()};
    glm::dvec3 normal_lo{std::numeric_limits<double>::max()};
    glm::dvec3 normal_hi{-std::numeric_limits<double>::max()};
    bool any = false;

    void add(const glm::dvec3 (&corner)[3], const glm::dvec3& normal) {
        for (const glm::dvec3& c : corner) {
            lo = glm::min(lo, c);
            hi = glm::max(hi, c);
        }
        normal_lo = glm::min(normal_lo, normal);
        normal_hi = glm::max(normal_hi, normal);
        any = true;
    }
    void add(const Extent& o) {
        if (!o.any) return;
        lo = glm::min(lo, o.lo);
        hi = glm::max(hi, o.hi);
        normal_lo = glm::min(normal_lo, o.normal_lo);
        normal_hi = glm::max(normal_hi, o.normal_hi);
        any = true;
    }
    glm::dvec3 centre() const { return 0.5 * (lo + hi); }
    // The middle of the normals' box, as a unit vector; zero when it has no direction.
    glm::dvec3 axis() const {
        const glm::dvec3 mid = 0.5 * (normal_lo + normal_hi);
        const double len = glm::length(mid);
        return len > 0.0 ? mid / len : glm::dvec3(0.0);
    }
};

// What pass two gathers, around the centre and axis of pass one.
struct Spread {
    double radius2 = 0.0, min_dot = 1.0;

    void add(const glm::dvec3 (&corner)[3], const glm::dvec3& normal, const glm::dvec3& centre,
             const glm::dvec3& axis) {
        min_dot = std::min(min_dot, glm::dot(axis, normal));
        for (const glm::dvec3& c : corner)
            radius2 = std::max(radius2, glm::dot(c - centre, c - centre));
    }
    void add(const Spread& o) {
        radius2 = std::max(radius2, o.radius2);
        min_dot = std::min(min_dot, o.min_dot);
    }
};

// The corners of a triangle in double precision and its unit normal; false when it is
// degenerate (a point or a line: it draws nothing and bounds nothing).
bool triangle_geometry(std::span<const glm::vec3> positions, const std::array<std::uint32_t, 3>& i,
                       glm::dvec3 (&corner)[3], glm::dvec3& normal) {
    for (int k = 0; k < 3; ++k)
        corner[k] = glm::dvec3(positions[i[k]]);
    normal = glm::cross(corner[1] - corner[0], corner[2] - corner[0]);
    const double len = glm::length(normal);
    if (!(len > 0.0) || !std::isfinite(len)) return false;
    normal /= len;
    return true;
}

Triangle_cluster finish(const Extent& e, const Spread& s) {
    Triangle_cluster c;
    if (!e.any) return c; // nothing drawn: never skipped, costs nothing to draw
    const glm::dvec3 centre = e.centre(), axis = e.axis();
    c.centre = glm::vec3(centre);
    // Rounded outwards: the float centre moved by up to half an ulp of its coordinates, and
    // the float radius and cosine must not shrink the bounds.
    const double moved = glm::length(glm::dvec3(c.centre) - centre);
    c.radius = std::nextafter(static_cast<float>(std::sqrt(s.radius2) + moved),
                              std::numeric_limits<float>::max());
    c.axis = glm::vec3(axis);
    c.cos_spread = axis != glm::dvec3(0.0) ? static_cast<float>(s.min_dot) - 1e-6f : -1.f;
    return c;
}

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
    // Without indices, the corners of all the run's triangles first, into one small array:
    // each is a chain of dependent loads from the mesh, and a loop that does only those keeps
    // many chains in flight at once (an edit's bounds cost half as much).
    std::vector<std::uint32_t> corners;
    if (!b.with_indices) {
        corners.resize(3 * (last - first));
        smooth_indices(*m, b, first, corners);
    }
    Extent extent;
    for (std::size_t t = first; t < last; ++t) {
        if (!b.with_indices && !b.face_at(*m, t).valid()) continue; // gone: draws nothing
        const std::array<std::uint32_t, 3> corner =
            b.with_indices ? std::array{b.corner(t, 0), b.corner(t, 1), b.corner(t, 2)}
                           : std::array{corners[3 * (t - first)], corners[3 * (t - first) + 1],
                                        corners[3 * (t - first) + 2]};
        Seen x;
        if (!triangle_geometry(b.positions, corner, x.corner, x.normal)) continue;
        extent.add(x.corner, x.normal);
        seen.push_back(x);
    }
    Spread spread;
    const glm::dvec3 centre = extent.centre(), axis = extent.axis();
    for (const Seen& x : seen)
        spread.add(x.corner, x.normal, centre, axis);
    return finish(extent, spread);
}

std::size_t cluster_count(std::size_t triangles) {
    return (triangles + cluster_triangles - 1) / cluster_triangles;
}

Triangle_cluster bound_cluster(const Triangle_buffers& b, const Mesh* m, std::size_t k) {
    const std::size_t first = k * cluster_triangles;
    return bound(b, m, first, std::min(first + cluster_triangles, b.triangle_count()));
}

// Smooth triangles without indices read their corners from the mesh.
void require_mesh(const Triangle_buffers& b, const Mesh* m) {
    if (!b.with_indices && !m)
        throw std::invalid_argument("triangle clusters: triangles without indices need a mesh");
}

} // namespace

std::vector<Triangle_cluster> triangle_clusters(const Triangle_buffers& b, const Mesh* m) {
    require_mesh(b, m);
    const std::size_t triangles = b.triangle_count();
    std::vector<Triangle_cluster> out(cluster_count(triangles));
    // Split by triangles; each cluster goes to the part that holds its first triangle.
    detail::in_parallel(triangles, [&](std::size_t first, std::size_t last) {
        for (std::size_t k = cluster_count(first); k < cluster_count(last); ++k)
            out[k] = bound_cluster(b, m, k);
    });
    return out;
}

Triangle_cluster triangle_cluster(const Triangle_buffers& b, std::size_t k, const Mesh* m) {
    require_mesh(b, m);
    return bound_cluster(b, m, k);
}

std::vector<Triangle_cluster>
triangle_clusters_by_face(const Mesh& m, std::span<const glm::vec3> positions,
                          std::span<const std::uint32_t> triangle_of_face,
                          std::size_t triangle_count) {
    const std::size_t count = cluster_count(triangle_count);
    const std::size_t slots = std::min<std::size_t>(m.face_slots(), triangle_of_face.size());
    // Calls `add(face slot, triangle, corners, normal)` for every face drawn in [first, last).
    const auto each_face = [&](std::size_t first, std::size_t last, auto&& add) {
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t t = triangle_of_face[i];
            if (t >= triangle_count) continue;
            const Face f{static_cast<std::uint32_t>(i)};
            const Edge e0 = f.edge(m);
            const Edge e1 = e0.left_next(m);
            const std::array<std::uint32_t, 3> corner{e0.origin(m).index(), e1.origin(m).index(),
                                                      e1.dest(m).index()};
            glm::dvec3 c[3], normal;
            if (triangle_geometry(positions, corner, c, normal))
                add(t / cluster_triangles, c, normal);
        }
    };
    // Faces come in slot order (their triangles scattered over the clusters): each thread
    // gathers into clusters of its own, merged after.
    std::mutex merging;
    std::vector<Extent> extents(count);
    detail::in_parallel(slots, [&](std::size_t first, std::size_t last) {
        std::vector<Extent> own(count);
        each_face(first, last, [&](std::size_t k, const glm::dvec3(&c)[3], const glm::dvec3& n) {
            own[k].add(c, n);
        });
        const std::lock_guard lock(merging);
        for (std::size_t k = 0; k < count; ++k)
            extents[k].add(own[k]);
    });
    std::vector<glm::dvec3> centre(count), axis(count);
    for (std::size_t k = 0; k < count; ++k) {
        centre[k] = extents[k].centre();
        axis[k] = extents[k].axis();
    }
    std::vector<Spread> spreads(count);
    detail::in_parallel(slots, [&](std::size_t first, std::size_t last) {
        std::vector<Spread> own(count);
        each_face(first, last, [&](std::size_t k, const glm::dvec3(&c)[3], const glm::dvec3& n) {
            own[k].add(c, n, centre[k], axis[k]);
        });
        const std::lock_guard lock(merging);
        for (std::size_t k = 0; k < count; ++k)
            spreads[k].add(own[k]);
    });
    std::vector<Triangle_cluster> out(count);
    for (std::size_t k = 0; k < count; ++k)
        out[k] = finish(extents[k], spreads[k]);
    return out;
}

void update_triangle_clusters(const Triangle_buffers& b, std::span<const std::uint32_t> triangles,
                              std::vector<Triangle_cluster>& clusters, const Mesh* m,
                              bool appended_listed) {
    require_mesh(b, m);
    const std::size_t old_count = clusters.size();
    const std::size_t count = cluster_count(b.triangle_count());
    clusters.resize(count);
    std::vector<std::uint32_t> touched;
    touched.reserve(triangles.size());
    for (const std::uint32_t t : triangles)
        if (t / cluster_triangles < count)
            touched.push_back(static_cast<std::uint32_t>(t / cluster_triangles));
    // The last old cluster may have been short and gained appended triangles (listed, or not).
    const std::size_t first_new = old_count == 0 || appended_listed ? old_count : old_count - 1;
    for (std::size_t k = first_new; k < count; ++k)
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
