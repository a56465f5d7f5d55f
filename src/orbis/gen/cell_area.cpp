// SPDX-License-Identifier: MIT
#include "orbis/gen/cell_area.hpp"

#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <cmath>
#include <stdexcept>

namespace orbis::gen {

namespace {

template <class Position>
std::vector<double> cell_areas(const Mesh& m, const Position& position, double radius) {
    std::vector<double> area(m.vertex_slots(), 0.0);
    for (const Face f : m.faces()) {
        const Edge e = f.edge(m);
        const Vertex a = e.origin(m), b = e.dest(m), c = e.left_next(m).dest(m);
        const double third = spherical_triangle_area(glm::dvec3(position(a.index())),
                                                     glm::dvec3(position(b.index())),
                                                     glm::dvec3(position(c.index())), radius) /
                             3;
        for (const Vertex v : {a, b, c})
            area[v.index()] += third;
    }
    return area;
}

} // namespace

// tan(E / 2) = a . (b x c) / (1 + a.b + b.c + c.a) for unit corners; atan2 keeps the quadrant
// for triangles larger than a hemisphere's worth of excess, where the denominator is negative.
// Unlike L'Huilier's formula it needs no side lengths and stays accurate for tiny triangles.
double spherical_triangle_area(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, double radius) {
    a = glm::normalize(a);
    b = glm::normalize(b);
    c = glm::normalize(c);
    const double numerator = glm::dot(a, glm::cross(b, c));
    const double denominator = 1 + glm::dot(a, b) + glm::dot(b, c) + glm::dot(c, a);
    return 2 * std::atan2(numerator, denominator) * radius * radius;
}

std::vector<double> vertex_cell_areas(const Mesh& m, std::span<const glm::vec3> positions,
                                      double radius) {
    return cell_areas(
        m, [&](std::uint32_t v) { return positions[v]; }, radius);
}

std::vector<double> vertex_cell_areas(const World& world, double radius) {
    const auto* position = world.layer(position_layer);
    if (!position) throw std::runtime_error("vertex_cell_areas needs the 'position' layer");
    return cell_areas(
        world.mesh(), [&](std::uint32_t v) { return (*position)[Vertex{v}]; }, radius);
}

} // namespace orbis::gen
