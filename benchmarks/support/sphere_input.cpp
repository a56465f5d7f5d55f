#include "sphere_input.hpp"

#include <CGAL/Delaunay_triangulation_on_sphere_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Projection_on_sphere_traits_3.h>
#include <CGAL/Triangulation_data_structure_2.h>
#include <CGAL/Triangulation_on_sphere_face_base_2.h>
#include <CGAL/Triangulation_on_sphere_vertex_base_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>
#include <CGAL/algorithm.h>
#include <CGAL/spatial_sort_on_sphere.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>

namespace orbis::bench {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point_3 = Kernel::Point_3;

// The float-rounded points lie up to ~1e-7 off the unit sphere. The stock traits would drop them
// (tolerance 2^-50), and taking them as they are would triangulate their convex hull, which misses
// points: with perturbation, neighbours can be so close that rounding puts one inside the hull
// (10 points at N = 1M, P = 0.5). CGAL's projection traits run the exact predicates on the points
// scaled to the unit sphere (in double: p * (1 / sqrt(x^2 + y^2 + z^2))), so every point is a
// vertex.
using Traits = CGAL::Projection_on_sphere_traits_3<Kernel>;

using Vertex_base = CGAL::Triangulation_vertex_base_with_info_2<
    std::uint32_t, Traits, CGAL::Triangulation_on_sphere_vertex_base_2<Traits>>;
using Face_base = CGAL::Triangulation_on_sphere_face_base_2<Traits>;
using Delaunay = CGAL::Delaunay_triangulation_on_sphere_2<
    Traits, CGAL::Triangulation_data_structure_2<Vertex_base, Face_base>>;

// Carries the input index through CGAL's spatial sort, which moves whole elements.
struct Indexed_point : Point_3 {
    std::uint32_t index;
};

double orientation_from_outside(const std::array<double, 3>& a, const std::array<double, 3>& b,
                                const std::array<double, 3>& c) {
    // det(a, b, c) = a . (b x c): positive when a, b, c turn counterclockwise seen from outside.
    return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
           a[2] * (b[0] * c[1] - b[1] * c[0]);
}

} // namespace

std::uint64_t Splitmix64::next() {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint32_t Splitmix64::below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
}

double Splitmix64::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

void require(bool ok, std::string_view message) {
    if (ok) return;
    std::fprintf(stderr, "orbis bench: %.*s\n", static_cast<int>(message.size()), message.data());
    std::abort();
}

std::vector<std::array<double, 3>> fibonacci_sphere_points(std::uint32_t n, double perturbation,
                                                           std::uint64_t seed) {
    require(n >= 4, "a sphere needs at least 4 points");
    const double golden_angle = 2.0 * std::numbers::pi * (2.0 - std::numbers::phi);
    const double last = static_cast<double>(n - 1);
    Splitmix64 random{seed};
    std::vector<std::array<double, 3>> points(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        double t = i;
        if (perturbation > 0.0) t = std::min(t + perturbation * random.unit(), last);
        const double y = 1.0 - 2.0 * t / last;
        const double r = std::sqrt(std::max(0.0, 1.0 - y * y));
        const double theta = t * golden_angle;
        // Rounded to float because the meshes store float positions; all of them then hold, and
        // are triangulated from, the very same coordinates.
        points[i] = {static_cast<float>(std::cos(theta) * r), static_cast<float>(y),
                     static_cast<float>(std::sin(theta) * r)};
    }
    return points;
}

std::vector<std::array<std::uint32_t, 3>>
sphere_delaunay_faces(const std::vector<std::array<double, 3>>& points) {
    const Traits traits;
    std::vector<Indexed_point> order;
    order.reserve(points.size());
    for (std::uint32_t i = 0; i < points.size(); ++i)
        order.push_back({Point_3(points[i][0], points[i][1], points[i][2]), i});
    // The insertion order of Delaunay_triangulation_on_sphere_2::insert(first, last) for a range of
    // Point_3 (both steps are deterministic), so the faces come out as CGAL's bulk insertion of
    // these points produces them.
    CGAL::cpp98::random_shuffle(order.begin(), order.end());
    CGAL::spatial_sort_on_sphere(order.begin(), order.end(), traits, 1.0, traits.center());

    Delaunay triangulation(traits);
    Delaunay::Face_handle hint;
    for (const Indexed_point& p : order) {
        const auto before = triangulation.number_of_vertices();
        const Delaunay::Vertex_handle v =
            triangulation.insert(static_cast<const Point_3&>(p), hint);
        if (v == Delaunay::Vertex_handle() || triangulation.number_of_vertices() != before + 1)
            require(false, "CGAL rejected point " + std::to_string(p.index) +
                               " (off the sphere or too close to another point)");
        v->info() = p.index;
        hint = v->face();
    }
    require(triangulation.dimension() == 2 && triangulation.number_of_ghost_faces() == 0,
            "the points do not span the sphere");

    std::vector<std::array<std::uint32_t, 3>> faces;
    faces.reserve(triangulation.number_of_faces());
    // CGAL's faces already turn counterclockwise seen from outside (sphere_input() checks it).
    for (auto f = triangulation.finite_faces_begin(); f != triangulation.finite_faces_end(); ++f)
        faces.push_back({f->vertex(0)->info(), f->vertex(1)->info(), f->vertex(2)->info()});
    return faces;
}

const Sphere_input& sphere_input(std::uint32_t n, double perturbation, std::uint64_t seed) {
    static std::mutex mutex;
    static std::map<std::tuple<std::uint32_t, double, std::uint64_t>, std::unique_ptr<Sphere_input>>
        cache;
    const std::lock_guard lock(mutex);
    std::unique_ptr<Sphere_input>& slot = cache[{n, perturbation, seed}];
    if (slot) return *slot;

    auto input = std::make_unique<Sphere_input>();
    input->points = fibonacci_sphere_points(n, perturbation, seed);
    input->faces = sphere_delaunay_faces(input->points);
    require(input->faces.size() == 2 * std::size_t{n} - 4, "a sphere of N points has 2N-4 faces");
    for (const auto& f : input->faces)
        require(orientation_from_outside(input->points[f[0]], input->points[f[1]],
                                         input->points[f[2]]) > 0.0,
                "a face is not counterclockwise seen from outside");
    slot = std::move(input);
    return *slot;
}

std::vector<std::array<std::uint32_t, 3>> shuffled_faces(const Sphere_input& in,
                                                         std::uint64_t seed) {
    std::vector<std::array<std::uint32_t, 3>> faces = in.faces;
    Splitmix64 random{seed};
    for (std::size_t i = faces.size(); i > 1; --i)
        std::swap(faces[i - 1], faces[random.below(static_cast<std::uint32_t>(i))]);
    for (auto& f : faces)
        std::rotate(f.begin(), f.begin() + random.below(3), f.end());
    return faces;
}

} // namespace orbis::bench
