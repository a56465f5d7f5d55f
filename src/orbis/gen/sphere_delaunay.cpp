// SPDX-License-Identifier: MIT
//
// delaunay_on_sphere builds the Delaunay triangulation of the points' directions: the convex
// hull of their radial projections onto the unit sphere, decided by exact predicates on the
// float input (sphere_predicates.hpp). Directions rather than the points themselves, because
// float rounding leaves points that should be on the sphere up to an ulp inside or outside
// it, and a point with a close neighbour can then fall strictly inside the hull of the float
// points (perturbed Fibonacci spheres of 200,000 points and more do this); directions are
// always in convex position.
//
// The topmost point N plays the part of the point at infinity of a stereographic projection:
// seen from N, direction_orientation(a, b, c, N) is the orientation of the projected triangle
// and direction_orientation(a, b, c, d) the in-circle test, so the sphere minus N is a plane
// triangulation problem with exact predicates and no rounded projection. The other points go
// in from the bottom up, so each usually lies outside the triangulated cap:
//
// - Advancing front (the sweep-line of Domiter and Zalik, 2008): the cap's boundary is any
//   polygon star-shaped around the axis through N and -N. Seen from N, the great circles
//   through N and -N are exactly the rays from -N, so the exact `around` test finds the one
//   boundary edge below a new point. The point is joined to that edge, acute corners beside it
//   are filled, and Lawson flips restore the Delaunay property. Its triangles are nearly
//   Delaunay from the start: about one flip per point, against four or five for a sweep that
//   keeps the boundary convex (delaunator's), whose long hull edges make slivers.
// - Convex boundary (the fallback for ties and for the first few points): the boundary is kept
//   convex; a new point outside it is joined to every edge it sees, one inside it is located by
//   a visibility walk and splits its triangle or edge.
//
// At the end the boundary is made convex and joined to N by a fan.
//
// Why only the edges opposite a new point need testing after it is joined to the cap: seen
// from N this is incremental (constrained) Delaunay insertion, where the new point's edges are
// Delaunay by the empty-circle argument. That argument does not cover a triangle added to fill
// a corner, so those flips re-test all four outer edges of the quad. A flip is never blocked by
// a non-convex quad, because that needs a vertex strictly inside the hull.
#include "orbis/gen/sphere_delaunay.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>

#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/sphere_predicates.hpp"

namespace orbis::gen {

namespace {

constexpr std::uint32_t none = UINT32_MAX;

[[noreturn]] void refuse(const std::string& what) {
    throw std::invalid_argument("delaunay_on_sphere: " + what);
}

std::string point_name(std::uint32_t i) { return "point " + std::to_string(i); }

constexpr std::uint32_t next_half_edge(std::uint32_t h) { return h % 3 == 2 ? h - 2 : h + 1; }
constexpr std::uint32_t prev_half_edge(std::uint32_t h) { return h % 3 == 0 ? h + 2 : h - 1; }

/// True if p is above q in the sweep's order: the lexicographic order of (y, x, z).
bool higher(const glm::vec3& p, const glm::vec3& q) {
    return p.y > q.y || (p.y == q.y && (p.x > q.x || (p.x == q.x && p.z > q.z)));
}

/// Throws unless there are at least 4 points, all finite and not at the origin; returns the
/// topmost point, the lexicographic maximum of (y, x, z) (the first of equal ones), and fills
/// `unit` with every point's unit_direction. Two threads: each part stops at its first bad
/// point and part 0's error is thrown first, so the message names the lowest one.
std::uint32_t check_and_find_apex(std::span<const glm::vec3> points,
                                  std::vector<glm::dvec3>& unit) {
    if (points.size() < 4) {
        refuse("needs at least 4 points, got " + std::to_string(points.size()));
    }
    if (points.size() > (UINT32_MAX - 2) / 6) refuse("too many points");
    const auto n = static_cast<std::uint32_t>(points.size());
    unit.resize(n);
    std::uint32_t part_apex[2] = {0, 0};
    parallel_ranges(n, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        std::uint32_t apex = begin;
        for (std::uint32_t i = begin; i < end; ++i) {
            const glm::vec3& p = points[i];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
                refuse(point_name(i) + " has a coordinate that is not finite");
            }
            if (p.x == 0.f && p.y == 0.f && p.z == 0.f) {
                refuse(point_name(i) + " is at the origin, so it has no direction");
            }
            if (higher(p, points[apex])) apex = i;
            unit[i] = unit_direction(p);
        }
        part_apex[part] = apex;
    });
    // The second part's apex wins only when strictly higher, as in one pass in index order.
    if (part_apex[1] != 0 && higher(points[part_apex[1]], points[part_apex[0]]))
        return part_apex[1];
    return part_apex[0];
}

