// SPDX-License-Identifier: MIT
// Tests of water in the view: terrain colours by what covers a vertex, lakes and the ocean flat
// at their level under relief, and river ribbons along the edges with enough discharge, rebuilt
// exactly when what they stand for changes.
#include "orbis/render/water_buffers.hpp"

#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/render/buffer_cache.hpp"
#include "orbis/render/scene.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace orbis::render {
namespace {

constexpr auto elevation = Layer_info<float, Layer_type::vertex>("elevation");
constexpr auto height = Layer_info<float, Layer_type::vertex>("height");

// What a hand-made hydrology says about each vertex of the test world.
enum class Place { ocean, lake0, lake1, basin, land };

Place place_of(const glm::vec3& p) {
    const glm::vec3 u = glm::normalize(p);
    if (u.z < -0.5f) return Place::ocean;
    if (u.x > 0.95f) return Place::lake0;
    if (u.y > 0.95f) return Place::lake1;
    if (u.x < -0.95f) return Place::basin;
    return Place::land;
}

// A sphere with an ocean around the south pole, two lakes (levels 400 m and 900 m) with uneven
// floors, a dry basin below sea level and land elsewhere; height is a layer unrelated to them.
// Discharge: every vertex drains along its first edge, 0 to 390 m³/s by vertex index.
World water_world() {
    World w =
        gen::make_sphere_world({.count = 3000, .radius = 1.f, .perturbation = 0.5f, .seed = 3});
    auto [e, h, ocean, lake, level, discharge] =
        w.lock_layer(elevation, height, gen::ocean_layer, gen::lake_layer, gen::water_level_layer,
                     gen::discharge_layer);
    const auto* p = w.layer(position_layer);
    const Mesh& m = w.mesh();
    for (const Vertex v : m.vertices()) {
        const glm::vec3 u = glm::normalize((*p)[v]);
        h[v] = float(v.index() % 17);
        switch (place_of(u)) {
        case Place::ocean:
            ocean[v] = true;
            e[v] = -3000.f * (-u.z);
            level[v] = 0.f;
            break;
        case Place::lake0:
            lake[v] = 0;
            e[v] = 400.f - 6000.f * (u.x - 0.95f); // 100 to 400 m
            level[v] = 400.f;
            break;
        case Place::lake1:
            lake[v] = 1;
            e[v] = 900.f - 4000.f * (u.y - 0.95f);
            level[v] = 900.f;
            break;
        case Place::basin:
            e[v] = -150.f - 2000.f * (-u.x - 0.95f); // -250 to -150 m
            level[v] = e[v];
            break;
        case Place::land:
            e[v] = 1000.f + 1500.f * u.z;
            level[v] = e[v];
            break;
        }
        discharge[v.edge(m)] = float(10 * (v.index() % 40));
    }
    return w;
}

bool is_wet(const World& w, Vertex v) {
    return (*w.layer(gen::ocean_layer))[v] || (*w.layer(gen::lake_layer))[v] >= 0;
}

// Rivers expected: one per vertex whose outgoing discharge reaches the threshold, unless both
// ends are wet (when water counts).
std::size_t expected_rivers(const World& w, double threshold, bool water) {
    const Mesh& m = w.mesh();
    const auto* d = w.layer(gen::discharge_layer);
    std::size_t n = 0;
    for (const Vertex v : m.vertices()) {
        const Edge e = v.edge(m);
        if ((*d)[e] < threshold) continue;
        if (water && is_wet(w, v) && is_wet(w, e.dest(m))) continue;
        ++n;
    }
    return n;
}

View_options terrain_view() {
    View_options o;
    o.layer = "elevation";
    o.colours.map = Colour_map_kind::terrain;
    return o;
}

Colour opaque(Srgb8 c) { return {c.r, c.g, c.b, 255}; }

// The colour terrain_surface gives vertex v of the test world.
Colour surface_colour(const World& w, Vertex v) {
    const Water_layers water = water_layers(w);
    return opaque(terrain_surface((*w.layer(elevation))[v], water.surface(v), (*water.level)[v]));
}

TEST(Water, LayersAreFoundByTheNamesHydrologyWrites) {
    World w = water_world();
    const Water_layers water = water_layers(w);
    ASSERT_TRUE(water);
    EXPECT_TRUE(discharge_layer(w));
    std::set<Surface> seen;
    for (const Vertex v : w.mesh().vertices())
        seen.insert(water.surface(v));
    EXPECT_EQ(seen.size(), 3u);
    // One missing, or of another kind: no water at all.
    (void)w.remove_layer("lake");
    EXPECT_FALSE(water_layers(w));
    (void)w.lock_layer(Layer_info<float, Layer_type::vertex>("lake"));
    EXPECT_FALSE(water_layers(w));
}

TEST(Water, TerrainColoursFollowWhatCoversEachVertex) {
    const World w = water_world();
    Scene_builder b;
    const Scene s = b.build(w, terrain_view());
    ASSERT_TRUE(s.triangles.geometry && s.triangles.colours);
    const Triangle_buffers& t = *s.triangles.geometry;
    int places[5] = {};
    ASSERT_EQ(t.positions.size(), w.mesh().vertex_slots()); // output i is vertex slot i
    for (std::size_t i = 0; i < t.positions.size(); ++i) {
        const Vertex v = t.vertex_at(i);
        if (!w.mesh().contains(v)) continue;
        ASSERT_EQ((*s.triangles.colours)[i], surface_colour(w, v)) << "vertex " << v.index();
        ++places[int(place_of((*w.layer(position_layer))[v]))];
    }
    for (const int n : places)
        EXPECT_GT(n, 0) << "the test world should have every kind of place";

    // The dry basin is below sea level but land: green, where the plain terrain map is blue.
    for (const Vertex v : w.mesh().vertices())
        if (place_of((*w.layer(position_layer))[v]) == Place::basin) {
            const Colour c = surface_colour(w, v);
            EXPECT_GT(c.g, c.b);
            const Colour plain = opaque(terrain((*w.layer(elevation))[v]));
            EXPECT_GT(plain.b, plain.g);
        }
    // Lakes are water at any height: bluer than green, though above sea level.
    for (const Vertex v : w.mesh().vertices())
        if ((*w.layer(gen::lake_layer))[v] >= 0) {
            const Colour c = surface_colour(w, v);
            EXPECT_GT(c.b, c.r);
            EXPECT_GT(c.b, c.g - 40) << "a lake should read as water";
        }
}

TEST(Water, WithoutWaterTheTerrainMapColoursByValue) {
    World w = water_world();
    View_options o = terrain_view();
    o.water = false;
    Scene_builder b;
    auto by_value = [&](const Scene& s) {
        const Triangle_buffers& t = *s.triangles.geometry;
        for (std::size_t i = 0; i < t.positions.size(); ++i)
            if (w.mesh().contains(t.vertex_at(i)) &&
                (*s.triangles.colours)[i] != opaque(terrain((*w.layer(elevation))[t.vertex_at(i)])))
                return false;
        return true;
    };
    EXPECT_TRUE(by_value(b.build(w, o))) << "water switched off";
    o.water = true;
    o.colours.water = false;
    EXPECT_TRUE(by_value(b.build(w, o))) << "water switched off for the colours";
    o.colours.water = true;
    EXPECT_FALSE(by_value(b.build(w, o)));
    (void)w.remove_layer("water_level");
    EXPECT_TRUE(by_value(b.build(w, o))) << "a World without the water layers";
    // Other maps never look at water.
    o.colours.map = Colour_map_kind::viridis;
    const World full = water_world();
    const Scene s = b.build(full, o);
    Slot_colours plain = colours_for_vertices(full, "elevation",
                                              {.map = Colour_map_kind::viridis,
                                               .range = {},
                                               .sea_level = 0.0,
                                               .categories = {},
                                               .water = false});
    EXPECT_EQ(*s.triangles.colours, colours_on(*s.triangles.geometry, plain));
}

TEST(Water, ColoursRebuildWhenTheWaterLayersChangeAndOnlyThen) {
    World w = water_world();
    Buffer_cache cache;
    const Colour_options o{.map = Colour_map_kind::terrain,
                           .range = {},
                           .sea_level = 0.0,
                           .categories = {},
                           .water = true};
    (void)cache.triangle_colours(w, Shading::smooth, "elevation", o);
    (void)cache.triangle_colours(w, Shading::smooth, "elevation", o);
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
    // Discharge and other layers do not colour the terrain.
    {
        auto [d, h] = w.lock_layer(gen::discharge_layer, height);
        d[Vertex(0).edge(w.mesh())] = 5.f;
        h[Vertex(0)] = 99.f;
    }
    (void)cache.triangle_colours(w, Shading::smooth, "elevation", o);
    EXPECT_EQ(cache.last_rebuilds().total(), 0);
    // A land vertex drowned by a lake: its colour turns to water.
    Vertex v;
    for (const Vertex x : w.mesh().vertices())
        if (place_of((*w.layer(position_layer))[x]) == Place::land) v = x;
    ASSERT_TRUE(v.valid());
    const Colour before = surface_colour(w, v);
    for (const std::string info : {"lake", "water_level", "ocean"}) {
        {
            if (info == "lake") {
                auto [lake] = w.lock_layer(gen::lake_layer);
                lake[v] = 0;
            } else if (info == "water_level") {
                auto [level] = w.lock_layer(gen::water_level_layer);
                level[v] = 3000.f;
            } else {
                auto [ocean] = w.lock_layer(gen::ocean_layer);
                ocean[v] = false; // a write, though the same value
            }
        }
        const std::vector<Colour>& c = cache.triangle_colours(w, Shading::smooth, "elevation", o);
        EXPECT_EQ(cache.last_rebuilds().layer_colours, 1) << info;
        const Triangle_buffers& t = cache.triangles(w, Shading::smooth);
        for (std::size_t i = 0; i < t.positions.size(); ++i)
            if (t.vertex_at(i) == v) {
                EXPECT_EQ(c[i], surface_colour(w, v)) << info;
            }
    }
    EXPECT_NE(surface_colour(w, v), before);
}

TEST(Water, InPlaceUpdatesRecolourWhatTheDeltaLists) {
    World w = water_world();
    Buffer_cache cache;
    const Colour_options o{.map = Colour_map_kind::terrain,
                           .range = {},
                           .sea_level = 0.0,
                           .categories = {},
                           .water = true};
    (void)cache.triangle_colours(w, Shading::flat, "elevation", o);
    auto same_as_fresh = [&] {
        Buffer_cache fresh;
        return cache.triangle_colours(w, Shading::flat, "elevation", o) ==
               fresh.triangle_colours(w, Shading::flat, "elevation", o);
    };
    // A vertex flooded, recorded as a value edit.
    {
        Delta_recorder recorder(w);
        {
            auto [lake, level] = w.lock_layer(gen::lake_layer, gen::water_level_layer);
            lake[Vertex(7)] = 1;
            level[Vertex(7)] = 5000.f;
        }
        recorder.touch(Vertex(7));
        (void)cache.apply(w, recorder.delta());
    }
    EXPECT_TRUE(same_as_fresh());
    // Water layers that go away change every colour, whatever the delta lists.
    {
        Delta_recorder recorder(w);
        (void)w.remove_layer("ocean");
        (void)cache.apply(w, recorder.delta());
    }
    EXPECT_TRUE(same_as_fresh());
}

// Per vertex: the distance from the centre at which the triangles draw it.
std::vector<double> drawn_radius(const Scene& s, std::size_t slots) {
    std::vector<double> r(slots, -1.0);
    const Triangle_buffers& t = *s.triangles.geometry;
    for (std::size_t f = 0; f < t.triangle_count(); ++f)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t o = triangle_corners(*s.mesh, t, f)[k];
            r[t.vertex_at(o).index()] = glm::length(t.positions[o]);
        }
    return r;
}

