// SPDX-License-Identifier: MIT
// delaunay_on_sphere_cgal: CGAL's Delaunay_triangulation_on_sphere_2 as the checked reference.
#include "orbis/gen/sphere_delaunay.hpp"

#include "orbis/gen/sphere_predicates.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <CGAL/Delaunay_triangulation_on_sphere_2.h>
#include <CGAL/Delaunay_triangulation_on_sphere_traits_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_data_structure_2.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_on_sphere_face_base_2.h>
#include <CGAL/Triangulation_on_sphere_vertex_base_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>
#include <CGAL/spatial_sort_on_sphere.h>
#include <glm/geometric.hpp>

namespace orbis::gen {

namespace {

using Epick = CGAL::Exact_predicates_inexact_constructions_kernel;

/// CGAL's Delaunay test for the in-circle question, evaluated on the points' directions.
struct Side_of_circle_on_directions {
    using result_type = CGAL::Oriented_side;
    CGAL::Oriented_side operator()(const Epick::Point_3& a, const Epick::Point_3& b,
                                   const Epick::Point_3& c, const Epick::Point_3& d) const {
        return static_cast<CGAL::Oriented_side>(
            direction_orientation(to_glm(a), to_glm(b), to_glm(c), to_glm(d)));
    }
    /// Exact: the coordinates were floats to begin with.
    static glm::vec3 to_glm(const Epick::Point_3& p) {
        return {static_cast<float>(p.x()), static_cast<float>(p.y()), static_cast<float>(p.z())};
    }
};

/// CGAL's traits reject points more than 2^-50 off the sphere and merge points closer than
/// 2^-23 radius, because their constructions are inexact; only predicates are used here, all
/// exact and insensitive to a point's distance from the centre, so both tolerances go. The
/// in-circle test becomes `direction_orientation`, matching delaunay_on_sphere's definition.
class Direction_traits : public CGAL::Delaunay_triangulation_on_sphere_traits_2<Epick> {
    using Sphere_traits = CGAL::Delaunay_triangulation_on_sphere_traits_2<Epick>;

public:
    using Sphere_traits::Sphere_traits;
    using Side_of_oriented_circle_on_sphere_2 = Side_of_circle_on_directions;

    Side_of_oriented_circle_on_sphere_2 side_of_oriented_circle_on_sphere_2_object() const {
        return {};
    }
    bool is_on_sphere(const Point_on_sphere_2&) const { return true; }
    bool are_points_too_close(const Point_on_sphere_2&, const Point_on_sphere_2&) const {
        return false;
    }
};

using Vertex_base = CGAL::Triangulation_vertex_base_with_info_2<
    std::uint32_t, Direction_traits, CGAL::Triangulation_on_sphere_vertex_base_2<Direction_traits>>;
using Face_base = CGAL::Triangulation_face_base_with_info_2<
    std::uint32_t, Direction_traits, CGAL::Triangulation_on_sphere_face_base_2<Direction_traits>>;
using Tds = CGAL::Triangulation_data_structure_2<Vertex_base, Face_base>;
using Triangulation = CGAL::Delaunay_triangulation_on_sphere_2<Direction_traits, Tds>;

/// A CGAL point that remembers its input index through CGAL's spatial sort.
struct Indexed_point : Epick::Point_3 {
    Indexed_point() = default;
    Indexed_point(const glm::vec3& p, std::uint32_t i)
        : Epick::Point_3(p.x, p.y, p.z)
        , index(i) {}
    std::uint32_t index = 0;
};

[[noreturn]] void refuse(const std::string& what) {
    throw std::invalid_argument("delaunay_on_sphere_cgal: " + what);
}

} // namespace

Sphere_triangulation delaunay_on_sphere_cgal(std::span<const glm::vec3> points) {
    if (points.size() < 4) refuse("needs at least 4 points, got " + std::to_string(points.size()));
    std::vector<Indexed_point> sorted;
    sorted.reserve(points.size());
    double max_norm = 0.0;
    for (std::uint32_t i = 0; i < points.size(); ++i) {
        const glm::vec3& p = points[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
            refuse("point " + std::to_string(i) + " has a coordinate that is not finite");
        }
        if (p.x == 0.f && p.y == 0.f && p.z == 0.f) {
            refuse("point " + std::to_string(i) + " is at the origin, so it has no direction");
        }
        sorted.emplace_back(p, i);
        max_norm = std::max(max_norm, glm::length(glm::dvec3(p)));
    }

    // The same preparation as Delaunay_triangulation_on_sphere_2::insert(first, last), done here
    // so that every vertex can carry its input index.
    const Direction_traits traits(Epick::Point_3(CGAL::ORIGIN), max_norm);
    CGAL::spatial_sort_on_sphere(sorted.begin(), sorted.end(), traits, max_norm * max_norm,
                                 Epick::Point_3(CGAL::ORIGIN));
    Triangulation dt(traits);
    Triangulation::Face_handle hint;
    for (const Indexed_point& p : sorted) {
        Triangulation::Locate_type type{};
        int li = 0;
        const Triangulation::Face_handle where = dt.locate(p, type, li, hint);
        if (type == Triangulation::VERTEX) {
            const std::uint32_t other = where->vertex(li)->info();
            refuse("point " + std::to_string(std::max(p.index, other)) +
                   " has the same direction as point " + std::to_string(std::min(p.index, other)) +
                   " (a duplicate)");
        }
        const Triangulation::Vertex_handle v = dt.insert(p, type, where, li);
        v->info() = p.index;
        hint = v->face();
    }
    if (dt.dimension() != 2) refuse("all points lie on one circle of the sphere");

    Sphere_triangulation result;
    result.triangles.reserve(dt.number_of_faces());
    std::uint32_t next_id = 0;
    for (auto f = dt.all_faces_begin(); f != dt.all_faces_end(); ++f)
        f->info() = next_id++;
    result.opposite.resize(3 * std::size_t{next_id});
    for (auto f = dt.all_faces_begin(); f != dt.all_faces_end(); ++f) {
        result.triangles.push_back(
            {f->vertex(0)->info(), f->vertex(1)->info(), f->vertex(2)->info()});
        // Our half-edge k runs vertex(k) -> vertex(k + 1): CGAL's edge opposite vertex(k + 2).
        for (int k = 0; k < 3; ++k) {
            const auto g = f->neighbor((k + 2) % 3);
            const int j = g->index(f);
            result.opposite[3 * std::size_t{f->info()} + static_cast<std::size_t>(k)] =
                3 * g->info() + static_cast<std::uint32_t>((j + 1) % 3);
        }
    }
    // Cannot happen for points on a sphere, which are all in convex position; checked because
    // a vertex that a later point buries would vanish from the faces without an error.
    std::vector<bool> used(points.size(), false);
    for (const auto& triangle : result.triangles) {
        for (std::uint32_t v : triangle)
            used[v] = true;
    }
    for (std::size_t i = 0; i < used.size(); ++i) {
        if (!used[i]) {
            throw std::logic_error("delaunay_on_sphere_cgal: point " + std::to_string(i) +
                                   " lost by CGAL");
        }
    }
    return result;
}

} // namespace orbis::gen
