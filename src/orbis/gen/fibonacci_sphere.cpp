// SPDX-License-Identifier: MIT
#include "orbis/gen/fibonacci_sphere.hpp"

#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/splitmix64.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace orbis::gen {

std::vector<glm::vec3> fibonacci_points(const Fibonacci_params& params) {
    if (params.count < 4) {
        throw std::invalid_argument("fibonacci_points: count must be at least 4, got " +
                                    std::to_string(params.count));
    }
    if (!(params.perturbation >= 0.f && params.perturbation < 1.f)) {
        throw std::invalid_argument("fibonacci_points: perturbation must be in [0, 1), got " +
                                    std::to_string(params.perturbation));
    }
    if (!std::isfinite(params.radius) || !(params.radius > 0.f)) {
        throw std::invalid_argument("fibonacci_points: radius must be finite and > 0, got " +
                                    std::to_string(params.radius));
    }

    const double golden_angle = 2.0 * std::numbers::pi * (2.0 - std::numbers::phi);
    const double last = static_cast<double>(params.count - 1);
    const double radius = params.radius;
    const double perturbation = params.perturbation;
    // The product below can round up to `perturbation` itself; the interval is half-open.
    const double largest_offset = std::nextafter(perturbation, 0.0);
    // Two threads, each with the generator where one pass would have it at its first point:
    // splitmix64's state after k draws is seed + k * increment, and a point takes one draw.
    std::vector<glm::vec3> points(params.count);
    parallel_ranges(params.count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        detail::Splitmix64 random = perturbation > 0.0
                                        ? detail::Splitmix64::after_draws(params.seed, begin)
                                        : detail::Splitmix64(params.seed);
        for (std::uint32_t i = begin; i < end; ++i) {
            double offset = 0.0;
            if (perturbation > 0.0) {
                offset = std::min(random.next_unit() * perturbation, largest_offset);
            }
            const double ii = std::min(static_cast<double>(i) + offset, last);
            const double y = 1.0 - 2.0 * ii / last;
            const double r = std::sqrt(std::max(0.0, 1.0 - y * y));
            const double theta = ii * golden_angle;
            points[i] = glm::vec3(static_cast<float>(std::cos(theta) * r * radius),
                                  static_cast<float>(y * radius),
                                  static_cast<float>(std::sin(theta) * r * radius));
        }
    });
    return points;
}

} // namespace orbis::gen
