// SPDX-License-Identifier: MIT
#include "orbis/gen/sphere.hpp"

#include "orbis/core/face_soup.hpp"
#include "orbis/gen/sphere_delaunay.hpp"

namespace orbis::gen {

Sphere make_sphere(const Fibonacci_params& params) {
    Sphere s;
    s.positions = fibonacci_points(params);
    const auto t = delaunay_on_sphere(s.positions);
    s.mesh = build_from_closed_triangulation(params.count, t.triangles, t.opposite);
    return s;
}

} // namespace orbis::gen
