// SPDX-License-Identifier: MIT
// Exact orientation of directions on the sphere without CGAL: a filter plus expansion arithmetic.
// In core (plain arithmetic, std only) so that gen, io and render share one exact predicate.
#pragma once

#include <cmath>
#include <cstddef>

#include <glm/vec3.hpp>

namespace orbis::detail {

// Shewchuk's error-free transformations ("Adaptive precision floating-point arithmetic and fast
// robust geometric predicates", 1997). An expansion is a sum of doubles whose components do not
// overlap, kept in increasing magnitude, so its sign is the sign of its last nonzero component.

/// x + y == a + b exactly, with x = fl(a + b). Precondition: no overflow.
inline void two_sum(double a, double b, double& x, double& y) {
    x = a + b;
    const double b_virtual = x - a;
    const double a_virtual = x - b_virtual;
    y = (a - a_virtual) + (b - b_virtual);
}

/// x + y == a * b exactly, with x = fl(a * b). Precondition: no overflow or underflow.
inline void two_product(double a, double b, double& x, double& y) {
    x = a * b;
    // A fused multiply-add rounds once, so it returns the exact rounding error of the product.
    y = std::fma(a, b, -x);
}

/// Adds `b` to the expansion e[0..n) in place, dropping zero components; returns the new length
/// (at most n + 1, so `e` needs one spare slot). O(n).
inline std::size_t grow_expansion(double* e, std::size_t n, double b) {
    double q = b;
    std::size_t out = 0;
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0, err = 0;
        two_sum(q, e[i], sum, err);
        q = sum;
        if (err != 0) e[out++] = err;
    }
    if (q != 0) e[out++] = q;
    return out;
}

/// Exact sign of det[a; b; c] = c . (a x b) for float a and b and any c whose nonzero
/// coordinates lie in [2^-600, 2^600] in magnitude (so no product underflows or overflows).
/// Never uses a tolerance: 12 exact terms summed into an expansion. ~200 flops.
inline int orientation_on_sphere_exact(const glm::vec3& a, const glm::vec3& b,
                                       const glm::dvec3& c) {
    // The 2x2 minors of a and b: products of two floats are exact in double, so two_sum of a
    // product and a negated product gives each minor exactly as two doubles.
    const double minors[3][2] = {
        {double(a.y) * b.z, -(double(a.z) * b.y)},
        {double(a.z) * b.x, -(double(a.x) * b.z)},
        {double(a.x) * b.y, -(double(a.y) * b.x)},
    };
    const double weights[3] = {c.x, c.y, c.z};
    double sum[13];
    std::size_t n = 0;
    for (int i = 0; i < 3; ++i) {
        double hi = 0, lo = 0;
        two_sum(minors[i][0], minors[i][1], hi, lo);
        double x = 0, y = 0;
        two_product(hi, weights[i], x, y);
        n = grow_expansion(sum, n, y);
        n = grow_expansion(sum, n, x);
        two_product(lo, weights[i], x, y);
        n = grow_expansion(sum, n, y);
        n = grow_expansion(sum, n, x);
    }
    if (n == 0) return 0;
    return sum[n - 1] > 0 ? 1 : -1;
}

/// Sign of det[a; b; c] when a double evaluation decides it, else 0 ("undecided"). ~25 flops.
/// Precondition: as orientation_on_sphere_exact.
inline int orientation_on_sphere_filter(const glm::vec3& a, const glm::vec3& b,
                                        const glm::dvec3& c) {
    // Exact products of floats, so each minor is rounded once, then three products and two
    // sums: at most 4 * 2^-53 times the permanent; 5 leaves a margin.
    const double p0 = double(a.y) * b.z, q0 = double(a.z) * b.y;
    const double p1 = double(a.z) * b.x, q1 = double(a.x) * b.z;
    const double p2 = double(a.x) * b.y, q2 = double(a.y) * b.x;
    const double det = c.x * (p0 - q0) + c.y * (p1 - q1) + c.z * (p2 - q2);
    const double permanent = std::abs(c.x) * (std::abs(p0) + std::abs(q0)) +
                             std::abs(c.y) * (std::abs(p1) + std::abs(q1)) +
                             std::abs(c.z) * (std::abs(p2) + std::abs(q2));
    const double bound = 5.0 * 0x1p-53 * permanent;
    if (det > bound) return 1;
    if (det < -bound) return -1;
    return 0;
}

/// Exact sign of det[a; b; c]: +1 when c lies left of the great circle from a to b (a, b, c
/// counterclockwise seen from outside), -1 right of it, 0 on its plane. The filter decides
/// almost every call; the rest take the exact path. Precondition: as orientation_on_sphere_exact.
inline int orientation_on_sphere(const glm::vec3& a, const glm::vec3& b, const glm::dvec3& c) {
    const int sign = orientation_on_sphere_filter(a, b, c);
    return sign != 0 ? sign : orientation_on_sphere_exact(a, b, c);
}

/// `orientation_on_sphere` for three float points; the same answer as
/// CGAL's orientation of (origin, a, b, c), which the tests check it against. Precondition: finite
/// coordinates.
inline int orientation_on_sphere(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    // det[a; b; c] == det[a; b; c] with c promoted; every float is exact in double and the
    // range precondition holds for products of floats (subnormal floats are >= 2^-149).
    return orientation_on_sphere(a, b, glm::dvec3(c));
}

} // namespace orbis::detail
