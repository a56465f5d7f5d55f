// SPDX-License-Identifier: MIT
// Colour maps as piecewise-linear ramps through control points (sampled from published tables
// or chosen by eye), and hashed categorical colours.
#include "orbis/core/colour_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace orbis {

namespace {

struct Rgb {
    double r, g, b;
};

struct Stop {
    double at;
    Rgb colour;
};

// Linear in sRGB from a (t = 0) to b (t = 1), the one interpolation every map uses. The control
// points are close enough that linear sRGB steps stay perceptually even.
Srgb8 mix(const Rgb& a, const Rgb& b, double t) {
    // Rounds by truncating x + 0.5: the result lies in [0, 255], and std::lround is a call.
    const auto channel = [t](double p, double q) {
        return static_cast<std::uint8_t>(p + (q - p) * t + 0.5);
    };
    return {channel(a.r, b.r), channel(a.g, b.g), channel(a.b, b.b)};
}

// Control points at arbitrary positions, ascending; positions outside the first and last stop
// take their colours.
template <std::size_t N>
Srgb8 ramp(const std::array<Stop, N>& stops, double x) {
    if (!(x > stops.front().at)) return mix(stops.front().colour, stops.front().colour, 0.0);
    if (x >= stops.back().at) return mix(stops.back().colour, stops.back().colour, 0.0);
    std::size_t i = 1;
    while (stops[i].at < x)
        ++i;
    const Stop& a = stops[i - 1];
    const Stop& b = stops[i];
    return mix(a.colour, b.colour, (x - a.at) / (b.at - a.at));
}

// Control points evenly spaced over [0, 1], so the segment is found by arithmetic instead of a
// search. `t` is clamped; NaN counts as 0.
template <std::size_t N>
Srgb8 sampled(const std::array<Rgb, N>& samples, double t) {
    static_assert(N >= 2);
    const double x = (std::isnan(t) ? 0.0 : std::clamp(t, 0.0, 1.0)) * static_cast<double>(N - 1);
    const std::size_t i = std::min(static_cast<std::size_t>(x), N - 2);
    return mix(samples[i], samples[i + 1], x - static_cast<double>(i));
}

// Matplotlib's viridis, magma (Nathaniel J. Smith, Stefan van der Walt and, for viridis, Eric
// Firing; CC0) and Google's Turbo (Anton Mikhailov, Apache-2.0), each sampled at t = i / 32 of
// its published 256-entry table (matplotlib's _viridis_data, _magma_data and _turbo_data, the
// last identical to Google's turbo_srgb_floats), scaled to 0..255 and rounded to 0.1. Entry k
// of a table sits at t = k / 255; samples between entries interpolate them linearly. With 33
// samples the ramp's 8-bit colours stay within 2 units per channel of every table entry (2.3 for
// turbo's sharper bends), which a 256-entry lookup per map would not improve visibly.
constexpr std::array<Rgb, 33> viridis_samples{{
    {68.1, 1.2, 84.0},    {70.6, 12.8, 95.8},   {72.0, 24.1, 106.3},  {72.1, 34.5, 115.5},
    {71.1, 44.6, 123.2},  {69.1, 54.4, 129.2},  {66.1, 63.9, 133.7},  {62.6, 73.1, 136.9},
    {58.7, 81.9, 139.1},  {54.8, 90.4, 140.5},  {51.0, 98.5, 141.4},  {47.5, 106.4, 142.0},
    {44.2, 114.1, 142.3}, {41.1, 121.6, 142.3}, {38.2, 129.1, 142.1}, {35.3, 136.6, 141.5},
    {32.7, 144.1, 140.5}, {30.8, 151.6, 138.8}, {30.7, 159.1, 136.2}, {33.4, 166.5, 132.8},
    {39.6, 173.8, 128.3}, {49.2, 180.9, 122.7}, {61.6, 187.8, 115.9}, {76.2, 194.4, 107.9},
    {92.5, 200.6, 98.6},  {110.4, 206.3, 88.0}, {129.6, 211.5, 76.3}, {149.8, 216.0, 63.5},
    {170.7, 219.9, 49.8}, {192.0, 223.1, 36.4}, {213.2, 226.0, 26.1}, {233.7, 228.5, 25.7},
    {253.3, 231.1, 36.7},
}};

constexpr std::array<Rgb, 33> magma_samples{{
    {0.4, 0.1, 3.5},       {3.5, 3.0, 17.4},      {10.0, 7.9, 33.9},     {18.8, 13.2, 51.5},
    {28.7, 16.7, 70.3},    {40.3, 17.4, 89.6},    {53.7, 15.9, 106.4},   {67.3, 15.3, 117.5},
    {80.3, 18.2, 123.6},   {92.9, 22.9, 126.9},   {105.3, 28.0, 128.6},  {117.7, 32.9, 129.4},
    {130.2, 37.6, 129.5},  {142.9, 42.0, 128.8},  {155.8, 46.1, 127.2},  {168.8, 50.3, 124.8},
    {181.9, 54.5, 121.4},  {194.8, 59.3, 117.1},  {207.4, 64.8, 111.7},  {219.3, 71.8, 105.6},
    {229.8, 80.7, 99.4},   {238.4, 92.0, 94.3},   {244.6, 105.4, 91.8},  {248.8, 120.1, 92.7},
    {251.4, 135.2, 96.9},  {253.0, 150.2, 103.8}, {253.9, 165.2, 112.8}, {254.3, 180.0, 123.3},
    {254.2, 194.6, 135.0}, {253.8, 209.2, 147.8}, {253.2, 223.8, 161.6}, {252.4, 238.3, 176.1},
    {251.7, 252.8, 191.1},
}};

constexpr std::array<Rgb, 33> turbo_samples{{
    {48.4, 18.3, 59.2},   {57.3, 41.6, 114.8},  {64.0, 64.2, 161.3},  {68.3, 86.0, 198.6},
    {70.4, 107.1, 226.9}, {70.3, 127.4, 246.0}, {66.1, 147.3, 254.6}, {54.9, 167.5, 250.1},
    {40.8, 187.0, 235.9}, {28.8, 204.9, 216.3}, {23.6, 220.2, 195.2}, {30.1, 232.1, 176.0},
    {49.0, 241.6, 152.8}, {76.3, 248.8, 126.3}, {107.4, 253.3, 99.8}, {137.7, 254.8, 76.6},
    {162.8, 252.7, 60.3}, {183.7, 246.5, 52.9}, {203.8, 236.6, 52.1}, {222.0, 223.6, 54.7},
    {236.9, 208.4, 57.6}, {247.5, 191.8, 57.7}, {253.0, 173.6, 52.5}, {254.1, 151.8, 44.0},
    {251.3, 128.0, 33.8}, {245.1, 104.2, 23.5}, {235.9, 82.3, 14.7},  {224.3, 64.3, 8.9},
    {209.9, 48.7, 5.0},   {192.4, 34.9, 2.4},   {172.0, 22.8, 1.1},   {148.7, 12.5, 1.2},
    {122.3, 4.0, 2.7},
}};

// Blue to red through near-white; mirrored stops have about the same luminance, so neither
// side of the middle looks more important.
constexpr std::array<Stop, 7> diverging_stops{{
    {0.00, {33, 46, 122}},
    {0.18, {59, 110, 184}},
    {0.36, {146, 186, 222}},
    {0.50, {242, 242, 240}},
    {0.64, {235, 166, 140}},
    {0.82, {196, 76, 62}},
    {1.00, {122, 16, 30}},
}};

// Below sea level (metres): the shallow end is light so coasts stand out.
constexpr std::array<Stop, 5> sea_stops{{
    {-6000, {8, 24, 76}},
    {-3000, {20, 62, 140}},
    {-1000, {38, 108, 186}},
    {-200, {86, 158, 218}},
    {0, {150, 204, 238}},
}};

// At and above sea level (metres): lowland green, tan and brown hills, grey rock, snow.
constexpr std::array<Stop, 8> land_stops{{
    {0, {64, 140, 72}},
    {300, {112, 166, 84}},
    {900, {196, 188, 122}},
    {1600, {170, 130, 82}},
    {2400, {132, 100, 72}},
    {3200, {128, 122, 116}},
    {3900, {178, 174, 170}},
    {4500, {255, 255, 255}},
}};

constexpr std::array<std::string_view, 6> names{"viridis",   "magma",   "turbo",
                                                "diverging", "terrain", "categorical"};
static_assert(names.size() == static_cast<std::size_t>(Colour_map_kind::categorical) + 1);

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

Srgb8 from_hsv(double h, double s, double v) {
    const double sector = h * 6.0;
    const int i = static_cast<int>(sector) % 6;
    const double f = sector - std::floor(sector);
    const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r = v, g = t, b = p;
    switch (i) {
    case 1:
        r = q, g = v, b = p;
        break;
    case 2:
        r = p, g = v, b = t;
        break;
    case 3:
        r = p, g = q, b = v;
        break;
    case 4:
        r = t, g = p, b = v;
        break;
    case 5:
        r = v, g = p, b = q;
        break;
    default:
        break;
    }
    const auto byte = [](double c) { return static_cast<std::uint8_t>(c * 255.0 + 0.5); };
    return {byte(r), byte(g), byte(b)};
}

} // namespace

