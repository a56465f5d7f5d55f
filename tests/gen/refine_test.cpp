// SPDX-License-Identifier: MIT
// The refine module: finer where the layer is in the band, coarser elsewhere, and afterwards a
// valid Delaunay mesh whose layers were interpolated as their infos say.
#include <orbis/gen/delaunay_module.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/sphere.hpp>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace {

using namespace orbis;
using namespace orbis::gen;

constexpr float radius = 6371.f;
constexpr auto x_layer =
    Layer_info<float, Layer_type::vertex>("x").interpolation(Interpolation::lerp);
constexpr auto cap_layer =
    Layer_info<std::int32_t, Layer_type::vertex>("cap").interpolation(Interpolation::max_weight);

// A planet whose land is the cap y > 0.3 R, with a layer holding each vertex's x / R and one
// saying whether the vertex started in the cap.
World capped_world(std::uint32_t count) {
    World world =
        make_sphere_world({.count = count, .radius = radius, .perturbation = 0.5f, .seed = 3});
    auto [elevation, x, cap] = world.lock_layer(elevation_layer, x_layer, cap_layer);
    const auto& position = *world.layer(position_layer);
    for (const Vertex v : world.mesh().vertices()) {
        const glm::vec3 p = position[v];
        elevation[v] = p.y > 0.3f * radius ? 500.f : -3000.f;
        x[v] = p.x / radius;
        cap[v] = p.y > 0.3f * radius;
    }
    return world;
}

std::vector<glm::vec3> positions_of(const World& world) {
    const auto* layer = world.layer(position_layer);
    return {layer->begin(), layer->end()};
}

double mean_edge_km(const World& world, bool in_cap) {
    const Mesh& m = world.mesh();
    const auto p = positions_of(world);
    double sum = 0;
    std::size_t n = 0;
    for (const Edge e : m.edges()) {
        const glm::vec3 a = p[e.origin(m).index()], b = p[e.dest(m).index()];
        const bool cap = a.y > 0.35f * radius && b.y > 0.35f * radius;
        const bool ocean = a.y < 0.2f * radius && b.y < 0.2f * radius;
        if ((in_cap && !cap) || (!in_cap && !ocean)) continue;
        sum += glm::distance(a, b);
        ++n;
    }
    return sum / double(n);
}

Dict refine_params(double split, double collapse) {
    Dict params;
    params.set("band_min", 0.0);
    params.set("band_max", 9000.0);
    params.set("split_length", split);
    params.set("collapse_length", collapse);
    return params;
}

TEST(Refine, FinerInTheBandCoarserElsewhereAndStillDelaunay) {
    World world = capped_world(20000);
    const double land_before = mean_edge_km(world, true);
    const double ocean_before = mean_edge_km(world, false);
    const Dict report = run_module(world, Refine_module{}, refine_params(100, 250));
    EXPECT_GT(report.at("splits").as<std::int64_t>(), 1000);
    EXPECT_GT(report.at("collapses").as<std::int64_t>(), 1000);

    const Mesh& m = world.mesh();
    ASSERT_EQ(m.validate(), std::nullopt);
    EXPECT_EQ(long(m.vertex_count()) - long(m.edge_count()) + long(m.face_count()), 2);
    const auto p = positions_of(world);
    EXPECT_EQ(count_non_delaunay_edges(m, p), 0u);
    EXPECT_EQ(count_folded_faces(m, p), 0u);
    EXPECT_LT(mean_edge_km(world, true), 0.75 * land_before);
    EXPECT_GT(mean_edge_km(world, false), 1.05 * ocean_before);
}

TEST(Refine, LayersFollowTheirInterpolation) {
    World world = capped_world(20000);
    run_module(world, Refine_module{}, refine_params(100, 250));
    const Mesh& m = world.mesh();
    const auto& position = *world.layer(position_layer);
    const auto& x = *world.layer(x_layer);
    const auto& cap = *world.layer(cap_layer);
    const auto& elevation = *world.layer(elevation_layer);
    for (const Vertex v : m.vertices()) {
        const glm::vec3 pv = position[v];
        // slerp keeps vertices on the sphere; lerp of x stays within a chord's sag of the arc.
        ASSERT_NEAR(glm::length(pv), radius, 1e-3f * radius) << v;
        ASSERT_NEAR(x[v], pv.x / radius, 2e-3f) << v;
        // max_weight copies one side's value: only 0 and 1 exist.
        ASSERT_TRUE(cap[v] == 0 || cap[v] == 1) << v;
        ASSERT_TRUE(elevation[v] <= 500.f && elevation[v] >= -3000.f) << v;
    }
}

TEST(Refine, IsDeterministicAndStopsAtMaxVertices) {
    World a = capped_world(5000), b = capped_world(5000);
    run_module(a, Refine_module{}, refine_params(100, 250));
    run_module(b, Refine_module{}, refine_params(100, 250));
    EXPECT_TRUE(a == b);

    World c = capped_world(5000);
    Dict params = refine_params(100, 0);
    params.set("max_vertices", std::int64_t(5500));
    const Dict report = run_module(c, Refine_module{}, params);
    EXPECT_EQ(c.mesh().vertex_count(), 5500u);
    EXPECT_EQ(report.at("collapses"), Dict_value(std::int64_t(0)));
}

TEST(Refine, RefusesMissingLayers) {
    World world = make_sphere_world({.count = 100});
    try {
        run_module(world, Refine_module{}, {});
        FAIL() << "accepted";
    } catch (const std::runtime_error& e) {
        // Refused from the module's declared reads, before it runs.
        EXPECT_STREQ(e.what(), "module 'refine' reads layer 'elevation' (float, vertex), which "
                               "the World does not have");
    }
    World none;
    EXPECT_THROW(run_module(none, Refine_module{}, {}), std::runtime_error);
}

} // namespace
