// SPDX-License-Identifier: MIT
// Seeded 3D gradient noise and its fractal sum (fBm), identical on every platform.
#include "orbis/gen/noise.hpp"

#include "orbis/gen/splitmix64.hpp"

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace orbis::gen {

namespace {

/// Largest |sum| any choice of edge gradients reaches inside a cell, rounded up from
/// 1.0363538112118 (an exhaustive search of the cell, maximising every corner's term
/// independently); dividing by it is what guarantees the [-1, 1] range.
constexpr double largest_raw_value = 1.0363539;
constexpr double value_scale = 1.0 / largest_raw_value;

/// The 12 edge midpoints of the cube: equal length, no axis favoured, and cheap dot products.
constexpr double gradients[12][3] = {
    {1, 1, 0},  {-1, 1, 0},  {1, -1, 0}, {-1, -1, 0}, {1, 0, 1},  {-1, 0, 1},
    {1, 0, -1}, {-1, 0, -1}, {0, 1, 1},  {0, -1, 1},  {0, 1, -1}, {0, -1, -1},
};

/// 6t^5 - 15t^4 + 10t^3: first and second derivatives vanish at 0 and 1, hence C2 noise.
inline double fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }

inline double lerp(double t, double a, double b) { return a + t * (b - a); }

/// Gradient of each hash value, `hash % 12`: four gradients are favoured by 22:21, far less than
/// by Perlin's `hash & 15` (2:1). Tabulated (6 KiB) so the hot path has no division.
struct Hash_gradients {
    double of[256][3];
};

constexpr Hash_gradients make_hash_gradients() {
    Hash_gradients table{};
    for (int hash = 0; hash < 256; ++hash) {
        for (int axis = 0; axis < 3; ++axis)
            table.of[hash][axis] = gradients[hash % 12][axis];
    }
    return table;
}

constexpr Hash_gradients hash_gradients = make_hash_gradients();

/// Dot product of the gradient picked by `hash` with the offset from its lattice corner.
inline double corner(unsigned hash, double x, double y, double z) {
    const double* g = hash_gradients.of[hash];
    return g[0] * x + g[1] * y + g[2] * z;
}

/// Lattice cell index (mod 256) and position inside the cell along one axis.
struct Axis {
    unsigned cell;
    double fraction;
};

inline Axis split(double x) {
    // Clamping keeps the integer conversion defined for huge and NaN inputs; the fraction still
    // uses x, so NaN propagates to the result.
    constexpr double limit = 0x1p62;
    const double clamped = x > -limit ? (x < limit ? x : limit) : -limit;
    auto whole = static_cast<std::int64_t>(clamped);
    // Conversion truncates toward zero; step down for negative non-integers, without a branch
    // that random inputs would mispredict.
    whole -= static_cast<std::int64_t>(static_cast<double>(whole) > clamped);
    return {static_cast<unsigned>(whole & 255), x - static_cast<double>(whole)};
}

[[noreturn]] void refuse(const std::string& what, double value) {
    std::ostringstream message;
    message << "Fractal_noise: " << what << ", got " << value;
    throw std::invalid_argument(message.str());
}

} // namespace

Gradient_noise::Gradient_noise(std::uint64_t seed) {
    std::array<std::uint16_t, 256> table{};
    std::iota(table.begin(), table.end(), std::uint16_t{0});
    detail::Splitmix64 random(seed);
    for (std::uint32_t i = 255; i > 0; --i) {
        const std::uint32_t j = random.next_below(i + 1);
        std::swap(table[i], table[j]);
    }
    for (std::size_t i = 0; i < 512; ++i)
        perm_[i] = table[i & 255];
}

