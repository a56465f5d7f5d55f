// SPDX-License-Identifier: MIT
// Tests of the tectonic overlays: one segment per plate boundary edge in its kind's colour and
// none elsewhere; velocity arrows tangent, along the motion, as long as the motion in the
// stated time, bounded in number on a large mesh; both rebuilt when their layers change.
#include "orbis/render/tectonic_overlays.hpp"

#include "orbis/core/colour_map.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/tectonics_module.hpp"
#include "orbis/render/buffer_cache.hpp"
#include "orbis/render/scene.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <map>
#include <set>

namespace orbis::render {
namespace {

constexpr float earth_km = 6371.f;

World sphere(std::uint32_t count) {
    return gen::make_sphere_world(
        {.count = count, .radius = earth_km, .perturbation = 0.5f, .seed = 11});
}

// Kinds by edge slot: every kind including joined (0), so that the test sees each one.
std::int32_t kind_for(Edge e) { return std::int32_t(e.index() / 2 % 6); }

World boundary_world(bool hints) {
    World w = sphere(3000);
    {
        auto [kinds] = w.lock_layer(gen::plate_boundary_layer);
        for (const Edge e : w.mesh().edges())
            kinds[e] = kind_for(e);
    }
    if (hints) w.set_hints(gen::plate_boundary_layer.name(), gen::plate_boundary_hints());
    return w;
}

// Plates turning about the z axis at `omega` radians per million years: km per My.
World velocity_world(std::uint32_t count, double omega) {
    World w = sphere(count);
    const auto& p = *w.layer(position_layer);
    auto [velocity] = w.lock_layer(gen::velocity_layer);
    for (const Vertex v : w.mesh().vertices())
        velocity[v] = glm::vec3(omega * glm::cross(glm::dvec3(0, 0, 1), glm::dvec3(p[v])));
    return w;
}

TEST(Plate_boundary_lines, OneSegmentPerBoundaryEdgeInItsKindsColour) {
    const World w = boundary_world(true);
    const Mesh& m = w.mesh();
    const auto& positions = vertex_positions(w);
    const auto* kinds = plate_boundary_layer(w);
    ASSERT_NE(kinds, nullptr);
    const Layer_hints hints = gen::plate_boundary_hints();
    Boundary_lines out;
    plate_boundary_lines(m, positions, *kinds, w.hints("plate_boundary"), out);

    std::set<std::uint32_t> expected;
    for (const Edge e : m.edges())
        if (kind_for(e) != 0) expected.insert(e.index());
    ASSERT_EQ(out.edge_of.size(), expected.size());
    ASSERT_EQ(out.positions.size(), 2 * expected.size());
    ASSERT_EQ(out.colours.size(), out.positions.size());
    ASSERT_EQ(out.kind_of.size(), expected.size());
    std::set<std::uint32_t> drawn;
    for (std::size_t s = 0; s < out.edge_of.size(); ++s) {
        const Edge e = out.edge_of[s];
        EXPECT_TRUE(drawn.insert(e.index()).second) << "one segment per edge";
        EXPECT_NE(kind_for(e), 0) << "nothing for joined edges";
        EXPECT_EQ(out.kind_of[s], kind_for(e));
        EXPECT_EQ(out.positions[2 * s], positions[e.origin(m).index()]);
        EXPECT_EQ(out.positions[2 * s + 1], positions[e.dest(m).index()]);
        const Layer_category* c = hints.category(kind_for(e));
        ASSERT_NE(c, nullptr);
        EXPECT_EQ(out.colours[2 * s], Colour(c->colour, 255));
        EXPECT_EQ(out.colours[2 * s + 1], Colour(c->colour, 255));
    }
    EXPECT_EQ(drawn, expected);
    // The key: every kind drawn, ascending, with the hints' names.
    ASSERT_EQ(out.kinds.size(), 5u);
    for (std::size_t i = 0; i < out.kinds.size(); ++i)
        EXPECT_EQ(out.kinds[i], *hints.category(std::int64_t(i + 1)));
    // The four kinds the issue names have four different colours.
    std::set<std::tuple<int, int, int>> colours;
    for (const auto kind : {gen::Plate_boundary::ridge, gen::Plate_boundary::subducting_origin,
                            gen::Plate_boundary::transform, gen::Plate_boundary::collision}) {
        const auto c = hints.category(std::int64_t(kind))->colour;
        colours.insert({c.r, c.g, c.b});
    }
    EXPECT_EQ(colours.size(), 4u);
}

TEST(Plate_boundary_lines, WithoutHintsKindsTakeTheirCategoricalColour) {
    const World w = boundary_world(false);
    Boundary_lines out;
    plate_boundary_lines(w.mesh(), vertex_positions(w), *plate_boundary_layer(w), nullptr, out);
    ASSERT_FALSE(out.edge_of.empty());
    for (std::size_t s = 0; s < out.edge_of.size(); ++s)
        EXPECT_EQ(out.colours[2 * s], Colour(categorical(out.kind_of[s]), 255));
    EXPECT_EQ(out.kinds.front().name, "kind 1");
}

TEST(Plate_boundary_lines, RefusesLayersThatDoNotFit) {
    World w = boundary_world(true);
    Boundary_lines out;
    const std::vector<glm::vec3> few(3);
    EXPECT_THROW(plate_boundary_lines(w.mesh(), few, *plate_boundary_layer(w), nullptr, out),
                 std::invalid_argument);
    // A layer of that name but another kind counts as missing.
    World other = sphere(200);
    {
        auto [wrong] =
            other.lock_layer(Layer_info<float, Layer_type::edge_primal>("plate_boundary"));
    }
    EXPECT_EQ(plate_boundary_layer(other), nullptr);
    Buffer_cache cache;
    EXPECT_THROW(cache.plate_boundaries(other), std::invalid_argument);
}

TEST(Step_at_or_below, OneTwoFive) {
    EXPECT_EQ(step_at_or_below(7.0), 5.0);
    EXPECT_EQ(step_at_or_below(1.0), 1.0);
    EXPECT_EQ(step_at_or_below(19.9), 10.0);
    EXPECT_EQ(step_at_or_below(20.0), 20.0);
    EXPECT_DOUBLE_EQ(step_at_or_below(0.3), 0.2);
    EXPECT_EQ(step_at_or_below(0.0), 0.0);
    EXPECT_EQ(step_at_or_below(-3.0), 0.0);
    EXPECT_EQ(step_at_or_below(INFINITY), 0.0);
}

TEST(Velocity_arrows, TangentAlongTheMotionAndAsLongAsTheMotionInTheStatedTime) {
    const double omega = 0.01; // rad/My: up to 64 km/My at the equator
    const World w = velocity_world(20000, omega);
    const Mesh& m = w.mesh();
    const auto& positions = vertex_positions(w);
    const auto& velocity = *velocity_layer(w);
    Velocity_arrows out;
    velocity_arrows(m, positions, velocity, default_max_velocity_arrows, out);

    EXPECT_NEAR(out.fastest, omega * earth_km, 0.01 * omega * earth_km);
    ASSERT_GT(out.million_years, 0.0);
    // The fastest arrow spans at most the spacing of ~1,500 arrows, the step below.
    const double spacing = earth_km * std::sqrt(4.0 * 3.14159265 / 1536.0);
    EXPECT_LE(out.fastest * out.million_years, spacing * 1.001);
    EXPECT_GT(out.fastest * out.million_years, spacing / 2.5 * 0.999);

    const std::size_t n = out.vertex_of.size();
    ASSERT_GT(n, 1000u);
    ASSERT_EQ(out.positions.size(), n * velocity_arrow_positions);
    ASSERT_EQ(out.colours.size(), out.positions.size());
    for (std::size_t a = 0; a < n; ++a) {
        const Vertex v = out.vertex_of[a];
        const glm::dvec3 p(positions[v.index()]);
        const glm::dvec3 up = glm::normalize(p);
        const glm::dvec3 vel(velocity[v]);
        glm::dvec3 ends[velocity_arrow_positions];
        for (std::size_t i = 0; i < velocity_arrow_positions; ++i)
            ends[i] = glm::dvec3(out.positions[a * velocity_arrow_positions + i]);
        const glm::dvec3 tail = ends[0], tip = ends[1];
        // Lifted above its vertex, slightly.
        EXPECT_NEAR(glm::length(tail - p), 0.001 * glm::length(p), 0.01);
        EXPECT_GT(glm::length(tail), glm::length(p));
        const glm::dvec3 shaft = tip - tail;
        const double length = glm::length(shaft);
        // Tangent, along the velocity, as long as the motion in million_years.
        EXPECT_LT(std::abs(glm::dot(shaft, up)), 1e-3 * length);
        EXPECT_GT(glm::dot(shaft / length, glm::normalize(vel)), 0.9999);
        EXPECT_NEAR(length, glm::length(vel) * out.million_years, 1e-3 * length + 1e-3);
        // Two head strokes from the tip, backwards, on either side of the shaft.
        const glm::dvec3 side = glm::cross(up, shaft / length);
        double sides[2];
        for (int h = 0; h < 2; ++h) {
            EXPECT_EQ(ends[2 + 2 * h], tip);
            const glm::dvec3 stroke = ends[3 + 2 * h] - tip;
            // A quarter of the arrow, at least a fifth of the spacing, at most half the arrow.
            const double head = std::min(std::max(0.25 * length, 0.2 * spacing), 0.5 * length);
            EXPECT_NEAR(glm::length(stroke), head, 0.01 * length + 1e-3);
            EXPECT_GT(glm::dot(-stroke / glm::length(stroke), shaft / length), 0.89);
            EXPECT_LT(glm::dot(stroke, shaft), 0.0);
            EXPECT_LT(std::abs(glm::dot(stroke, up)), 1e-3 * length + 1e-3);
            sides[h] = glm::dot(stroke, side);
        }
        EXPECT_LT(sides[0] * sides[1], 0.0);
        EXPECT_EQ(out.colours[a * velocity_arrow_positions], velocity_arrow_colour);
    }
}

TEST(Velocity_arrows, LongerWithSpeed) {
    // Speed grows with the distance from the axis: so do the arrows, at one scale.
    const World w = velocity_world(20000, 0.01);
    Velocity_arrows out;
    velocity_arrows(w.mesh(), vertex_positions(w), *velocity_layer(w), 2000, out);
    const auto& p = *w.layer(position_layer);
    double polar = 0.0, equatorial = 0.0;
    for (std::size_t a = 0; a < out.vertex_of.size(); ++a) {
        const double z = std::abs(glm::normalize(glm::dvec3(p[out.vertex_of[a]])).z);
        const double length =
            glm::length(glm::dvec3(out.positions[6 * a + 1]) - glm::dvec3(out.positions[6 * a]));
        if (z > 0.9) polar = std::max(polar, length);
        if (z < 0.1) equatorial = std::max(equatorial, length);
    }
    ASSERT_GT(polar, 0.0);
    EXPECT_GT(equatorial, 2.0 * polar);
    // Twice the speed everywhere: the same picture at half the time per arrow or less.
    const World faster = velocity_world(20000, 0.02);
    Velocity_arrows fast;
    velocity_arrows(faster.mesh(), vertex_positions(faster), *velocity_layer(faster), 2000, fast);
    EXPECT_NEAR(fast.fastest, 2.0 * out.fastest, 1e-3 * out.fastest);
    EXPECT_LE(fast.million_years, out.million_years / 2.0 + 1e-9);
}

TEST(Velocity_arrows, BoundedAndSpreadOnALargeMesh) {
    const World w = velocity_world(200000, 0.01);
    Velocity_arrows out;
    velocity_arrows(w.mesh(), vertex_positions(w), *velocity_layer(w), 2000, out);
    // One per cell of 6 · 16 · 16: all but the cells whose chosen vertex sits still.
    EXPECT_LE(out.vertex_of.size(), 1536u);
    EXPECT_GE(out.vertex_of.size(), 1500u);
    std::set<std::uint32_t> distinct;
    for (const Vertex v : out.vertex_of)
        distinct.insert(v.index());
    EXPECT_EQ(distinct.size(), out.vertex_of.size());
    // Spread: no two arrows start closer than a fifth of the mean spacing.
    const auto& p = *w.layer(position_layer);
    const double spacing = earth_km * std::sqrt(4.0 * 3.14159265 / 1536.0);
    std::size_t crowded = 0;
    for (std::size_t a = 0; a < out.vertex_of.size(); ++a)
        for (std::size_t b = a + 1; b < out.vertex_of.size(); ++b)
            crowded += glm::length(glm::dvec3(p[out.vertex_of[a]]) -
                                   glm::dvec3(p[out.vertex_of[b]])) < 0.2 * spacing;
    EXPECT_EQ(crowded, 0u);
    // Fewer asked for, fewer given.
    velocity_arrows(w.mesh(), vertex_positions(w), *velocity_layer(w), 100, out);
    EXPECT_LE(out.vertex_of.size(), 96u);
    EXPECT_GT(out.vertex_of.size(), 80u);
    EXPECT_EQ(velocity_arrow_level(100), 2);
    EXPECT_EQ(velocity_arrow_level(0), 0);
}

TEST(Velocity_arrows, NothingMovesNothingDrawn) {
    const World w = velocity_world(3000, 0.0);
    Velocity_arrows out;
    velocity_arrows(w.mesh(), vertex_positions(w), *velocity_layer(w), 2000, out);
    EXPECT_TRUE(out.positions.empty());
    EXPECT_EQ(out.million_years, 0.0);
}

TEST(Tectonic_scene, OverlaysFollowTheirLayersAndAreLeftOutWithoutThem) {
    World w = boundary_world(true);
    {
        const auto& p = *w.layer(position_layer);
        auto [velocity] = w.lock_layer(gen::velocity_layer);
        for (const Vertex v : w.mesh().vertices())
            velocity[v] = glm::vec3(0.01 * glm::cross(glm::dvec3(0, 0, 1), glm::dvec3(p[v])));
    }
    Scene_builder builder;
    View_options options;
    options.plate_boundaries = true;
    options.velocity_arrows = true;
    Scene scene = builder.build(w, options);
    ASSERT_NE(scene.plate_boundaries.geometry, nullptr);
    ASSERT_NE(scene.velocity_arrows.geometry, nullptr);
    EXPECT_EQ(scene.plate_boundaries.colours, &scene.plate_boundaries.geometry->colours);
    EXPECT_TRUE(scene.tectonics_error.empty());
    EXPECT_EQ(builder.last_rebuilds().tectonics, 2);
    const auto boundary_stamp = scene.plate_boundaries.geometry_stamp;
    const auto arrow_stamp = scene.velocity_arrows.geometry_stamp;
    const std::size_t segments = scene.plate_boundaries.geometry->edge_of.size();

    // Nothing changed: nothing rebuilt, same stamps.
    scene = builder.build(w, options);
    EXPECT_EQ(builder.last_rebuilds().tectonics, 0);
    EXPECT_EQ(scene.plate_boundaries.geometry_stamp, boundary_stamp);
    EXPECT_EQ(scene.velocity_arrows.geometry_stamp, arrow_stamp);

    // A new state of the layers (a simulation step, an undo): rebuilt from it.
    World next = w;
    {
        auto [kinds] = next.lock_layer(gen::plate_boundary_layer);
        for (const Edge e : next.mesh().edges())
            kinds[e] = 0;
        kinds[*next.mesh().edges().begin()] = 4;
    }
    scene = builder.build(next, options);
    EXPECT_EQ(builder.last_rebuilds().tectonics, 1) << "the arrows' layer did not change";
    EXPECT_NE(scene.plate_boundaries.geometry_stamp, boundary_stamp);
    EXPECT_EQ(scene.plate_boundaries.geometry->edge_of.size(), 1u);
    EXPECT_EQ(scene.velocity_arrows.geometry_stamp, arrow_stamp);
    // And back (undo): the old picture again.
    scene = builder.build(w, options);
    EXPECT_EQ(scene.plate_boundaries.geometry->edge_of.size(), segments);

    // Relief moves the surface: the overlays follow it.
    options.relief = "velocity_x";
    World lifted = w;
    {
        auto [x] = lifted.lock_layer(Layer_info<float, Layer_type::vertex>("velocity_x"));
        for (const Vertex v : lifted.mesh().vertices())
            x[v] = 1.f;
    }
    options.relief_scale = 0.01;
    scene = builder.build(lifted, options);
    EXPECT_EQ(builder.last_rebuilds().tectonics, 2);
    const glm::vec3 end = scene.plate_boundaries.geometry->positions.front();
    EXPECT_NEAR(glm::length(end), 1.01f * earth_km, 0.5f);

    // Without the layers: left out, with the reason.
    const World bare = sphere(500);
    scene = builder.build(bare, options);
    EXPECT_EQ(scene.plate_boundaries.geometry, nullptr);
    EXPECT_EQ(scene.velocity_arrows.geometry, nullptr);
    EXPECT_NE(scene.tectonics_error.find("plate_boundary"), std::string::npos)
        << scene.tectonics_error;
    // Off: not built.
    options.plate_boundaries = options.velocity_arrows = false;
    scene = builder.build(w, options);
    EXPECT_EQ(scene.plate_boundaries.geometry, nullptr);
    EXPECT_TRUE(scene.tectonics_error.empty());
}

TEST(Tectonic_scene, OnASimulatedWorld) {
    gen::Pipeline p = gen::default_pipeline();
    gen::override_parameter(p, gen::builtin_modules(), "count", Dict_value(std::int64_t(3000)),
                            "sphere");
    World w;
    gen::run_pipeline(w, p, gen::builtin_modules());
    gen::Tectonics_params params;
    gen::tectonic_step(w, params);
    Scene_builder builder;
    View_options options;
    options.plate_boundaries = options.velocity_arrows = true;
    const Scene scene = builder.build(w, options);
    ASSERT_NE(scene.plate_boundaries.geometry, nullptr) << scene.tectonics_error;
    ASSERT_NE(scene.velocity_arrows.geometry, nullptr) << scene.tectonics_error;
    const auto& kinds = *w.layer(gen::plate_boundary_layer);
    std::size_t boundary_edges = 0;
    for (const Edge e : w.mesh().edges())
        boundary_edges += kinds[e] != 0;
    EXPECT_GT(boundary_edges, 0u);
    EXPECT_EQ(scene.plate_boundaries.geometry->edge_of.size(), boundary_edges);
    const Layer_hints hints = gen::plate_boundary_hints();
    const auto& lines = *scene.plate_boundaries.geometry;
    for (std::size_t s = 0; s < lines.edge_of.size(); ++s)
        EXPECT_EQ(lines.colours[2 * s], Colour(hints.category(lines.kind_of[s])->colour, 255));
    EXPECT_GT(scene.velocity_arrows.geometry->vertex_of.size(), 500u);
    EXPECT_GT(scene.velocity_arrows.geometry->million_years, 0.0);
}

} // namespace
} // namespace orbis::render
