// SPDX-License-Identifier: MIT
// Whether a collapse would fold a face on the sphere: the geometric check that modules add to
// the mesh's own (topological) check_collapse before they collapse an edge.
#pragma once

#include "orbis/core/mesh.hpp"
#include "orbis/gen/sphere_predicates.hpp"

#include <glm/vec3.hpp>

namespace orbis::gen {

/// True when merging the ends a, b of `e` at `target` keeps every face that survives around
/// them counterclockwise seen from outside (exact orientation_on_sphere). `at(Vertex)` gives a
/// vertex's position. Cost: O(valence of a + valence of b).
template <class Position>
bool collapse_keeps_orientation(const Mesh& m, Position&& at, Edge e, const glm::vec3& target) {
    const Vertex a = e.origin(m), b = e.dest(m);
    const Face gone_left = e.left(m), gone_right = e.sym().left(m);
    const auto where = [&](Vertex x) -> glm::vec3 { return x == a || x == b ? target : at(x); };
    for (const Vertex v : {a, b}) {
        for (const Edge out : v.edges(m)) {
            const Face f = out.left(m);
            if (!f.valid() || f == gone_left || f == gone_right) continue;
            const Vertex u = out.dest(m), w = out.left_prev(m).origin(m);
            if (orientation_on_sphere(where(v), where(u), where(w)) <= 0) return false;
        }
    }
    return true;
}

} // namespace orbis::gen
