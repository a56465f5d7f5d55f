// SPDX-License-Identifier: MIT
// Tests that Buffer_cache rebuilds exactly the parts whose inputs changed.
#include "orbis/render/buffer_cache.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace orbis::render {
namespace {

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr auto other = Layer_info<float, Layer_type::vertex>("other");

World sphere() {
    World w =
        gen::make_sphere_world({.count = 400, .radius = 1.f, .perturbation = 0.5f, .seed = 3});
    auto [h, o] = w.lock_layer(height, other);
    for (const Vertex v : w.mesh().vertices()) {
        h[v] = static_cast<float>(v.index());
        o[v] = 1.f;
    }
    return w;
}

// A flippable interior edge.
Edge flippable(const World& w) {
    for (const Edge e : w.mesh().edges())
        if (!w.mesh().check_flip(e)) return e;
    return no_edge;
}

TEST(BufferCache, RepeatedCallsRebuildNothing) {
    const World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    EXPECT_EQ(cache.last_rebuilds().triangles, 1);
    EXPECT_EQ(cache.last_rebuilds().layer_colours, 1);
    EXPECT_EQ(cache.last_rebuilds().buffer_colours, 1);
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
    (void)cache.voronoi_cells(w);
    (void)cache.voronoi_cells(w);
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
    // A snapshot has the same versions: nothing to rebuild.
    const World snapshot = w;
    (void)cache.triangle_colours(snapshot, Shading::smooth, "height");
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
}

TEST(BufferCache, LayerWriteRebuildsOnlyColours) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::flat, "height");
    (void)cache.voronoi_colours(w, "height");
    {
        auto [h] = w.lock_layer(height);
        h[Vertex{0}] = 1000.f;
    }
    (void)cache.triangle_colours(w, Shading::flat, "height");
    EXPECT_EQ(cache.last_rebuilds().geometry(), 0);
    EXPECT_EQ(cache.last_rebuilds().positions, 0);
    EXPECT_EQ(cache.last_rebuilds().layer_colours, 1);
    EXPECT_EQ(cache.last_rebuilds().buffer_colours, 1);
    // Writing another layer changes nothing shown.
    {
        auto [o] = w.lock_layer(other);
        o[Vertex{0}] = 2.f;
    }
    (void)cache.voronoi_colours(w, "height");
    EXPECT_EQ(cache.last_rebuilds().geometry(), 0);
    EXPECT_EQ(cache.last_rebuilds().layer_colours, 1); // the Voronoi part had not seen the write
    (void)cache.voronoi_colours(w, "height");
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
    // Other display options rebuild the colours only.
    (void)cache.voronoi_colours(
        w, "height", {.map = Colour_map_kind::terrain, .range = std::nullopt, .sea_level = 0.0});
    EXPECT_EQ(cache.last_rebuilds().geometry(), 0);
    EXPECT_EQ(cache.last_rebuilds().layer_colours, 1);
    // Showing another layer, too.
    (void)cache.voronoi_colours(w, "other");
    EXPECT_EQ(cache.last_rebuilds().geometry(), 0);
    EXPECT_EQ(cache.last_rebuilds().buffer_colours, 1);
}

TEST(BufferCache, PositionWriteRebuildsOnlyGeometry) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    {
        auto [p] = w.lock_layer(position_layer);
        p[Vertex{5}] *= 1.1f;
    }
    const Triangle_buffers& t = cache.triangles(w, Shading::smooth);
    EXPECT_EQ(cache.last_rebuilds().triangles, 1);
    EXPECT_EQ(cache.last_rebuilds().positions, 1);
    // Shared vertices are the vertex slots: vertex 5 is output 5.
    ASSERT_GT(t.positions.size(), 5u);
    EXPECT_EQ(t.positions[5], w.layer(position_layer)->operator[](Vertex{5}));
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
}

TEST(BufferCache, FlipRebuildsGeometryAndColours) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::flat, "height");
    (void)cache.dual_edges(w);
    const Edge e = flippable(w);
    ASSERT_TRUE(e.valid());
    w.lock_mesh().flip(e);
    const auto& colours = cache.triangle_colours(w, Shading::flat, "height");
    EXPECT_EQ(cache.last_rebuilds().triangles, 1);
    EXPECT_EQ(cache.last_rebuilds().layer_colours, 1);
    EXPECT_EQ(cache.last_rebuilds().buffer_colours, 1);
    // The result equals a build from scratch.
    const Triangle_buffers fresh = triangles(w.mesh(), vertex_positions(w), Shading::flat);
    EXPECT_EQ(cache.triangles(w, Shading::flat).face_of, fresh.face_of);
    EXPECT_EQ(cache.triangles(w, Shading::flat).positions, fresh.positions);
    EXPECT_EQ(colours, colours_on(fresh, colours_for_vertices(w, "height")));
    (void)cache.dual_edges(w);
    EXPECT_EQ(cache.last_rebuilds().dual_edges, 1);
    EXPECT_EQ(cache.total_rebuilds().dual_edges, 2);
}

TEST(BufferCache, ShadingsAreCachedSeparately) {
    const World w = sphere();
    Buffer_cache cache;
    (void)cache.triangles(w, Shading::flat);
    (void)cache.triangles(w, Shading::smooth);
    EXPECT_EQ(cache.last_rebuilds().triangles, 1);
    EXPECT_EQ(cache.last_rebuilds().positions, 0); // shared with the flat build
    (void)cache.triangles(w, Shading::flat);
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
    EXPECT_EQ(cache.total_rebuilds().triangles, 2);
    cache.clear();
    EXPECT_EQ(cache.total_rebuilds().total(), 0);
}

TEST(BufferCache, RefusesMissingLayers) {
    const World w = sphere();
    Buffer_cache cache;
    EXPECT_THROW((void)cache.voronoi_colours(w, "nope"), std::invalid_argument);
    EXPECT_THROW((void)cache.triangles(World{}, Shading::flat), std::invalid_argument);
}

} // namespace
} // namespace orbis::render
