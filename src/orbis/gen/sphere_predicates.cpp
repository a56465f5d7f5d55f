// SPDX-License-Identifier: MIT
#include "orbis/gen/sphere_predicates.hpp"

#include <CGAL/CORE_Expr.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>

namespace orbis::gen::detail {

int orientation_exact(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                      const glm::dvec3& d) {
    using Point = CGAL::Exact_predicates_inexact_constructions_kernel::Point_3;
    // CGAL's orientation is the sign of the same determinant, det[b - a, c - a, d - a].
    return static_cast<int>(CGAL::orientation(Point(a.x, a.y, a.z), Point(b.x, b.y, b.z),
                                              Point(c.x, c.y, c.z), Point(d.x, d.y, d.z)));
}

int orientation_on_sphere_cgal(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    using Point = CGAL::Exact_predicates_inexact_constructions_kernel::Point_3;
    return static_cast<int>(CGAL::orientation(Point(CGAL::ORIGIN), Point(a.x, a.y, a.z),
                                              Point(b.x, b.y, b.z), Point(c.x, c.y, c.z)));
}

namespace {

using CORE::Expr;

/// det[p; q; r], exact: CORE multiplies and adds doubles without rounding.
Expr determinant(const glm::vec3& p, const glm::vec3& q, const glm::vec3& r) {
    const auto e = [](float v) { return Expr(static_cast<double>(v)); };
    return e(p.x) * (e(q.y) * e(r.z) - e(q.z) * e(r.y)) -
           e(p.y) * (e(q.x) * e(r.z) - e(q.z) * e(r.x)) +
           e(p.z) * (e(q.x) * e(r.y) - e(q.y) * e(r.x));
}

Expr length(const glm::vec3& p) {
    const double x = p.x, y = p.y, z = p.z;
    return CORE::sqrt(Expr(x) * Expr(x) + Expr(y) * Expr(y) + Expr(z) * Expr(z));
}

} // namespace

int direction_orientation_exact(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                const glm::vec3& d) {
    // det[b^ - a^, c^ - a^, d^ - a^] = D(b^,c^,d^) - D(a^,c^,d^) + D(a^,b^,d^) - D(a^,b^,c^) by
    // multilinearity; multiplying by |a| |b| |c| |d| > 0 leaves one square root per term.
    const Expr g = length(a) * determinant(b, c, d) - length(b) * determinant(a, c, d) +
                   length(c) * determinant(a, b, d) - length(d) * determinant(a, b, c);
    return g.sign();
}

} // namespace orbis::gen::detail
