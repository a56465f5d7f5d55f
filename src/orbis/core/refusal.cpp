// SPDX-License-Identifier: MIT
#include "orbis/core/refusal.hpp"

#include <ostream>
#include <sstream>

namespace orbis {

namespace {
std::string id_string(char prefix, std::uint32_t index, const char* suffix) {
    std::string s(1, prefix);
    s += std::to_string(index);
    s += suffix;
    return s;
}
} // namespace

std::string to_string(Vertex v) { return v.valid() ? id_string('v', v.index(), "") : "no_vertex"; }
std::string to_string(Face f) { return f.valid() ? id_string('f', f.index(), "") : "no_face"; }
std::string to_string(Edge e) {
    if (!e.valid()) return "no_edge";
    return id_string('e', e.index(), e.is_dual() ? "*" : "");
}
std::ostream& operator<<(std::ostream& os, Vertex v) { return os << to_string(v); }
std::ostream& operator<<(std::ostream& os, Face f) { return os << to_string(f); }
std::ostream& operator<<(std::ostream& os, Edge e) { return os << to_string(e); }

std::string Refusal::message() const {
    std::ostringstream s;
    s << operation;
    if (edge.valid()) s << ' ' << edge;
    s << ": ";
    switch (kind) {
    case Refusal_kind::invalid_element:
        s << "refers to an element that does not exist";
        if (vertex.valid()) s << " (" << vertex << ")";
        if (face.valid()) s << " (" << face << ")";
        break;
    case Refusal_kind::dual_edge:
        s << "needs a primal edge, not a dual one";
        break;
    case Refusal_kind::bad_parameter:
        s << "t must be a number in [0, 1]";
        break;
    case Refusal_kind::repeated_vertex:
        s << vertex << " appears twice in the face";
        break;
    case Refusal_kind::duplicate_face:
        s << "the face exists already as " << face;
        break;
    case Refusal_kind::edge_side_taken:
        s << "the edge " << vertex << "->" << other_vertex << " already has face " << face
          << " on its left (non-manifold, or the face is not counterclockwise)";
        break;
    case Refusal_kind::vertex_closed:
        s << vertex << " is surrounded by faces; there is no gap for another face";
        break;
    case Refusal_kind::ambiguous_fan:
        s << vertex << " has several unconnected fans of faces and no shared edge says where the "
          << "new face goes (add a face that connects the fans first)";
        break;
    case Refusal_kind::boundary_edge:
        s << "the edge is on the boundary (a face on one side only)";
        break;
    case Refusal_kind::degenerate_flip:
        s << "both faces have the same opposite corner " << vertex;
        break;
    case Refusal_kind::already_connected:
        s << "the opposite vertices " << vertex << " and " << other_vertex
          << " are already connected";
        break;
    case Refusal_kind::faceless_edge:
        s << "the edge has no face on either side";
        break;
    case Refusal_kind::link_condition:
        s << vertex << " is a neighbour of both ends but not a corner of the edge's faces "
          << "(link condition)";
        break;
    case Refusal_kind::unconnected_fans:
        s << "both ends " << vertex << " and " << other_vertex
          << " are on the boundary; the result would be a vertex with two unconnected fans";
        break;
    case Refusal_kind::dangling_edge:
        s << "the edge to " << vertex << " would be left without faces";
        break;
    case Refusal_kind::tetrahedron:
        s << "the edge belongs to a tetrahedron; collapsing it would leave two faces on three "
             "vertices";
        break;
    case Refusal_kind::stale_plan:
        s << "the plan was checked on other mesh content (the mesh was edited since, or it is "
             "another mesh); plan the edit again";
        break;
    }
    return s.str();
}

} // namespace orbis
