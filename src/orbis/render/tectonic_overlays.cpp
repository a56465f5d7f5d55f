// SPDX-License-Identifier: MIT
// Tectonics in the view: plate boundaries as lines coloured by their kind, and plate motion as
// arrows at a thinned set of vertices.
#include "orbis/render/tectonic_overlays.hpp"

#include "orbis/core/colour_map.hpp"
#include "orbis/core/sphere_curve.hpp"
#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace orbis::render {

namespace {

void check_positions(const Mesh& m, std::span<const glm::vec3> positions) {
    if (positions.size() < m.vertex_slots())
        throw std::invalid_argument("render: " + std::to_string(positions.size()) +
                                    " positions for " + std::to_string(m.vertex_slots()) +
                                    " vertex slots");
}

bool finite(const glm::dvec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

} // namespace

const Layer<std::int32_t, Layer_type::edge_primal>* plate_boundary_layer(const World& world) {
    using L = Layer<std::int32_t, Layer_type::edge_primal>;
    const auto* layer = dynamic_cast<const L*>(world.find_layer(plate_boundary_layer_name));
    return layer && layer->size() == L::slot_count(world.mesh()) ? layer : nullptr;
}

const Layer<glm::vec3, Layer_type::vertex>* velocity_layer(const World& world) {
    using L = Layer<glm::vec3, Layer_type::vertex>;
    const auto* layer = dynamic_cast<const L*>(world.find_layer(velocity_layer_name));
    return layer && layer->size() == L::slot_count(world.mesh()) ? layer : nullptr;
}

void plate_boundary_lines(const Mesh& m, std::span<const glm::vec3> positions,
                          const Layer<std::int32_t, Layer_type::edge_primal>& kinds,
                          const Layer_hints* hints, Boundary_lines& out) {
    check_positions(m, positions);
    if (kinds.size() != Layer<std::int32_t, Layer_type::edge_primal>::slot_count(m))
        throw std::invalid_argument("render: the plate_boundary layer does not match the mesh");
    out.positions.clear();
    out.colours.clear();
    out.edge_of.clear();
    out.kind_of.clear();
    out.kinds.clear();
    // The kinds are a handful of small values: look each one's colour up once, not per edge.
    std::vector<Layer_category> seen;
    auto category_of = [&](std::int32_t kind) -> const Layer_category& {
        for (const Layer_category& c : seen)
            if (c.value == kind) return c;
        const Layer_category* hinted = hints ? hints->category(kind) : nullptr;
        seen.push_back(hinted ? *hinted
                              : Layer_category{kind, "kind " + std::to_string(kind),
                                               category_colour(nullptr, kind)});
        return seen.back();
    };
    for (const Edge e : m.edges()) {
        const std::int32_t kind = kinds[e];
        if (kind == 0) continue;
        const Layer_category& c = category_of(kind);
        const Colour colour(c.colour, 255);
        out.positions.push_back(positions[e.origin(m).index()]);
        out.positions.push_back(positions[e.dest(m).index()]);
        out.colours.push_back(colour);
        out.colours.push_back(colour);
        out.edge_of.push_back(e);
        out.kind_of.push_back(kind);
    }
    std::sort(seen.begin(), seen.end(),
              [](const Layer_category& a, const Layer_category& b) { return a.value < b.value; });
    out.kinds = std::move(seen);
}

int velocity_arrow_level(std::size_t max_arrows) {
    int level = 0;
    while (level < 12 && sphere_curve_cells(level + 1) <= max_arrows)
        ++level;
    return level;
}

double step_at_or_below(double x) {
    if (!(x > 0.0) || !std::isfinite(x)) return 0.0;
    const double decade = std::pow(10.0, std::floor(std::log10(x)));
    for (const double step : {5.0, 2.0, 1.0})
        if (step * decade <= x) return step * decade;
    return decade; // rounding of log10 just below a power of ten
}

void velocity_arrows(const Mesh& m, std::span<const glm::vec3> positions,
                     const Layer<glm::vec3, Layer_type::vertex>& velocity, std::size_t max_arrows,
                     Velocity_arrows& out) {
    check_positions(m, positions);
    if (velocity.size() != Layer<glm::vec3, Layer_type::vertex>::slot_count(m))
        throw std::invalid_argument("render: the velocity layer does not match the mesh");
    out.positions.clear();
    out.colours.clear();
    out.vertex_of.clear();
    out.million_years = 0.0;
    out.fastest = 0.0;

    // Per cell of the grid: the mean direction of its vertices, then the vertex nearest it.
    // The grid cells are of about equal area, so one arrow per cell spreads them evenly.
    const int level = velocity_arrow_level(max_arrows);
    const std::uint32_t cells = sphere_curve_cells(level);
    std::vector<std::uint32_t> key(m.vertex_slots(), 0);
    std::vector<glm::dvec3> mean(cells, glm::dvec3(0.0));
    double radius = 0.0;
    for (const Vertex v : m.vertices()) {
        const glm::dvec3 p(positions[v.index()]);
        const double length = glm::length(p);
        if (!(length > 0.0) || !std::isfinite(length)) continue;
        const std::uint32_t k = sphere_curve_key(positions[v.index()], level);
        key[v.index()] = k;
        mean[k] += p / length;
        radius = std::max(radius, length);
        const double speed = glm::length(glm::dvec3(velocity[v]));
        if (std::isfinite(speed)) out.fastest = std::max(out.fastest, speed);
    }
    std::vector<Vertex> chosen(cells);
    std::vector<double> closeness(cells, -2.0);
    std::size_t occupied = 0;
    for (const Vertex v : m.vertices()) {
        const glm::dvec3 p(positions[v.index()]);
        const double length = glm::length(p);
        if (!(length > 0.0) || !std::isfinite(length)) continue;
        const std::uint32_t k = key[v.index()];
        // The cosine to the cell's mean direction (unnormalised mean: the order is the same).
        const double c = glm::dot(p / length, mean[k]) / glm::length(mean[k]);
        if (!chosen[k].valid()) ++occupied;
        if (c > closeness[k]) {
            closeness[k] = c;
            chosen[k] = v;
        }
    }
    if (occupied == 0 || !(out.fastest > 0.0)) return;
    // The fastest arrow spans at most the spacing of cells of equal area: it may touch the
    // next arrow's tail but not run past it.
    const double spacing = radius * std::sqrt(4.0 * std::numbers::pi / double(occupied));
    out.million_years = step_at_or_below(spacing / out.fastest);
    if (!(out.million_years > 0.0)) return;

    for (const Vertex v : chosen) {
        if (!v.valid()) continue;
        const glm::dvec3 p(positions[v.index()]);
        const glm::dvec3 up = glm::normalize(p);
        const glm::dvec3 raw(velocity[v]);
        if (!finite(raw)) continue;
        // Tangent by contract; made exactly so, so that no arrow dives into the surface.
        const glm::dvec3 along = raw - glm::dot(raw, up) * up;
        const double speed = glm::length(along);
        if (!(speed > 0.0) || !std::isfinite(speed)) continue;
        const glm::dvec3 t = along / speed;
        const glm::dvec3 side = glm::cross(up, t);
        const double length = speed * out.million_years;
        // Heads a fifth of the spacing long read at every zoom; a quarter of the shaft on long
        // arrows, and never more than half of a short one, so that the shaft stays visible.
        const double head = std::min(std::max(0.25 * length, 0.2 * spacing), 0.5 * length);
        // Lifted, so that the arrows stay above the faces around their vertex.
        const glm::dvec3 tail = p + up * (0.001 * glm::length(p));
        const glm::dvec3 tip = tail + t * length;
        // Strokes at atan(1/2), about 27 degrees, from the shaft.
        const glm::dvec3 back = tip - t * (0.894 * head);
        const glm::dvec3 ends[velocity_arrow_positions] = {
            tail, tip, tip, back + side * (0.447 * head), tip, back - side * (0.447 * head)};
        for (const glm::dvec3& e : ends) {
            out.positions.emplace_back(e);
            out.colours.push_back(velocity_arrow_colour);
        }
        out.vertex_of.push_back(v);
    }
}

} // namespace orbis::render