class Sphere_sweep {
public:
    Sphere_sweep(std::span<const glm::vec3> points, Sphere_triangulation& out)
        : points_(points)
        , triangles_(out.triangles)
        , opposite_(out.opposite) {}

    void run() {
        const auto n = static_cast<std::uint32_t>(points_.size());
        apex_index_ = check_and_find_apex(points_, unit_);
        choose_order_and_frame();

        triangles_.clear();
        opposite_.clear();
        triangles_.reserve(2 * std::size_t{n} - 4);
        opposite_.reserve(6 * std::size_t{n} - 12);
        boundary_.assign(n, Boundary_links{});
        std::uint32_t hash_size = 16;
        while (hash_size * hash_size < n)
            hash_size *= 2;
        hash_.assign(hash_size, none);
        stack_.reserve(256);

        start_with_first_triangle();
        bool front_mode = axis_inside_cap();
        bool looking_for_axis = !front_mode;
        int fallbacks = 0;
        for (std::size_t k = 3; k < order_.size(); ++k) {
            const std::uint32_t p = order_[k];
            if (front_mode) {
                if (insert_front(p)) continue;
                make_boundary_convex();
                insert(p);
                if (++fallbacks > max_fallbacks) front_mode = false;
                continue;
            }
            insert(p);
            if (looking_for_axis) {
                front_mode = axis_inside_cap();
                looking_for_axis = !front_mode && k < axis_search_limit;
            }
        }
        make_boundary_convex();
        close_with_apex_fan();
        if (triangles_.size() != 2 * std::size_t{n} - 4) {
            throw std::logic_error("delaunay_on_sphere: internal error, wrong triangle count");
        }
    }

private:
    /// After this many points that the front could not take (ties), the rest goes through the
    /// convex-boundary sweep, so that pathological input costs O(N) per point at most this often.
    static constexpr int max_fallbacks = 16;
    /// The advancing front needs the antipode of the apex strictly inside the cap; give up
    /// waiting for that after this many points.
    static constexpr std::size_t axis_search_limit = 1000;

    glm::dvec3 point(std::uint32_t i) const { return glm::dvec3(points_[i]); }

    /// `direction_orientation` of four points by index, filtered on the cached unit vectors.
    [[gnu::always_inline]] int side(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                    std::uint32_t d) const {
        const int sign =
            detail::direction_orientation_filter(unit_[a], unit_[b], unit_[c], unit_[d]);
        if (sign != 0) return sign;
        return detail::direction_orientation_exact(points_[a], points_[b], points_[c], points_[d]);
    }

    /// +1 if a, b, c are counterclockwise seen from outside (in the projection from the apex).
    int turn(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
        return -side(a, b, c, apex_index_);
    }

    /// +1 if the direction of b is counterclockwise from that of a, less than half a turn away,
    /// around the axis through the apex (seen from outside at the apex's antipode).
    int around(std::uint32_t a, std::uint32_t b) const {
        return -orientation_on_sphere(points_[apex_index_], points_[a], points_[b]);
    }

    /// True if the boundary edge e -> next(e) has p strictly on its outer side.
    bool sees(std::uint32_t e, std::uint32_t p) const { return turn(boundary_[e].next, e, p) > 0; }

