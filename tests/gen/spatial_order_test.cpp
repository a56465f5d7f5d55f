// SPDX-License-Identifier: MIT
// The renumbering that climate and hydrology work in: a spatial order that is one-to-one, and
// the renumbered adjacency, world ocean and flow tree, which must be exactly the slot-order
// results renamed (the modules' worlds stay byte-identical only if they are).
#include <orbis/core/world.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/flow_routing.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/parallel_ranges.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/spatial_order.hpp>
#include <orbis/gen/sphere_module.hpp>
#include <orbis/gen/vertex_adjacency.hpp>
#include <orbis/gen/world_ocean.hpp>

#include <glm/geometric.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::gen;

// A refined planet, so that some slots are dead and the rest out of spatial order.
World refined_planet() {
    World world;
    Dict params;
    params.set("count", std::int64_t(6000));
    params.set("seed", std::int64_t(5));
    run_module(world, Sphere_module{}, params);
    run_module(world, Plates_module{}, {});
    run_module(world, Elevation_module{}, {});
    run_module(world, Refine_module{}, {});
    return world;
}

struct Inputs {
    std::vector<std::uint8_t> live;
    std::vector<glm::vec3> position;
    std::vector<float> height;
};

Inputs inputs_of(const World& world) {
    const Mesh& m = world.mesh();
    Inputs in{std::vector<std::uint8_t>(m.vertex_slots(), 0),
              std::vector<glm::vec3>(m.vertex_slots(), glm::vec3(0)),
              std::vector<float>(m.vertex_slots(), 0.f)};
    for (const Vertex v : m.vertices()) {
        in.live[v.index()] = 1;
        in.position[v.index()] = (*world.layer(position_layer))[v];
        in.height[v.index()] = (*world.layer(elevation_layer))[v];
    }
    return in;
}

// Restores the settings a test changed.
class Parallel_settings_guard {
public:
    Parallel_settings_guard()
        : saved_(parallel_settings()) {}
    ~Parallel_settings_guard() { set_parallel_settings(saved_); }

private:
    Parallel_settings saved_;
};

TEST(Spatial_order, numbers_the_live_slots_one_to_one) {
    const World world = refined_planet();
    const Inputs in = inputs_of(world);
    const Spatial_order o = spatial_order(in.position, in.live);
    ASSERT_EQ(o.slot_of.size(), world.mesh().vertex_count());
    std::vector<std::uint8_t> seen(in.live.size(), 0);
    for (std::uint32_t id = 0; id < o.slot_of.size(); ++id) {
        const std::uint32_t slot = o.slot_of[id];
        ASSERT_LT(slot, in.live.size());
        EXPECT_TRUE(in.live[slot]);
        EXPECT_FALSE(seen[slot]) << "slot " << slot << " numbered twice";
        seen[slot] = 1;
        EXPECT_EQ(o.id_of[slot], id);
    }
}

TEST(Spatial_order, renumbered_graph_results_are_the_slot_order_results_renamed) {
    const World world = refined_planet();
    const Mesh& m = world.mesh();
    const Inputs in = inputs_of(world);
    const Spatial_order o = spatial_order(in.position, in.live);
    const auto count = std::uint32_t(o.slot_of.size());
    const Vertex_adjacency slot_graph = vertex_adjacency(m, Neighbour_order::edge_scan);
    std::vector<float> height(count);
    for (std::uint32_t i = 0; i < count; ++i)
        height[i] = in.height[o.slot_of[i]];
    const std::vector<std::uint8_t> slot_ocean = world_ocean(slot_graph, in.height);
    const Flow_tree slot_tree = route_flow(slot_graph, in.height, slot_ocean);

    Parallel_settings_guard guard;
    for (const unsigned threads : {1u, 2u}) {
        set_parallel_settings({.threads = threads, .min_items = 2});
        Scratch_vector<std::array<std::uint32_t, 2>> ends;
        const Vertex_adjacency g = renumbered_adjacency(m, o.id_of, count, &ends);
        ASSERT_EQ(g.slots(), count);
        ASSERT_EQ(ends.size(), m.edge_slots() / 2);
        for (std::uint32_t q = 0; q < ends.size(); ++q) {
            const Edge e{2 * q};
            const std::array<std::uint32_t, 2> expected =
                m.contains(e) ? std::array{o.id_of[e.origin(m).index()], o.id_of[e.dest(m).index()]}
                              : std::array{~0u, ~0u};
            ASSERT_EQ(ends[q], expected) << "quad-edge " << q << ", threads " << threads;
        }
        for (std::uint32_t i = 0; i < count; ++i) {
            const auto row = g.neighbours(i);
            const auto slot_row = slot_graph.neighbours(o.slot_of[i]);
            ASSERT_EQ(row.size(), slot_row.size());
            for (std::size_t k = 0; k < row.size(); ++k)
                ASSERT_EQ(o.slot_of[row[k]], slot_row[k]) << "threads " << threads;
        }
        for (const double min_fraction : {0.002, 0.0, 1.0}) {
            const std::vector<std::uint8_t> ocean =
                world_ocean(g, height, o.slot_of, 0.f, min_fraction);
            const std::vector<std::uint8_t> expected =
                world_ocean(slot_graph, in.height, 0.f, min_fraction);
            for (std::uint32_t i = 0; i < count; ++i)
                ASSERT_EQ(ocean[i], expected[o.slot_of[i]]);
        }
        // The filled surface is unique; the tree differs only where heights tie.
        const std::vector<std::uint8_t> ocean = world_ocean(g, height, o.slot_of, 0.f, 0.002);
        const Flow_tree tree = route_flow(g, height, ocean, 0.f);
        ASSERT_EQ(tree.order.size(), slot_tree.order.size());
        for (std::uint32_t i = 0; i < count; ++i)
            ASSERT_EQ(tree.filled[i], slot_tree.filled[o.slot_of[i]]);
    }
}

