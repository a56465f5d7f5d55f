// SPDX-License-Identifier: MIT
// The search primitives brush and selection share (nearest vertex, disc flood, id set) and the
// layer-value checks both refuse with.
#include "orbis/edit/brush.hpp"
#include "orbis/edit/detail/id_set.hpp"
#include "orbis/edit/layer_values.hpp"
#include "orbis/edit/selection.hpp"
#include "orbis/edit/sphere_search.hpp"

#include "orbis/core/sphere_geometry.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::edit;

constexpr double earth_km = 6371.0;

const World& sphere_world() {
    static const World w = gen::make_sphere_world(
        {.count = 30'000, .radius = float(earth_km), .perturbation = 0.5f, .seed = 5});
    return w;
}

glm::dvec3 from_lat_lon(double lat_deg, double lon_deg) {
    const double lat = lat_deg * std::numbers::pi / 180.0;
    const double lon = lon_deg * std::numbers::pi / 180.0;
    return glm::dvec3(std::cos(lat) * std::cos(lon), std::sin(lat),
                      -std::cos(lat) * std::sin(lon)) *
           earth_km;
}

TEST(Sphere_search, select_disc_is_vertices_within_sorted_nearest_first) {
    const World& w = sphere_world();
    const auto& p = *w.layer(position_layer);
    for (const auto& [lat, lon, r] : std::vector<std::tuple<double, double, double>>{
             {0, 0, 300}, {89.5, 40, 800}, {-30, 179.99, 150}, {10, -100, 120}}) {
        const glm::dvec3 c = from_lat_lon(lat, lon);
        const std::vector<Vertex> within = vertices_within(w, c, r);
        ASSERT_FALSE(within.empty()) << lat << ", " << lon;
        // The nearest vertex first, and it is the nearest by brute force.
        EXPECT_EQ(within.front(), nearest_vertex(w, c));
        double best = std::numeric_limits<double>::infinity();
        Vertex nearest = no_vertex;
        for (const Vertex v : w.mesh().vertices())
            if (const double a = angle_between(glm::dvec3(p[v]), c); a < best) {
                best = a;
                nearest = v;
            }
        EXPECT_EQ(within.front(), nearest);
        std::vector<Vertex> sorted = within;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(select_disc(w, c, r), sorted);
        // A far hint changes the walk, not the answer.
        EXPECT_EQ(select_disc(w, c, r, Vertex(12'345)), sorted);
    }
    // Radius 0 at a vertex: that vertex alone.
    const glm::dvec3 at_vertex(p[Vertex(777)]);
    EXPECT_EQ(vertices_within(w, at_vertex, 0), std::vector<Vertex>{Vertex(777)});
    EXPECT_EQ(select_disc(w, at_vertex, 0), std::vector<Vertex>{Vertex(777)});
    EXPECT_TRUE(vertices_within(w, from_lat_lon(0, 0), -1).empty());
    EXPECT_TRUE(select_disc(w, from_lat_lon(0, 0), INFINITY).empty());
    EXPECT_EQ(vertices_within(w, from_lat_lon(0, 0), INFINITY).size(), w.mesh().vertex_count());
}

TEST(Sphere_search, id_set_inserts_erases_and_reuses_tombstones) {
    edit::detail::Id_set s(4);
    // Ids of a Fibonacci sphere region differ by Fibonacci numbers: the case the mixer is for.
    std::vector<std::uint32_t> ids;
    for (std::uint32_t a = 0; a < 40; ++a)
        for (const std::uint32_t f : {0u, 89u, 144u, 233u, 377u, 610u})
            ids.push_back(a * 987u + f);
    for (const std::uint32_t id : ids)
        EXPECT_TRUE(s.insert(id));
    for (const std::uint32_t id : ids)
        EXPECT_FALSE(s.insert(id));
    EXPECT_EQ(s.size(), ids.size());
    // Erase and insert again many times: tombstones must neither fill the table nor hide ids.
    for (int round = 0; round < 50; ++round)
        for (std::size_t i = round % 2; i < ids.size(); i += 2) {
            EXPECT_TRUE(s.erase(ids[i]));
            EXPECT_FALSE(s.contains(ids[i]));
            EXPECT_TRUE(s.insert(ids[i]));
        }
    EXPECT_EQ(s.size(), ids.size());
    for (const std::uint32_t id : ids)
        EXPECT_TRUE(s.contains(id));
    EXPECT_FALSE(s.contains(5));
    EXPECT_FALSE(s.erase(5));
}

TEST(Layer_values, refusals_name_the_layer_and_the_value) {
    World w = sphere_world();
    constexpr auto count = Layer_info<std::int32_t, Layer_type::face>("count").min(-5).max(5);
    constexpr auto flow = Layer_info<float, Layer_type::edge_dual>("flow");
    {
        auto locks = w.lock_layer(count, flow);
        (void)locks;
    }
    const auto said = [](const std::optional<std::string>& why, const std::string& words) {
        return why && why->find(words) != std::string::npos;
    };
    EXPECT_TRUE(said(check_scalar_layer(w, "", "x"), "no layer is chosen"));
    EXPECT_TRUE(said(check_scalar_layer(w, "nope", "x"), "there is no layer 'nope'"));
    EXPECT_TRUE(said(check_scalar_layer(w, "flow", "brushes paint ..."),
                     "'flow' is an edge layer (edge_dual); brushes paint ..."));
    EXPECT_TRUE(said(check_scalar_layer(w, "position", "x"), "holds vec3 values; x"));
    EXPECT_EQ(check_scalar_layer(w, "count", "x"), std::nullopt);

    const Layer_base& layer = *w.find_layer("count");
    EXPECT_TRUE(said(check_representable(layer, 1.5, "the value"), "the value, 1.5, is not a"));
    EXPECT_TRUE(said(check_representable(layer, NAN, "the value"), "finite"));
    EXPECT_EQ(check_representable(layer, 100, "the value"), std::nullopt); // an int32
    EXPECT_TRUE(said(check_in_range(layer, 100, "the value"), "outside the range [-5, 5]"));
    EXPECT_EQ(check_in_range(layer, -5, "the value"), std::nullopt);
}

TEST(Layer_values, to_layer_value_rounds_and_clamps) {
    bool clamped = false;
    const Value_bounds<std::int64_t> all{std::numeric_limits<std::int64_t>::lowest(),
                                         std::numeric_limits<std::int64_t>::max()};
    // 2^63 rounds to INT64_MAX's double: held at the bound without converting it to int64.
    EXPECT_EQ(to_layer_value(std::ldexp(1.0, 63), all, clamped),
              std::numeric_limits<std::int64_t>::max());
    EXPECT_FALSE(clamped);
    EXPECT_EQ(to_layer_value(2.5, Value_bounds<std::int32_t>{0, 10}, clamped), 3);
    EXPECT_EQ(to_layer_value(11.0, Value_bounds<std::int32_t>{0, 10}, clamped), 10);
    EXPECT_TRUE(clamped);
    const auto floats = finite_bounds(Value_bounds<float>{-INFINITY, NAN});
    EXPECT_EQ(floats.lo, std::numeric_limits<float>::lowest());
    EXPECT_EQ(floats.hi, std::numeric_limits<float>::max());
    EXPECT_TRUE(to_layer_value(0.5, Value_bounds<bool>{false, true}, clamped));
}

} // namespace