double Gradient_noise::operator()(const glm::dvec3& p) const {
    const Axis ax = split(p.x);
    const Axis ay = split(p.y);
    const Axis az = split(p.z);
    const double x = ax.fraction;
    const double y = ay.fraction;
    const double z = az.fraction;

    const unsigned a = perm_[ax.cell] + ay.cell;
    const unsigned b = perm_[ax.cell + 1] + ay.cell;
    const unsigned aa = perm_[a] + az.cell;
    const unsigned ab = perm_[a + 1] + az.cell;
    const unsigned ba = perm_[b] + az.cell;
    const unsigned bb = perm_[b + 1] + az.cell;

    const double u = fade(x);
    const double v = fade(y);
    const double w = fade(z);

    const double x1 = x - 1.0;
    const double y1 = y - 1.0;
    const double z1 = z - 1.0;
    const double near_z = lerp(v, lerp(u, corner(perm_[aa], x, y, z), corner(perm_[ba], x1, y, z)),
                               lerp(u, corner(perm_[ab], x, y1, z), corner(perm_[bb], x1, y1, z)));
    const double far_z =
        lerp(v, lerp(u, corner(perm_[aa + 1], x, y, z1), corner(perm_[ba + 1], x1, y, z1)),
             lerp(u, corner(perm_[ab + 1], x, y1, z1), corner(perm_[bb + 1], x1, y1, z1)));
    return lerp(w, near_z, far_z) * value_scale;
}

Fractal_noise::Fractal_noise(const Noise_params& params)
    : params_(params)
    , noise_(params.seed) {
    if (params.octaves < 1 || params.octaves > max_octaves) {
        refuse("octaves must be in [1, " + std::to_string(max_octaves) + "]", params.octaves);
    }
    if (!std::isfinite(params.frequency) || !(params.frequency > 0.0)) {
        refuse("frequency must be finite and > 0", params.frequency);
    }
    if (!std::isfinite(params.lacunarity) || !(params.lacunarity > 0.0)) {
        refuse("lacunarity must be finite and > 0", params.lacunarity);
    }
    if (!(params.gain > 0.0 && params.gain <= 1.0)) {
        refuse("gain must be in (0, 1]", params.gain);
    }

    // A stream separate from the permutation's, so rotations are not correlated with the table.
    detail::Splitmix64 random(params.seed ^ 0x6a09e667f3bcc909ull);
    double frequency = params.frequency;
    double amplitude = 1.0;
    double amplitude_sum = 0.0;
    for (int k = 0; k < params.octaves; ++k) {
        if (!std::isfinite(frequency) || !(frequency > 0.0)) {
            refuse("frequency * lacunarity^(octaves - 1) must be finite and > 0", frequency);
        }
        // A random integer quaternion gives a rotation from +, -, *, / alone, each correctly
        // rounded, so unlike sin/cos from libm it cannot make platforms disagree.
        double q0 = 0, q1 = 0, q2 = 0, q3 = 0, norm = 0;
        while (norm == 0.0) {
            q0 = random.next_small();
            q1 = random.next_small();
            q2 = random.next_small();
            q3 = random.next_small();
            norm = q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3;
        }
        const double scale = frequency / norm;
        Octave& octave = octaves_[static_cast<std::size_t>(k)];
        octave.matrix = {
            (q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3) * scale,
            2.0 * (q1 * q2 - q0 * q3) * scale,
            2.0 * (q1 * q3 + q0 * q2) * scale,
            2.0 * (q1 * q2 + q0 * q3) * scale,
            (q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3) * scale,
            2.0 * (q2 * q3 - q0 * q1) * scale,
            2.0 * (q1 * q3 - q0 * q2) * scale,
            2.0 * (q2 * q3 + q0 * q1) * scale,
            (q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3) * scale,
        };
        // Offsets within one 256-cell period move each octave to an unrelated part of the field.
        octave.offset = {random.next_unit() * 256.0, random.next_unit() * 256.0,
                         random.next_unit() * 256.0};
        octave.amplitude = amplitude;
        amplitude_sum += amplitude;
        frequency *= params.lacunarity;
        amplitude *= params.gain;
    }
    for (int k = 0; k < params.octaves; ++k)
        octaves_[static_cast<std::size_t>(k)].amplitude /= amplitude_sum;
}

double Fractal_noise::operator()(const glm::dvec3& p) const {
    double sum = 0.0;
    for (int k = 0; k < params_.octaves; ++k) {
        const Octave& octave = octaves_[static_cast<std::size_t>(k)];
        const auto& m = octave.matrix;
        const glm::dvec3 q(m[0] * p.x + m[1] * p.y + m[2] * p.z + octave.offset.x,
                           m[3] * p.x + m[4] * p.y + m[5] * p.z + octave.offset.y,
                           m[6] * p.x + m[7] * p.y + m[8] * p.z + octave.offset.z);
        sum += octave.amplitude * noise_(q);
    }
    return sum;
}

} // namespace orbis::gen
