// SPDX-License-Identifier: MIT
#include "orbis/gen/geodesic.hpp"

#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>

namespace orbis::gen {

namespace {

// The angle between a and b times radius; atan2 of |a x b| and a . b does not need a and b
// normalised, since both scale by |a| |b|; 0 when either is the origin (atan2(0, 0) is 0).
double arc_length(const glm::dvec3& a, const glm::dvec3& b, double radius) {
    return radius * std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

// Dijkstra with a binary heap and lazy deletion: a vertex may sit in the heap several times,
// only the entry that matches its distance counts. `position(v)` gives the position of slot v,
// `neighbours(v, f)` calls f with each neighbour slot of v. Each distance is the least of its
// candidates whatever order they come in, so the result does not depend on the neighbours'.
template <class Position, class Neighbours>
std::vector<double> dijkstra(std::uint32_t slots, const Position& position,
                             const Neighbours& neighbours, double radius,
                             std::span<const std::uint32_t> sources, double max_distance) {
    constexpr double unreached = std::numeric_limits<double>::infinity();
    std::vector<double> distance(slots, unreached);
    using Entry = std::pair<double, std::uint32_t>;
    std::vector<Entry> storage;
    storage.reserve(4 * sources.size() + 16);
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap(std::greater<>{},
                                                                        std::move(storage));
    for (const std::uint32_t s : sources) {
        if (distance[s] == 0) continue;
        distance[s] = 0;
        heap.emplace(0.0, s);
    }
    while (!heap.empty()) {
        const auto [d, v] = heap.top();
        heap.pop();
        if (d > distance[v]) continue; // a stale entry: v was reached by a shorter path since
        const glm::dvec3 p(position(v));
        neighbours(v, [&](std::uint32_t k) {
            // A vertex already settled has distance <= d, which no path through v beats.
            if (distance[k] <= d) return;
            const double through = d + arc_length(p, glm::dvec3(position(k)), radius);
            if (through < distance[k] && through <= max_distance) {
                distance[k] = through;
                heap.emplace(through, k);
            }
        });
    }
    return distance;
}

// Walks the ring of slot v in `m`.
auto ring_of(const Mesh& m) {
    return [&m](std::uint32_t v, const auto& f) {
        for (const Vertex n : Vertex{v}.neighbors(m))
            f(n.index());
    };
}

} // namespace

double geodesic_distance(glm::dvec3 a, glm::dvec3 b, double radius) {
    const double la = glm::length(a), lb = glm::length(b);
    if (la == 0 || lb == 0) return 0;
    a /= la;
    b /= lb;
    return radius * std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

std::vector<double> geodesic_distances_from(const Mesh& m, std::span<const glm::vec3> positions,
                                            double radius, std::span<const std::uint32_t> sources,
                                            double max_distance) {
    return dijkstra(
        m.vertex_slots(), [&](std::uint32_t v) { return positions[v]; }, ring_of(m), radius,
        sources, max_distance);
}

std::vector<double> geodesic_distances_from(const Vertex_adjacency& adjacency,
                                            std::span<const glm::vec3> positions, double radius,
                                            std::span<const std::uint32_t> sources,
                                            double max_distance) {
    return dijkstra(
        adjacency.slots(), [&](std::uint32_t v) { return positions[v]; },
        [&](std::uint32_t v, const auto& f) {
            for (const std::uint32_t k : adjacency.neighbours(v))
                f(k);
        },
        radius, sources, max_distance);
}

std::vector<double> geodesic_distances_from(const World& world, double radius,
                                            std::span<const std::uint32_t> sources,
                                            double max_distance) {
    const auto* position = world.layer(position_layer);
    if (!position) throw std::runtime_error("geodesic_distances_from needs the 'position' layer");
    return dijkstra(
        world.mesh().vertex_slots(), [&](std::uint32_t v) { return (*position)[Vertex{v}]; },
        ring_of(world.mesh()), radius, sources, max_distance);
}

} // namespace orbis::gen
