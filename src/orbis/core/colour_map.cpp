// SPDX-License-Identifier: MIT
// Colour maps as piecewise-linear ramps through control points, and hashed categorical colours.
#include "orbis/core/colour_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace orbis {

namespace {

struct Stop {
    double at;
    double r, g, b;
};

// Linear in sRGB between the stops; positions outside the first and last stop take their
// colours. The stops are close enough that linear sRGB steps stay perceptually even.
template <std::size_t N>
Srgb8 ramp(const std::array<Stop, N>& stops, double x) {
    if (!(x > stops.front().at)) return {stops.front().r, stops.front().g, stops.front().b};
    if (x >= stops.back().at) return {stops.back().r, stops.back().g, stops.back().b};
    std::size_t i = 1;
    while (stops[i].at < x)
        ++i;
    const Stop& a = stops[i - 1];
    const Stop& b = stops[i];
    const double t = (x - a.at) / (b.at - a.at);
    // Rounds by truncating x + 0.5: the result lies in [0, 255], and std::lround is a call.
    const auto mix = [t](double p, double q) {
        return static_cast<std::uint8_t>(p + (q - p) * t + 0.5);
    };
    return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

// Nine stops, chosen by eye along viridis's path from purple through blue and green to yellow,
// with luminance rising at every stop.
constexpr std::array<Stop, 9> viridis_stops{{
    {0.000, 68, 1, 84},
    {0.125, 71, 44, 122},
    {0.250, 59, 81, 139},
    {0.375, 44, 113, 142},
    {0.500, 33, 144, 141},
    {0.625, 39, 173, 129},
    {0.750, 92, 200, 99},
    {0.875, 170, 220, 50},
    {1.000, 253, 231, 37},
}};

// Blue to red through near-white; mirrored stops have about the same luminance, so neither
// side of the middle looks more important.
constexpr std::array<Stop, 7> diverging_stops{{
    {0.00, 33, 46, 122},
    {0.18, 59, 110, 184},
    {0.36, 146, 186, 222},
    {0.50, 242, 242, 240},
    {0.64, 235, 166, 140},
    {0.82, 196, 76, 62},
    {1.00, 122, 16, 30},
}};

// Below sea level (metres): the shallow end is light so coasts stand out.
constexpr std::array<Stop, 5> sea_stops{{
    {-6000, 8, 24, 76},
    {-3000, 20, 62, 140},
    {-1000, 38, 108, 186},
    {-200, 86, 158, 218},
    {0, 150, 204, 238},
}};

// At and above sea level (metres): lowland green, tan and brown hills, grey rock, snow.
constexpr std::array<Stop, 8> land_stops{{
    {0, 64, 140, 72},
    {300, 112, 166, 84},
    {900, 196, 188, 122},
    {1600, 170, 130, 82},
    {2400, 132, 100, 72},
    {3200, 128, 122, 116},
    {3900, 178, 174, 170},
    {4500, 255, 255, 255},
}};

constexpr std::array<std::string_view, 4> names{"viridis", "diverging", "terrain", "categorical"};

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

Srgb8 viridis(double t) { return ramp(viridis_stops, std::isnan(t) ? 0.0 : t); }

Srgb8 diverging(double t) { return ramp(diverging_stops, std::isnan(t) ? 0.5 : t); }

Srgb8 terrain(double metres) {
    if (std::isnan(metres)) metres = 0.0;
    return metres < 0.0 ? ramp(sea_stops, metres) : ramp(land_stops, metres);
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

} // namespace orbis