TEST(Water, ReliefLaysTheOceanAndEachLakeFlatAtItsLevel) {
    const World w = water_world();
    View_options o = terrain_view();
    o.relief = "elevation";
    o.relief_scale = 1e-5;
    Scene_builder b;
    const std::vector<double> r = drawn_radius(b.build(w, o), w.mesh().vertex_slots());
    const auto* p = w.layer(position_layer);
    const auto* e = w.layer(elevation);
    for (const Vertex v : w.mesh().vertices()) {
        const double base = glm::length((*p)[v]);
        const Place place = place_of((*p)[v]);
        const double level = place == Place::ocean   ? 0.0
                             : place == Place::lake0 ? 400.0
                             : place == Place::lake1 ? 900.0
                                                     : double((*e)[v]);
        EXPECT_NEAR(r[v.index()], base * (1.0 + 1e-5 * level), 1e-6) << "vertex " << v.index();
    }

    // Without water, lake floors are uneven; another relief layer is not measured in metres,
    // so water does not flatten it either.
    auto lake_spread = [&](const std::vector<double>& radius) {
        double lo = 1e9, hi = -1e9;
        for (const Vertex v : w.mesh().vertices())
            if (place_of((*p)[v]) == Place::lake0) {
                lo = std::min(lo, radius[v.index()]);
                hi = std::max(hi, radius[v.index()]);
            }
        return hi - lo;
    };
    o.water = false;
    EXPECT_GT(lake_spread(drawn_radius(b.build(w, o), w.mesh().vertex_slots())), 1e-3);
    o.water = true;
    o.relief = "height";
    o.relief_scale = 1e-3;
    const std::vector<double> by_height = drawn_radius(b.build(w, o), w.mesh().vertex_slots());
    for (const Vertex v : w.mesh().vertices())
        EXPECT_NEAR(by_height[v.index()],
                    glm::length((*p)[v]) * (1.0 + 1e-3 * (*w.layer(height))[v]), 1e-6);
}

