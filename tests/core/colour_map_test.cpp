// SPDX-License-Identifier: MIT
// Colour maps: ends, monotonic luminance, terrain's sea and land, categorical ids, names.
#include <orbis/core/colour_map.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

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

TEST(ColourMap, ViridisEndsAreDarkPurpleAndYellow) {
    EXPECT_EQ(viridis(0.0), Srgb8(68, 1, 84));
    EXPECT_EQ(viridis(1.0), Srgb8(253, 231, 37));
    EXPECT_EQ(viridis(-5.0), viridis(0.0));
    EXPECT_EQ(viridis(7.0), viridis(1.0));
    EXPECT_EQ(viridis(std::numeric_limits<double>::quiet_NaN()), viridis(0.0));
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
    EXPECT_EQ(map_colour(Colour_map_kind::diverging, 20.0, 10.0, 20.0), diverging(1.0));
    EXPECT_EQ(map_colour(Colour_map_kind::terrain, 90.0, 0.0, 1.0, 100.0), terrain(-10.0));
    EXPECT_EQ(map_colour(Colour_map_kind::categorical, 7.0, 0.0, 1.0), categorical(7));
    EXPECT_EQ(map_colour(Colour_map_kind::categorical, 1e300, 0.0, 1.0), categorical(0));
    EXPECT_EQ(normalise(3.0, 3.0, 3.0), 0.5);
    EXPECT_TRUE(std::isnan(normalise(std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0)));
}

TEST(ColourMap, NamesRoundTrip) {
    ASSERT_EQ(colour_map_names().size(), 4u);
    for (const std::string_view name : colour_map_names()) {
        const auto kind = colour_map_from_name(name);
        ASSERT_TRUE(kind) << name;
        EXPECT_EQ(colour_map_name(*kind), name);
    }
    EXPECT_EQ(colour_map_from_name("terrain"), Colour_map_kind::terrain);
    EXPECT_FALSE(colour_map_from_name("Viridis"));
    EXPECT_FALSE(colour_map_from_name(""));
}

} // namespace
} // namespace orbis
