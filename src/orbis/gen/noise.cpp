// SPDX-License-Identifier: MIT
// Seeded 3D gradient noise and its fractal sum (fBm), identical on every platform.
#include "orbis/gen/noise.hpp"

#include "orbis/gen/splitmix64.hpp"

#include <glm/gtc/type_ptr.hpp>

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_MSC_VER)
#define ORBIS_NOISE_AVX2 1
#include <immintrin.h>
#endif

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

/// One octave as the vector path reads it.
struct Octave_view {
    const double* matrix; // 9 entries, row-major
    const double* offset; // 3 entries
    double amplitude;
};

#ifdef ORBIS_NOISE_AVX2
// Four points at a time. Every operation below is the IEEE operation the scalar code does at the
// same place, in the same order, so each lane rounds exactly as a scalar evaluation would. The
// compiler may fuse vector multiplies and adds just as it may scalar ones: -ffp-contract=off
// (src/orbis/gen/CMakeLists.txt) keeps both paths unfused.
#define ORBIS_AVX2 __attribute__((target("avx2")))

ORBIS_AVX2 inline __m256d fade4(__m256d t) {
    const __m256d cube = _mm256_mul_pd(_mm256_mul_pd(t, t), t);
    const __m256d inner =
        _mm256_add_pd(_mm256_mul_pd(t, _mm256_sub_pd(_mm256_mul_pd(t, _mm256_set1_pd(6.0)),
                                                     _mm256_set1_pd(15.0))),
                      _mm256_set1_pd(10.0));
    return _mm256_mul_pd(cube, inner);
}

ORBIS_AVX2 inline __m256d lerp4(__m256d t, __m256d a, __m256d b) {
    return _mm256_add_pd(a, _mm256_mul_pd(t, _mm256_sub_pd(b, a)));
}

struct Axis4 {
    __m128i cell;
    __m256d fraction;
};

ORBIS_AVX2 inline Axis4 split4(__m256d x) {
    const __m256d limit = _mm256_set1_pd(0x1p62);
    // max_pd returns its second operand when the first is NaN, so NaN clamps to -limit, as in
    // split(); floor equals split()'s truncation stepped down, and adding +0 turns floor's -0
    // (from -0) into the +0 that converting the integer back gives.
    const __m256d clamped =
        _mm256_min_pd(_mm256_max_pd(x, _mm256_sub_pd(_mm256_setzero_pd(), limit)), limit);
    const __m256d whole = _mm256_add_pd(
        _mm256_round_pd(clamped, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), _mm256_setzero_pd());
    // whole mod 256 in [0, 255], exactly: every step is exact for integers below 2^62.
    const __m256d periods = _mm256_round_pd(_mm256_mul_pd(whole, _mm256_set1_pd(1.0 / 256.0)),
                                            _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __m256d cell = _mm256_sub_pd(whole, _mm256_mul_pd(periods, _mm256_set1_pd(256.0)));
    return {_mm256_cvttpd_epi32(cell), _mm256_sub_pd(x, whole)};
}

// The masked gather with every lane on: GCC 12's unmasked one reads an uninitialised register as
// its fallback, which -Wmaybe-uninitialized reports.
ORBIS_AVX2 inline __m128i look_up(const std::int32_t* table, __m128i index) {
    return _mm_mask_i32gather_epi32(_mm_setzero_si128(), table, index, _mm_set1_epi32(-1), 4);
}

// The gradient of a hash as the doubles -1, 0 and 1 the table holds, from its code in
// Gradient_noise::codes_ (each component plus one, two bits each): shifts and one conversion per
// component instead of three gathers per corner, which cost more than the rest of a corner on the
// processors measured.
ORBIS_AVX2 inline __m256d corner4(__m128i code, __m256d x, __m256d y, __m256d z) {
    const __m128i three = _mm_set1_epi32(3), one = _mm_set1_epi32(1);
    const __m128i gx = _mm_sub_epi32(_mm_and_si128(code, three), one);
    const __m128i gy = _mm_sub_epi32(_mm_and_si128(_mm_srli_epi32(code, 2), three), one);
    const __m128i gz = _mm_sub_epi32(_mm_srli_epi32(code, 4), one);
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(gx), x),
                                       _mm256_mul_pd(_mm256_cvtepi32_pd(gy), y)),
                         _mm256_mul_pd(_mm256_cvtepi32_pd(gz), z));
}