TEST(Water, ReliefFollowsTheWaterLayers) {
    World w = water_world();
    View_options o = terrain_view();
    o.relief = "elevation";
    o.relief_scale = 1e-5;
    Scene_builder b;
    const Scene first = b.build(w, o);
    {
        auto [level] = w.lock_layer(gen::water_level_layer);
        for (const Vertex v : w.mesh().vertices())
            if ((*w.layer(gen::lake_layer))[v] == 0) level[v] = 450.f;
    }
    const Scene raised = b.build(w, o);
    EXPECT_NE(raised.triangles.geometry_stamp, first.triangles.geometry_stamp);
    const auto* p = w.layer(position_layer);
    const std::vector<double> r = drawn_radius(raised, w.mesh().vertex_slots());
    for (const Vertex v : w.mesh().vertices())
        if ((*w.layer(gen::lake_layer))[v] == 0) {
            EXPECT_NEAR(r[v.index()], glm::length((*p)[v]) * (1.0 + 1e-5 * 450.0), 1e-6);
        }
}

TEST(Water, RiverWidthGrowsWithDischargeWithinBounds) {
    EXPECT_EQ(river_width_fraction(99.0, 100.0), 0.0);
    EXPECT_EQ(river_width_fraction(std::nan(""), 100.0), 0.0);
    EXPECT_NEAR(river_width_fraction(100.0, 100.0), 0.1, 1e-12);
    EXPECT_NEAR(river_width_fraction(1e4, 100.0), 0.5, 1e-12);
    EXPECT_EQ(river_width_fraction(1e9, 100.0), 0.5);
    double previous = 0.0;
    for (double q = 100.0; q < 1e4; q *= 1.5) {
        const double f = river_width_fraction(q, 100.0);
        EXPECT_GT(f, previous);
        previous = f;
    }
}

