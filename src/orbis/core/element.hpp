// SPDX-License-Identifier: MIT
// An element of the mesh or its dual as people name it: v12, f3, e6, d6 (the dual edge), c12.
#pragma once

#include "orbis/core/ids.hpp"

#include <glm/vec3.hpp>

#include <optional>
#include <string>

namespace orbis {

class World;

/// An element of the mesh or its dual, as the inspector, the Select tool and Go to name it.
struct Element {
    /// What kind of element.
    enum class Kind { vertex, cell, face, edge, dual_edge };
    Kind kind = Kind::vertex; ///< vertex and cell use `vertex`, face `face`, the edges `edge`
    Vertex vertex;            ///< for vertex and cell
    Face face;                ///< for face
    Edge edge;                ///< primal for edge, dual for dual_edge
    /// Same kind and id.
    friend bool operator==(const Element&, const Element&) = default;
};

/// The element named `text` ("v12", "f3", "e6" for a primal edge, "d6" or "e6*" for the dual
/// edge rot(e6), "c12" for the cell of v12), if it exists in `world`.
std::optional<Element> parse_element(const World& world, const std::string& text);
/// The element's name as parse_element reads it.
std::string element_name(const Element& e);
/// Where the element is: a vertex's (or cell's) position, a face's corner centroid, an edge's
/// (or its dual's primal edge's) midpoint; the origin without positions. Precondition: the
/// element exists in `world`.
glm::dvec3 element_centre(const World& world, const Element& e);

} // namespace orbis
