// SPDX-License-Identifier: MIT
// Nice ticks: the step nearest in ratio to range / target among 1, 2, 2.5 and 5 times a power of
// ten, with every tick computed from an integer multiple and an exact power of ten.
#include "orbis/render/ticks.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>

namespace orbis::render {

namespace {

double pow10(int n) { return std::pow(10.0, n); }

// x * 10^exponent; negative exponents divide, because 10^n is exact up to n = 22 while 10^-n
// never is: 3 / 10 gives 0.3 where 3 * 0.1 gives 0.30000000000000004. Powers past 10^300 are
// applied in parts, since 10^309 overflows while x * 10^309 may not (x subnormal).
double scale(double x, int exponent) {
    if (exponent > 300) return scale(x * 1e300, exponent - 300);
    if (exponent < -300) return scale(x / 1e300, exponent + 300);
    return exponent >= 0 ? x * pow10(exponent) : x / pow10(-exponent);
}

// A tick step of mantissa * 10^exponent, the mantissa one of 1, 2, 2.5 and 5.
struct Step {
    double mantissa;
    int exponent;

    double value() const { return scale(mantissa, exponent); }
    double tick(double k) const { return scale(k * mantissa, exponent) + 0.0; } // no -0
};

// The next smaller nice step.
Step smaller(Step s) {
    if (s.mantissa == 1.0) return {5.0, s.exponent - 1};
    if (s.mantissa == 2.0) return {1.0, s.exponent};
    if (s.mantissa == 2.5) return {2.0, s.exponent};
    return {2.5, s.exponent};
}

// The nice step nearest to 10^log_step in ratio: the thresholds are the geometric means of
// neighbouring mantissas, so that a wanted step of 0.2 stays 0.2 and 0.24 becomes 0.25.
Step nearest_step(double log_step) {
    const double e = std::floor(log_step);
    const double f = std::pow(10.0, log_step - e); // in [1, 10)
    const int exponent = static_cast<int>(e);
    if (f < std::sqrt(2.0)) return {1.0, exponent};
    if (f < std::sqrt(5.0)) return {2.0, exponent};
    if (f < std::sqrt(12.5)) return {2.5, exponent};
    if (f < std::sqrt(50.0)) return {5.0, exponent};
    return {1.0, exponent + 1};
}

// Multiples beyond 2^52 are no longer distinct integers in a double.
constexpr double max_multiple = 0x1p52;
// How far past the range a tick may lie, as a fraction of the step: absorbs the rounding of
// lo / step when lo is itself a multiple of the step (0.3 / 0.1 = 2.9999999999999996).
constexpr double tolerance = 1e-9;

// `v` with `decimals` decimals, trailing zeros and a trailing point removed, never "-0".
std::string fixed(double v, int decimals) {
    std::array<char, 400> buf; // 309 integer digits, a sign, a point and 17 decimals at most
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed,
                                 std::clamp(decimals, 0, 17));
    std::string s(buf.data(), r.ptr);
    if (s.find('.') != std::string::npos) {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

// The fewest decimals that write multiples of `step` (> 0) exactly: 0 for 5, 1 for 0.2,
// 2 for 0.25; at most 17.
int decimals_for(double step) {
    for (int d = 0; d < 17; ++d) {
        const double x = scale(step, d);
        if (std::abs(x - std::round(x)) <= 1e-9 * x) return d;
    }
    return 17;
}

// v (finite, non-zero) as mantissa "e" exponent with 1 <= |mantissa| < 10, the mantissa with
// `decimals(power)` decimals where power is the value's exponent.
template <class Decimals>
std::string exponent_form(double v, Decimals decimals) {
    int e = static_cast<int>(std::floor(std::log10(std::abs(v))));
    // log10 and rounding to the decimals can each be one off near powers of ten: a mantissa of
    // 9.9996 printed with 3 decimals is "10", so move the exponent until the text is in range.
    for (int attempt = 0; attempt < 3; ++attempt) {
        const std::string m = fixed(scale(v, -e), decimals(e));
        double parsed = 0.0;
        std::from_chars(m.data(), m.data() + m.size(), parsed);
        if (std::abs(parsed) >= 10.0) {
            ++e;
        } else if (std::abs(parsed) < 1.0 && attempt == 0) {
            --e;
        } else {
            return m + "e" + std::to_string(e);
        }
    }
    return fixed(scale(v, -e), decimals(e)) + "e" + std::to_string(e);
}

} // namespace

std::vector<double> nice_ticks(double min, double max, int target) {
    if (!std::isfinite(min) || !std::isfinite(max)) return {};
    const double lo = std::min(min, max), hi = std::max(min, max);
    if (lo == hi) return {lo};
    target = std::clamp(target, 1, 1000);
    // Halves, and the step in logarithms, so that a range wider than the largest double (from
    // -1e308 to 1e308) needs no special case.
    const double half_span = hi * 0.5 - lo * 0.5;
    Step step = nearest_step(std::log10(half_span) + std::log10(2.0 / target));
    while (!std::isfinite(step.value()))
        step = smaller(step);
    // With a small target the nearest nice step may leave fewer than two ticks in the range
    // (0.15 to 0.25 with a step of 0.1 holds only 0.2); smaller steps follow, and any step of at
    // most half the range holds two.
    for (int attempt = 0; attempt < 8; ++attempt, step = smaller(step)) {
        const double s = step.value();
        const double first = std::ceil(lo / s - tolerance);
        const double last = std::floor(hi / s + tolerance);
        if (!(std::abs(first) <= max_multiple && std::abs(last) <= max_multiple)) break;
        if (last - first < 1.0) continue;
        std::vector<double> ticks;
        ticks.reserve(static_cast<std::size_t>(last - first) + 1);
        for (double k = first; k <= last; ++k)
            ticks.push_back(step.tick(k));
        // Steps near the resolution of the bounds round neighbouring multiples together.
        if (std::adjacent_find(ticks.begin(), ticks.end(), std::greater_equal<>()) != ticks.end())
            break;
        return ticks;
    }
    return {lo, hi};
}

std::string format_tick(double value, double step) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (value == 0.0) return "0";
    if (!(step > 0.0 && std::isfinite(step))) {
        // 15 significant digits: every decimal number of that many digits survives the trip
        // through a double.
        const double magnitude = std::abs(value);
        if (magnitude >= 1e6 || magnitude < 1e-4)
            return exponent_form(value, [](int) { return 14; });
        return fixed(value, 14 - static_cast<int>(std::floor(std::log10(magnitude))));
    }
    // Rounding noise around zero (a tick computed as 1e-17 instead of 0) prints as 0.
    if (std::abs(value) < step * 1e-9) return "0";
    if (std::abs(value) >= 1e6 || step < 1e-4)
        return exponent_form(value, [step](int e) { return decimals_for(scale(step, -e)); });
    return fixed(value, decimals_for(step));
}

} // namespace orbis::render