TEST(Water, OneRibbonPerEdgeOverTheThreshold) {
    const World w = water_world();
    View_options o = terrain_view();
    o.rivers = true;
    Scene_builder b;
    for (const double threshold : {100.0, 250.0, 390.0}) {
        o.river_min_discharge = threshold;
        const Scene s = b.build(w, o);
        ASSERT_TRUE(s.rivers.geometry) << s.river_error;
        const River_buffers& r = *s.rivers.geometry;
        EXPECT_EQ(r.edge_of.size(), expected_rivers(w, threshold, true)) << threshold;
        EXPECT_EQ(r.positions.size(), river_ribbon_vertices * r.edge_of.size());
        EXPECT_EQ(r.normals.size(), r.positions.size());
        EXPECT_EQ(r.indices.size(), 3 * river_ribbon_triangles * r.edge_of.size());
        ASSERT_EQ(s.rivers.colours, &r.colours);
        for (const Colour c : r.colours)
            ASSERT_EQ(c, river_colour);
        for (const float q : r.discharge)
            EXPECT_GE(q, threshold);
    }
    // Fewer rivers as the threshold rises.
    EXPECT_GT(expected_rivers(w, 100.0, true), expected_rivers(w, 250.0, true));
    EXPECT_GT(expected_rivers(w, 250.0, true), expected_rivers(w, 390.0, true));
    EXPECT_GT(expected_rivers(w, 390.0, true), 0u);
    // Without water, rivers run across lakes and the ocean too.
    o.water = false;
    o.river_min_discharge = 100.0;
    const Scene dry = b.build(w, o);
    EXPECT_EQ(dry.rivers.geometry->edge_of.size(), expected_rivers(w, 100.0, false));
    EXPECT_GT(expected_rivers(w, 100.0, false), expected_rivers(w, 100.0, true));
}

