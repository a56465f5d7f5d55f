// SPDX-License-Identifier: MIT
// An element of the mesh or its dual, as the inspector and the Select tool name it.
#pragma once

#include "orbis/core/ids.hpp"

#include <optional>
#include <string>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::ui {

/// An element of the mesh or its dual, as the inspector and the Select tool name it.
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

} // namespace orbis::ui
