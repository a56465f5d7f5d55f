// SPDX-License-Identifier: MIT
// The greedy walk to the vertex nearest a direction and the floods over the mesh from it.
#include "orbis/edit/sphere_search.hpp"

#include "orbis/edit/detail/sphere_search.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace orbis::edit {

namespace detail {

namespace {

// Cosine of the angle between v's position and the unit direction `dir`; -2 (worse than any
// real cosine) for a vertex at the origin, which has no direction.
double cos_to(const Positions& pos, Vertex v, const glm::dvec3& dir) {
    const glm::dvec3 p(pos[v]);
    const double len = glm::length(p);
    return len > 0.0 ? glm::dot(p, dir) / len : -2.0;
}

Vertex start_vertex(const Mesh& m, Vertex hint) {
    if (m.contains(hint) && hint.edge(m).valid()) return hint;
    if (m.contains(Vertex{0}) && Vertex{0}.edge(m).valid()) return Vertex{0};
    // Rare (vertex 0 deleted or isolated): the first vertex with edges, so the walk can move.
    Vertex first = no_vertex;
    for (const Vertex v : m.vertices()) {
        if (!first.valid()) first = v;
        if (v.edge(m).valid()) return v;
    }
    return first;
}

} // namespace

const Positions* positions_of(const World& world) {
    // find_layer and a type check rather than World::layer, which throws for a "position" layer
    // of another type: a search there simply finds nothing.
    const Layer_base* base = world.find_layer(position_layer.name());
    if (!base || base->type() != Layer_type::vertex || base->value_tag() != Value_type::vec3)
        return nullptr;
    return static_cast<const Positions*>(base);
}

bool usable_point(const glm::dvec3& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) &&
           (p.x != 0.0 || p.y != 0.0 || p.z != 0.0);
}

Vertex walk_to_nearest(const Mesh& m, const Positions& pos, const glm::dvec3& dir, Vertex hint) {
    Vertex v = start_vertex(m, hint);
    if (!v.valid()) return no_vertex;
    double best = cos_to(pos, v, dir);
    for (;;) {
        Vertex next = v;
        for (const Vertex n : v.neighbors(m)) {
            const double c = cos_to(pos, n, dir);
            if (c > best) {
                best = c;
                next = n;
            }
        }
        if (next == v) {
            // A local minimum, which a Delaunay mesh never has but a hand-flipped one may: one
            // look over the second ring gets past most single bad flips.
            for (const Vertex n : v.neighbors(m))
                for (const Vertex n2 : n.neighbors(m)) {
                    const double c = cos_to(pos, n2, dir);
                    if (c > best) {
                        best = c;
                        next = n2;
                    }
                }
            if (next == v) return v;
        }
        v = next; // best strictly increases, so the walk ends
    }
}

std::optional<Anchor> anchor_at(const World& world, const glm::dvec3& centre, Vertex hint) {
    if (!usable_point(centre)) return std::nullopt;
    const Positions* pos = positions_of(world);
    if (!pos) return std::nullopt;
    Anchor a;
    a.mesh = &world.mesh();
    a.positions = pos;
    a.dir = glm::normalize(centre);
    a.vertex = walk_to_nearest(*a.mesh, *pos, a.dir, hint);
    if (!a.vertex.valid()) return std::nullopt;
    a.km_per_radian = glm::length(a.position(a.vertex));
    return a;
}

std::size_t expected_vertices(const Anchor& a, double radius_km) {
    if (!(a.km_per_radian > 0.0)) return 16;
    const double angle = std::min(radius_km / a.km_per_radian, std::numbers::pi);
    const double fraction = (1.0 - std::cos(angle)) / 2.0;
    const auto count = static_cast<double>(a.mesh->vertex_count());
    return static_cast<std::size_t>(std::min(fraction * count * 1.2, count)) + 32;
}

std::vector<Vertex> vertices_within(const Anchor& a, double radius_km) {
    return flood(*a.mesh, a.vertex, expected_vertices(a, radius_km),
                 [&](Vertex v) { return a.distance_km(a.position(v)) <= radius_km; });
}

std::vector<Vertex> vertices_in_cap(const Anchor& a, double angle) {
    // |q/|q| - u|^2 <= 4 sin^2(angle / 2) holds exactly when q is within `angle` of u, stays
    // accurate for small angles (unlike a dot product against a cosine) and costs no
    // trigonometry per vertex.
    const double h = 2 * std::sin(0.5 * std::min(angle, std::numbers::pi));
    const double chord2 = angle < 0 ? -1 : h * h;
    const auto inside = [&](Vertex v) {
        const glm::dvec3 d = glm::normalize(a.position(v)) - a.dir;
        return glm::dot(d, d) <= chord2;
    };
    return flood(*a.mesh, a.vertex, expected_vertices(a, angle * a.km_per_radian), inside);
}

} // namespace detail

Vertex nearest_vertex(const World& world, const glm::dvec3& p, Vertex hint) {
    const auto a = detail::anchor_at(world, p, hint);
    return a ? a->vertex : no_vertex;
}

std::vector<Vertex> vertices_within(const World& world, const glm::dvec3& centre, double radius_km,
                                    Vertex hint) {
    if (!(radius_km >= 0.0)) return {};
    const auto a = detail::anchor_at(world, centre, hint);
    if (!a) return {};
    return detail::vertices_within(*a, radius_km);
}

} // namespace orbis::edit