    /// Sweep order: bottom-up away from the apex. Input whose y does not increase with the index
    /// after the apex at index 0 (Fibonacci points) is used as it is; anything else is sorted by
    /// height along the apex direction. Either way correctness does not depend on the order.
    void choose_order_and_frame() {
        const auto n = static_cast<std::uint32_t>(points_.size());
        bool sorted = apex_index_ == 0;
        for (std::uint32_t i = 2; sorted && i < n; ++i)
            sorted = points_[i].y <= points_[i - 1].y;
        order_.resize(n - 1);
        const glm::dvec3 axis = unit_[apex_index_];
        if (sorted) {
            for (std::uint32_t k = 0; k + 1 < n; ++k)
                order_[k] = n - 1 - k;
        } else {
            std::vector<std::pair<double, std::uint32_t>> keyed;
            keyed.reserve(n - 1);
            for (std::uint32_t i = 0; i < n; ++i) {
                if (i != apex_index_) keyed.emplace_back(glm::dot(unit_[i], axis), i);
            }
            std::sort(keyed.begin(), keyed.end());
            for (std::uint32_t k = 0; k + 1 < n; ++k)
                order_[k] = keyed[k].second;
        }
        const glm::dvec3 helper =
            std::abs(axis.x) < 0.9 ? glm::dvec3(1.0, 0.0, 0.0) : glm::dvec3(0.0, 0.0, 1.0);
        frame_u_ = glm::normalize(helper - axis * glm::dot(helper, axis));
        frame_v_ = glm::cross(frame_u_, axis);
    }

    /// Pseudo-angle of p around the apex axis in [0, 1): monotone in the true angle and
    /// increasing along the boundary's next links. Only steers searches; never decides.
    double angle(std::uint32_t p) const {
        const double u = glm::dot(unit_[p], frame_u_);
        const double v = glm::dot(unit_[p], frame_v_);
        const double sum = std::abs(u) + std::abs(v);
        const double r = sum > 0.0 ? u / sum : 0.0;
        return (v > 0.0 ? 3.0 - r : 1.0 + r) * 0.25;
    }

    std::uint32_t bucket(std::uint32_t p) const {
        const auto size = static_cast<std::uint32_t>(hash_.size());
        const auto b = static_cast<std::uint32_t>(angle(p) * size);
        return b < size ? b : size - 1;
    }

    void remember(std::uint32_t v) { hash_[bucket(v)] = v; }

    /// A boundary vertex at or just after p's direction, from the hash (stale entries skipped).
    std::uint32_t boundary_vertex_near(std::uint32_t p) const {
        const auto mask = static_cast<std::uint32_t>(hash_.size() - 1);
        const std::uint32_t b = bucket(p);
        for (std::uint32_t j = 0; j <= mask; ++j) {
            const std::uint32_t v = hash_[(b + j) & mask];
            if (v != none && boundary_[v].next != none) return v;
        }
        return boundary_start_;
    }

