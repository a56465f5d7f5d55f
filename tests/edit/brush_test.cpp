// SPDX-License-Identifier: MIT
// Brush dabs on Fibonacci spheres: what changes, by how much, what is refused, seams, undo.
#include "orbis/edit/brush.hpp"

#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::edit;

constexpr double earth_km = 6371.0;
constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr auto plate = Layer_info<std::int32_t, Layer_type::vertex>("plate");
constexpr auto big = Layer_info<std::int64_t, Layer_type::vertex>("big");
constexpr auto land = Layer_info<bool, Layer_type::vertex>("land");
constexpr auto cover = Layer_info<float, Layer_type::face>("cover");
constexpr auto wind = Layer_info<glm::vec3, Layer_type::vertex>("wind");
constexpr auto flow = Layer_info<float, Layer_type::edge_primal>("flow");

// A sphere of radius 6371 km with `count` vertices and the layers above (all initial); built
// once per count, handed out as snapshots.
World sphere(std::uint32_t count) {
    static std::map<std::uint32_t, World> cache;
    auto it = cache.find(count);
    if (it == cache.end()) {
        World w = gen::make_sphere_world({.count = count, .radius = float(earth_km)});
        {
            auto locks = w.lock_layer(height, plate, big, land, cover, wind);
            (void)locks;
        }
        it = cache.emplace(count, std::move(w)).first;
    }
    return it->second;
}

glm::dvec3 from_lat_lon(double lat_deg, double lon_deg, double r = earth_km) {
    const double lat = lat_deg * std::numbers::pi / 180.0;
    const double lon = lon_deg * std::numbers::pi / 180.0;
    // lon = atan2(-z, x), +y north
    return {r * std::cos(lat) * std::cos(lon), r * std::sin(lat),
            -r * std::cos(lat) * std::sin(lon)};
}

double lon_of(const glm::dvec3& p) { return std::atan2(-p.z, p.x) * 180.0 / std::numbers::pi; }

glm::dvec3 pos(const World& w, Vertex v) { return glm::dvec3((*w.layer(position_layer))[v]); }

// Distance computed differently from the library: acos of the clamped dot of unit vectors.
double distance_km(const glm::dvec3& p, const glm::dvec3& c, double r) {
    const double d = std::clamp(glm::dot(glm::normalize(p), glm::normalize(c)), -1.0, 1.0);
    return std::acos(d) * r;
}

Vertex brute_nearest(const World& w, const glm::dvec3& c) {
    Vertex best;
    double best_d = -2;
    for (const Vertex v : w.mesh().vertices()) {
        const double d = glm::dot(glm::normalize(pos(w, v)), glm::normalize(c));
        if (d > best_d) {
            best_d = d;
            best = v;
        }
    }
    return best;
}

Brush brush_of(Brush_mode mode, const std::string& layer, double radius, double strength) {
    Brush b;
    b.mode = mode;
    b.layer = layer;
    b.radius_km = radius;
    b.strength = strength;
    return b;
}

// Checks that every vertex changed by strength x falloff(distance / radius), computed here,
// and that the result lists exactly the changed vertices.
void expect_formula(const World& before, const World& after, const Dab_result& r,
                    const glm::dvec3& centre, double radius, double strength, Falloff falloff) {
    const double sphere_r = glm::length(pos(before, brute_nearest(before, centre)));
    const auto& a = *before.layer(height);
    const auto& b = *after.layer(height);
    std::set<Vertex> listed(r.vertices.begin(), r.vertices.end());
    EXPECT_EQ(listed.size(), r.vertices.size()) << "a vertex listed twice";
    std::size_t changed = 0;
    int bad = 0;
    for (const Vertex v : before.mesh().vertices()) {
        const double d = distance_km(pos(before, v), centre, sphere_r);
        const double expected = d <= radius ? strength * falloff_weight(falloff, d / radius) : 0;
        const double got = double(b[v]) - double(a[v]);
        if (std::abs(got - expected) > 1e-3 * std::max(1.0, std::abs(strength)) && bad++ < 5)
            ADD_FAILURE() << v << " at " << d << " km: change " << got << ", expected " << expected;
        if (b[v] != a[v]) {
            ++changed;
            EXPECT_TRUE(listed.count(v)) << v << " changed but is not listed";
        }
    }
    EXPECT_EQ(changed, r.vertices.size());
    EXPECT_EQ(bad, 0);
}