TEST(Water, RibbonsLieJustAboveTheirFacesAndFaceOutward) {
    World w = water_world();
    for (const bool relief : {false, true}) {
        View_options view = terrain_view();
        view.rivers = true;
        if (relief) {
            view.relief = "elevation";
            view.relief_scale = 2e-5;
        }
        Scene_builder b;
        const Scene s = b.build(w, view);
        ASSERT_TRUE(s.rivers.geometry && s.triangles.geometry);
        const River_buffers& r = *s.rivers.geometry;
        // The drawn surface, per vertex slot.
        std::vector<glm::vec3> at(w.mesh().vertex_slots());
        const Triangle_buffers& t = *s.triangles.geometry;
        for (std::size_t i = 0; i < t.positions.size(); ++i)
            at[t.vertex_at(i).index()] = t.positions[i];
        const Mesh& m = w.mesh();
        const auto* discharge = w.layer(gen::discharge_layer);
        auto length_of = [&](Edge x) {
            return glm::length(glm::dvec3(at[x.dest(m).index()]) -
                               glm::dvec3(at[x.origin(m).index()]));
        };
        // Each vertex drains along its first edge (when it carries water); the largest river
        // flowing into a vertex sets the width where the river leaving it starts.
        auto leaving = [&](Vertex v) {
            const Edge x = v.edge(m);
            return (*discharge)[x] > 0.f ? x : no_edge;
        };
        std::vector<Edge> main_inflow(m.vertex_slots());
        std::vector<bool> tied(m.vertex_slots()); // two largest inflows: either may be main
        std::vector<std::size_t> ribbon_of(m.edge_slots(), r.edge_of.size());
        for (std::size_t k = 0; k < r.edge_of.size(); ++k)
            ribbon_of[r.edge_of[k].index()] = k;
        for (const Vertex v : m.vertices()) {
            const Edge x = leaving(v);
            if (!x.valid() || (*discharge)[x] < 100.f) continue;
            Edge& in = main_inflow[x.dest(m).index()];
            if (in.valid() && (*discharge)[x] == (*discharge)[in]) tied[x.dest(m).index()] = true;
            if (!in.valid() || (*discharge)[x] > (*discharge)[in]) {
                in = x;
                tied[x.dest(m).index()] = false;
            }
        }
        auto corner = [&](std::size_t k, std::size_t i) {
            return glm::dvec3(r.positions[k * river_ribbon_vertices + i]);
        };
        int joined = 0;
        for (std::size_t k = 0; k < r.edge_of.size(); ++k) {
            const Edge e = r.edge_of[k];
            const Vertex o = e.origin(m), d = e.dest(m);
            const glm::dvec3 p0(at[o.index()]), p1(at[d.index()]);
            const double length = length_of(e);
            glm::dvec3 c[river_ribbon_vertices];
            for (std::size_t i = 0; i < river_ribbon_vertices; ++i)
                c[i] = corner(k, i);
            // Corners 0-2 left, centre and right of the upstream end, 3-5 the downstream end;
            // centres at the edge's ends, lifted a hundredth of an edge length.
            const double scale_down = leaving(d).valid() ? length_of(leaving(d)) : length;
            EXPECT_NEAR(glm::length(c[1] - p0), 0.01 * length, 1e-4 * length);
            EXPECT_NEAR(glm::length(c[4] - p1), 0.01 * scale_down, 1e-4 * length);
            // Half widths: the inflow's upstream, its own downstream, each up to √2 times as far
            // out where the end is mitred.
            const Edge in = main_inflow[o.index()];
            const double q_up = in.valid() ? std::min((*discharge)[in], r.discharge[k]) : 100.0;
            const double half_up = 0.5 * length * river_width_fraction(q_up, 100.0);
            const double half_down = 0.5 * scale_down * river_width_fraction(r.discharge[k], 100.0);
            for (const auto& [i, half] : {std::pair{0, half_up}, std::pair{2, half_up},
                                          std::pair{3, half_down}, std::pair{5, half_down}}) {
                // Measured level: the corners follow their faces' slopes up and down.
                const glm::dvec3 centre = c[i < 3 ? 1 : 4], up = glm::normalize(centre);
                const glm::dvec3 offset = c[i] - centre;
                const double out = glm::length(offset - glm::dot(offset, up) * up);
                EXPECT_GT(out, 0.95 * half) << "corner " << i;
                EXPECT_LT(out, 1.45 * half) << "corner " << i;
            }
            // The main stream runs on where it gathers water (the test world's discharge does
            // not always) and turns by at most a right angle: its downstream corners are the next
            // ribbon's upstream ones, up to the slopes of the faces each lies on: the same place
            // seen from above, heights apart by less than the width.
            const Edge next = leaving(d);
            auto side = [&](Edge x) {
                const glm::dvec3 a(at[x.origin(m).index()]), b3(at[x.dest(m).index()]);
                return glm::normalize(glm::cross(a + b3, b3 - a));
            };
            if (next.valid() && main_inflow[d.index()] == e && !tied[d.index()] &&
                glm::dot(side(e), side(next)) >= 0.0 &&
                ribbon_of[next.index()] < r.edge_of.size() &&
                (*discharge)[next] >= r.discharge[k]) {
                const std::size_t n = ribbon_of[next.index()];
                const glm::dvec3 up = glm::normalize(p1);
                for (std::size_t i = 0; i < 3; ++i) {
                    const glm::dvec3 gap = c[3 + i] - corner(n, i);
                    const double rise = glm::dot(gap, up);
                    EXPECT_LT(glm::length(gap - rise * up), 1e-3 * std::max(length, scale_down))
                        << "corner " << i << ", relief " << relief;
                    EXPECT_LT(std::abs(rise), 2.0 * half_down)
                        << "corner " << i << ", relief " << relief;
                }
                ++joined;
            }
            // Left corners above the left face's plane, right ones above the right face's.
            auto above = [&](Edge x, int a, int b2) {
                const glm::dvec3 from(at[x.origin(m).index()]), to(at[x.dest(m).index()]);
                const glm::dvec3 third(at[x.left_next(m).dest(m).index()]);
                const glm::dvec3 n = glm::normalize(glm::cross(to - from, third - from));
                for (const int i : {a, b2}) {
                    const double lift = glm::dot(c[i] - from, n);
                    const double scale = i < 3 ? length : scale_down;
                    EXPECT_GT(lift, 0.001 * scale) << "corner " << i << ", relief " << relief;
                    EXPECT_LT(lift, 0.05 * scale) << "corner " << i << ", relief " << relief;
                }
            };
            above(e, 0, 3);
            above(e.sym(), 2, 5);
        }
        // Every triangle faces outward, so that back-face culling keeps it.
        for (std::size_t i = 0; i < r.indices.size(); i += 3) {
            const glm::dvec3 a(r.positions[r.indices[i]]), b2(r.positions[r.indices[i + 1]]),
                c(r.positions[r.indices[i + 2]]);
            EXPECT_GT(glm::dot(glm::cross(b2 - a, c - a), a + b2 + c), 0.0);
        }
        EXPECT_GT(joined, 20) << "the test world should have rivers that run on";
    }
}

