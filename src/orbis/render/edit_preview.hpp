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

/// The editing tools of the viewport.
enum class Edit_tool {
    select,   ///< pick an element to inspect
    flip,     ///< flip the edge under the cursor
    split,    ///< split the edge at the cursor
    collapse, ///< collapse the edge, joining at the cursor (or at an end, snapped)
    move,     ///< drag the vertex under the cursor along the sphere
};

/// The tool's name as menus and messages say it ("Flip", ...).
const char* edit_tool_name(Edit_tool tool);

/// The verdict of a tool for one pick, and what to draw.
struct Edit_preview {
    Edit_tool tool = Edit_tool::select;
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

/// The verdict of `tool` for what `pick` hit, decided by the mesh's check_flip, check_split or
/// check_collapse (so it says exactly what applying would do). Split and collapse take t from
/// where the pick lies along the edge (split kept within [0.05, 0.95]); `snap` moves a
/// collapse's t to the nearer end (0 or 1). Select previews nothing (allowed, no ghost).
/// A pick naming elements `world` no longer has (taken on an older state) is not allowed and
/// has no refusal. Cost O(valence).
Edit_preview preview_edit(const World& world, Edit_tool tool, const Pick& pick, bool snap);

/// The position a vertex created by split(e, t) gets: the position layer's slerp interpolation
/// (detail::slerp_value) of the edge's ends.
glm::vec3 split_position(const World& world, Edge e, float t);

} // namespace orbis::render
