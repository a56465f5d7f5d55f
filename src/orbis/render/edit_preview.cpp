// SPDX-License-Identifier: MIT
// What an editing tool would do to the element under the cursor.
#include "orbis/render/edit_preview.hpp"

#include "orbis/core/interpolation.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <numbers>
#include <ostream>
#include <sstream>

namespace orbis::render {

namespace {

glm::vec3 position(const World& w, Vertex v) { return (*w.layer(position_layer))[v]; }

void add_segment(std::vector<glm::vec3>& out, const glm::vec3& a, const glm::vec3& b) {
    out.push_back(a);
    out.push_back(b);
}

void add_edge(const World& w, std::vector<glm::vec3>& out, Edge e) {
    const Mesh& m = w.mesh();
    if (m.contains(e)) add_segment(out, position(w, e.origin(m)), position(w, e.dest(m)));
}

void add_face(const World& w, std::vector<glm::vec3>& out, Face f) {
    if (!w.mesh().contains(f)) return;
    for (const Edge e : f.edges(w.mesh()))
        add_edge(w, out, e);
}

// The corner of the face left of e that is not on e, or no_vertex on the outside.
Vertex opposite_left(const Mesh& m, Edge e) {
    return e.left(m).valid() ? e.left_next(m).dest(m) : no_vertex;
}

// Ids as the rest of Orbis writes them; streams, since GCC 12 warns wrongly about
// concatenating short literals with std::to_string.
struct Name {
    char prefix;
    std::uint32_t index;
};
Name vertex_name(Vertex v) { return {'v', v.index()}; }
Name edge_name(Edge e) { return {'e', e.index()}; }
std::ostream& operator<<(std::ostream& out, Name n) { return out << n.prefix << n.index; }

// The refused element and what the refusal names, for drawing in red.
void add_cause(const World& w, const Refusal& r, Edit_preview& p) {
    const Mesh& m = w.mesh();
    add_edge(w, p.cause_segments, p.edge);
    if (r.edge.valid() && r.edge.is_primal()) add_edge(w, p.cause_segments, r.edge);
    for (const Vertex v : {r.vertex, r.other_vertex})
        if (m.contains(v)) p.cause_points.push_back(position(w, v));
    if (r.face.valid()) add_face(w, p.cause_segments, r.face);
    // A flip refused because the opposite corners are connected: show that edge.
    if (r.kind == Refusal_kind::already_connected && m.contains(r.vertex) &&
        m.contains(r.other_vertex)) {
        const Edge between = m.find_edge(r.vertex, r.other_vertex);
        if (between.valid()) add_edge(w, p.cause_segments, between);
    }
}

} // namespace

float edge_fraction(const World& world, Edge e, const glm::dvec3& p) {
    const Mesh& m = world.mesh();
    const glm::dvec3 a(position(world, e.origin(m))), b(position(world, e.dest(m)));
    const glm::dvec3 d = b - a;
    const double len2 = glm::dot(d, d);
    if (!(len2 > 0.0)) return 0.5f;
    return float(std::clamp(glm::dot(p - a, d) / len2, 0.0, 1.0));
}

glm::vec3 split_position(const World& world, Edge e, float t) {
    // The position layer's own interpolation, so that the ghost is where the vertex will be.
    const Mesh& m = world.mesh();
    return detail::slerp_value(position(world, e.origin(m)), position(world, e.dest(m)), t);
}

namespace {

// The edits a preview is made for.
enum class Edit_tool { flip, split, collapse, move };

Edit_preview preview_edit(const World& world, Edit_tool tool, const Pick& pick, bool snap) {
    const Mesh& m = world.mesh();
    Edit_preview p;
    p.edge = pick.edge.base();
    p.vertex = pick.vertex;
    // The pick may come from a picture of an older state (the view catches up off the GUI
    // thread): elements gone since are no verdict at all.
    if (!m.contains(pick.face) || !m.contains(pick.edge) || !m.contains(pick.vertex)) {
        p.message = "the mesh under the cursor changed; the view is catching up";
        return p;
    }
    if (tool == Edit_tool::move)
        p.subject_points.push_back(position(world, pick.vertex));
    else
        add_edge(world, p.subject_segments, p.edge);
    switch (tool) {
    case Edit_tool::move:
        p.allowed = m.contains(pick.vertex);
        if (p.allowed) {
            p.ghost_points.push_back(position(world, pick.vertex));
            std::ostringstream text;
            text << "Move " << vertex_name(pick.vertex) << ": drag it along the sphere";
            p.message = text.str();
        }
        return p;
    case Edit_tool::flip: {
        const Edge e = p.edge;
        p.refusal = m.check_flip(e);
        p.allowed = !p.refusal;
        if (p.allowed) {
            const Vertex c = opposite_left(m, e), d = opposite_left(m, e.sym());
            add_segment(p.ghost_segments, position(world, c), position(world, d));
            std::ostringstream text;
            text << "Flip " << edge_name(e) << ": " << vertex_name(e.origin(m)) << "-"
                 << vertex_name(e.dest(m)) << " becomes " << vertex_name(c) << "-"
                 << vertex_name(d);
            p.message = text.str();
        }
        break;
    }
    case Edit_tool::split: {
        const Edge e = p.edge;
        p.t = std::clamp(edge_fraction(world, e, pick.point), 0.05f, 0.95f);
        p.refusal = m.check_split(e, p.t);
        p.allowed = !p.refusal;
        if (p.allowed) {
            const glm::vec3 x = split_position(world, e, p.t);
            p.ghost_points.push_back(x);
            for (const Vertex v :
                 {e.origin(m), e.dest(m), opposite_left(m, e), opposite_left(m, e.sym())})
                if (v.valid()) add_segment(p.ghost_segments, x, position(world, v));
            std::ostringstream text;
            text << std::fixed << std::setprecision(2) << "Split " << edge_name(e)
                 << " at t = " << p.t << ": a new vertex and " << p.ghost_segments.size() / 2
                 << " edges";
            p.message = text.str();
        }
        break;
    }
    case Edit_tool::collapse: {
        const Edge e = p.edge;
        p.t = edge_fraction(world, e, pick.point);
        if (snap) p.t = p.t < 0.5f ? 0.0f : 1.0f;
        p.refusal = m.check_collapse(e, p.t);
        p.allowed = !p.refusal;
        if (p.allowed) {
            const glm::vec3 x = split_position(world, e, p.t);
            p.ghost_points.push_back(x);
            for (const Vertex end : {e.origin(m), e.dest(m)})
                for (const Vertex n : end.neighbors(m))
                    if (n != e.origin(m) && n != e.dest(m))
                        add_segment(p.ghost_segments, x, position(world, n));
            std::ostringstream text;
            text << std::fixed << std::setprecision(2) << "Collapse " << edge_name(e) << ": "
                 << vertex_name(e.dest(m)) << " merges into " << vertex_name(e.origin(m))
                 << " at t = " << p.t;
            p.message = text.str();
        }
        break;
    }
    }
    if (p.refusal) {
        p.message = p.refusal->message();
        add_cause(world, *p.refusal, p);
    }
    return p;
}

} // namespace

Edit_preview preview_flip(const World& world, const Pick& pick) {
    return preview_edit(world, Edit_tool::flip, pick, false);
}

Edit_preview preview_split(const World& world, const Pick& pick) {
    return preview_edit(world, Edit_tool::split, pick, false);
}

Edit_preview preview_collapse(const World& world, const Pick& pick, bool snap) {
    return preview_edit(world, Edit_tool::collapse, pick, snap);
}

Edit_preview preview_move(const World& world, const Pick& pick) {
    return preview_edit(world, Edit_tool::move, pick, false);
}

std::vector<glm::vec3> surface_circle(const glm::dvec3& centre, double radius_km) {
    const double r = glm::length(centre);
    std::vector<glm::vec3> segments;
    if (!(r > 0.0)) return segments;
    const glm::dvec3 c = centre / r;
    const glm::dvec3 u = glm::normalize(
        glm::cross(c, std::abs(c.y) < 0.9 ? glm::dvec3(0, 1, 0) : glm::dvec3(1, 0, 0)));
    const glm::dvec3 v = glm::cross(c, u);
    const double a = std::min(radius_km / r, std::numbers::pi);
    constexpr int n = 96;
    auto at = [&](int i) {
        const double t = 2.0 * std::numbers::pi * i / n;
        return glm::vec3(1.002 * r *
                         (std::cos(a) * c + std::sin(a) * (std::cos(t) * u + std::sin(t) * v)));
    };
    for (int i = 0; i < n; ++i) {
        segments.push_back(at(i));
        segments.push_back(at(i + 1));
    }
    return segments;
}

} // namespace orbis::render