    std::uint32_t add_triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        const auto t = static_cast<std::uint32_t>(triangles_.size());
        triangles_.push_back({a, b, c});
        opposite_.insert(opposite_.end(), {none, none, none});
        return t;
    }

    std::uint32_t vertex(std::uint32_t h) const { return triangles_[h / 3][h % 3]; }

    void link(std::uint32_t h, std::uint32_t g) {
        opposite_[h] = g;
        if (g != none) opposite_[g] = h;
    }

    /// Links half-edge h (starting at vertex `from`) to its twin g, or records it as the
    /// boundary edge leaving `from` when there is no twin.
    void link_or_boundary(std::uint32_t h, std::uint32_t g, std::uint32_t from) {
        opposite_[h] = g;
        if (g != none) {
            opposite_[g] = h;
        } else {
            boundary_[from].edge = h;
        }
    }

    /// Makes v -> w a boundary edge, carried by half-edge h.
    void set_boundary(std::uint32_t v, std::uint32_t w, std::uint32_t h) {
        boundary_[v].next = w;
        boundary_[w].prev = v;
        boundary_[v].edge = h;
        opposite_[h] = none;
    }

    void start_with_first_triangle() {
        std::uint32_t a = order_[0];
        std::uint32_t b = order_[1];
        if (same_direction(a, b)) refuse_same_direction(a, b);
        std::size_t k = 2;
        int s = 0;
        for (; k < order_.size(); ++k) {
            s = turn(a, b, order_[k]);
            if (s != 0) break;
        }
        if (s == 0) {
            for (std::uint32_t v : {a, b}) {
                if (same_direction(v, apex_index_)) refuse_same_direction(v, apex_index_);
            }
            refuse("all points lie on one circle of the sphere");
        }
        // Points skipped over lie on the circle through a, b and the apex; they come next.
        std::rotate(order_.begin() + 2, order_.begin() + static_cast<std::ptrdiff_t>(k),
                    order_.begin() + static_cast<std::ptrdiff_t>(k) + 1);
        if (s < 0) std::swap(a, b);
        const std::uint32_t c = order_[2];
        add_triangle(a, b, c);
        set_boundary(a, b, 0);
        set_boundary(b, c, 1);
        set_boundary(c, a, 2);
        remember(a);
        remember(b);
        remember(c);
        boundary_start_ = c;
    }

    /// The advancing front works with the angle around the axis from the apex N through the
    /// centre of the sphere. Seen from N, the great circles through N and -N are exactly the
    /// rays from -N, so `around` decides which boundary edge lies below a new point. That needs
    /// -N strictly inside the cap, with every boundary edge turning counterclockwise around it.
    bool axis_inside_cap() {
        std::uint32_t v = boundary_start_;
        std::size_t count = 0;
        do {
            if (++count > 256 || around(v, boundary_[v].next) <= 0) return false;
            v = boundary_[v].next;
        } while (v != boundary_start_);
        return true;
    }

    // ---- Advancing front: the boundary is any polygon star-shaped around the axis. ----

    /// Inserts p on the boundary edge below it and fills acute corners next to it, as in the
    /// sweep-line triangulation of Domiter and Zalik. Returns false, changing nothing, when p
    /// is not strictly beyond the boundary edge in its direction (ties); the caller then makes
    /// the boundary convex and uses the convex-boundary sweep.
    bool insert_front(std::uint32_t p) {
        std::uint32_t a = front_edge_below(p);
        if (a == none) return false;
        std::uint32_t b = boundary_[a].next;
        if (turn(b, a, p) <= 0) return false;

        std::uint32_t t = add_triangle(b, a, p);
        link(3 * t, boundary_[a].edge);
        set_boundary(a, p, 3 * t + 1);
        set_boundary(p, b, 3 * t + 2);
        remember(p);
        boundary_start_ = p;
        // A point joined to one boundary edge: only edges opposite p need checking.
        stack_.push_back(3 * t);
        legalize(false);

        for (;;) {
            b = boundary_[p].next;
            const std::uint32_t c = boundary_[b].next;
            if (c == p || !acute(p, b, c) || turn(c, b, p) <= 0 || around(p, c) <= 0) {
                break;
            }
            t = add_triangle(c, b, p);
            link(3 * t, boundary_[b].edge);
            link(3 * t + 1, boundary_[p].edge);
            set_boundary(p, c, 3 * t + 2);
            boundary_[b].next = none;
            stack_.push_back(3 * t);
            stack_.push_back(3 * t + 1);
            legalize(true);
        }
        for (;;) {
            a = boundary_[p].prev;
            const std::uint32_t d = boundary_[a].prev;
            if (d == p || !acute(p, a, d) || turn(a, d, p) <= 0 || around(d, p) <= 0) {
                break;
            }
            t = add_triangle(a, d, p);
            link(3 * t, boundary_[d].edge);
            link(3 * t + 2, boundary_[a].edge);
            set_boundary(d, p, 3 * t + 1);
            boundary_[a].next = none;
            stack_.push_back(3 * t);
            stack_.push_back(3 * t + 2);
            legalize(true);
        }
        return true;
    }

    /// The boundary vertex a whose edge a -> next(a) is crossed by the ray from -N
    /// through p (exactly, seen from the apex); none when p lies on the ray through a boundary
    /// vertex or the walk is unexpectedly long.
    std::uint32_t front_edge_below(std::uint32_t p) const {
        constexpr int max_steps = 256;
        std::uint32_t a = boundary_vertex_near(p);
        int steps = 0;
        while (around(a, p) <= 0) {
            a = boundary_[a].prev;
            if (++steps > max_steps) return none;
        }
        bool advanced = false;
        while (around(p, boundary_[a].next) <= 0) {
            a = boundary_[a].next;
            advanced = true;
            if (++steps > max_steps) return none;
        }
        if (advanced && around(a, p) <= 0) return none;
        return a;
    }

    /// True if the corner at b between p and c is under 90 degrees (heuristic only).
    bool acute(std::uint32_t p, std::uint32_t b, std::uint32_t c) const {
        return glm::dot(unit_[p] - unit_[b], unit_[c] - unit_[b]) > 0.0;
    }

    /// Fills every reflex corner of the boundary, leaving its convex hull (as seen from the
    /// apex), which the convex-boundary sweep and the final fan need.
    void make_boundary_convex() {
        std::vector<std::uint32_t> work;
        std::uint32_t v = boundary_start_;
        do {
            work.push_back(v);
            v = boundary_[v].next;
        } while (v != boundary_start_);
        while (!work.empty()) {
            const std::uint32_t b = work.back();
            work.pop_back();
            if (boundary_[b].next == none) continue;
            const std::uint32_t a = boundary_[b].prev;
            const std::uint32_t c = boundary_[b].next;
            if (a == c || turn(a, b, c) >= 0) continue;
            const std::uint32_t t = add_triangle(c, b, a);
            link(3 * t, boundary_[b].edge);
            link(3 * t + 1, boundary_[a].edge);
            set_boundary(a, c, 3 * t + 2);
            boundary_[b].next = none;
            if (boundary_start_ == b) boundary_start_ = a;
            stack_.push_back(3 * t);
            stack_.push_back(3 * t + 1);
            legalize(true);
            work.push_back(a);
            work.push_back(c);
        }
    }

    // ---- Convex-boundary sweep: the boundary is the convex hull of the cap. ----

    void insert(std::uint32_t p) {
        const std::uint32_t start = boundary_[boundary_vertex_near(p)].prev;
        std::uint32_t e = start;
        while (!sees(e, p)) {
            e = boundary_[e].next;
            if (e == start) {
                insert_inside(p, boundary_[start].edge / 3);
                return;
            }
        }
        insert_outside(p, e);
    }

    /// Joins p to the chain of boundary edges it sees, which contains the edge e -> next(e).
    void insert_outside(std::uint32_t p, std::uint32_t e) {
        std::uint32_t first = e;
        while (boundary_[first].prev != e && sees(boundary_[first].prev, p)) {
            first = boundary_[first].prev;
        }
        std::uint32_t a = first;
        std::uint32_t b = boundary_[a].next;
        std::uint32_t t = add_triangle(b, a, p);
        link(3 * t, boundary_[a].edge);
        set_boundary(first, p, 3 * t + 1);
        stack_.push_back(3 * t);
        std::uint32_t open_spoke = 3 * t + 2;
        a = b;
        while (a != first && sees(a, p)) {
            b = boundary_[a].next;
            t = add_triangle(b, a, p);
            link(3 * t, boundary_[a].edge);
            link(3 * t + 1, open_spoke);
            open_spoke = 3 * t + 2;
            stack_.push_back(3 * t);
            boundary_[a].next = none;
            a = b;
        }
        set_boundary(p, a, open_spoke);
        remember(first);
        remember(a);
        remember(p);
        boundary_start_ = p;
        legalize(false);
    }

    /// Inserts p where it is not strictly outside the cap: locate by a visibility walk (which
    /// terminates in a Delaunay triangulation), then split the triangle or edge containing it.
    void insert_inside(std::uint32_t p, std::uint32_t t) {
        const std::size_t max_steps = triangles_.size() + 3;
        std::size_t steps = 0;
        int zeros = 0;
        int on_edge = -1;
        for (;;) {
            zeros = 0;
            bool moved = false;
            for (std::uint32_t k = 0; k < 3; ++k) {
                const std::uint32_t h = 3 * t + k;
                const std::uint32_t a = triangles_[t][k];
                const std::uint32_t b = triangles_[t][(k + 1) % 3];
                const int s = turn(b, a, p);
                if (s > 0) {
                    if (opposite_[h] == none) {
                        insert_outside(p, a);
                        return;
                    }
                    t = opposite_[h] / 3;
                    moved = true;
                    break;
                }
                if (s == 0) {
                    ++zeros;
                    on_edge = static_cast<int>(k);
                }
            }
            if (!moved) break;
            if (++steps > max_steps) {
                throw std::logic_error("delaunay_on_sphere: point location did not terminate");
            }
        }
        if (zeros >= 2) refuse_on_vertex(p, t);
        if (zeros == 0) {
            split_triangle(p, t);
        } else {
            split_edge(p, 3 * t + static_cast<std::uint32_t>(on_edge));
        }
        legalize(false);
    }

    /// True if a and b point the same way from the origin (exact: float products are exact in
    /// double, and a difference of doubles is zero only if they are equal).
    bool same_direction(std::uint32_t a, std::uint32_t b) const {
        const glm::dvec3 p = point(a);
        const glm::dvec3 q = point(b);
        return p.y * q.z == p.z * q.y && p.z * q.x == p.x * q.z && p.x * q.y == p.y * q.x &&
               glm::dot(p, q) > 0.0;
    }

    [[noreturn]] void refuse_same_direction(std::uint32_t a, std::uint32_t b) const {
        refuse(point_name(std::max(a, b)) + " has the same direction as " +
               point_name(std::min(a, b)) + " (a duplicate)");
    }

    /// p lies on a vertex of triangle t as seen from the apex: the same direction as that vertex
    /// or as the apex; nothing else is possible for points on a sphere.
    [[noreturn]] void refuse_on_vertex(std::uint32_t p, std::uint32_t t) const {
        if (same_direction(p, apex_index_)) refuse_same_direction(p, apex_index_);
        for (std::uint32_t v : triangles_[t]) {
            if (same_direction(p, v)) refuse_same_direction(p, v);
        }
        throw std::logic_error("delaunay_on_sphere: internal error, point " + std::to_string(p) +
                               " located on a vertex it does not share a direction with");
    }

    struct Boundary_edge {
        std::uint32_t from;
        std::uint32_t to;
        std::uint32_t twin;
    };

    /// Replaces the triangles in `slots` (reused first) by the fan from p over `boundary`, a
    /// chain counterclockwise around p; a closed chain also joins its last and first triangle,
    /// an open one leaves the boundary edges p -> first.from and last.to -> p.
    template <std::size_t N>
    void star(std::uint32_t p, const std::array<Boundary_edge, N>& boundary,
              std::array<std::uint32_t, N>& slots, std::size_t reused, bool closed) {
        for (std::size_t i = 0; i < N; ++i) {
            const Boundary_edge& edge = boundary[i];
            if (i < reused) {
                triangles_[slots[i]] = {edge.from, edge.to, p};
            } else {
                slots[i] = add_triangle(edge.from, edge.to, p);
            }
            link_or_boundary(3 * slots[i], edge.twin, edge.from);
            stack_.push_back(3 * slots[i]);
        }
        for (std::size_t i = 0; i + 1 < N; ++i)
            link(3 * slots[i] + 1, 3 * slots[i + 1] + 2);
        if (closed) {
            link(3 * slots[N - 1] + 1, 3 * slots[0] + 2);
        } else {
            set_boundary(p, boundary[0].from, 3 * slots[0] + 2);
            set_boundary(boundary[N - 1].to, p, 3 * slots[N - 1] + 1);
        }
    }

    void split_triangle(std::uint32_t p, std::uint32_t t) {
        std::array<Boundary_edge, 3> boundary{};
        for (std::uint32_t k = 0; k < 3; ++k) {
            boundary[k] = {triangles_[t][k], triangles_[t][(k + 1) % 3], opposite_[3 * t + k]};
        }
        std::array<std::uint32_t, 3> slots{t, none, none};
        star(p, boundary, slots, 1, true);
    }

    /// Splits the edge h = a -> b of triangle (a, b, c) at p, and the triangle on the other side
    /// (b, a, d) if there is one; otherwise p joins the boundary between a and b.
    void split_edge(std::uint32_t p, std::uint32_t h) {
        const std::uint32_t t = h / 3;
        const std::uint32_t a = vertex(h);
        const std::uint32_t b = vertex(next_half_edge(h));
        const std::uint32_t c = vertex(prev_half_edge(h));
        const Boundary_edge bc{b, c, opposite_[next_half_edge(h)]};
        const Boundary_edge ca{c, a, opposite_[prev_half_edge(h)]};
        const std::uint32_t g = opposite_[h];
        if (g == none) {
            std::array<Boundary_edge, 2> boundary{bc, ca};
            std::array<std::uint32_t, 2> slots{t, none};
            star(p, boundary, slots, 1, false);
            remember(p);
            boundary_start_ = p;
            return;
        }
        const std::uint32_t t2 = g / 3;
        const std::uint32_t d = vertex(prev_half_edge(g));
        const Boundary_edge ad{a, d, opposite_[next_half_edge(g)]};
        const Boundary_edge db{d, b, opposite_[prev_half_edge(g)]};
        std::array<Boundary_edge, 4> boundary{ad, db, bc, ca};
        std::array<std::uint32_t, 4> slots{t, t2, none, none};
        star(p, boundary, slots, 2, true);
    }

    /// Lawson flips for the edges on the stack: edge a -> b of (a, b, p) with neighbour
    /// (b, a, d) is flipped to p - d when d lies strictly inside the circumcircle of a, b, p.
    /// A flip changes the four outer edges of the quad; after inserting a point p all edges at
    /// p are Delaunay (the empty-circle argument), so only the two opposite p need a test then.
    void legalize(bool all_outer_edges) {
        constexpr std::uint32_t next_corner[3] = {1, 2, 0};
        constexpr std::uint32_t prev_corner[3] = {2, 0, 1};
        while (!stack_.empty()) {
            const std::uint32_t h = stack_.back();
            stack_.pop_back();
            const std::uint32_t g = opposite_[h];
            if (g == none) continue;
            const std::uint32_t t = h / 3;
            const std::uint32_t i = h - 3 * t;
            const std::uint32_t t2 = g / 3;
            const std::uint32_t j = g - 3 * t2;
            std::array<std::uint32_t, 3>& first = triangles_[t];
            std::array<std::uint32_t, 3>& second = triangles_[t2];
            const std::uint32_t a = first[i];
            const std::uint32_t b = first[next_corner[i]];
            const std::uint32_t p = first[prev_corner[i]];
            const std::uint32_t d = second[prev_corner[j]];
            if (side(a, b, p, d) <= 0) continue;

            // (a, b, p) becomes (a, d, p) and (b, a, d) becomes (b, p, d), in place.
            const std::uint32_t hn = 3 * t + next_corner[i];
            const std::uint32_t hp = 3 * t + prev_corner[i];
            const std::uint32_t gn = 3 * t2 + next_corner[j];
            const std::uint32_t gp = 3 * t2 + prev_corner[j];
            const std::uint32_t outer_ad = opposite_[gn];
            const std::uint32_t outer_bp = opposite_[hn];
            first[next_corner[i]] = d;
            second[next_corner[j]] = p;
            link_or_boundary(h, outer_ad, a);
            link_or_boundary(g, outer_bp, b);
            link(hn, gn);
            stack_.push_back(h);
            stack_.push_back(gp);
            if (all_outer_edges) {
                stack_.push_back(hp);
                stack_.push_back(g);
            }
        }
    }

    void close_with_apex_fan() {
        const std::uint32_t start = boundary_start_;
        const auto first = static_cast<std::uint32_t>(triangles_.size());
        std::uint32_t a = start;
        do {
            const std::uint32_t b = boundary_[a].next;
            const std::uint32_t t = add_triangle(b, a, apex_index_);
            link(3 * t, boundary_[a].edge);
            a = b;
        } while (a != start);
        const auto end = static_cast<std::uint32_t>(triangles_.size());
        for (std::uint32_t t = first; t < end; ++t) {
            link(3 * t + 2, 3 * (t + 1 < end ? t + 1 : first) + 1);
        }
    }

    std::span<const glm::vec3> points_;
    std::vector<std::array<std::uint32_t, 3>>& triangles_;
    std::vector<std::uint32_t>& opposite_;
    std::uint32_t apex_index_ = 0;
    /// Every point divided by its length (see unit_direction).
    std::vector<glm::dvec3> unit_;
    glm::dvec3 frame_u_{};
    glm::dvec3 frame_v_{};
    std::vector<std::uint32_t> order_;
    /// Boundary of the triangulated cap, counterclockwise seen from outside, as links per
    /// vertex (together, since they are used together); none for vertices not on it.
    struct Boundary_links {
        std::uint32_t next = none;
        std::uint32_t prev = none;
        /// The half-edge v -> next of boundary vertex v.
        std::uint32_t edge = none;
    };
    std::vector<Boundary_links> boundary_;
    std::vector<std::uint32_t> hash_;
    std::vector<std::uint32_t> stack_;
    /// Some vertex on the boundary, where walks around it start.
    std::uint32_t boundary_start_ = none;
};

} // namespace

