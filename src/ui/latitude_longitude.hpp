// SPDX-License-Identifier: MIT
// A point's latitude and longitude as the editor writes them.
#pragma once

#include <QString>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>

namespace orbis::ui {

/// "12.345°N 67.890°W" for a point, with `decimals` decimals: the sphere's up axis is +y and
/// longitude 0 lies at +x (the convention of the equirectangular maps). Empty for the origin.
inline QString latitude_longitude(const glm::dvec3& p, int decimals = 3) {
    const double r = glm::length(p);
    if (!(r > 0.0)) return {};
    const double lat = std::asin(std::clamp(p.y / r, -1.0, 1.0)) * 180.0 / M_PI;
    const double lon = std::atan2(-p.z, p.x) * 180.0 / M_PI;
    return QString("%1°%2 %3°%4")
        .arg(std::abs(lat), 0, 'f', decimals)
        .arg(lat >= 0 ? 'N' : 'S')
        .arg(std::abs(lon), 0, 'f', decimals)
        .arg(lon >= 0 ? 'E' : 'W');
}

} // namespace orbis::ui
