// SPDX-License-Identifier: MIT
// Tests of legend ticks: the properties of nice_ticks over many ranges, and tick labels.
#include "orbis/render/ticks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace orbis::render {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

// Whether `step` is 1, 2, 2.5 or 5 times a power of ten, up to a relative `tolerance`.
bool is_nice(double step, double tolerance) {
    const double power = std::pow(10.0, std::floor(std::log10(step)));
    const double mantissa = step / power;
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (std::abs(mantissa - m) <= tolerance * m) return true;
    return false;
}

// Checks every promise of nice_ticks for one range and returns a description of the first
// broken one, or "".
std::string check(double min, double max, int target) {
    const std::vector<double> ticks = nice_ticks(min, max, target);
    std::ostringstream why;
    why.precision(17);
    why << "[" << min << ", " << max << "] target " << target << ": ";
    const double lo = std::min(min, max), hi = std::max(min, max);
    if (lo == hi) return ticks == std::vector<double>{lo} ? "" : why.str() + "not {min}";
    if (ticks.size() < 2) return why.str() + "fewer than 2 ticks";
    // Differences of ticks are exact only up to the rounding of values of the range's magnitude.
    const double slack =
        8 * std::numeric_limits<double>::epsilon() * std::max(std::abs(lo), std::abs(hi));
    const double step = ticks[1] - ticks[0];
    if (!is_nice(step, 1e-9 + slack / step))
        return why.str() + "step " + std::to_string(step) + " is not nice";
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        if (ticks[i] < lo - 1e-9 * step || ticks[i] > hi + 1e-9 * step)
            return why.str() + "tick outside the range";
        if (i > 0 && !(ticks[i] > ticks[i - 1])) return why.str() + "not strictly increasing";
        if (i > 0 && std::abs((ticks[i] - ticks[i - 1]) - step) > 1e-9 * step + slack)
            return why.str() + "not evenly spaced";
    }
    // Ticks every step cover the range: no room for another tick at either end.
    if (ticks.front() - step >= lo + 1e-9 * step || ticks.back() + step <= hi - 1e-9 * step)
        return why.str() + "a tick is missing at an end";
    // "About target": the step is near range / target (in halves, so that a range wider than
    // the largest double has a finite ratio). It can be up to about 4 times smaller when the
    // nearest nice step left fewer than two ticks in the range.
    const double wanted_per_step = (hi * 0.5 - lo * 0.5) / step * 2.0 / std::clamp(target, 1, 1000);
    // Steps near the resolution of doubles of the range's magnitude are exempt: there a nice step
    // need not exist (1e15 to 1e15 + 1 in fifths).
    const bool resolution_limited = (hi - lo) / std::clamp(target, 1, 1000) < 1e6 * slack;
    if (!resolution_limited && (wanted_per_step > 4.5 || wanted_per_step < 1 / 1.5))
        return why.str() + "step " + std::to_string(step) + " is far from range / target";
    return "";
}

TEST(Ticks, UnitRangeGivesFifths) {
    const std::vector<double> ticks = nice_ticks(0.0, 1.0);
    const std::vector<std::string> want = {"0", "0.2", "0.4", "0.6", "0.8", "1"};
    ASSERT_EQ(ticks.size(), want.size());
    for (std::size_t i = 0; i < ticks.size(); ++i) {
        EXPECT_NEAR(ticks[i], 0.2 * static_cast<double>(i), 1e-12);
        EXPECT_EQ(format_tick(ticks[i], ticks[1] - ticks[0]), want[i]);
    }
}

TEST(Ticks, ReadableExamples) {
    // Elevations in metres.
    std::vector<std::string> labels;
    std::vector<double> ticks = nice_ticks(-6200.0, 4700.0);
    for (const double t : ticks)
        labels.push_back(format_tick(t, ticks[1] - ticks[0]));
    EXPECT_EQ(labels, (std::vector<std::string>{"-6000", "-4000", "-2000", "0", "2000", "4000"}));

    // A quarter step when it fits the target best.
    ticks = nice_ticks(0.0, 10.0, 4);
    labels.clear();
    for (const double t : ticks)
        labels.push_back(format_tick(t, ticks[1] - ticks[0]));
    EXPECT_EQ(labels, (std::vector<std::string>{"0", "2.5", "5", "7.5", "10"}));

    // A narrow range away from zero keeps the decimals the step needs.
    ticks = nice_ticks(0.31, 0.39, 4);
    labels.clear();
    for (const double t : ticks)
        labels.push_back(format_tick(t, ticks[1] - ticks[0]));
    EXPECT_EQ(labels, (std::vector<std::string>{"0.32", "0.34", "0.36", "0.38"}));
}

TEST(Ticks, PropertiesHoldOverManyRanges) {
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-12, 12), targets(1, 12);
    for (int i = 0; i < 20000; ++i) {
        const double scale = std::pow(10.0, exponent(rng));
        // Ranges around zero, and narrow ranges far from it.
        const double centre = (i % 3 == 0 ? 1000.0 : 1.0) * scale * unit(rng);
        const double a = centre + scale * unit(rng), b = centre + scale * unit(rng);
        const std::string problem = check(a, b, targets(rng));
        ASSERT_EQ(problem, "");
    }
    for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{0.0, 1.0},
                                                                       {-1.0, 1.0},
                                                                       {0.15, 0.25},
                                                                       {1.0, 1.0 + 1e-9},
                                                                       {-3e-7, 2e-7},
                                                                       {1e15, 1e15 + 1.0},
                                                                       {-1e308, 1e308},
                                                                       {0.0, 1e308},
                                                                       {7.0, 8.0}})
        for (const int target : {1, 2, 3, 5, 10, 50})
            EXPECT_EQ(check(lo, hi, target), "");
}