Sphere_triangulation delaunay_on_sphere(std::span<const glm::vec3> points) {
    Sphere_triangulation result;
    Sphere_sweep(points, result).run();
    return result;
}

std::size_t count_non_delaunay_edges(std::span<const glm::vec3> points,
                                     const Sphere_triangulation& t) {
    const auto fail = [](const std::string& what) {
        throw std::invalid_argument("count_non_delaunay_edges: " + what);
    };
    const std::size_t half_edges = t.triangles.size() * 3;
    if (t.opposite.size() != half_edges) {
        fail("opposite has " + std::to_string(t.opposite.size()) + " entries, expected " +
             std::to_string(half_edges));
    }
    for (std::size_t i = 0; i < t.triangles.size(); ++i) {
        for (std::uint32_t v : t.triangles[i]) {
            if (v >= points.size()) {
                fail("triangle " + std::to_string(i) + " uses vertex " + std::to_string(v) +
                     ", out of range");
            }
        }
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        const glm::vec3& p = points[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
            (p.x == 0.f && p.y == 0.f && p.z == 0.f)) {
            fail(point_name(static_cast<std::uint32_t>(i)) + " is not finite or at the origin");
        }
    }
    std::vector<glm::dvec3> unit(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        unit[i] = unit_direction(points[i]);

    const auto corner = [&](std::uint32_t h) { return t.triangles[h / 3][h % 3]; };
    std::size_t count = 0;
    for (std::uint32_t h = 0; h < half_edges; ++h) {
        const std::uint32_t g = t.opposite[h];
        if (g >= half_edges || t.opposite[g] != h || corner(g) != corner(next_half_edge(h))) {
            fail("half-edge " + std::to_string(h) + " has no consistent twin");
        }
        if (g < h) continue;
        const std::uint32_t a = corner(h);
        const std::uint32_t b = corner(next_half_edge(h));
        const std::uint32_t c = corner(prev_half_edge(h));
        const std::uint32_t d = corner(prev_half_edge(g));
        int sign = detail::direction_orientation_filter(unit[a], unit[b], unit[c], unit[d]);
        if (sign == 0) {
            sign = detail::direction_orientation_exact(points[a], points[b], points[c], points[d]);
        }
        if (sign > 0) ++count;
    }
    return count;
}

} // namespace orbis::gen