ORBIS_AVX2 inline __m256d gradient4(const std::int32_t* perm, const std::int32_t* codes, __m256d px,
                                    __m256d py, __m256d pz) {
    const Axis4 ax = split4(px), ay = split4(py), az = split4(pz);
    const __m256d x = ax.fraction, y = ay.fraction, z = az.fraction;
    const __m128i a = _mm_add_epi32(look_up(perm, ax.cell), ay.cell);
    const __m128i b = _mm_add_epi32(look_up(perm + 1, ax.cell), ay.cell);
    const __m128i aa = _mm_add_epi32(look_up(perm, a), az.cell);
    const __m128i ab = _mm_add_epi32(look_up(perm + 1, a), az.cell);
    const __m128i ba = _mm_add_epi32(look_up(perm, b), az.cell);
    const __m128i bb = _mm_add_epi32(look_up(perm + 1, b), az.cell);
    const __m256d u = fade4(x), v = fade4(y), w = fade4(z);
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d x1 = _mm256_sub_pd(x, one), y1 = _mm256_sub_pd(y, one),
                  z1 = _mm256_sub_pd(z, one);
    const __m256d near_z = lerp4(
        v, lerp4(u, corner4(look_up(codes, aa), x, y, z), corner4(look_up(codes, ba), x1, y, z)),
        lerp4(u, corner4(look_up(codes, ab), x, y1, z), corner4(look_up(codes, bb), x1, y1, z)));
    const __m256d far_z = lerp4(v,
                                lerp4(u, corner4(look_up(codes + 1, aa), x, y, z1),
                                      corner4(look_up(codes + 1, ba), x1, y, z1)),
                                lerp4(u, corner4(look_up(codes + 1, ab), x, y1, z1),
                                      corner4(look_up(codes + 1, bb), x1, y1, z1)));
    return _mm256_mul_pd(lerp4(w, near_z, far_z), _mm256_set1_pd(value_scale));
}

// One coordinate of an octave's lattice point: row . p + offset, summed left to right.
ORBIS_AVX2 inline __m256d rotate_row(const double* row, double offset, __m256d px, __m256d py,
                                     __m256d pz) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(row[0]), px),
                                                     _mm256_mul_pd(_mm256_set1_pd(row[1]), py)),
                                       _mm256_mul_pd(_mm256_set1_pd(row[2]), pz)),
                         _mm256_set1_pd(offset));
}

// Fractal sums of points[0, n) with n a multiple of 4, as Fractal_noise::operator() computes
// them.
ORBIS_AVX2 void fractal4(const std::int32_t* perm, const std::int32_t* codes,
                         const Octave_view* octaves, int count, const glm::dvec3* points,
                         double* out, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 4) {
        const glm::dvec3* p = points + i;
        const __m256d px = _mm256_set_pd(p[3].x, p[2].x, p[1].x, p[0].x);
        const __m256d py = _mm256_set_pd(p[3].y, p[2].y, p[1].y, p[0].y);
        const __m256d pz = _mm256_set_pd(p[3].z, p[2].z, p[1].z, p[0].z);
        __m256d sum = _mm256_setzero_pd();
        for (int k = 0; k < count; ++k) {
            const double* m = octaves[k].matrix;
            const double* o = octaves[k].offset;
            const __m256d qx = rotate_row(m, o[0], px, py, pz);
            const __m256d qy = rotate_row(m + 3, o[1], px, py, pz);
            const __m256d qz = rotate_row(m + 6, o[2], px, py, pz);
            sum = _mm256_add_pd(sum, _mm256_mul_pd(_mm256_set1_pd(octaves[k].amplitude),
                                                   gradient4(perm, codes, qx, qy, qz)));
        }
        _mm256_storeu_pd(out + i, sum);
    }
}

// Also true only where the system saves the AVX registers (the builtin asks XGETBV).
bool has_avx2() {
    static const bool has = [] {
        __builtin_cpu_init(); // in case this runs before the library's own start-up code
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return has;
}
#endif

} // namespace

Gradient_noise::Gradient_noise(std::uint64_t seed) {
    std::array<std::int32_t, 256> table{};
    std::iota(table.begin(), table.end(), 0);
    detail::Splitmix64 random(seed);
    for (std::uint32_t i = 255; i > 0; --i) {
        const std::uint32_t j = random.next_below(i + 1);
        std::swap(table[i], table[j]);
    }
    for (std::size_t i = 0; i < 512; ++i) {
        perm_[i] = table[i & 255];
        const double* g = hash_gradients.of[perm_[i]];
        codes_[i] = int(g[0] + 1) | int(g[1] + 1) << 2 | int(g[2] + 1) << 4;
    }
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

bool Fractal_noise::evaluates_in_vectors() {
#ifdef ORBIS_NOISE_AVX2
    return has_avx2();
#else
    return false;
#endif
}

void Fractal_noise::evaluate(std::span<const glm::dvec3> points, std::span<double> out) const {
    // Checked in every build: the vector path stores four values at a time.
    if (out.size() != points.size())
        throw std::invalid_argument("Fractal_noise::evaluate: " + std::to_string(points.size()) +
                                    " points but room for " + std::to_string(out.size()) +
                                    " values");
    std::size_t done = 0;
#ifdef ORBIS_NOISE_AVX2
    if (has_avx2()) {
        std::array<Octave_view, max_octaves> views{};
        for (int k = 0; k < params_.octaves; ++k) {
            const Octave& octave = octaves_[static_cast<std::size_t>(k)];
            views[static_cast<std::size_t>(k)] = {octave.matrix.data(),
                                                  glm::value_ptr(octave.offset), octave.amplitude};
        }
        done = points.size() / 4 * 4;
        fractal4(noise_.perm_.data(), noise_.codes_.data(), views.data(), params_.octaves,
                 points.data(), out.data(), done);
    }
#endif
    for (std::size_t i = done; i < points.size(); ++i)
        out[i] = (*this)(points[i]);
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
