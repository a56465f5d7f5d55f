// SPDX-License-Identifier: MIT
// Colour maps: ends and samples against the published tables, monotonic luminance, terrain's
// sea and land, categorical ids, names.
#include <orbis/core/colour_map.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace orbis {
namespace {

// Relative luminance (WCAG) of an sRGB colour.
double luminance(Srgb8 c) {
    const auto linear = [](std::uint8_t v) {
        const double s = v / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

bool is_blue(Srgb8 c) { return c.b > c.r + 30 && c.b > c.g; }

// The largest difference of a channel from a published colour given as fractions of 1.
double distance_to(Srgb8 c, double r, double g, double b) {
    return std::max(
        {std::abs(c.r - 255.0 * r), std::abs(c.g - 255.0 * g), std::abs(c.b - 255.0 * b)});
}

struct Sequential {
    std::string name;
    std::function<Srgb8(double)> map;
};

std::vector<Sequential> sequential_maps() {
    return {{"viridis", viridis}, {"magma", magma}, {"turbo", turbo}};
}

TEST(ColourMap, ViridisEndsAreDarkPurpleAndYellow) {
    EXPECT_EQ(viridis(0.0), Srgb8(68, 1, 84));
    EXPECT_EQ(viridis(1.0), Srgb8(253, 231, 37));
    EXPECT_EQ(viridis(-5.0), viridis(0.0));
    EXPECT_EQ(viridis(7.0), viridis(1.0));
    EXPECT_EQ(viridis(std::numeric_limits<double>::quiet_NaN()), viridis(0.0));
}

TEST(ColourMap, EndsMatchThePublishedTables) {
    // First and last entries of matplotlib's _viridis_data and _magma_data and of Google's
    // Turbo table (turbo_srgb_floats).
    EXPECT_LE(distance_to(viridis(0.0), 0.267004, 0.004874, 0.329415), 1.0);
    EXPECT_LE(distance_to(viridis(1.0), 0.993248, 0.906157, 0.143936), 1.0);
    EXPECT_LE(distance_to(magma(0.0), 0.001462, 0.000466, 0.013866), 1.0);
    EXPECT_LE(distance_to(magma(1.0), 0.987053, 0.991438, 0.749504), 1.0);
    EXPECT_LE(distance_to(turbo(0.0), 0.18995, 0.07176, 0.23217), 1.0);
    EXPECT_LE(distance_to(turbo(1.0), 0.47960, 0.01583, 0.01055), 1.0);
}

TEST(ColourMap, InteriorFollowsThePublishedTables) {
    // Entries 64 and 128 of the same tables, which lie between our control points.
    EXPECT_LE(distance_to(viridis(64 / 255.0), 0.229739, 0.322361, 0.545706), 2.0);
    EXPECT_LE(distance_to(viridis(128 / 255.0), 0.127568, 0.566949, 0.550556), 2.0);
    EXPECT_LE(distance_to(magma(64 / 255.0), 0.316654, 0.071690, 0.485380), 2.0);
    EXPECT_LE(distance_to(magma(128 / 255.0), 0.716387, 0.214982, 0.475290), 2.0);
    EXPECT_LE(distance_to(turbo(64 / 255.0), 0.15844, 0.73551, 0.92305), 2.5);
    EXPECT_LE(distance_to(turbo(128 / 255.0), 0.64362, 0.98999, 0.23356), 2.5);
}

TEST(ColourMap, SequentialMapsClampAndTakeNanAsZero) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (const auto& [name, map] : sequential_maps()) {
        EXPECT_EQ(map(nan), map(0.0)) << name;
        EXPECT_EQ(map(-0.5), map(0.0)) << name;
        EXPECT_EQ(map(-inf), map(0.0)) << name;
        EXPECT_EQ(map(1.5), map(1.0)) << name;
        EXPECT_EQ(map(inf), map(1.0)) << name;
        EXPECT_NE(map(0.0), map(1.0)) << name;
    }
}

TEST(ColourMap, SequentialMapsChangeContinuously) {
    // Neighbouring values get neighbouring colours: no jumps between control points.
    for (const auto& [name, map] : sequential_maps())
        for (int i = 0; i < 1000; ++i) {
            const Srgb8 a = map(i / 1000.0), b = map((i + 1) / 1000.0);
            EXPECT_LE(std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)}), 3)
                << name << " at " << i / 1000.0;
        }
}

