// SPDX-License-Identifier: MIT
#include "ui/world_preview.hpp"

#include "orbis/core/face_soup.hpp"
#include "orbis/gen/sphere_delaunay.hpp"
#include "orbis/io/world_file.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace orbis::ui {

namespace {

// Writes `values` into the vertex layer `info` of `world`, slot by slot.
template <class T, class Source>
void fill_layer(World& world, const Layer_info<T, Layer_type::vertex>& info, const Source& values) {
    auto [lock] = world.lock_layer(info);
    std::size_t done = 0;
    for (std::size_t c = 0; c < lock->chunk_count(); ++c)
        for (T& v : lock.chunk(c))
            v = static_cast<T>(values[done++]);
}

} // namespace

std::optional<World> preview_world(const std::filesystem::path& path, std::size_t max_points,
                                   std::string_view layer) {
    try {
        std::optional<io::World_preview> sample = io::read_world_preview(path, max_points, layer);
        if (!sample) return std::nullopt;
        // Only points that can be drawn, and only a world that is a sphere: the triangulation
        // below connects directions, which draws any other shape as a ball.
        std::vector<glm::vec3> points;
        std::vector<double> values;
        std::vector<float> radii;
        const bool with_values = sample->values.size() == sample->positions.size();
        for (std::size_t i = 0; i < sample->positions.size(); ++i) {
            const glm::vec3 p = sample->positions[i];
            const float r = glm::length(p);
            if (!std::isfinite(r) || r <= 0.0f) continue;
            points.push_back(p);
            radii.push_back(r);
            if (with_values) values.push_back(sample->values[i]);
        }
        if (points.size() < 4) return std::nullopt;
        std::nth_element(radii.begin(), radii.begin() + radii.size() / 2, radii.end());
        const float median = radii[radii.size() / 2];
        for (const glm::vec3& p : points)
            if (std::abs(glm::length(p) - median) > 0.1f * median) return std::nullopt;

        const gen::Sphere_triangulation t = gen::delaunay_on_sphere(points);
        World world;
        world.lock_mesh().assign(build_from_closed_triangulation(
            static_cast<std::uint32_t>(points.size()), t.triangles, t.opposite));
        fill_layer(world, position_layer, points);
        if (with_values) {
            const std::string name(layer);
            if (sample->integer_values)
                fill_layer(world, Layer_info<std::int32_t, Layer_type::vertex>(name), values);
            else
                fill_layer(world, Layer_info<float, Layer_type::vertex>(name), values);
        }
        for (auto& [name, hints] : sample->hints)
            world.set_hints(name, std::move(hints));
        return world;
    } catch (const std::exception&) {
        return std::nullopt; // duplicates, all points on one circle, out of memory: no preview
    }
}

} // namespace orbis::ui