// A hand-made layer may send a vertex's water down several edges: a ribbon's downstream end
// takes its scale from the largest, of equals the first in edge order, whichever of them a walk
// round the vertex meets first.
TEST(Water, ARibbonEndsOnTheScaleOfTheLargestEdgeLeaving) {
    World w =
        gen::make_sphere_world({.count = 400, .radius = 1.f, .perturbation = 0.5f, .seed = 5});
    const Mesh& m = w.mesh();
    const auto* p = w.layer(position_layer);
    auto length_of = [&](Edge e) {
        return glm::length(glm::dvec3((*p)[e.dest(m)]) - glm::dvec3((*p)[e.origin(m)]));
    };
    // A vertex with a river coming in and at least four edges leaving it, whose walk meets
    // some pair of them in edge order and some pair against it, with lengths far apart.
    Vertex d;
    Edge in;
    std::vector<Edge> out;
    for (const Vertex v : m.vertices()) {
        std::vector<Edge> ring(v.edges(m).begin(), v.edges(m).end());
        if (ring.size() < 5) continue;
        const Edge into = ring.back().sym();
        ring.pop_back();
        bool along = false, against = false, apart = true;
        for (std::size_t i = 0; i < ring.size(); ++i)
            for (std::size_t j = i + 1; j < ring.size(); ++j) {
                (ring[i].index() < ring[j].index() ? along : against) = true;
                apart = apart && std::abs(length_of(ring[i]) - length_of(ring[j])) > 1e-3;
            }
        if (along && against && apart) {
            d = v;
            in = into;
            out = ring;
            break;
        }
    }
    ASSERT_TRUE(d.valid());
    View_options o;
    o.rivers = true;
    o.river_min_discharge = 100.0;
    Scene_builder b;
    // The downstream end's lift: a hundredth of the leaving edge's length.
    auto lift_of_end = [&]() {
        const Scene s = b.build(w, o);
        const River_buffers& r = *s.rivers.geometry;
        for (std::size_t k = 0; k < r.edge_of.size(); ++k)
            if (r.edge_of[k] == in)
                return glm::length(glm::dvec3(r.positions[k * river_ribbon_vertices + 4]) -
                                   glm::dvec3((*p)[d]));
        ADD_FAILURE() << "no ribbon along the river into the vertex";
        return 0.0;
    };
    // Every pair of leaving edges tied as the largest, the others carrying less.
    for (std::size_t i = 0; i < out.size(); ++i)
        for (std::size_t j = i + 1; j < out.size(); ++j) {
            {
                auto [q] = w.lock_layer(gen::discharge_layer);
                for (const Edge e : m.edges()) {
                    q[e] = 0.f;
                    q[e.sym()] = 0.f;
                }
                q[in] = 500.f;
                for (std::size_t k = 0; k < out.size(); ++k)
                    q[out[k]] = k == i || k == j ? 300.f : 50.f + 40.f * float(k);
            }
            const Edge first = out[i].index() < out[j].index() ? out[i] : out[j];
            const Edge second = first == out[i] ? out[j] : out[i];
            EXPECT_NEAR(lift_of_end(), 0.01 * length_of(first), 1e-6)
                << "ring places " << i << " and " << j;
            // A little more water makes the other of the two the largest.
            {
                auto [q] = w.lock_layer(gen::discharge_layer);
                q[second] = 301.f;
            }
            EXPECT_NEAR(lift_of_end(), 0.01 * length_of(second), 1e-6)
                << "ring places " << i << " and " << j;
        }
}

