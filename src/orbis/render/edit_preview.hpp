// SPDX-License-Identifier: MIT
// What an editing tool would do to the element under the cursor: the verdict of the same
// check_* function the edit runs, in words, with a ghost of the result or the cause in red.
#pragma once

#include "orbis/core/ids.hpp"
#include "orbis/core/refusal.hpp"
#include "orbis/render/picking.hpp"

#include <glm/vec3.hpp>

#include <optional>
#include <string>
#include <vector>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render {

/// The verdict of a tool for one pick, and what to draw.
struct Edit_preview {
    bool allowed = false;           ///< the edit would be made
    std::optional<Refusal> refusal; ///< why not, when refused
    std::string message;            ///< the verdict in one line (the refusal's message if refused)
    Edge edge;                      ///< flip / split / collapse: the primal edge
    Vertex vertex;                  ///< move: the vertex
    float t = 0.5f;                 ///< split / collapse: where along `edge`
    std::vector<glm::vec3> subject_segments; ///< the edge operated on, in pairs
    std::vector<glm::vec3> subject_points;   ///< the vertex operated on
    std::vector<glm::vec3> ghost_segments;   ///< the result, in pairs of segment ends
    std::vector<glm::vec3> ghost_points;     ///< new or merged vertices
    std::vector<glm::vec3> cause_segments;   ///< refused: the element and the cause, in pairs
    std::vector<glm::vec3> cause_points;     ///< refused: vertices that explain it
};

/// Where along primal edge `e` the point `p` lies, as the fraction t from its origin of the
/// closest point of the chord (clamped to [0, 1]).
float edge_fraction(const World& world, Edge e, const glm::dvec3& p);

/// Whether flipping the edge `pick` names is allowed (Mesh::check_flip), with the new edge as
/// ghost or the cause in red. A pick naming elements `world` no longer has (taken on an older
/// state) is not allowed and has no refusal. Cost O(valence), as for the others below.
Edit_preview preview_flip(const World& world, const Pick& pick);
/// The verdict of splitting the picked edge where the pick lies along it (t kept within
/// [0.05, 0.95]; Mesh::check_split), with the new vertex and its edges as ghost.
Edit_preview preview_split(const World& world, const Pick& pick);
/// The verdict of collapsing the picked edge, joining where the pick lies along it, or at the
/// nearer end with `snap` (t = 0 or 1; Mesh::check_collapse).
Edit_preview preview_collapse(const World& world, const Pick& pick, bool snap);
/// The verdict of dragging the picked vertex (allowed while it exists).
Edit_preview preview_move(const World& world, const Pick& pick);

/// Segments (pairs of ends) of the geodesic circle of `radius_km` around the direction of
/// `centre`, on the sphere through `centre`, lifted by 0.2 % so that it is not buried in the
/// triangles it lies on: a brush's outline. Empty for the origin.
std::vector<glm::vec3> surface_circle(const glm::dvec3& centre, double radius_km);

/// The position a vertex created by split(e, t) gets: the position layer's slerp interpolation
/// (detail::slerp_value) of the edge's ends.
glm::vec3 split_position(const World& world, Edge e, float t);

} // namespace orbis::render