TEST(BrushNames, RoundTripAndUnknown) {
    for (const auto m : {Brush_mode::raise, Brush_mode::lower, Brush_mode::smooth,
                         Brush_mode::flatten, Brush_mode::set, Brush_mode::noise})
        EXPECT_EQ(brush_mode_from_name(brush_mode_name(m)), m);
    for (const auto f : {Falloff::smooth, Falloff::linear, Falloff::constant, Falloff::sharp})
        EXPECT_EQ(falloff_from_name(falloff_name(f)), f);
    EXPECT_STREQ(brush_mode_name(Brush_mode::flatten), "flatten");
    EXPECT_STREQ(falloff_name(Falloff::sharp), "sharp");
    EXPECT_FALSE(brush_mode_from_name("Raise"));
    EXPECT_FALSE(falloff_from_name(""));
}

TEST(BrushFalloff, OneAtCentreZeroAtRimMonotone) {
    for (const auto f : {Falloff::smooth, Falloff::linear, Falloff::sharp}) {
        EXPECT_DOUBLE_EQ(falloff_weight(f, 0), 1.0) << falloff_name(f);
        EXPECT_DOUBLE_EQ(falloff_weight(f, 1), 0.0) << falloff_name(f);
        for (double x = 0; x < 1; x += 0.01)
            EXPECT_GE(falloff_weight(f, x), falloff_weight(f, x + 0.01)) << falloff_name(f);
    }
    EXPECT_DOUBLE_EQ(falloff_weight(Falloff::constant, 0.0), 1.0);
    EXPECT_DOUBLE_EQ(falloff_weight(Falloff::constant, 1.0), 1.0);
    EXPECT_DOUBLE_EQ(falloff_weight(Falloff::smooth, 0.5), 0.5);
    EXPECT_LT(falloff_weight(Falloff::sharp, 0.5), falloff_weight(Falloff::linear, 0.5));
    for (const auto f : {Falloff::smooth, Falloff::linear, Falloff::constant, Falloff::sharp}) {
        EXPECT_EQ(falloff_weight(f, 1.0001), 0.0);
        EXPECT_EQ(falloff_weight(f, std::nan("")), 0.0);
    }
}

