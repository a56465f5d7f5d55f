// SPDX-License-Identifier: MIT
// Water in the view: which vertices the hydrology layers cover, and rivers as ribbons of
// triangles along the edges that carry enough discharge.
#include "orbis/render/water_buffers.hpp"

#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace orbis::render {

namespace {

template <class T, Layer_type Type>
const Layer<T, Type>* typed(const World& world, std::string_view name) {
    return dynamic_cast<const Layer<T, Type>*>(world.find_layer(name));
}

// A face's plane through the edge a ribbon runs along: its outward unit normal.
struct Plane {
    glm::dvec3 normal{0.0};
    bool valid = false;
};

// The plane of the face left of primal edge `e`, if it has one and it is not degenerate.
Plane left_plane(const Mesh& m, std::span<const glm::vec3> positions, Edge e) {
    if (!e.left(m).valid()) return {};
    const glm::dvec3 o(positions[e.origin(m).index()]);
    const glm::dvec3 d(positions[e.dest(m).index()]);
    const glm::dvec3 third(positions[e.left_next(m).dest(m).index()]);
    const glm::dvec3 n = glm::cross(d - o, third - o);
    const double length = glm::length(n);
    if (!(length > 0.0) || !std::isfinite(length)) return {};
    return {n / length, true};
}

// `x` moved along its radius onto the plane through `anchor` (a point of the edge), so that a
// ribbon corner lies on the face it is drawn over. Points whose radius meets the plane at a
// grazing angle, or far from where they are, stay put: the plane is no guide there.
glm::dvec3 onto(const Plane& plane, const glm::dvec3& anchor, const glm::dvec3& x) {
    if (!plane.valid) return x;
    const double across = glm::dot(plane.normal, x);
    if (!(std::abs(across) > 0.2 * glm::length(x))) return x;
    const double t = glm::dot(plane.normal, anchor) / across;
    return t > 0.5 && t < 2.0 ? x * t : x;
}

} // namespace

std::array<std::uint64_t, 3> Water_layers::versions() const {
    if (!*this) return {0, 0, 0};
    return {ocean->version(), lake->version(), level->version()};
}

Water_layers water_layers(const World& world) {
    Water_layers w{typed<bool, Layer_type::vertex>(world, ocean_layer_name),
                   typed<std::int32_t, Layer_type::vertex>(world, lake_layer_name),
                   typed<float, Layer_type::vertex>(world, water_level_layer_name)};
    const std::size_t slots = world.mesh().vertex_slots();
    // Layers that do not match the mesh (never in a consistent World) count as missing.
    if (!w || w.ocean->size() != slots || w.lake->size() != slots || w.level->size() != slots)
        return {};
    return w;
}

const Layer<float, Layer_type::edge_primal_directed>* discharge_layer(const World& world) {
    return typed<float, Layer_type::edge_primal_directed>(world, discharge_layer_name);
}

double river_width_fraction(double discharge, double min_discharge) {
    if (!std::isfinite(discharge) || !(discharge >= min_discharge)) return 0.0;
    // A logarithm: discharges span five orders of magnitude, widths only one.
    return std::clamp(0.1 + 0.2 * std::log10(discharge / min_discharge), 0.1, 0.5);
}

