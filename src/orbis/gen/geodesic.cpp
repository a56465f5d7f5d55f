// SPDX-License-Identifier: MIT
#include "orbis/gen/geodesic.hpp"

#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace orbis::gen {

namespace {

// The angle between a and b times radius; atan2 of |a x b| and a . b does not need a and b
// normalised, since both scale by |a| |b|; 0 when either is the origin (atan2(0, 0) is 0).
double arc_length(const glm::dvec3& a, const glm::dvec3& b, double radius) {
    return radius * std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

// Shortest distances over positive edge lengths with the vertices filed in buckets of width
// `width` by distance instead of kept in a heap (Dial's queue, relaxed as in delta-stepping):
// buckets are taken in increasing order, and a bucket is emptied before the next, so an entry
// is the vertex's final distance unless an edge shorter than `width` improves it within the
// bucket, in which case the vertex is filed again and relaxes its neighbours again. Every
// distance is the least of its candidates d(u) + |uv| over the neighbours u, each candidate
// computed from u's final distance at some point, so the result is that of Dijkstra's
// algorithm to the last bit, in whatever order entries come. An entry is (distance, vertex);
// one whose distance is no longer the vertex's is stale and skipped. `position(v)` gives the
// position of slot v, `neighbours(v, f)` calls f with each neighbour slot of v.
template <class Position, class Neighbours>
std::vector<double> dijkstra(std::uint32_t slots, const Position& position,
                             const Neighbours& neighbours, double radius,
                             std::span<const std::uint32_t> sources, double max_distance) {
    // Negative lengths would file vertices before the bucket being emptied.
    if (!(radius >= 0))
        throw std::invalid_argument("geodesic distances need a radius of 0 or more, not " +
                                    std::to_string(radius));
    constexpr double unreached = std::numeric_limits<double>::infinity();
    std::vector<double> distance(slots, unreached);
    if (sources.empty()) return distance;
    // The width: half the mean length of the sources' first edges, a typical spacing here. Any
    // positive width gives the same result; this one keeps re-filing rare and buckets few.
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < sources.size() && count < 64; i += 1 + sources.size() / 64) {
        const std::uint32_t s = sources[i];
        const glm::dvec3 p(position(s));
        neighbours(s, [&](std::uint32_t k) {
            if (count >= 64) return;
            sum += arc_length(p, glm::dvec3(position(k)), radius);
            ++count;
        });
    }
    // At most about 65,536 buckets over the farthest reach, whatever the sources' edges.
    const double reach = std::min(max_distance, std::numbers::pi * radius);
    const double least = reach > 0 && std::isfinite(reach) ? reach / 65536 : 0;
    const double mean = count > 0 ? sum / double(count) : 0;
    double width = std::max(mean > 0 && std::isfinite(mean) ? 0.5 * mean : least, least);
    if (!(width > 0)) width = 1; // radius 0 or no reach: every distance found is 0
    using Entry = std::pair<double, std::uint32_t>;
    std::vector<std::vector<Entry>> buckets(1);
    const auto file = [&](double d, std::uint32_t v) {
        const std::size_t b = static_cast<std::size_t>(d / width);
        if (b >= buckets.size()) buckets.resize(b + 1);
        buckets[b].emplace_back(d, v);
    };
    for (const std::uint32_t s : sources) {
        if (distance[s] == 0) continue;
        distance[s] = 0;
        file(0.0, s);
    }
    std::vector<Entry> taking;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
        while (!buckets[b].empty()) {
            taking.clear();
            taking.swap(buckets[b]);
            for (const auto& [d, v] : taking) {
                if (d != distance[v]) continue; // stale: v was reached by a shorter path since
                const glm::dvec3 p(position(v));
                neighbours(v, [&](std::uint32_t k) {
                    if (distance[k] <= d) return; // no path through v beats it
                    const double through = d + arc_length(p, glm::dvec3(position(k)), radius);
                    if (through < distance[k] && through <= max_distance) {
                        distance[k] = through;
                        file(through, k);
                    }
                });
            }
        }
        std::vector<Entry>().swap(buckets[b]);
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
