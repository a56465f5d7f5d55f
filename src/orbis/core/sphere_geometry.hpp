// SPDX-License-Identifier: MIT
// Geometry on a sphere centred at the origin: latitude and longitude, geodesic distance, where a
// ray meets a sphere. The one home of the conventions (+y is north, longitude 0 lies at +x).
#pragma once

#include <glm/vec3.hpp>

#include <optional>
#include <string>

namespace orbis {

/// Latitude of `p` in degrees (+90 at +y); 0 for the origin.
double latitude_degrees(const glm::dvec3& p);
/// Longitude of `p` in degrees in (-180, 180], 0 at +x and +90 at -z (east when seen from
/// above the north pole, as on the equirectangular maps); 0 on the axis.
double longitude_degrees(const glm::dvec3& p);
/// "12.345°N 67.890°W" with `decimals` decimals; empty for the origin.
std::string latitude_longitude_text(const glm::dvec3& p, int decimals = 3);
/// The angle in radians between the directions of `a` and `b` (accurate for tiny and for
/// antipodal angles; atan2 of the cross and dot products). 0 when either is the origin.
double angle_between(const glm::dvec3& a, const glm::dvec3& b);
/// Where the ray origin + t * direction (t >= 0) first meets the sphere of radius `radius`
/// centred at the origin, or nothing when it misses. `direction` need not be unit length and
/// must not be zero.
std::optional<glm::dvec3> intersect_sphere(const glm::dvec3& origin, const glm::dvec3& direction,
                                           double radius);

} // namespace orbis