TEST(BrushRaise, ChangesOnlyTheDiscByStrengthTimesFalloff) {
    const World start = sphere(20'000);
    for (const auto f : {Falloff::smooth, Falloff::linear, Falloff::constant, Falloff::sharp}) {
        World w = start;
        const glm::dvec3 c = from_lat_lon(30, 40);
        Brush b = brush_of(Brush_mode::raise, "height", 1000, 100);
        b.falloff = f;
        const Dab_result r = apply_dab(w, b, c);
        EXPECT_GT(r.vertices.size(), 50u);
        EXPECT_TRUE(r.faces.empty());
        EXPECT_EQ(r.clamped, 0u);
        expect_formula(start, w, r, c, 1000, 100, f);
        // The largest change is at the vertex nearest the centre.
        const auto& h = *w.layer(height);
        const Vertex n = brute_nearest(w, c);
        for (const Vertex v : r.vertices)
            EXPECT_LE(h[v], h[n]);
    }
}

TEST(BrushRaise, LowerIsTheNegation) {
    const World start = sphere(20'000);
    World up = start;
    World down = start;
    const glm::dvec3 c = from_lat_lon(-12, 100);
    const auto ru = apply_dab(up, brush_of(Brush_mode::raise, "height", 300, 40), c);
    const auto rd = apply_dab(down, brush_of(Brush_mode::lower, "height", 300, 40), c);
    EXPECT_EQ(ru.vertices.size(), rd.vertices.size());
    const auto& u = *up.layer(height);
    const auto& d = *down.layer(height);
    for (const Vertex v : start.mesh().vertices())
        EXPECT_EQ(u[v], -d[v]) << v;
    expect_formula(start, down, rd, c, 300, -40, Falloff::smooth);
}

TEST(BrushSeam, NorthPoleDabIsARingSymmetricInLongitude) {
    const World start = sphere(20'000);
    World w = start;
    const glm::dvec3 pole(0, 1, 0); // any length: only the direction counts
    const auto r = apply_dab(w, brush_of(Brush_mode::raise, "height", 800, 100), pole);
    expect_formula(start, w, r, pole, 800, 100, Falloff::smooth);
    // The change depends on the distance from the pole only, so it never grows with distance,
    // and the changed vertices surround the pole on every side, the antimeridian included.
    std::vector<std::pair<double, float>> by_distance;
    int quadrants[4] = {};
    for (const Vertex v : r.vertices) {
        by_distance.emplace_back(distance_km(pos(w, v), pole, earth_km), (*w.layer(height))[v]);
        const double lon = lon_of(pos(w, v));
        ++quadrants[std::clamp(int((lon + 180.0) / 90.0), 0, 3)];
    }
    std::sort(by_distance.begin(), by_distance.end());
    for (std::size_t i = 1; i < by_distance.size(); ++i)
        EXPECT_LE(by_distance[i].second, by_distance[i - 1].second + 1e-4f);
    for (const int q : quadrants)
        EXPECT_GT(q, int(r.vertices.size()) / 6);
}

TEST(BrushSeam, AntimeridianDabReachesBothSidesEqually) {
    const World start = sphere(20'000);
    World w = start;
    const glm::dvec3 c = from_lat_lon(20, 180);
    const auto r = apply_dab(w, brush_of(Brush_mode::raise, "height", 600, 100), c);
    expect_formula(start, w, r, c, 600, 100, Falloff::smooth);
    double east = 0;
    double west = 0;
    for (const Vertex v : r.vertices)
        (lon_of(pos(w, v)) > 0 ? west : east) += (*w.layer(height))[v];
    EXPECT_GT(east, 0);
    EXPECT_NEAR(east / west, 1.0, 0.05);
    // The same dab centred just off the seam on each side is the mirror of the other.
    for (const double lon : {179.9, -179.9}) {
        World m = start;
        const glm::dvec3 mc = from_lat_lon(20, lon);
        expect_formula(start, m, apply_dab(m, brush_of(Brush_mode::raise, "height", 600, 100), mc),
                       mc, 600, 100, Falloff::smooth);
    }
}

TEST(BrushRefused, ThrowsAndLeavesTheWorldEqual) {
    World w = sphere(5'000);
    {
        auto [f] = w.lock_layer(flow);
        (void)f;
    }
    {
        auto d = w.lock_layer("notes");
        (*d)["x"] = Dict_value(1.0);
    }
    const World before = w.deep_copy();
    const glm::dvec3 c = from_lat_lon(0, 0);
    auto refused = [&](const Brush& b, const std::string& words) {
        const auto why = check_brush(w, b);
        ASSERT_TRUE(why) << words;
        EXPECT_NE(why->find(words), std::string::npos) << *why;
        try {
            apply_dab(w, b, c);
            ADD_FAILURE() << "not refused: " << words;
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()), *why);
        }
        EXPECT_TRUE(w == before) << words;
        // value_at refuses the layers no brush can paint, whatever the brush's other settings.
        const bool paintable = b.layer == "height" || b.layer == "plate" || b.layer == "land";
        EXPECT_EQ(value_at(w, b.layer, c).has_value(), paintable) << words;
    };
    refused(brush_of(Brush_mode::raise, "position", 100, 1), "vec3");
    refused(brush_of(Brush_mode::raise, "wind", 100, 1), "layer 'wind' holds vec3 values");
    refused(brush_of(Brush_mode::raise, "notes", 100, 1), "Dict");
    refused(brush_of(Brush_mode::raise, "nothing", 100, 1), "no layer 'nothing'");
    refused(brush_of(Brush_mode::raise, "flow", 100, 1), "edge");
    for (const double r : {0.0, -5.0, std::nan(""), HUGE_VAL})
        refused(brush_of(Brush_mode::raise, "height", r, 1), "radius");
    refused(brush_of(Brush_mode::raise, "height", 100, std::nan("")), "strength");
    refused(brush_of(Brush_mode::smooth, "height", 100, 1.5), "between 0 and 1");
    refused(brush_of(Brush_mode::flatten, "height", 100, -0.1), "between 0 and 1");
    refused(brush_of(Brush_mode::smooth, "land", 100, 0.5), "bool");
    Brush set = brush_of(Brush_mode::set, "plate", 100, 1);
    set.value = 2.5;
    refused(set, "not a int32");
    set.value = 3e9;
    refused(set, "not a int32");
    set.layer = "height";
    set.value = HUGE_VAL;
    refused(set, "finite");
    Brush noise = brush_of(Brush_mode::noise, "height", 100, 1);
    noise.noise_scale_km = -1;
    refused(noise, "noise scale");
    // A zero centre is no direction.
    EXPECT_THROW(apply_dab(w, brush_of(Brush_mode::raise, "height", 100, 1), glm::dvec3(0)),
                 std::invalid_argument);
    EXPECT_TRUE(w == before);
    // No positions at all.
    World bare;
    {
        auto [h] = bare.lock_layer(height);
        (void)h;
    }
    EXPECT_TRUE(check_brush(bare, brush_of(Brush_mode::raise, "height", 100, 1)));
    EXPECT_EQ(nearest_vertex(bare, c), no_vertex);
}

TEST(BrushClamp, HoldsValuesAtTheLayersRangeAndCountsThem) {
    World w = sphere(20'000);
    constexpr auto ranged =
        Layer_info<float, Layer_type::vertex>("ranged").min(0.f).max(50.f).validate(
            Validation::range);
    {
        auto [r] = w.lock_layer(ranged);
        (void)r;
    }
    const glm::dvec3 c = from_lat_lon(45, -60);
    const auto up = apply_dab(w, brush_of(Brush_mode::raise, "ranged", 400, 100), c);
    EXPECT_GT(up.clamped, 0u);
    EXPECT_LT(up.clamped, up.vertices.size()); // the rim stays below 50
    const auto& v = *w.layer(ranged);
    for (const Vertex x : w.mesh().vertices())
        EXPECT_TRUE(v[x] >= 0.f && v[x] <= 50.f) << x << " " << v[x];
    EXPECT_EQ(v[nearest_vertex(w, c)], 50.f);
    const auto down = apply_dab(w, brush_of(Brush_mode::lower, "ranged", 400, 200), c);
    EXPECT_GT(down.clamped, 0u);
    for (const Vertex x : w.mesh().vertices())
        EXPECT_TRUE(v[x] >= 0.f && v[x] <= 50.f) << x << " " << v[x];
    // An integer layer at the limit of its type.
    Brush set = brush_of(Brush_mode::set, "plate", 300, 1);
    set.value = std::numeric_limits<std::int32_t>::max();
    apply_dab(w, set, c);
    const auto r = apply_dab(w, brush_of(Brush_mode::raise, "plate", 300, 1000), c);
    EXPECT_GT(r.clamped, 0u);
    EXPECT_EQ((*w.layer(plate))[nearest_vertex(w, c)], std::numeric_limits<std::int32_t>::max());
}

TEST(BrushSet, PaintsExactlyTheValueOnIntegerLayers) {
    World w = sphere(20'000);
    const glm::dvec3 c = from_lat_lon(-70, 10);
    Brush b = brush_of(Brush_mode::set, "plate", 700, 0);
    b.value = 7;
    b.falloff = Falloff::sharp; // ignored by set
    const auto r = apply_dab(w, b, c);
    const auto disc = vertices_within(w, c, 700);
    const std::set<Vertex> in(disc.begin(), disc.end());
    EXPECT_EQ(r.vertices.size(), disc.size());
    for (const Vertex v : w.mesh().vertices())
        EXPECT_EQ((*w.layer(plate))[v], in.count(v) ? 7 : 0) << v;
    // Values no double-precision interpolation would keep.
    b.layer = "big";
    b.value = std::ldexp(1.0, 52) + 1;
    apply_dab(w, b, c);
    for (const Vertex v : disc)
        EXPECT_EQ((*w.layer(big))[v], (std::int64_t{1} << 52) + 1);
    // bool layers: set, raise (true) and lower (false).
    b.layer = "land";
    b.value = 1;
    apply_dab(w, b, c);
    for (const Vertex v : disc)
        EXPECT_TRUE((*w.layer(land))[v]);
    apply_dab(w, brush_of(Brush_mode::lower, "land", 200, 1), c);
    EXPECT_FALSE((*w.layer(land))[nearest_vertex(w, c)]);
    EXPECT_EQ(value_at(w, "land", c), 0.0);
}

// A height field of random values for smooth and flatten.
World noisy(std::uint32_t count, std::uint64_t seed) {
    World w = sphere(count);
    auto [h] = w.lock_layer(height);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-100.f, 100.f);
    for (const Vertex v : w.mesh().vertices())
        h[v] = u(rng);
    return w;
}

double variance(const World& w, const std::vector<Vertex>& vs) {
    double sum = 0, sq = 0;
    for (const Vertex v : vs) {
        const double x = (*w.layer(height))[v];
        sum += x;
        sq += x * x;
    }
    const double n = double(vs.size());
    return sq / n - (sum / n) * (sum / n);
}

TEST(BrushSmooth, ReducesVarianceAndKeepsAConstantField) {
    World w = noisy(20'000, 3);
    const glm::dvec3 c = from_lat_lon(5, 5);
    const auto disc = vertices_within(w, c, 1200);
    ASSERT_GT(disc.size(), 100u);
    const double before = variance(w, disc);
    apply_dab(w, brush_of(Brush_mode::smooth, "height", 1500, 1.0), c);
    EXPECT_LT(variance(w, disc), before * 0.6);

    World flat = sphere(20'000);
    {
        auto [h] = flat.lock_layer(height);
        h.fill(5.f);
    }
    const World flat_before = flat;
    const auto r = apply_dab(flat, brush_of(Brush_mode::smooth, "height", 600, 1.0), c);
    EXPECT_TRUE(r.vertices.empty());
    EXPECT_TRUE(flat == flat_before);
}

TEST(BrushSmooth, OrderIndependentAgainstAReferenceOnTheOldValues) {
    const World start = noisy(5'000, 4);
    World w = start;
    const glm::dvec3 c = from_lat_lon(-30, 120);
    apply_dab(w, brush_of(Brush_mode::smooth, "height", 900, 0.5), c);
    const auto& a = *start.layer(height);
    const auto& b = *w.layer(height);
    const Mesh& m = start.mesh();
    for (const Vertex v : m.vertices()) {
        const double d = distance_km(pos(start, v), c, earth_km);
        double mean = 0;
        int n = 0;
        for (const Vertex x : v.neighbors(m)) {
            mean += a[x];
            ++n;
        }
        mean /= n;
        const double wgt = d <= 900 ? falloff_weight(Falloff::smooth, d / 900) : 0;
        EXPECT_NEAR(b[v], a[v] + 0.5 * wgt * (mean - a[v]), 1e-3) << v;
    }
}

TEST(BrushFlatten, MovesTowardsTheTarget) {
    const World start = noisy(20'000, 5);
    World w = start;
    const glm::dvec3 c = from_lat_lon(60, -150);
    const auto target = value_at(w, "height", c);
    ASSERT_TRUE(target);
    EXPECT_EQ(*target, (*w.layer(height))[brute_nearest(w, c)]);
    Brush b = brush_of(Brush_mode::flatten, "height", 400, 0.5);
    b.value = 10;
    const auto r = apply_dab(w, b, c);
    EXPECT_GT(r.vertices.size(), 10u);
    for (const Vertex v : start.mesh().vertices())
        EXPECT_LE(std::abs((*w.layer(height))[v] - 10.f),
                  std::abs((*start.layer(height))[v] - 10.f) + 1e-4f);
    const Vertex n = nearest_vertex(w, c);
    const double weight =
        falloff_weight(Falloff::smooth, distance_km(pos(w, n), c, earth_km) / 400);
    EXPECT_NEAR((*w.layer(height))[n] - 10.0,
                ((*start.layer(height))[n] - 10.0) * (1 - 0.5 * weight), 1e-3);
}

TEST(BrushNoise, DeterministicPerSeedAndCoherentAcrossDabs) {
    const World start = sphere(20'000);
    Brush b = brush_of(Brush_mode::noise, "height", 800, 50);
    b.noise_scale_km = 200;
    b.seed = 42;
    const glm::dvec3 c = from_lat_lon(10, 20);
    World a = start;
    World a2 = start;
    World other = start;
    apply_dab(a, b, c);
    apply_dab(a2, b, c);
    b.seed = 43;
    apply_dab(other, b, c);
    EXPECT_TRUE(a == a2);
    EXPECT_FALSE(a == other);
    int up = 0, down = 0;
    for (const Vertex v : start.mesh().vertices()) {
        const float x = (*a.layer(height))[v];
        up += x > 0;
        down += x < 0;
    }
    EXPECT_GT(up, 20);
    EXPECT_GT(down, 20);
    // A second dab adds the same field again: features grow instead of turning to static.
    b.seed = 42;
    apply_dab(a, b, c);
    for (const Vertex v : start.mesh().vertices())
        EXPECT_NEAR((*a.layer(height))[v], 2 * (*a2.layer(height))[v], 1e-3) << v;
}

TEST(BrushFace, ChangesTheFacesInTheDiscOnly) {
    const World start = sphere(20'000);
    World w = start;
    const glm::dvec3 c = from_lat_lon(-89, 33); // near the south pole
    const auto r = apply_dab(w, brush_of(Brush_mode::raise, "cover", 600, 10), c);
    EXPECT_GT(r.faces.size(), 50u);
    const Mesh& m = w.mesh();
    const std::set<Face> listed(r.faces.begin(), r.faces.end());
    EXPECT_EQ(listed.size(), r.faces.size());
    std::set<Vertex> corners;
    for (const Face f : m.faces()) {
        glm::dvec3 sum(0);
        for (const Vertex v : f.vertices(m))
            sum += pos(w, v);
        const double d = distance_km(sum / 3.0, c, earth_km);
        const double expected = d <= 600 ? 10 * falloff_weight(Falloff::smooth, d / 600) : 0;
        EXPECT_NEAR((*w.layer(cover))[f], expected, 1e-3) << f;
        EXPECT_EQ(listed.count(f) == 1, (*w.layer(cover))[f] != 0.f) << f;
        if (listed.count(f))
            for (const Vertex v : f.vertices(m))
                corners.insert(v);
    }
    EXPECT_EQ(std::set<Vertex>(r.vertices.begin(), r.vertices.end()), corners);
    EXPECT_EQ(corners.size(), r.vertices.size());
    EXPECT_TRUE(w.layer(height)->equals(*start.layer(height)));
}

TEST(BrushSearch, NearestVertexAndDiscMatchBruteForce) {
    const World w = sphere(20'000);
    std::mt19937_64 rng(9);
    std::normal_distribution<double> g;
    for (int i = 0; i < 100; ++i) {
        const glm::dvec3 c(g(rng), g(rng), g(rng));
        const Vertex expected = brute_nearest(w, c);
        EXPECT_EQ(nearest_vertex(w, c), expected);
        EXPECT_EQ(nearest_vertex(w, c * 1e4, Vertex{std::uint32_t(rng() % 20'000)}), expected);
        const double radius = 50.0 + double(rng() % 1000);
        std::set<Vertex> brute;
        for (const Vertex v : w.mesh().vertices())
            if (distance_km(pos(w, v), c, earth_km) <= radius - 1e-6) brute.insert(v);
        const auto found = vertices_within(w, c, radius, expected);
        std::set<Vertex> got(found.begin(), found.end());
        EXPECT_EQ(got.size(), found.size());
        for (const Vertex v : brute)
            EXPECT_TRUE(got.count(v)) << v;
        for (const Vertex v : got)
            EXPECT_LE(distance_km(pos(w, v), c, earth_km), radius + 1e-6);
        if (!found.empty()) {
            EXPECT_EQ(found.front(), expected);
        }
    }
    EXPECT_EQ(nearest_vertex(w, glm::dvec3(0)), no_vertex);
    EXPECT_TRUE(vertices_within(w, glm::dvec3(1, 0, 0), -1).empty());
}

TEST(BrushStroke, PointsAlongTheArcAtMostSpacingApart) {
    EXPECT_TRUE(stroke_points(glm::dvec3(1, 2, 3), glm::dvec3(1, 2, 3), 10).empty());
    const glm::dvec3 from = from_lat_lon(10, 170);
    const glm::dvec3 to = from_lat_lon(-20, -150, 2 * earth_km); // across the antimeridian
    const auto pts = stroke_points(from, to, 50);
    ASSERT_FALSE(pts.empty());
    EXPECT_EQ(pts.back(), to);
    const double arc = distance_km(from, to, 2 * earth_km);
    EXPECT_EQ(pts.size(), std::size_t(std::ceil(arc / 50)));
    glm::dvec3 prev = from * 2.0;
    for (const auto& p : pts) {
        EXPECT_NEAR(glm::length(p), 2 * earth_km, 1e-6);
        EXPECT_LE(distance_km(prev, p, 2 * earth_km), 50 + 1e-6);
        prev = p;
    }
    // Antipodal ends still give a half circle of points.
    const auto half = stroke_points(glm::dvec3(0, 1, 0), glm::dvec3(0, -1, 0), 0.1);
    EXPECT_EQ(half.size(), std::size_t(std::ceil(std::numbers::pi / 0.1)));
    for (const auto& p : half)
        EXPECT_NEAR(glm::length(p), 1.0, 1e-12);
    EXPECT_THROW(stroke_points(from, to, 0), std::invalid_argument);
    EXPECT_LE(stroke_points(from, to, 1e-9).size(), 65536u);
}

TEST(BrushUndo, DabCopiesOnlyTheChunksItTouches) {
    World w = sphere(100'000);
    const World snapshot = w;
    const std::size_t layer_bytes = w.layer(height)->bytes();
    const auto r = apply_dab(w, brush_of(Brush_mode::raise, "height", 200, 10), from_lat_lon(0, 0));
    EXPECT_GT(r.vertices.size(), 10u);
    const auto mem = w.memory();
    EXPECT_GT(mem.private_bytes, 0u);
    EXPECT_LT(mem.private_bytes, layer_bytes / 5) << mem.private_bytes << " of " << layer_bytes;
    EXPECT_FALSE(w == snapshot);
}

TEST(BrushUndo, StrokeOnADiscardedCopyLeavesTheOriginal) {
    World w = sphere(100'000);
    const World before = w.deep_copy();
    {
        World copy = w;
        glm::dvec3 last = from_lat_lon(0, -10);
        Vertex hint = no_vertex;
        for (const auto& p : stroke_points(last, from_lat_lon(15, 20), 50)) {
            apply_dab(copy, brush_of(Brush_mode::raise, "height", 200, 30), p, hint);
            hint = nearest_vertex(copy, p, hint);
        }
        EXPECT_FALSE(copy == before);
    }
    EXPECT_TRUE(w == before);
}

TEST(BrushUndo, RandomDabsAndMeshEditsKeepTheMeshValidAndRestore) {
    World w = sphere(100'000);
    const World start = w;
    const World start_deep = w.deep_copy();
    std::mt19937_64 rng(2024);
    std::normal_distribution<double> g;
    std::uniform_real_distribution<double> u(0, 1);
    const std::vector<std::string> layers = {"height", "plate", "big", "land", "cover"};
    const Brush_mode modes[] = {Brush_mode::raise,   Brush_mode::lower, Brush_mode::smooth,
                                Brush_mode::flatten, Brush_mode::set,   Brush_mode::noise};
    int dabs = 0, edits = 0;
    Vertex hint = no_vertex;
    for (int i = 0; i < 200; ++i) {
        if (rng() % 3 == 0) {
            auto lock = w.lock_mesh();
            for (int k = 0; k < 20; ++k) {
                const Edge e{std::uint32_t(rng() % lock->edge_slots()) & ~1u};
                if (!lock->contains(e)) continue;
                switch (rng() % 3) {
                case 0:
                    edits += !lock.try_flip(e);
                    break;
                case 1:
                    edits += !lock.try_split(e, float(u(rng)));
                    break;
                default:
                    edits += !lock.try_collapse(e, 0.5f);
                    break;
                }
            }
            continue;
        }
        Brush b;
        b.mode = modes[rng() % 6];
        b.layer = layers[rng() % layers.size()];
        b.radius_km = 30 + 600 * u(rng);
        b.falloff = Falloff(rng() % 4);
        const bool fraction = b.mode == Brush_mode::smooth || b.mode == Brush_mode::flatten;
        b.strength = fraction ? u(rng) : 200 * g(rng);
        b.value = std::round(20 * g(rng));
        if (b.layer == "land") {
            b.value = double(rng() % 2);
            if (fraction || b.mode == Brush_mode::noise) b.mode = Brush_mode::set;
        }
        const glm::dvec3 c(g(rng), g(rng), g(rng));
        try {
            apply_dab(w, b, c, rng() % 2 ? hint : no_vertex);
            ++dabs;
        } catch (const std::exception& e) {
            ADD_FAILURE() << brush_mode_name(b.mode) << " on " << b.layer << ": " << e.what();
        }
        hint = nearest_vertex(w, c);
        ASSERT_EQ(hint, brute_nearest(w, c)) << "step " << i;
    }
    EXPECT_GT(dabs, 100);
    EXPECT_GT(edits, 100);
    const auto problem = w.mesh().validate();
    EXPECT_FALSE(problem) << *problem;
    EXPECT_FALSE(w == start);
    w = start; // undo everything: swap the snapshot back
    EXPECT_TRUE(w == start_deep);
}

TEST(BrushPipeline, PaintsTheDefaultPipelinesLayers) {
    gen::Pipeline p = gen::default_pipeline();
    gen::override_parameter(p, gen::builtin_modules(), "count", Dict_value(std::int64_t{3000}),
                            "sphere");
    World w;
    gen::run_pipeline(w, p, gen::builtin_modules());
    const World before = w;
    const auto c = from_lat_lon(0, 0);
    const auto e0 = value_at(w, "elevation", c);
    ASSERT_TRUE(e0);
    EXPECT_FALSE(check_brush(w, brush_of(Brush_mode::raise, "elevation", 1500, 1000)));
    const auto r = apply_dab(w, brush_of(Brush_mode::raise, "elevation", 1500, 1000), c);
    EXPECT_GT(r.vertices.size(), 5u);
    EXPECT_NEAR(*value_at(w, "elevation", c), *e0 + 1000, 100);
    Brush set = brush_of(Brush_mode::set, "plate_id", 1500, 0);
    set.value = 3;
    apply_dab(w, set, c);
    EXPECT_EQ(value_at(w, "plate_id", c), 3.0);
    EXPECT_FALSE(w == before);
}

} // namespace