TEST(ColourMap, ViridisLuminanceRisesMonotonically) {
    // Strictly at every 1/50; in fine steps up to the rounding of a channel to 8 bits.
    for (int i = 0; i < 50; ++i)
        EXPECT_LT(luminance(viridis(i / 50.0)), luminance(viridis((i + 1) / 50.0))) << i / 50.0;
    double previous = -1.0;
    for (int i = 0; i <= 1000; ++i) {
        const double l = luminance(viridis(i / 1000.0));
        EXPECT_GE(l, previous - 0.001) << "at t = " << i / 1000.0;
        previous = l;
    }
    EXPECT_GT(luminance(viridis(1.0)), 10 * luminance(viridis(0.0)));
}

TEST(ColourMap, MagmaLuminanceRisesMonotonically) {
    for (int i = 0; i < 50; ++i)
        EXPECT_LT(luminance(magma(i / 50.0)), luminance(magma((i + 1) / 50.0))) << i / 50.0;
    double previous = -1.0;
    for (int i = 0; i <= 1000; ++i) {
        const double l = luminance(magma(i / 1000.0));
        EXPECT_GE(l, previous - 0.001) << "at t = " << i / 1000.0;
        previous = l;
    }
    EXPECT_LT(luminance(magma(0.0)), 0.01);
    EXPECT_GT(luminance(magma(1.0)), 0.8);
}

TEST(ColourMap, TurboRunsFromDarkBlueToDarkRed) {
    const Srgb8 low = turbo(0.0), high = turbo(1.0);
    EXPECT_GT(low.b, low.r);
    EXPECT_GT(low.b, low.g);
    EXPECT_GT(high.r, 2 * high.g);
    EXPECT_GT(high.r, 2 * high.b);
    EXPECT_LT(luminance(low), 0.05);
    EXPECT_LT(luminance(high), 0.05);
    // A rainbow: blue before green before red, brightest in between.
    const Srgb8 quarter = turbo(0.2), middle = turbo(0.5), late = turbo(0.8);
    EXPECT_GT(quarter.b, quarter.r);
    EXPECT_GT(middle.g, middle.b);
    EXPECT_GT(late.r, late.b);
    EXPECT_GT(luminance(middle), 5 * luminance(low));
    EXPECT_GT(luminance(middle), 5 * luminance(high));
}

TEST(ColourMap, DivergingIsBlueWhiteRed) {
    const Srgb8 low = diverging(0.0), mid = diverging(0.5), high = diverging(1.0);
    EXPECT_GT(low.b, low.r);
    EXPECT_GT(high.r, high.b);
    EXPECT_GT(luminance(mid), 0.8);
    // Darker towards both ends, and about equally dark at mirrored points.
    for (int i = 0; i < 50; ++i) {
        const double t = i / 100.0;
        EXPECT_LE(luminance(diverging(t)), luminance(diverging(t + 0.01)) + 1e-9) << t;
        EXPECT_LE(luminance(diverging(1.0 - t)), luminance(diverging(0.99 - t)) + 1e-9) << t;
        EXPECT_NEAR(luminance(diverging(t)), luminance(diverging(1.0 - t)), 0.08) << t;
    }
}

TEST(ColourMap, TerrainIsBlueBelowSeaLevelAndNotAbove) {
    for (double m = -8000.0; m < 0.0; m += 50.0)
        EXPECT_TRUE(is_blue(terrain(m))) << m << " m";
    for (double m = 0.0; m <= 8000.0; m += 50.0)
        EXPECT_FALSE(is_blue(terrain(m))) << m << " m";
    // Deep water is darker than shallow water; high mountains are white.
    EXPECT_LT(luminance(terrain(-5000.0)), luminance(terrain(-10.0)));
    EXPECT_EQ(terrain(4500.0), Srgb8(255, 255, 255));
    EXPECT_EQ(terrain(8848.0), Srgb8(255, 255, 255));
    const Srgb8 lowland = terrain(100.0);
    EXPECT_GT(lowland.g, lowland.r);
    EXPECT_GT(lowland.g, lowland.b);
}

TEST(ColourMap, CategoricalIsDeterministicAndSpreadsIds) {
    std::set<std::tuple<int, int, int>> colours;
    for (std::int64_t id = -50; id < 200; ++id) {
        const Srgb8 c = categorical(id);
        EXPECT_EQ(c, categorical(id));
        EXPECT_GE(std::max({c.r, c.g, c.b}), 160) << id; // never near black
        EXPECT_LE(std::min({c.r, c.g, c.b}), 140) << id; // nor near white or grey
        colours.insert({c.r, c.g, c.b});
    }
    EXPECT_GE(colours.size(), 245u);
    EXPECT_NE(categorical(std::numeric_limits<std::int64_t>::max()),
              categorical(std::numeric_limits<std::int64_t>::min()));
}