TEST(Water, RiversOffOrImpossibleDrawNothing) {
    World w = water_world();
    View_options o = terrain_view();
    Scene_builder b;
    Scene s = b.build(w, o);
    EXPECT_FALSE(s.rivers.geometry);
    EXPECT_TRUE(s.river_error.empty());
    o.rivers = true;
    o.river_min_discharge = 0.0;
    s = b.build(w, o);
    EXPECT_FALSE(s.rivers.geometry);
    EXPECT_NE(s.river_error.find("positive"), std::string::npos) << s.river_error;
    // A threshold above every discharge: the part is there but empty.
    o.river_min_discharge = 1e6;
    s = b.build(w, o);
    ASSERT_TRUE(s.rivers.geometry);
    EXPECT_TRUE(s.rivers.geometry->indices.empty());
    (void)w.remove_layer("discharge");
    s = b.build(w, o);
    EXPECT_FALSE(s.rivers.geometry);
    EXPECT_NE(s.river_error.find("discharge"), std::string::npos) << s.river_error;
    EXPECT_TRUE(s.layer_error.empty()) << "rivers are no concern of the shown layer";
}

TEST(Water, RiversRebuildWhenDischargeChangesAndNotOtherwise) {
    World w = water_world();
    View_options o = terrain_view();
    o.rivers = true;
    Scene_builder b;
    const Scene first = b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 1);
    const Scene same = b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 0);
    EXPECT_EQ(same.rivers.geometry_stamp, first.rivers.geometry_stamp);
    EXPECT_EQ(same.rivers.colour_stamp, first.rivers.colour_stamp);

    // Other layers, the colour map and other parts leave rivers alone.
    {
        auto [e, h] = w.lock_layer(elevation, height);
        e[Vertex(3)] = 1234.f;
        h[Vertex(3)] = 1.f;
    }
    o.colours.map = Colour_map_kind::viridis;
    o.wireframe = true;
    const Scene other = b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 0);
    EXPECT_EQ(other.rivers.geometry_stamp, first.rivers.geometry_stamp);

    // New discharge: new rivers, uploaded again.
    {
        auto [d] = w.lock_layer(gen::discharge_layer);
        for (const Vertex v : w.mesh().vertices())
            d[v.edge(w.mesh())] = 500.f;
    }
    const Scene flooded = b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 1);
    EXPECT_NE(flooded.rivers.geometry_stamp, first.rivers.geometry_stamp);
    EXPECT_EQ(flooded.rivers.geometry->edge_of.size(), expected_rivers(w, 100.0, true));

    // A new threshold, relief, and relief values all move or change the rivers.
    o.river_min_discharge = 600.0;
    EXPECT_TRUE(b.build(w, o).rivers.geometry->edge_of.empty());
    EXPECT_EQ(b.last_rebuilds().rivers, 1);
    o.river_min_discharge = 100.0;
    o.relief = "elevation";
    o.relief_scale = 1e-5;
    (void)b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 1);
    {
        auto [e] = w.lock_layer(elevation);
        e[Vertex(3)] = 10.f;
    }
    (void)b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 1);
    (void)b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 0);
    // A new relief height alone (same layer, same values) lifts the rivers with the surface.
    const std::vector<glm::vec3> low = b.build(w, o).rivers.geometry->positions;
    o.relief_scale = 4e-5;
    const Scene higher = b.build(w, o);
    EXPECT_EQ(b.last_rebuilds().rivers, 1);
    ASSERT_EQ(higher.rivers.geometry->positions.size(), low.size());
    EXPECT_NE(higher.rivers.geometry->positions, low);
}

} // namespace
} // namespace orbis::render