void river_ribbons(const Mesh& m, std::span<const glm::vec3> positions,
                   const Layer<float, Layer_type::edge_primal_directed>& discharge,
                   double min_discharge, const Water_layers& water, River_buffers& out) {
    if (positions.size() < m.vertex_slots())
        throw std::invalid_argument("render: " + std::to_string(positions.size()) +
                                    " positions for " + std::to_string(m.vertex_slots()) +
                                    " vertex slots");
    if (discharge.size() != Layer<float, Layer_type::edge_primal_directed>::slot_count(m))
        throw std::invalid_argument("render: the discharge layer does not match the mesh");
    if (!(min_discharge > 0.0) || !std::isfinite(min_discharge))
        throw std::invalid_argument("render: rivers need a positive minimum discharge, not " +
                                    std::to_string(min_discharge));
    out.positions.clear();
    out.normals.clear();
    out.indices.clear();
    out.colours.clear();
    out.edge_of.clear();
    out.discharge.clear();

    auto flow = [&](Edge e) {
        const float q = discharge[e];
        return std::isfinite(q) ? q : 0.f;
    };
    // The rivers: directed edges with enough water, in edge order. Read off the layer's values
    // alone, since a world's rivers are a few edges in a thousand and reading every edge's
    // mesh record cost most of a 10M-vertex scene's river pass (0.3-0.4 s).
    std::vector<Edge> rivers;
    {
        std::uint32_t slot = 0;
        for (std::size_t c = 0; c < discharge.chunk_count(); ++c) {
            const std::span<const float> chunk = discharge.chunk(c);
            for (std::size_t i = 0; i < chunk.size(); ++i)
                if (chunk[i] >= min_discharge && std::isfinite(chunk[i]) &&
                    m.contains(Edge{slot + static_cast<std::uint32_t>(i)}))
                    rivers.push_back(Edge{slot + static_cast<std::uint32_t>(i)});
            slot += static_cast<std::uint32_t>(chunk.size());
        }
    }
    // Ribbons take their ends from the edge the water of a river's end leaves by (the largest,
    // should a hand-made layer have several; of equals the first in edge order) and from the
    // river with the most water coming into its start, so that a river and the main stream it
    // continues meet in the same corners.
    std::unordered_map<std::uint32_t, Edge> main_inflow;
    for (const Edge e : rivers) {
        const auto [entry, added] = main_inflow.try_emplace(e.dest(m).index(), e);
        if (!added && flow(e) > flow(entry->second)) entry->second = e;
    }
    auto leaving = [&](Vertex v) {
        Edge best;
        float most = 0.f;
        for (const Edge e : v.edges(m)) {
            const float q = flow(e);
            if (q > most || (q == most && q > 0.f && e.index() < best.index())) {
                best = e;
                most = q;
            }
        }
        return best;
    };

    auto at = [&](Vertex v) { return glm::dvec3(positions[v.index()]); };
    auto length_of = [&](Edge e) { return glm::length(at(e.dest(m)) - at(e.origin(m))); };
    // The unit vector across edge e to its left, level at its middle.
    auto side_of = [&](Edge e) {
        const glm::dvec3 a = at(e.origin(m)), b = at(e.dest(m));
        return glm::normalize(glm::cross(a + b, b - a));
    };
    // Where the corners of a ribbon end lie from its centre, for the ribbon across `side`
    // meeting the one across `other` (a mitre: both ribbons' edges meet on the bisector), per
    // unit of half width. Past a right angle a mitre would be a long spike or turn the ribbon
    // inside out: such ends stay square.
    auto mitre = [](const glm::dvec3& side, const glm::dvec3& other) {
        if (!(glm::dot(side, other) >= 0.0)) return side;
        const glm::dvec3 bisector = glm::normalize(side + other);
        return bisector / glm::dot(bisector, side);
    };

    for (const Edge e : rivers) {
        const double q = flow(e);
        const Vertex o = e.origin(m), d = e.dest(m);
        if (water && water.wet(o) && water.wet(d)) continue;
        const double length = length_of(e);
        const glm::dvec3 side = side_of(e);
        if (!(length > 0.0) || !std::isfinite(length) || !std::isfinite(side.x)) continue;
        // Upstream: as wide as the main inflow (a source as the narrowest river), on the
        // scale of this edge, which is where the water of `o` leaves.
        const auto inflow = main_inflow.find(o.index());
        const Edge in = inflow == main_inflow.end() ? Edge{} : inflow->second;
        const double q_up = in.valid() ? std::min<double>(flow(in), q) : min_discharge;
        glm::dvec3 across_up = in.valid() ? mitre(side, side_of(in)) : side;
        // Downstream: as wide as this river, on the scale of the edge leaving `d`.
        const Edge next = leaving(d);
        const double next_length = next.valid() ? length_of(next) : 0.0;
        const bool follows = next.valid() && next_length > 0.0 && std::isfinite(next_length);
        const double scale_down = follows ? next_length : length;
        glm::dvec3 across_down = follows ? mitre(side, side_of(next)) : side;
        if (!std::isfinite(across_up.x)) across_up = side;
        if (!std::isfinite(across_down.x)) across_down = side;
        across_up *= 0.5 * length * river_width_fraction(q_up, min_discharge);
        across_down *= 0.5 * scale_down * river_width_fraction(q, min_discharge);

        const Plane left = left_plane(m, positions, e);
        const Plane right = left_plane(m, positions, e.sym());
        const glm::dvec3 p0 = at(o), p1 = at(d);
        const glm::dvec3 corners[river_ribbon_vertices] = {
            onto(left, p0, p0 + across_up),   p0, onto(right, p0, p0 - across_up),
            onto(left, p0, p1 + across_down), p1, onto(right, p0, p1 - across_down)};
        // Lifted by a hundredth of the edge length of each end, like the ribbons it meets.
        const double lifts[2] = {0.01 * length, 0.01 * scale_down};
        const auto first = static_cast<std::uint32_t>(out.positions.size());
        for (std::size_t i = 0; i < river_ribbon_vertices; ++i) {
            const glm::dvec3 up = glm::normalize(corners[i]);
            out.positions.emplace_back(corners[i] + up * lifts[i / 3]);
            // Level water: lit like the sphere, the same at every joint.
            out.normals.emplace_back(up);
            out.colours.push_back(river_colour);
        }
        // Corners 0-2 cross the upstream end left to right, 3-5 the downstream end.
        for (const std::uint32_t i : {2u, 5u, 4u, 2u, 4u, 1u, 1u, 4u, 3u, 1u, 3u, 0u})
            out.indices.push_back(first + i);
        out.edge_of.push_back(e);
        out.discharge.push_back(static_cast<float>(q));
    }
}

} // namespace orbis::render
