// SPDX-License-Identifier: MIT
// The World the World and file benchmarks share: a Fibonacci sphere (perturbation 0.5) with
// its position layer and four float vertex layers, built once per size.
#pragma once

#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include <cstdint>
#include <map>
#include <memory>

namespace orbis::bench {

/// The four float layers, with a mix of interpolation and mesh-change modes.
inline constexpr auto height_layer =
    Layer_info<float, Layer_type::vertex>("height").interpolation(Interpolation::lerp);
/// See height_layer.
inline constexpr auto rain_layer =
    Layer_info<float, Layer_type::vertex>("rain").interpolation(Interpolation::lerp);
/// See height_layer.
inline constexpr auto heat_layer = Layer_info<float, Layer_type::vertex>("heat")
                                       .interpolation(Interpolation::max_value)
                                       .on_mesh_change(On_mesh_change::reset_affected);
/// See height_layer.
inline constexpr auto age_layer =
    Layer_info<float, Layer_type::vertex>("age").interpolation(Interpolation::min_weight);

/// The benchmark world of `vertices` vertices (cached; never write to it, copy it first).
inline const World& benchmark_world(std::uint32_t vertices) {
    static std::map<std::uint32_t, std::unique_ptr<World>> cache;
    auto& slot = cache[vertices];
    if (!slot) {
        slot = std::make_unique<World>(
            gen::make_sphere_world({.count = vertices, .perturbation = 0.5, .seed = 1}));
        auto [h, r, t, a] = slot->lock_layer(height_layer, rain_layer, heat_layer, age_layer);
        for (const Vertex v : slot->mesh().vertices()) {
            const float x = static_cast<float>(v.index());
            h[v] = x;
            r[v] = 0.5f * x;
            t[v] = -x;
            a[v] = x * 1e-3f;
        }
    }
    return *slot;
}

} // namespace orbis::bench
