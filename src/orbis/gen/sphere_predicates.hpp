// SPDX-License-Identifier: MIT
// Exact geometric predicates for points on a sphere around the origin.
#pragma once

#include "orbis/core/exact_orientation.hpp"

#include <cmath>

#include <glm/vec3.hpp>

namespace orbis::gen {

namespace detail {

/// Exact sign of det[b - a, c - a, d - a] by CGAL's filtered-exact kernel; ~1 us.
int orientation_exact(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                      const glm::dvec3& d);

/// Exact sign of det[a; b; c] by CGAL's filtered-exact kernel; ~1 us. The independent reference
/// the tests check orbis::detail::orientation_on_sphere_exact against.
int orientation_on_sphere_cgal(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);

/// Exact `direction_orientation` with square roots (CGAL's CORE::Expr); ~10-100 us.
int direction_orientation_exact(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                const glm::vec3& d);

/// `direction_orientation` on unit vectors computed by `unit_direction`, or 0 when rounding
/// could change the sign. The bound covers both the arithmetic here and the error of at most
/// 3 u = 3 * 2^-53 per coordinate that `unit_direction` leaves.
inline int direction_orientation_filter(const glm::dvec3& a, const glm::dvec3& b,
                                        const glm::dvec3& c, const glm::dvec3& d) {
    const double x0 = b.x - a.x, x1 = b.y - a.y, x2 = b.z - a.z;
    const double y0 = c.x - a.x, y1 = c.y - a.y, y2 = c.z - a.z;
    const double z0 = d.x - a.x, z1 = d.y - a.y, z2 = d.z - a.z;
    const double det =
        x0 * (y1 * z2 - y2 * z1) + x1 * (y2 * z0 - y0 * z2) + x2 * (y0 * z1 - y1 * z0);
    // Error sources, in units u = 2^-53. Inputs off by at most 3 u per coordinate move each
    // difference by at most 6 u per coordinate, under 11 u in length, which moves the
    // determinant by at most 11 u times the sum of products of two difference lengths (first
    // order). The arithmetic costs at most Shewchuk's 7 u times the permanent, itself at most
    // 3.5 times such a product since unit vectors differ by at most 2 (3.5 in L1). L1 lengths
    // bound the Euclidean ones; inflating them by 32 u covers true-versus-computed lengths and
    // the higher-order terms. 64 u > 11 u + 7 u * 3.5 with room to spare.
    constexpr double epsilon = 0x1p-53;
    const double lx = std::abs(x0) + std::abs(x1) + std::abs(x2) + 32.0 * epsilon;
    const double ly = std::abs(y0) + std::abs(y1) + std::abs(y2) + 32.0 * epsilon;
    const double lz = std::abs(z0) + std::abs(z1) + std::abs(z2) + 32.0 * epsilon;
    const double bound = 64.0 * epsilon * (lx * ly + ly * lz + lz * lx);
    if (det > bound) return 1;
    if (det < -bound) return -1;
    return 0;
}

} // namespace detail

/// Exact sign of det[b - a, c - a, d - a]: +1 if d lies on the side of the plane through a, b,
/// c that (b - a) x (c - a) points to, -1 on the other side, 0 if the four points are coplanar.
///
/// Exact for finite float coordinates promoted to double: Shewchuk's floating-point filter
/// (valid because degree-3 products of float differences can neither overflow nor underflow a
/// double) decides almost every call in ~40 flops, the rest go to exact arithmetic.
/// Precondition: finite values that are floats (as double).
inline int orientation(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                       const glm::dvec3& d) {
    // Shewchuk's form works relative to d and yields det[a - d, b - d, c - d], the negation of
    // det[b - a, c - a, d - a]; his bound includes the rounding of the differences.
    const double adx = a.x - d.x, bdx = b.x - d.x, cdx = c.x - d.x;
    const double ady = a.y - d.y, bdy = b.y - d.y, cdy = c.y - d.y;
    const double adz = a.z - d.z, bdz = b.z - d.z, cdz = c.z - d.z;
    const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
    const double cdxady = cdx * ady, adxcdy = adx * cdy;
    const double adxbdy = adx * bdy, bdxady = bdx * ady;
    const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz) +
                             (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz) +
                             (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
    constexpr double epsilon = 0x1p-53;
    constexpr double error_bound_factor = (7.0 + 56.0 * epsilon) * epsilon;
    const double error_bound = error_bound_factor * permanent;
    if (det > error_bound) return -1;
    if (-det > error_bound) return 1;
    return detail::orientation_exact(a, b, c, d);
}

/// `orientation` for float points.
inline int orientation(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                       const glm::vec3& d) {
    return orientation(glm::dvec3(a), glm::dvec3(b), glm::dvec3(c), glm::dvec3(d));
}

/// Exact sign of det[a; b; c] = a . (b x c): +1 if the directions a, b, c turn counterclockwise
/// seen from outside the sphere (c lies left of the great circle from a to b), -1 clockwise,
/// 0 if a, b, c and the origin are coplanar. Scale-invariant; ~25 flops for almost every call.
/// The predicate of core/exact_orientation.hpp, named here for gen's callers.
/// Precondition: finite float coordinates.
inline int orientation_on_sphere(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    return orbis::detail::orientation_on_sphere(a, b, c);
}

/// p / |p| in double, each coordinate within 3 * 2^-53 of the exact unit vector (three
/// correctly rounded steps after the exact squares).
/// Precondition: p is finite and not zero.
inline glm::dvec3 unit_direction(const glm::vec3& p) {
    const glm::dvec3 q(p);
    return q / std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
}

/// `orientation` of the points' directions a/|a|, b/|b|, c/|c|, d/|d|, i.e. of their radial
/// projections onto the unit sphere, evaluated exactly (square roots included).
///
/// This is the Delaunay test on the sphere: for a, b, c counterclockwise seen from outside, +1
/// means d lies strictly inside their circumcircle on the sphere, 0 on it. Scaling any point
/// by a positive factor does not change the result, so points need not lie exactly on one
/// sphere. A filter decides almost every call in ~60 flops; the rest cost ~10-100 us.
/// Precondition: finite points, none at the origin.
inline int direction_orientation(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                 const glm::vec3& d) {
    const int sign = detail::direction_orientation_filter(unit_direction(a), unit_direction(b),
                                                          unit_direction(c), unit_direction(d));
    return sign != 0 ? sign : detail::direction_orientation_exact(a, b, c, d);
}

} // namespace orbis::gen