Srgb8 viridis(double t) { return sampled(viridis_samples, t); }

Srgb8 magma(double t) { return sampled(magma_samples, t); }

Srgb8 turbo(double t) { return sampled(turbo_samples, t); }

Srgb8 diverging(double t) { return ramp(diverging_stops, std::isnan(t) ? 0.5 : t); }

Srgb8 terrain(double metres) {
    if (std::isnan(metres)) metres = 0.0;
    return metres < 0.0 ? ramp(sea_stops, metres) : ramp(land_stops, metres);
}

Srgb8 terrain_surface(double elevation, Surface surface, double water_level) {
    if (std::isnan(elevation)) elevation = 0.0;
    switch (surface) {
    case Surface::ocean:
        return ramp(sea_stops, std::min(elevation, -1.0));
    case Surface::lake: {
        // Lakes in their own blues, a little greener than the sea's and darker with depth, so a
        // shallow lake reads as water and is never mistaken for a continental shelf.
        const double depth = std::max(0.0, water_level - elevation);
        const double t = std::clamp(std::log10(1.0 + depth) / std::log10(2001.0), 0.0, 1.0);
        const auto mix = [t](double a, double b) {
            return static_cast<std::uint8_t>(std::lround(a + (b - a) * t));
        };
        return {mix(70, 15), mix(140, 55), mix(200, 120)};
    }
    case Surface::land:
        break;
    }
    return ramp(land_stops, std::max(elevation, 0.0));
}

