// SPDX-License-Identifier: MIT
// What the view draws for a selection: its outline and a tint of its elements.
#include "orbis/render/selection_outline.hpp"

#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>

namespace orbis::render {

namespace {

// The circumcentre of face f on the sphere through its corners, where its Voronoi corner is.
glm::dvec3 circumcentre(const Mesh& m, const Layer<glm::vec3, Layer_type::vertex>& positions,
                        Face f) {
    glm::dvec3 p[3];
    int i = 0;
    for (const Vertex v : f.vertices(m))
        if (i < 3) p[i++] = glm::dvec3(positions[v]);
    const glm::dvec3 n = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
    const double r = (glm::length(p[0]) + glm::length(p[1]) + glm::length(p[2])) / 3.0;
    return n * r;
}

} // namespace

Selection_outline selection_outline(const World& world, std::span<const Vertex> vertices,
                                    std::span<const Face> faces) {
    Selection_outline out;
    const auto* positions = world.layer(position_layer);
    if (!positions) return out;
    const Mesh& m = world.mesh();
    auto selected_vertex = [&](Vertex v) {
        return std::binary_search(vertices.begin(), vertices.end(), v,
                                  [](Vertex a, Vertex b) { return a.index() < b.index(); });
    };
    auto selected_face = [&](Face f) {
        return std::binary_search(faces.begin(), faces.end(), f,
                                  [](Face a, Face b) { return a.index() < b.index(); });
    };
    for (const Vertex v : vertices) {
        if (!m.contains(v)) continue;
        out.points.push_back((*positions)[v]);
        for (const Edge e : v.edges(m)) {
            if (selected_vertex(e.dest(m))) continue;
            const Face a = e.left(m), b = e.right(m);
            if (!a.valid() || !b.valid()) continue;
            out.segments.push_back(glm::vec3(circumcentre(m, *positions, a)));
            out.segments.push_back(glm::vec3(circumcentre(m, *positions, b)));
        }
    }
    for (const Face f : faces) {
        if (!m.contains(f)) continue;
        glm::dvec3 centre(0.0);
        for (const Vertex v : f.vertices(m))
            centre += glm::dvec3((*positions)[v]) / 3.0;
        out.points.push_back(glm::vec3(centre));
        for (const Edge e : f.edges(m)) {
            const Face other = e.right(m);
            if (other.valid() && selected_face(other)) continue;
            out.segments.push_back((*positions)[e.origin(m)]);
            out.segments.push_back((*positions)[e.dest(m)]);
        }
    }
    return out;
}

} // namespace orbis::render
