// SPDX-License-Identifier: MIT
// Bounds of runs of consecutive triangles, so that a frame skips the runs the eye cannot see:
// the far side of the planet and whatever lies outside the view.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace orbis {
class Mesh;
} // namespace orbis

namespace orbis::render {

struct Triangle_buffers;

/// Triangles per cluster. Buffers laid out along the sphere's curve keep a cluster's triangles
/// together on the surface, so that most clusters face one way.
inline constexpr std::size_t cluster_triangles = 1024;

/// The bounds of one run of cluster_triangles consecutive triangles (fewer in the last run).
struct Triangle_cluster {
    glm::vec3 centre{0.f}; ///< centre of a sphere holding every corner
    float radius = 0.f;    ///< its radius
    glm::vec3 axis{0.f};   ///< unit vector that every triangle's unit normal lies near
    /// Cosine of the largest angle between axis and a triangle's normal; at most 0 when the
    /// normals spread over a half-space or more (the cluster then always faces the eye).
    float cos_spread = -1.f;

    /// Same bounds.
    friend bool operator==(const Triangle_cluster&, const Triangle_cluster&) = default;
};

/// The clusters of `b`: cluster k bounds triangles [k · cluster_triangles, (k + 1) ·
/// cluster_triangles). Normals are the triangles' own (counterclockwise corners), computed in
/// double precision; the axis is the middle of their box, which unlike a mean does not depend
/// on the order they are read in; degenerate triangles (deleted faces) draw nothing and bound
/// nothing. Triangles without indices (Triangle_buffers::with_indices) take their corners from `m`,
/// the mesh they were built or last updated for. O(triangles), on two threads for large buffers.
/// \throws std::invalid_argument for triangles without indices and no mesh.
std::vector<Triangle_cluster> triangle_clusters(const Triangle_buffers& b, const Mesh* m = nullptr);

/// Cluster `k` of triangle_clusters(b, m) alone, for a caller that samples a few. Precondition:
/// k < (triangle count + cluster_triangles - 1) / cluster_triangles. O(cluster_triangles).
/// \throws std::invalid_argument as triangle_clusters().
Triangle_cluster triangle_cluster(const Triangle_buffers& b, std::size_t k,
                                  const Mesh* m = nullptr);

/// triangle_clusters() of the triangles of mesh `m`'s faces: face slot f is triangle
/// triangle_of_face[f] (UINT32_MAX: no triangle) of `triangle_count`, its corners those the
/// face names, at `positions` (indexed by vertex slot). Reads the faces in slot order, in which
/// the mesh keeps a face's quad-edges together, rather than the triangles' order. Gives what
/// triangle_clusters() gives for such triangles (equal, bit for bit but for the sign of a
/// zero). O(face slots + threads × clusters), on up to eight threads.
std::vector<Triangle_cluster>
triangle_clusters_by_face(const Mesh& m, std::span<const glm::vec3> positions,
                          std::span<const std::uint32_t> triangle_of_face,
                          std::size_t triangle_count);

/// Brings `clusters` up to `b` after the listed triangles (any order, repeats allowed) were
/// rewritten and triangles appended: recomputes the clusters that hold them, and those past
/// the end of `clusters`. Gives what triangle_clusters(b) gives. O(clusters touched ×
/// cluster_triangles). Corners as triangle_clusters(), and the same refusal. With
/// `appended_listed`, the caller lists every appended triangle too, so that the last old cluster
/// (which may have been short) is not recomputed unless it holds one: a cluster less per edit.
void update_triangle_clusters(const Triangle_buffers& b, std::span<const std::uint32_t> triangles,
                              std::vector<Triangle_cluster>& clusters, const Mesh* m = nullptr,
                              bool appended_listed = false);

/// True when an eye at `eye` sees only the backs of the cluster's triangles, with a margin of
/// about a thousandth of a radian for rounding: back-face culling would drop every one.
bool faces_away(const Triangle_cluster& c, const glm::dvec3& eye);

/// True when the cluster's sphere lies wholly outside one of the six planes of the frustum of
/// `view_projection` (clip space of OpenGL: -w <= x, y, z <= w), with a margin for rounding.
bool outside_view(const Triangle_cluster& c, const glm::dmat4& view_projection);

/// The runs [first, last) of triangles to draw for an eye at `eye` with `view_projection`:
/// every cluster that neither faces away nor lies outside the view, neighbours merged, and
/// every triangle past the last cluster (appended, not bounded yet). O(clusters).
std::vector<std::pair<std::uint32_t, std::uint32_t>>
visible_triangle_runs(std::span<const Triangle_cluster> clusters, std::size_t triangle_count,
                      const glm::dvec3& eye, const glm::dmat4& view_projection);

} // namespace orbis::render