Srgb8 categorical(std::int64_t id) {
    const std::uint64_t bits = splitmix64(static_cast<std::uint64_t>(id));
    const double hue = static_cast<double>(bits & 0xFFFF) / 65536.0;
    const double saturation = 0.45 + 0.4 * static_cast<double>((bits >> 16) & 0xFF) / 255.0;
    const double value = 0.65 + 0.3 * static_cast<double>((bits >> 24) & 0xFF) / 255.0;
    return from_hsv(hue, saturation, value);
}

double normalise(double value, double min, double max) {
    if (std::isnan(value)) return value;
    if (!(min < max) || !std::isfinite(max - min)) return 0.5;
    return std::clamp((value - min) / (max - min), 0.0, 1.0);
}

Srgb8 map_colour(Colour_map_kind kind, double value, double min, double max, double sea_level) {
    switch (kind) {
    case Colour_map_kind::viridis:
        return viridis(normalise(value, min, max));
    case Colour_map_kind::magma:
        return magma(normalise(value, min, max));
    case Colour_map_kind::turbo:
        return turbo(normalise(value, min, max));
    case Colour_map_kind::diverging:
        return diverging(normalise(value, min, max));
    case Colour_map_kind::terrain:
        return terrain(value - sea_level);
    case Colour_map_kind::categorical:
        // Beyond the int64 range llround is undefined, so such ids count as 0 like NaN does.
        if (!(std::abs(value) < 0x1p63)) return categorical(0);
        return categorical(static_cast<std::int64_t>(std::llround(value)));
    }
    return viridis(0.0);
}

std::string_view colour_map_name(Colour_map_kind kind) {
    const auto i = static_cast<std::size_t>(kind);
    return i < names.size() ? names[i] : std::string_view("unknown");
}

std::optional<Colour_map_kind> colour_map_from_name(std::string_view name) {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<Colour_map_kind>(i);
    return std::nullopt;
}

std::span<const std::string_view> colour_map_names() { return names; }

Colour_map_kind default_colour_map(const Layer_hints* hints, bool integer) {
    if (hints)
        if (const auto kind = colour_map_from_name(hints->colour_map)) return *kind;
    return integer ? Colour_map_kind::categorical : Colour_map_kind::viridis;
}

Srgb8 category_colour(const Layer_hints* hints, std::int64_t id) {
    if (hints)
        if (const Layer_category* c = hints->category(id)) return c->colour;
    return categorical(id);
}

} // namespace orbis