// Two bodies of water of the same size: the one holding the smaller slot is the ocean in
// either numbering.
TEST(Spatial_order, the_ocean_tie_goes_to_the_smaller_original_slot) {
    // A path 0 - 1 - 2 - 3 - 4 with its ids reversed: 0 and 4 are single-vertex seas.
    Vertex_adjacency slot_graph;
    slot_graph.first = {0, 1, 3, 5, 7, 8};
    slot_graph.next = {1, 0, 2, 1, 3, 2, 4, 3};
    const std::vector<float> slot_height = {-1, 5, 5, 5, -1};
    const std::vector<std::uint32_t> slot_of = {4, 3, 2, 1, 0};
    Vertex_adjacency g;
    g.first = {0};
    for (std::uint32_t i = 0; i < 5; ++i) {
        for (const std::uint32_t n : slot_graph.neighbours(slot_of[i]))
            g.next.push_back(4 - n);
        g.first.push_back(std::uint32_t(g.next.size()));
    }
    std::vector<float> height(5);
    for (std::uint32_t i = 0; i < 5; ++i)
        height[i] = slot_height[slot_of[i]];
    const std::vector<std::uint8_t> expected = world_ocean(slot_graph, slot_height, 0.f, 1.0);
    const std::vector<std::uint8_t> ocean = world_ocean(g, height, slot_of, 0.f, 1.0);
    EXPECT_EQ(expected, (std::vector<std::uint8_t>{1, 0, 0, 0, 0}));
    for (std::uint32_t i = 0; i < 5; ++i)
        EXPECT_EQ(ocean[i], expected[slot_of[i]]);
}

// The ocean kept up to date as strokes sink and raise patches of the planet is what
// world_ocean finds from scratch after every stroke: inland basins joining the sea, new seas,
// coasts raised into land, and with a low threshold many bodies at once.
TEST(Ocean_tracker, stays_what_world_ocean_finds_through_sinking_and_rising) {
    const World world = refined_planet();
    const Inputs in = inputs_of(world);
    const Spatial_order o = spatial_order(in.position, in.live);
    const auto count = std::uint32_t(o.slot_of.size());
    const Vertex_adjacency g = renumbered_adjacency(world.mesh(), o.id_of, count);
    std::vector<float> height(count);
    std::vector<glm::vec3> where(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        height[i] = in.height[o.slot_of[i]];
        where[i] = glm::normalize(in.position[o.slot_of[i]]);
    }
    for (const double min_fraction : {0.002, 0.0002, 1.0}) {
        std::vector<float> h = height;
        Ocean_tracker tracker(g, h, o.slot_of, 0.f, min_fraction);
        ASSERT_EQ(tracker.ocean(), world_ocean(g, h, o.slot_of, 0.f, min_fraction));
        std::uint32_t seed = 12345;
        const auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
        std::size_t incremental_changes = 0;
        for (int stroke = 0; stroke < 60; ++stroke) {
            // A patch around a random vertex, mostly sunk by up to 3 km, sometimes raised.
            const glm::vec3 centre = where[next() % count];
            const float radius = 0.02f + 0.08f * float(next() % 1000) / 1000.f;
            const float metres = (next() % 4 == 0 ? 1.f : -1.f) * float(next() % 3000);
            std::vector<std::uint32_t> crossed;
            for (std::uint32_t i = 0; i < count; ++i)
                if (glm::length(where[i] - centre) < radius) {
                    const float was = h[i];
                    h[i] += metres;
                    if ((was < 0.f) != (h[i] < 0.f)) crossed.push_back(i);
                }
            const std::vector<std::uint8_t> before = tracker.ocean();
            std::vector<std::uint32_t> changed;
            tracker.update(g, h, o.slot_of, crossed, changed);
            const std::vector<std::uint8_t> expected =
                world_ocean(g, h, o.slot_of, 0.f, min_fraction);
            ASSERT_EQ(tracker.ocean(), expected) << "stroke " << stroke << ", " << min_fraction;
            std::sort(changed.begin(), changed.end());
            EXPECT_EQ(std::adjacent_find(changed.begin(), changed.end()), changed.end())
                << "each changed id once";
            std::vector<std::uint32_t> differ;
            for (std::uint32_t i = 0; i < count; ++i)
                if (before[i] != expected[i]) differ.push_back(i);
            ASSERT_EQ(changed, differ) << "stroke " << stroke;
            incremental_changes += metres < 0 ? differ.size() : 0;
        }
        EXPECT_GT(incremental_changes, 0u) << "sinking strokes changed the ocean";
    }
}

} // namespace