TEST(Ticks, DegenerateInputs) {
    EXPECT_EQ(nice_ticks(3.5, 3.5), std::vector<double>{3.5});
    EXPECT_TRUE(nice_ticks(nan, 1.0).empty());
    EXPECT_TRUE(nice_ticks(0.0, nan).empty());
    EXPECT_TRUE(nice_ticks(0.0, inf).empty());
    EXPECT_TRUE(nice_ticks(-inf, 0.0).empty());
    // Reversed bounds mean the same range.
    EXPECT_EQ(nice_ticks(1.0, 0.0), nice_ticks(0.0, 1.0));
    // Out-of-range targets are clamped, not refused.
    EXPECT_EQ(nice_ticks(0.0, 1.0, 0), nice_ticks(0.0, 1.0, 1));
    EXPECT_GE(nice_ticks(0.0, 1.0, -5).size(), 2u);
    EXPECT_LE(nice_ticks(0.0, 1.0, 1'000'000).size(), 2000u);
    // Subnormal ranges, and a range two units in the last place wide, still get two ticks.
    const std::vector<double> subnormal = nice_ticks(5e-324, 1e-320);
    ASSERT_GE(subnormal.size(), 2u);
    EXPECT_GE(subnormal.front(), 5e-324);
    EXPECT_LE(subnormal.back(), 1e-320);
    const double one_up = std::nextafter(std::nextafter(1.0, 2.0), 2.0);
    const std::vector<double> tiny = nice_ticks(1.0, one_up);
    ASSERT_GE(tiny.size(), 2u);
    EXPECT_GE(tiny.front(), 1.0);
    EXPECT_LE(tiny.back(), one_up);
}

TEST(Ticks, FormatUsesTheStepsDecimals) {
    EXPECT_EQ(format_tick(0.25, 0.25), "0.25");
    EXPECT_EQ(format_tick(0.5, 0.25), "0.5");
    EXPECT_EQ(format_tick(3.0, 1.0), "3");
    EXPECT_EQ(format_tick(0.1 * 3, 0.1), "0.3");
    EXPECT_EQ(format_tick(1500.0, 500.0), "1500");
    EXPECT_EQ(format_tick(-0.75, 0.25), "-0.75");
    EXPECT_EQ(format_tick(-0.0, 0.5), "0");
    EXPECT_EQ(format_tick(-1e-17, 0.1), "0");
    EXPECT_EQ(format_tick(0.0005, 0.0005), "0.0005");
}

TEST(Ticks, FormatUsesExponentsForLargeValuesAndTinySteps) {
    EXPECT_EQ(format_tick(2.5e6, 2.5e6), "2.5e6");
    EXPECT_EQ(format_tick(1e7, 2.5e6), "1e7");
    EXPECT_EQ(format_tick(-3e9, 1e9), "-3e9");
    EXPECT_EQ(format_tick(999999.0, 1.0), "999999");
    EXPECT_EQ(format_tick(1.25e6, 2.5e5), "1.25e6");
    EXPECT_EQ(format_tick(-4e-5, 2e-5), "-4e-5");
    EXPECT_EQ(format_tick(2.5e-5, 2.5e-5), "2.5e-5");
    EXPECT_EQ(format_tick(0.0, 2e-5), "0");
    // Near a power of ten the mantissa stays below 10.
    EXPECT_EQ(format_tick(9.99999e6, 1e6), "1e7");
}

TEST(Ticks, FormatWithoutAUsableStep) {
    EXPECT_EQ(format_tick(0.1, 0.0), "0.1");
    EXPECT_EQ(format_tick(1.0 / 3.0, nan), "0.333333333333333");
    EXPECT_EQ(format_tick(-42.0, -1.0), "-42");
    EXPECT_EQ(format_tick(1.5e20, inf), "1.5e20");
    EXPECT_EQ(format_tick(nan, 1.0), "nan");
    EXPECT_EQ(format_tick(inf, 1.0), "inf");
    EXPECT_EQ(format_tick(-inf, 1.0), "-inf");
}

TEST(Ticks, LabelsOfTicksAreDistinct) {
    // Whatever the range, neighbouring ticks never print the same.
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-9, 12);
    for (int i = 0; i < 2000; ++i) {
        const double scale = std::pow(10.0, exponent(rng));
        const double a = scale * unit(rng), b = a + scale * (1.0 + unit(rng));
        const std::vector<double> ticks = nice_ticks(a, b);
        ASSERT_GE(ticks.size(), 2u);
        const double step = ticks[1] - ticks[0];
        for (std::size_t k = 1; k < ticks.size(); ++k)
            ASSERT_NE(format_tick(ticks[k - 1], step), format_tick(ticks[k], step))
                << a << " .. " << b;
    }
}

} // namespace
} // namespace orbis::render
