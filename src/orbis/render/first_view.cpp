// SPDX-License-Identifier: MIT
#include "orbis/render/first_view.hpp"

#include <glm/geometric.hpp>

#include <cmath>
#include <numbers>
#include <vector>

namespace orbis::render {

std::optional<glm::dvec3> land_facing_direction(const World& world) {
    const auto* ocean = world.layer(Layer_info<bool, Layer_type::vertex>("ocean"));
    const auto* elevation = world.layer(Layer_info<float, Layer_type::vertex>("elevation"));
    const auto* position = world.layer(position_layer);
    if ((!ocean && !elevation) || !position) return std::nullopt;
    const Mesh& m = world.mesh();
    const std::size_t stride = std::max<std::size_t>(1, m.vertex_count() / 20000);
    std::vector<glm::dvec3> land;
    std::size_t i = 0;
    for (const Vertex v : m.vertices()) {
        if (i++ % stride != 0) continue;
        const bool dry = ocean ? !(*ocean)[v] : (*elevation)[v] > 0.f;
        const glm::dvec3 p((*position)[v]);
        if (dry && glm::length(p) > 0) land.push_back(glm::normalize(p));
    }
    if (land.empty()) return std::nullopt;
    // Candidates on a Fibonacci sphere: even enough that the best is within ~10° of the ideal.
    constexpr int candidates = 162;
    const double cap = std::cos(50.0 * std::numbers::pi / 180.0);
    const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
    glm::dvec3 best(0, 0, 1);
    std::size_t best_count = 0;
    for (int k = 0; k < candidates; ++k) {
        const double z = 1.0 - (2.0 * k + 1.0) / candidates;
        const double r = std::sqrt(1.0 - z * z);
        const glm::dvec3 d(r * std::cos(golden * k), r * std::sin(golden * k), z);
        std::size_t count = 0;
        for (const glm::dvec3& p : land)
            count += glm::dot(p, d) > cap;
        if (count > best_count) {
            best_count = count;
            best = d;
        }
    }
    return best;
}

} // namespace orbis::render
