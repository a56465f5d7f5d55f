// SPDX-License-Identifier: MIT
// Tests of the seeded gradient noise and its fractal sum: determinism, range, smoothness, stats.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <gtest/gtest.h>

#include "orbis/gen/noise.hpp"

namespace orbis::gen {
namespace {

/// Bound on the gradient norm of `Gradient_noise` at frequency 1: the norm of the per-axis worst
/// cases over all gradient choices, found on a fine grid of the cell, is 6.4952 before the
/// 1/1.0363539 normalisation, i.e. 6.27; rounded up.
constexpr double lipschitz_per_frequency = 6.5;

/// Test-only reproducible points; std::mt19937_64's raw output is fixed by the standard.
class Points {
public:
    explicit Points(std::uint64_t seed)
        : engine_(seed) {}

    double unit() { return static_cast<double>(engine_() >> 11) * 0x1p-53; }

    /// Uniform in the cube [-half_size, half_size]^3.
    glm::dvec3 in_cube(double half_size) {
        const double x = unit();
        const double y = unit();
        const double z = unit();
        return (glm::dvec3(x, y, z) * 2.0 - 1.0) * half_size;
    }

    /// Uniform on the unit sphere (rejection from the cube).
    glm::dvec3 on_sphere() {
        for (;;) {
            const glm::dvec3 p = in_cube(1.0);
            const double length = glm::length(p);
            if (length > 1e-3 && length <= 1.0) return p / length;
        }
    }

private:
    std::mt19937_64 engine_;
};

/// Golden-spiral points on the unit sphere: even coverage, so statistics converge quickly.
std::vector<glm::dvec3> spiral_points(int count) {
    std::vector<glm::dvec3> points;
    points.reserve(static_cast<std::size_t>(count));
    const double golden_angle = 2.39996322972865332;
    for (int i = 0; i < count; ++i) {
        const double y = 1.0 - (2.0 * i + 1.0) / count;
        const double r = std::sqrt(1.0 - y * y);
        points.emplace_back(std::cos(i * golden_angle) * r, y, std::sin(i * golden_angle) * r);
    }
    return points;
}

struct Moments {
    double mean;
    double standard_deviation;
};

template <class Field>
Moments moments(const Field& field, const std::vector<glm::dvec3>& points, double scale) {
    double sum = 0.0;
    double sum_of_squares = 0.0;
    for (const glm::dvec3& p : points) {
        const double value = field(p * scale);
        sum += value;
        sum_of_squares += value * value;
    }
    const double n = static_cast<double>(points.size());
    const double mean = sum / n;
    return {mean, std::sqrt(sum_of_squares / n - mean * mean)};
}

std::string refusal_message(const Noise_params& params) {
    try {
        const Fractal_noise noise(params);
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "no exception";
}

TEST(Noise, GradientIsDeterministicForASeed) {
    const Gradient_noise first(12345);
    const Gradient_noise second(12345);
    Points points(1);
    for (int i = 0; i < 10000; ++i) {
        const glm::dvec3 p = points.in_cube(300.0);
        ASSERT_EQ(first(p), second(p)) << i;
    }
}

TEST(Noise, GradientSeedsGiveDifferentFields) {
    const Gradient_noise first(1);
    const Gradient_noise second(2);
    Points points(2);
    int differing = 0;
    const int count = 10000;
    for (int i = 0; i < count; ++i) {
        const glm::dvec3 p = points.in_cube(50.0);
        differing += std::abs(first(p) - second(p)) > 1e-3;
    }
    EXPECT_GT(differing, count * 9 / 10);
}

TEST(Noise, FractalIsDeterministicForASeed) {
    const Noise_params params{.seed = 777, .octaves = 8, .frequency = 3.0};
    const Fractal_noise first(params);
    const Fractal_noise second(params);
    Points points(3);
    for (int i = 0; i < 10000; ++i) {
        const glm::dvec3 p = points.on_sphere();
        ASSERT_EQ(first(p), second(p)) << i;
    }
}

TEST(Noise, FractalSeedsGiveDifferentFields) {
    const Fractal_noise first({.seed = 1});
    const Fractal_noise second({.seed = 2});
    Points points(4);
    int differing = 0;
    const int count = 10000;
    for (int i = 0; i < count; ++i) {
        const glm::dvec3 p = points.on_sphere();
        differing += std::abs(first(p) - second(p)) > 1e-3;
    }
    EXPECT_GT(differing, count * 9 / 10);
}

TEST(Noise, MatchesRecordedValues) {
    // Pins the exact bits: any change to the shuffle, hashing, gradients or octave set-up (or a
    // platform computing differently) shows up here rather than as a silently different world.
    const Gradient_noise gradient(2024);
    EXPECT_EQ(gradient({0.5, 0.25, 0.125}), -0x1.82909971ad07bp-4);
    EXPECT_EQ(gradient({-3.7, 12.2, 100.9}), 0x1.202e817065dfep-3);
    EXPECT_EQ(gradient({1000.3, -2000.6, 0.01}), -0x1.20a664fb26c23p-1);
    const Fractal_noise fractal({.seed = 2024});
    EXPECT_EQ(fractal({0.6, 0.0, 0.8}), 0x1.7567939f7fdbep-2);
    EXPECT_EQ(fractal({-0.48, 0.6, -0.64}), 0x1.61a81cb6f3c1ep-6);
}

TEST(Noise, BatchEqualsOneByOneBitForBit) {
    // The batch path computes four points per vector where the processor allows; every value
    // must carry the same bits as operator()'s. Points on the sphere (what the modules ask for),
    // whole and negative coordinates, points far enough out that the octaves' lattice
    // coordinates pass the 2^62 clamp (both signs), and every batch size up to a few vectors, so
    // that the tail after the last full vector is covered too. (A fractal sum starts at +0, so
    // the sign of a zero inside one gradient evaluation cannot reach the output.)
    if (!Fractal_noise::evaluates_in_vectors())
        GTEST_LOG_(INFO) << "no vector path on this processor: the batch is the scalar loop";
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), wide(-1e6, 1e6);
    std::vector<glm::dvec3> points;
    for (int i = 0; i < 3000; ++i) {
        const glm::dvec3 p(unit(random), unit(random), unit(random));
        points.push_back(glm::length(p) > 0 ? p / glm::length(p) : p);
    }
    for (int i = 0; i < 500; ++i)
        points.emplace_back(wide(random), wide(random), wide(random));
    for (int i = 0; i < 200; ++i)
        points.emplace_back(std::round(wide(random)), -0.0, std::floor(unit(random) * 300.0));
    std::uniform_real_distribution<double> exponent(18.0, 21.0);
    for (int i = 0; i < 200; ++i) {
        const auto far = [&] {
            return (random() & 1 ? -1.0 : 1.0) * std::pow(10.0, exponent(random));
        };
        points.emplace_back(far(), far(), far());
    }
    points.emplace_back(0.0, -0.0, 0.0);
    points.emplace_back(-0.0, -0.0, -0.0);
    points.emplace_back(-1.0, 255.0, -256.0);
    points.emplace_back(1e17, -1e17, 3e19);
    points.emplace_back(std::nextafter(0.0, -1.0), 1e-300, -1e-300);
    for (const Noise_params& params :
         {Noise_params{.seed = 1}, Noise_params{.seed = 99, .octaves = 8, .frequency = 3.0},
          Noise_params{
              .seed = 5, .octaves = 1, .frequency = 0.37, .lacunarity = 2.9, .gain = 0.8}}) {
        const Fractal_noise noise(params);
        std::vector<double> batch(points.size());
        noise.evaluate(points, batch);
        for (std::size_t i = 0; i < points.size(); ++i)
            ASSERT_EQ(std::bit_cast<std::uint64_t>(batch[i]),
                      std::bit_cast<std::uint64_t>(noise(points[i])))
                << "point " << i << " seed " << params.seed;
        for (std::size_t n = 0; n <= 13; ++n) {
            std::vector<double> some(n, -7.0);
            noise.evaluate(std::span(points).subspan(100, n), some);
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(std::bit_cast<std::uint64_t>(some[i]),
                          std::bit_cast<std::uint64_t>(noise(points[100 + i])));
        }
    }
}

TEST(Noise, GradientStaysWithinUnitRange) {
    Points points(5);
    double largest = 0.0;
    for (std::uint64_t seed : {0u, 1u, 99u}) {
        const Gradient_noise noise(seed);
        for (int i = 0; i < 100000; ++i) {
            const double value = noise(points.in_cube(400.0));
            ASSERT_LE(std::abs(value), 1.0) << seed << " " << i;
            largest = std::max(largest, std::abs(value));
        }
    }
    // The normalisation must not squash the field either.
    EXPECT_GT(largest, 0.7);
}

TEST(Noise, FractalStaysWithinUnitRange) {
    Points points(6);
    const Noise_params cases[] = {
        {.seed = 5},
        {.seed = 6, .octaves = 1, .frequency = 10.0},
        {.seed = 7, .octaves = 16, .frequency = 0.5, .lacunarity = 1.9, .gain = 1.0},
        {.seed = 8, .octaves = 3, .frequency = 2.0, .lacunarity = 3.0, .gain = 0.1},
    };
    for (const Noise_params& params : cases) {
        const Fractal_noise noise(params);
        for (int i = 0; i < 100000; ++i) {
            const double value = noise(points.in_cube(2.0));
            ASSERT_LE(std::abs(value), 1.0) << params.seed << " " << i;
        }
    }
}

TEST(Noise, GradientIsZeroAtLatticePoints) {
    const Gradient_noise noise(31);
    for (int x = -300; x <= 300; x += 37) {
        for (int y = -5; y <= 5; ++y) {
            for (int z = 250; z <= 262; ++z)
                EXPECT_EQ(noise({x, y, z}), 0.0) << x << " " << y << " " << z;
        }
    }
}

TEST(Noise, GradientIsLipschitzContinuous) {
    const Gradient_noise noise(41);
    Points points(7);
    for (int i = 0; i < 100000; ++i) {
        glm::dvec3 p = points.in_cube(300.0);
        // Every tenth point sits on a cell face, where a broken fade or wrap would jump.
        if (i % 10 == 0) p.x = std::round(p.x);
        const glm::dvec3 step = glm::normalize(points.in_cube(1.0)) * 1e-4;
        const double change = std::abs(noise(p + step) - noise(p - step));
        ASSERT_LE(change, lipschitz_per_frequency * 2e-4 + 1e-12) << i;
    }
}

TEST(Noise, FractalIsLipschitzContinuous) {
    const Noise_params params{.seed = 43, .octaves = 6, .frequency = 2.0};
    const Fractal_noise noise(params);
    double weighted_frequency = 0.0;
    double amplitude_sum = 0.0;
    double frequency = params.frequency;
    double amplitude = 1.0;
    for (int k = 0; k < params.octaves; ++k) {
        weighted_frequency += amplitude * frequency;
        amplitude_sum += amplitude;
        frequency *= params.lacunarity;
        amplitude *= params.gain;
    }
    const double lipschitz = lipschitz_per_frequency * weighted_frequency / amplitude_sum;
    Points points(8);
    for (int i = 0; i < 100000; ++i) {
        const glm::dvec3 p = points.on_sphere();
        const glm::dvec3 step = glm::normalize(points.in_cube(1.0)) * 1e-5;
        ASSERT_LE(std::abs(noise(p + step) - noise(p)), lipschitz * 1e-5 + 1e-12) << i;
    }
}

TEST(Noise, SecondDerivativeIsContinuousAcrossCellFaces) {
    // The quintic fade is what makes this hold; a cubic fade jumps by O(1) here.
    const Gradient_noise noise(47);
    Points points(9);
    const double h = 1e-4;
    for (int i = 0; i < 2000; ++i) {
        const glm::dvec3 axis = i % 3 == 0   ? glm::dvec3(1, 0, 0)
                                : i % 3 == 1 ? glm::dvec3(0, 1, 0)
                                             : glm::dvec3(0, 0, 1);
        glm::dvec3 face = points.in_cube(100.0);
        face = face * (1.0 - axis) + glm::round(face) * axis;
        const auto f = [&](double t) { return noise(face + axis * t); };
        const double left = (f(-2 * h) - 2 * f(-h) + f(0)) / (h * h);
        const double right = (f(0) - 2 * f(h) + f(2 * h)) / (h * h);
        ASSERT_LE(std::abs(left - right), 0.1) << i;
    }
}

TEST(Noise, GradientRepeatsEvery256Cells) {
    const Gradient_noise noise(53);
    Points points(10);
    for (int i = 0; i < 1000; ++i) {
        const glm::dvec3 p = points.in_cube(100.0);
        EXPECT_NEAR(noise(p), noise(p + glm::dvec3(256.0, -512.0, 768.0)), 1e-9) << i;
    }
}

TEST(Noise, NanInputGivesNan) {
    const Gradient_noise noise(59);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(std::isnan(noise({nan, 0.5, 0.5})));
    EXPECT_TRUE(std::isnan(noise({0.5, 0.5, nan})));
    EXPECT_TRUE(std::isnan(Fractal_noise({})({0.0, nan, 1.0})));
}

TEST(Noise, GradientStatisticsOnTheSphere) {
    const std::vector<glm::dvec3> points = spiral_points(200000);
    for (std::uint64_t seed : {3u, 4u, 5u}) {
        const Moments m = moments(Gradient_noise(seed), points, 16.0);
        EXPECT_NEAR(m.mean, 0.0, 0.02) << seed;
        EXPECT_GT(m.standard_deviation, 0.18) << seed;
        EXPECT_LT(m.standard_deviation, 0.32) << seed;
    }
}

TEST(Noise, FractalStatisticsOnTheSphere) {
    const std::vector<glm::dvec3> points = spiral_points(200000);
    for (std::uint64_t seed : {3u, 4u, 5u}) {
        const Moments m = moments(Fractal_noise({.seed = seed, .frequency = 4.0}), points, 1.0);
        EXPECT_NEAR(m.mean, 0.0, 0.05) << seed;
        EXPECT_GT(m.standard_deviation, 0.1) << seed;
        EXPECT_LT(m.standard_deviation, 0.3) << seed;
    }
}

TEST(Noise, MoreOctavesAddFineDetail) {
    // Octaves must really be summed at growing frequency: relative to its spread, the field
    // changes faster over a short step (about 2.1 times for these parameters).
    Points points(11);
    std::vector<glm::dvec3> starts;
    std::vector<glm::dvec3> steps;
    for (int i = 0; i < 20000; ++i) {
        starts.push_back(points.on_sphere());
        steps.push_back(glm::normalize(points.in_cube(1.0)) * 1e-3);
    }
    const auto relative_roughness = [&](int octaves) {
        const Fractal_noise noise({.seed = 61, .octaves = octaves, .frequency = 2.0});
        double change = 0.0;
        double square = 0.0;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            const double value = noise(starts[i]);
            change += std::abs(noise(starts[i] + steps[i]) - value);
            square += value * value;
        }
        return change / std::sqrt(square * static_cast<double>(starts.size()));
    };
    EXPECT_GT(relative_roughness(6), 1.5 * relative_roughness(1));
}

TEST(Noise, RefusesInvalidParametersNamingThem) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::pair<Noise_params, std::string> cases[] = {
        {{.octaves = 0}, "octaves"},
        {{.octaves = 17}, "octaves"},
        {{.octaves = -3}, "octaves"},
        {{.frequency = 0.0}, "frequency"},
        {{.frequency = -1.0}, "frequency"},
        {{.frequency = inf}, "frequency"},
        {{.frequency = nan}, "frequency"},
        {{.lacunarity = 0.0}, "lacunarity"},
        {{.lacunarity = -2.0}, "lacunarity"},
        {{.lacunarity = inf}, "lacunarity"},
        {{.lacunarity = nan}, "lacunarity"},
        {{.gain = 0.0}, "gain"},
        {{.gain = -0.5}, "gain"},
        {{.gain = 1.5}, "gain"},
        {{.gain = nan}, "gain"},
        {{.octaves = 16, .frequency = 1e300, .lacunarity = 1e10}, "lacunarity^(octaves - 1)"},
    };
    for (const auto& [params, name] : cases) {
        const std::string message = refusal_message(params);
        EXPECT_NE(message.find(name), std::string::npos) << name << ": " << message;
    }
    EXPECT_NO_THROW(Fractal_noise({.octaves = 1}));
    EXPECT_NO_THROW(Fractal_noise({.octaves = 16, .gain = 1.0}));
}

} // namespace
} // namespace orbis::gen