TEST(ColourMap, MapColourDispatchesOnTheKind) {
    EXPECT_EQ(map_colour(Colour_map_kind::viridis, 10.0, 10.0, 20.0), viridis(0.0));
    EXPECT_EQ(map_colour(Colour_map_kind::viridis, 15.0, 10.0, 20.0), viridis(0.5));
    EXPECT_EQ(map_colour(Colour_map_kind::magma, 12.5, 10.0, 20.0), magma(0.25));
    EXPECT_EQ(map_colour(Colour_map_kind::turbo, 30.0, 10.0, 20.0), turbo(1.0));
    EXPECT_EQ(
        map_colour(Colour_map_kind::turbo, std::numeric_limits<double>::quiet_NaN(), 10.0, 20.0),
        turbo(0.0));
    EXPECT_EQ(map_colour(Colour_map_kind::diverging, 20.0, 10.0, 20.0), diverging(1.0));
    EXPECT_EQ(map_colour(Colour_map_kind::terrain, 90.0, 0.0, 1.0, 100.0), terrain(-10.0));
    EXPECT_EQ(map_colour(Colour_map_kind::categorical, 7.0, 0.0, 1.0), categorical(7));
    EXPECT_EQ(map_colour(Colour_map_kind::categorical, 1e300, 0.0, 1.0), categorical(0));
    EXPECT_EQ(normalise(3.0, 3.0, 3.0), 0.5);
    EXPECT_TRUE(std::isnan(normalise(std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0)));
}

TEST(ColourMap, NamesRoundTrip) {
    const Colour_map_kind kinds[] = {Colour_map_kind::viridis, Colour_map_kind::magma,
                                     Colour_map_kind::turbo,   Colour_map_kind::diverging,
                                     Colour_map_kind::terrain, Colour_map_kind::categorical};
    ASSERT_EQ(colour_map_names().size(), std::size(kinds));
    std::set<std::string_view> distinct;
    for (std::size_t i = 0; i < std::size(kinds); ++i) {
        const std::string_view name = colour_map_name(kinds[i]);
        EXPECT_EQ(colour_map_names()[i], name) << "names are listed in enum order";
        EXPECT_EQ(colour_map_from_name(name), kinds[i]) << name;
        distinct.insert(name);
    }
    EXPECT_EQ(distinct.size(), std::size(kinds));
    EXPECT_EQ(colour_map_from_name("terrain"), Colour_map_kind::terrain);
    EXPECT_EQ(colour_map_from_name("magma"), Colour_map_kind::magma);
    EXPECT_EQ(colour_map_from_name("turbo"), Colour_map_kind::turbo);
    EXPECT_EQ(colour_map_name(static_cast<Colour_map_kind>(99)), "unknown");
    EXPECT_FALSE(colour_map_from_name("Viridis"));
    EXPECT_FALSE(colour_map_from_name(""));
}

} // namespace
} // namespace orbis

TEST(Terrain_surface, WaterIsColouredByWhatItIsAndDryBasinsAreLand) {
    using orbis::Surface;
    // A dry basin 300 m below sea level is lowland, not shallow sea.
    EXPECT_EQ(orbis::terrain_surface(-300, Surface::land, -300), orbis::terrain(0.0));
    EXPECT_EQ(orbis::terrain_surface(800, Surface::land, 800), orbis::terrain(800.0));
    // The ocean keeps the sea ramp by depth.
    EXPECT_EQ(orbis::terrain_surface(-3000, Surface::ocean, 0), orbis::terrain(-3000.0));
    // Lakes darken with depth and differ from the sea at the same depth, at any altitude.
    const auto shallow = orbis::terrain_surface(1995, Surface::lake, 2000);
    const auto deep = orbis::terrain_surface(1500, Surface::lake, 2000);
    EXPECT_LT(int(deep.r) + deep.g + deep.b, int(shallow.r) + shallow.g + shallow.b);
    EXPECT_NE(orbis::terrain_surface(-50, Surface::lake, 0), orbis::terrain(-50.0));
    EXPECT_GT(shallow.b, shallow.r) << "a lake is blue";
}
