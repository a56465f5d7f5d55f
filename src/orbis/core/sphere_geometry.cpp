// SPDX-License-Identifier: MIT
// Geometry on a sphere centred at the origin.
#include "orbis/core/sphere_geometry.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace orbis {

double latitude_degrees(const glm::dvec3& p) {
    const double r = glm::length(p);
    if (!(r > 0.0)) return 0.0;
    return std::asin(std::clamp(p.y / r, -1.0, 1.0)) * 180.0 / std::numbers::pi;
}

double longitude_degrees(const glm::dvec3& p) {
    if (p.x == 0.0 && p.z == 0.0) return 0.0;
    return std::atan2(-p.z, p.x) * 180.0 / std::numbers::pi;
}

std::string latitude_longitude_text(const glm::dvec3& p, int decimals) {
    if (!(glm::length(p) > 0.0)) return {};
    const double lat = latitude_degrees(p);
    const double lon = longitude_degrees(p);
    char text[96];
    std::snprintf(text, sizeof text, "%.*f°%c %.*f°%c", decimals, std::abs(lat),
                  lat >= 0 ? 'N' : 'S', decimals, std::abs(lon), lon >= 0 ? 'E' : 'W');
    return text;
}

double angle_between(const glm::dvec3& a, const glm::dvec3& b) {
    // acos of the dot product loses half the digits near 0 and pi; atan2 does not.
    return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

std::optional<glm::dvec3> intersect_sphere(const glm::dvec3& origin, const glm::dvec3& direction,
                                           double radius) {
    const glm::dvec3 d = glm::normalize(direction);
    const double b = glm::dot(origin, d);
    const double c = glm::dot(origin, origin) - radius * radius;
    const double disc = b * b - c;
    if (disc < 0.0) return std::nullopt;
    const double root = std::sqrt(disc);
    // The nearer crossing in front of the origin: the far one when the origin is inside.
    double t = -b - root;
    if (t < 0.0) t = -b + root;
    if (t < 0.0) return std::nullopt;
    return origin + t * d;
}

} // namespace orbis
