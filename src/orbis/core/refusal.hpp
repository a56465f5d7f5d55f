// SPDX-License-Identifier: MIT
// Why a mesh edit was refused: the reason in a form tools can highlight and people can read.
#pragma once

#include "orbis/core/ids.hpp"

#include <stdexcept>
#include <string>

namespace orbis {

/// The kinds of refusal, one per precondition of SPEC's Construction and Modification sections.
enum class Refusal_kind {
    invalid_element,   ///< an id that is `no_*`, out of range, or deleted
    dual_edge,         ///< a primal edge was required
    bad_parameter,     ///< t outside [0, 1] or not finite
    repeated_vertex,   ///< add_face with a vertex twice
    duplicate_face,    ///< add_face of a face that exists already
    edge_side_taken,   ///< add_face: an edge already has a face on that side (non-manifold or
                       ///< wrong orientation)
    vertex_closed,     ///< add_face: the vertex is surrounded by faces, there is no gap to fill
    ambiguous_fan,     ///< add_face: the vertex has several unconnected fans and no shared edge
                       ///< decides where the face goes (seed 001's forbidden case)
    boundary_edge,     ///< flip of an edge with a face on one side only
    degenerate_flip,   ///< flip where both opposite corners are the same vertex
    already_connected, ///< flip: the opposite vertices are connected by another edge
    faceless_edge,     ///< split/collapse of an edge with no face on either side
    link_condition,    ///< collapse: a vertex other than the two opposite corners is a neighbour
                       ///< of both ends (Dey et al. 1998)
    unconnected_fans,  ///< collapse would join two boundary vertices through the interior,
                       ///< leaving one vertex with two unconnected fans
    dangling_edge,     ///< collapse would leave an edge without faces
    tetrahedron,       ///< collapse would squash a tetrahedron into two faces on three vertices
    stale_plan,        ///< an edit from a plan (Mesh::plan_flip etc.) made before the mesh was
                       ///< last edited, or on another mesh: plan it again
};

/// A refused edit: what kind of refusal, which elements explain it, and `message()` in words.
/// Building a Refusal allocates nothing; the message is composed only when asked for.
struct Refusal {
    /// The precondition that failed.
    Refusal_kind kind = Refusal_kind::invalid_element;
    /// "add_face", "flip", "split" or "collapse".
    const char* operation = "";
    /// The edge the edit was asked for, or the edge that is in the way.
    Edge edge;
    /// The vertex that explains the refusal (e.g. the shared neighbour of the link condition).
    Vertex vertex;
    /// A second vertex, where two are involved (e.g. the opposite corners of a flip).
    Vertex other_vertex;
    /// The face in the way, where one is.
    Face face;

    /// One sentence naming the operation, the ids and the reason.
    std::string message() const;
};

/// Thrown by the mesh's edits when their check refuses; the mesh is unchanged.
class Edit_refused : public std::invalid_argument {
public:
    /// Wraps `refusal`, with its message as `what()`.
    explicit Edit_refused(const Refusal& refusal)
        : std::invalid_argument(refusal.message())
        , refusal_(refusal) {}
    /// The refusal that caused the exception.
    const Refusal& refusal() const { return refusal_; }

private:
    Refusal refusal_;
};

} // namespace orbis
