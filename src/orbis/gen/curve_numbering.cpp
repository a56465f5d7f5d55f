// SPDX-License-Identifier: MIT
#include "orbis/gen/curve_numbering.hpp"

#include "orbis/core/sphere_curve.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/spatial_order.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace orbis::gen {

Spatial_order curve_order(std::span<const glm::vec3> points) {
    const std::vector<std::uint8_t> live(points.size(), 1);
    return spatial_order(points, live);
}

void number_along_curve(std::vector<glm::vec3>& points, Sphere_triangulation& triangulation) {
    number_along_curve(points, triangulation, curve_order(points));
}

void number_along_curve(std::vector<glm::vec3>& points, Sphere_triangulation& triangulation,
                        const Spatial_order& order) {
    const auto point_count = static_cast<std::uint32_t>(points.size());

    std::vector<glm::vec3> renamed(points.size());
    parallel_ranges(point_count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t id = begin; id < end; ++id)
            renamed[id] = points[order.slot_of[id]];
    });
    points = std::move(renamed);

    // Quad-edges are numbered after their lower end and faces in triangle order when the mesh
    // is built, so triangles sorted by their lowest corner put both along the curve too.
    auto& triangles = triangulation.triangles;
    const auto triangle_count = static_cast<std::uint32_t>(triangles.size());
    std::vector<std::uint32_t> lowest(triangle_count);
    parallel_ranges(triangle_count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t t = begin; t < end; ++t) {
            auto& corners = triangles[t];
            for (auto& c : corners)
                c = order.id_of[c];
            lowest[t] = std::min({corners[0], corners[1], corners[2]});
        }
    });
    const std::vector<std::uint32_t> old_of = order_by_key(lowest, point_count);
    std::vector<std::uint32_t>& new_of = lowest; // reused: each old triangle's new number
    parallel_ranges(triangle_count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t t = begin; t < end; ++t)
            new_of[old_of[t]] = t;
    });
    std::vector<std::array<std::uint32_t, 3>> sorted(triangle_count);
    std::vector<std::uint32_t> opposite(triangulation.opposite.size());
    parallel_ranges(triangle_count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t t = begin; t < end; ++t) {
            const std::uint32_t old = old_of[t];
            sorted[t] = triangles[old];
            for (std::uint32_t i = 0; i < 3; ++i) {
                const std::uint32_t twin = triangulation.opposite[3 * std::size_t(old) + i];
                opposite[3 * std::size_t(t) + i] = 3 * new_of[twin / 3] + twin % 3;
            }
        }
    });
    triangles = std::move(sorted);
    triangulation.opposite = std::move(opposite);
}

} // namespace orbis::gen
