// SPDX-License-Identifier: MIT
// GeoJSON export: boundaries of unions of Voronoi cells traced on the mesh, cut at the
// antimeridian and closed along the map's edges; river trees with Strahler orders.
#include "orbis/io/geojson.hpp"

#include "orbis/core/sphere_geometry.hpp"
#include "orbis/io/file_error.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

namespace orbis::io {

namespace {

using Positions = Layer<glm::vec3, Layer_type::vertex>;
__extension__ using Wide = __int128; // exact ring areas: partial sums exceed 64 bits

constexpr std::int32_t micro = 1'000'000;
constexpr std::int32_t lon_max = 180 * micro;
constexpr std::int32_t lat_max = 90 * micro;
constexpr std::uint32_t no_label = UINT32_MAX;

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

std::string quoted(std::string_view name) {
    std::string out(1, '\'');
    out += name;
    out += '\'';
    return out;
}

// The layer `name` as Layer<T, Type>: nullptr when absent and not required; refused when
// absent and required (naming who writes it) or when of another type.
template <class T, Layer_type Type>
const Layer<T, Type>* typed_layer(const World& world, std::string_view name, std::string_view value,
                                  bool required) {
    const Layer_base* found = world.find_layer(name);
    const std::string wanted = std::string(value) + " per " + std::string(layer_type_name(Type));
    if (!found) {
        if (!required) return nullptr;
        refuse("the World has no layer " + quoted(name) + " (" + wanted +
               (name == "position" ? ")" : "), which the hydrology module writes"));
    }
    if (found->type() != Type || found->value_tag() != value_type_of<T>)
        refuse("layer " + quoted(name) + " holds " + std::string(found->value_name()) + " per " +
               std::string(layer_type_name(found->type())) + ", not " + wanted);
    return static_cast<const Layer<T, Type>*>(found);
}

const Positions& positions_of(const World& world) {
    const Positions& p =
        *typed_layer<glm::vec3, Layer_type::vertex>(world, "position", "vec3", true);
    for (const Vertex v : world.mesh().vertices()) {
        const glm::vec3 x = p[v];
        if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z) ||
            (x.x == 0.0f && x.y == 0.0f && x.z == 0.0f))
            refuse("vertex " + to_string(v) + " has position " + p.format_value(v.index()) +
                   ", which gives no direction");
    }
    return p;
}

// Cells need a face on both sides of every edge: an open mesh has unbounded cells.
void require_closed(const Mesh& m) {
    for (const Edge e : m.edges())
        if (!e.left(m).valid() || !e.right(m).valid())
            refuse("the mesh is open at edge " + to_string(e) +
                   "; cells and their unions need a closed mesh");
    if (m.face_count() == 0) refuse("the mesh has no faces");
}

glm::dvec3 position(const Positions& p, Vertex v) { return glm::dvec3(p[v]); }

double det(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    return glm::dot(glm::cross(a, b), c);
}

// The unit direction of v's position.
glm::dvec3 direction(const Positions& p, Vertex v) { return glm::normalize(position(p, v)); }

// The direction of the circumcentre of face f, outward even for a face winding the other way
// round the centre (as the renderer places a Voronoi corner); zero for a degenerate face.
// From the corners' unit directions: float positions are off the sphere by up to half a unit
// in the last place (0.4 m on Earth), which tilts the plane through a face 1 km across enough
// to move its circumcentre by kilometres, out of order with its neighbours'.
glm::dvec3 circumcentre(const Mesh& m, const Positions& p, Face f) {
    const Edge e = f.edge(m);
    const glm::dvec3 a = direction(p, e.origin(m)), b = direction(p, e.dest(m)),
                     c = direction(p, e.left_next(m).dest(m));
    const glm::dvec3 n = glm::cross(b - a, c - a);
    return glm::dot(n, a + b + c) < 0.0 ? -n : n;
}

// The cells of a closed mesh and their sides. On a mesh whose every edge is locally Delaunay
// (generated worlds: the sphere and refine modules keep it so) the cells are the Voronoi cells:
// corners at the faces' circumcentres. Elsewhere (after hand edits) circumcentres fall on the
// wrong side of edges and such "cells" overlap, which GIS programs reject as invalid polygons;
// there a face's corner is its circumcentre when that lies inside the face and its centroid
// otherwise, and a side passes through the midpoint of the edge it crosses unless both its
// corners are circumcentres. Every piece of a side then lies inside one face, so no two sides
// cross on any mesh that is not folded.
class Dual {
public:
    Dual(const Mesh& m, const Positions& p)
        : m_(m)
        , p_(p)
        , voronoi_(locally_delaunay()) {}

    const Mesh& mesh() const { return m_; }
    const Positions& positions() const { return p_; }
    // True when the cells are the Voronoi cells.
    bool voronoi() const { return voronoi_; }

    // Appends the side across e (from the corner right of e to the corner left of it) without
    // its first point.
    void append_side(Edge e, std::vector<glm::dvec3>& out) const {
        if (voronoi_) {
            out.push_back(circumcentre(m_, p_, e.left(m_)));
            return;
        }
        const Corner left = corner(e.left(m_));
        if (!left.circumcentre || !corner(e.right(m_)).circumcentre)
            out.push_back(direction(p_, e.origin(m_)) + direction(p_, e.dest(m_)));
        out.push_back(left.point);
    }

private:
    struct Corner {
        glm::dvec3 point;
        bool circumcentre;
    };

    Corner corner(Face f) const {
        const Edge e = f.edge(m_);
        const glm::dvec3 a = direction(p_, e.origin(m_)), b = direction(p_, e.dest(m_)),
                         c = direction(p_, e.left_next(m_).dest(m_));
        const glm::dvec3 n = circumcentre(m_, p_, f);
        if (n != glm::dvec3(0.0) && det(a, b, n) >= 0.0 && det(b, c, n) >= 0.0 &&
            det(c, a, n) >= 0.0)
            return {n, true};
        return {a + b + c, false};
    }

    // Every edge's Voronoi side runs from right to left across it: the circumcentre left of
    // a -> b lies no further right than the one right of it, up to 1e-9 radians (6 mm on
    // Earth, far below the files' precision) for four nearly cocircular vertices.
    bool locally_delaunay() const {
        for (const Edge e : m_.edges()) {
            const glm::dvec3 left = circumcentre(m_, p_, e.left(m_));
            const glm::dvec3 right = circumcentre(m_, p_, e.right(m_));
            if (left == glm::dvec3(0.0) || right == glm::dvec3(0.0)) return false;
            const glm::dvec3 normal =
                glm::cross(direction(p_, e.origin(m_)), direction(p_, e.dest(m_)));
            if (glm::dot(glm::normalize(left) - glm::normalize(right), normal) <
                -1e-9 * glm::length(normal))
                return false;
        }
        return true;
    }

    const Mesh& m_;
    const Positions& p_;
    bool voronoi_;
};

// Signed area of the spherical triangle of unit vectors a, b, c (Van Oosterom & Strackee).
double spherical_triangle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    const double d = det(a, b, c);
    const double den = 1.0 + glm::dot(a, b) + glm::dot(b, c) + glm::dot(c, a);
    return 2.0 * std::atan2(d, den);
}

// The corners of v's cell, counterclockwise.
void cell_corners(const Dual& d, Vertex v, std::vector<glm::dvec3>& out) {
    out.clear();
    for (const Edge e : v.edges(d.mesh()))
        d.append_side(e, out);
}

// Area of v's cell on the sphere through v.
double cell_area(const Dual& d, Vertex v, std::vector<glm::dvec3>& corners) {
    const glm::dvec3 site = position(d.positions(), v);
    const double r = glm::length(site);
    const glm::dvec3 s = site / r;
    cell_corners(d, v, corners);
    double sum = 0.0;
    for (std::size_t i = 0; i < corners.size(); ++i)
        sum += spherical_triangle(s, glm::normalize(corners[i]),
                                  glm::normalize(corners[(i + 1) % corners.size()]));
    return sum * r * r;
}

std::int32_t to_micro(double degrees) {
    return static_cast<std::int32_t>(std::llround(degrees * micro));
}

double radians_to_degrees(double r) { return r * (180.0 / std::numbers::pi); }

// Latitude of the direction of r in micro-degrees.
std::int32_t latitude_of(const glm::dvec3& r) {
    return to_micro(radians_to_degrees(std::atan2(r.y, std::hypot(r.x, r.z))));
}

// Which side of the antimeridian a point lies on near it: east (longitude up to +180) when
// z <= 0. Points exactly on it count as east, which lon_lat_of agrees with.
bool east_side(const glm::dvec3& p) { return p.z <= 0.0; }

// Where the great-circle arc from a to b crosses the antimeridian, if it does: the plane
// z = 0 meets the chord at r, and r lies on the antimeridian's side when r.x < 0 (otherwise
// the arc crosses longitude 0).
std::optional<std::int32_t> antimeridian_crossing(const glm::dvec3& a, const glm::dvec3& b) {
    if (east_side(a) == east_side(b)) return std::nullopt;
    const double t = a.z / (a.z - b.z);
    const glm::dvec3 r = a + t * (b - a);
    if (!(r.x < 0.0)) return std::nullopt;
    return latitude_of(r);
}

std::int32_t edge_longitude(bool east) { return east ? lon_max : -lon_max; }

void push_distinct(std::vector<Lon_lat>& points, Lon_lat p) {
    if (points.empty() || points.back() != p) points.push_back(p);
}

// Twice the signed area of a closed ring, exact (counterclockwise positive).
Wide twice_area(const Geo_ring& ring) {
    Wide sum = 0;
    const std::int64_t x0 = ring[0].lon, y0 = ring[0].lat;
    for (std::size_t i = 1; i + 1 < ring.size(); ++i) {
        const std::int64_t ax = ring[i].lon - x0, ay = ring[i].lat - y0;
        const std::int64_t bx = ring[i + 1].lon - x0, by = ring[i + 1].lat - y0;
        sum += Wide{ax * by} - Wide{bx * ay};
    }
    return sum;
}

// Even-odd test of p against a closed ring, exact.
bool ring_contains(const Geo_ring& ring, Lon_lat p) {
    bool inside = false;
    for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
        const Lon_lat a = ring[i], b = ring[i + 1];
        if ((a.lat > p.lat) == (b.lat > p.lat)) continue;
        const std::int64_t cross = std::int64_t{b.lon - a.lon} * (p.lat - a.lat) -
                                   std::int64_t{p.lon - a.lon} * (b.lat - a.lat);
        if (b.lat > a.lat ? cross > 0 : cross < 0) inside = !inside;
    }
    return inside;
}

// The whole map as a counterclockwise ring, with a point every 90 degrees along the poles.
Geo_ring whole_map() {
    Geo_ring ring;
    for (std::int32_t lon = -lon_max; lon <= lon_max; lon += lon_max / 2)
        ring.push_back({lon, -lat_max});
    for (std::int32_t lon = lon_max; lon > -lon_max; lon -= lon_max / 2)
        ring.push_back({lon, lat_max});
    ring.push_back({-lon_max, lat_max});
    ring.push_back({-lon_max, -lat_max});
    return ring;
}

// The rings of one area, drawn on the sphere (the area on their left), turned into polygons of
// the longitude-latitude plane. A ring that crosses the antimeridian is cut into pieces that
// start and end on the map's left or right edge; walking counterclockwise along the map's
// border from where one piece ends to where the next starts (through the corners at the poles
// when needed) keeps the area on the left and closes every ring, including one around a pole.
class Plane_area {
public:
    void add(std::span<const glm::dvec3> corners) {
        if (corners.size() < 3) return;
        dense_.clear();
        for (std::size_t i = 0; i < corners.size(); ++i) {
            dense_.push_back(corners[i]);
            follow_arc(corners[i], corners[(i + 1) % corners.size()], 0);
        }
        const std::span<const glm::dvec3> ring(dense_);
        const std::size_t n = ring.size();
        points_.resize(n);
        east_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            points_[i] = lon_lat_of(ring[i]);
            east_[i] = east_side(ring[i]);
        }
        crossings_.clear();
        for (std::size_t i = 0; i < n; ++i)
            if (const auto lat = antimeridian_crossing(ring[i], ring[(i + 1) % n]))
                crossings_.push_back({i, *lat});
        if (crossings_.empty()) {
            Geo_ring closed;
            for (const Lon_lat p : points_)
                push_distinct(closed, p);
            finish(std::move(closed));
            return;
        }
        const std::size_t k = crossings_.size();
        for (std::size_t c = 0; c < k; ++c) {
            const Crossing from = crossings_[c], to = crossings_[(c + 1) % k];
            Piece piece;
            const std::size_t first = (from.segment + 1) % n;
            piece.points.push_back({edge_longitude(east_[first]), from.lat});
            for (std::size_t i = first;; i = (i + 1) % n) {
                push_distinct(piece.points, points_[i]);
                if (i == to.segment) break;
            }
            push_distinct(piece.points, {edge_longitude(east_[to.segment]), to.lat});
            pieces_.push_back(std::move(piece));
        }
    }

    // The polygons; `whole` says whether an area without any ring is the whole sphere.
    Geo_multi_polygon polygons(bool whole) {
        join_pieces();
        Geo_multi_polygon out;
        if (rings_.empty()) {
            if (whole) out.push_back({whole_map()});
            return out;
        }
        std::vector<Wide> area;
        std::vector<std::size_t> exteriors, holes;
        for (std::size_t i = 0; i < rings_.size(); ++i) {
            area.push_back(twice_area(rings_[i]));
            if (area.back() > 0) exteriors.push_back(i);
            if (area.back() < 0) holes.push_back(i);
        }
        std::vector<std::size_t> polygon_of(rings_.size(), SIZE_MAX);
        for (const std::size_t e : exteriors) {
            polygon_of[e] = out.size();
            out.push_back({std::move(rings_[e])});
        }
        std::size_t map_polygon = SIZE_MAX;
        for (const std::size_t h : holes) {
            // The smallest exterior around the hole is the one right outside it: rings nest
            // with alternating orientation.
            const Lon_lat probe = rings_[h][0];
            std::size_t best = SIZE_MAX;
            for (const std::size_t e : exteriors)
                if ((best == SIZE_MAX || area[e] < area[best]) &&
                    ring_contains(out[polygon_of[e]][0], probe))
                    best = e;
            std::size_t target;
            if (best != SIZE_MAX) {
                target = polygon_of[best];
            } else {
                if (map_polygon == SIZE_MAX) {
                    map_polygon = out.size();
                    out.push_back({whole_map()});
                }
                target = map_polygon;
            }
            out[target].push_back(std::move(rings_[h]));
        }
        return out;
    }

private:
    // Appends points of the great-circle arc from a to b (both excluded) until straight lines
    // in longitude and latitude stay within arc_tolerance of it, so that the polygons keep the
    // shape (and validity) the cells have on the sphere: a long arc bends on the map, most
    // near the poles. Arcs of fine meshes (under about half a degree) need no extra point.
    void follow_arc(const glm::dvec3& a, const glm::dvec3& b, int depth) {
        const glm::dvec3 ua = glm::normalize(a), ub = glm::normalize(b);
        const glm::dvec3 sum = ua + ub;
        if (depth >= 12 || glm::dot(sum, sum) < 1e-12) return;
        const glm::dvec3 m = glm::normalize(sum);
        const auto lon = [](const glm::dvec3& p) { return std::atan2(-p.z, p.x); };
        const auto lat = [](const glm::dvec3& p) { return std::atan2(p.y, std::hypot(p.x, p.z)); };
        const double la = lon(ua);
        const auto unwrap = [la](double l) {
            return l - la > std::numbers::pi   ? l - 2 * std::numbers::pi
                   : la - l > std::numbers::pi ? l + 2 * std::numbers::pi
                                               : l;
        };
        const double lb = unwrap(lon(ub)), lm = unwrap(lon(m));
        const double off_east = (lm - 0.5 * (la + lb)) * std::cos(lat(m));
        const double off_north = lat(m) - 0.5 * (lat(ua) + lat(ub));
        if (std::hypot(off_east, off_north) <= arc_tolerance) return;
        follow_arc(a, m, depth + 1);
        dense_.push_back(m);
        follow_arc(m, b, depth + 1);
    }

    // 0.001 degrees in radians: about 100 m on Earth.
    static constexpr double arc_tolerance = 1e-3 * std::numbers::pi / 180.0;

    struct Crossing {
        std::size_t segment; // from point segment to the next
        std::int32_t lat;
    };
    struct Piece {
        std::vector<Lon_lat> points; // first and last on the map's left or right edge
    };

    // Position along the map's border, counterclockwise from the bottom-right corner: right
    // edge upwards [0, 180], top [180, 540], left edge downwards [540, 720], bottom
    // [720, 1080) (in millions).
    static std::int64_t border(Lon_lat p) {
        if (p.lon > 0) return std::int64_t{p.lat} + lat_max;
        return std::int64_t{3} * lon_max + lat_max - p.lat;
    }

    // Appends the points of the map's border passed on the way counterclockwise from border
    // position `from` to `to`: its corners, and every 90 degrees of longitude along the top
    // and bottom edges so that no segment spans more than 90 degrees (tools that read segments
    // as great circles see those edges as the pole they are).
    static void border_between(std::int64_t from, std::int64_t to, Geo_ring& ring) {
        static constexpr std::int64_t step = lon_max / 2; // 90 degrees
        static constexpr std::pair<std::int64_t, Lon_lat> mark[] = {
            {2 * step, {lon_max, lat_max}},
            {3 * step, {lon_max / 2, lat_max}},
            {4 * step, {0, lat_max}},
            {5 * step, {-lon_max / 2, lat_max}},
            {6 * step, {-lon_max, lat_max}},
            {8 * step, {-lon_max, -lat_max}},
            {9 * step, {-lon_max / 2, -lat_max}},
            {10 * step, {0, -lat_max}},
            {11 * step, {lon_max / 2, -lat_max}},
            {12 * step, {lon_max, -lat_max}},
        };
        if (to >= from) {
            for (const auto& [at, p] : mark)
                if (at > from && at < to) push_distinct(ring, p);
            return;
        }
        for (const auto& [at, p] : mark)
            if (at > from) push_distinct(ring, p);
        for (const auto& [at, p] : mark)
            if (at < to) push_distinct(ring, p);
    }

    void join_pieces() {
        if (pieces_.empty()) return;
        std::vector<std::pair<std::int64_t, std::size_t>> starts;
        for (std::size_t i = 0; i < pieces_.size(); ++i)
            starts.emplace_back(border(pieces_[i].points.front()), i);
        std::sort(starts.begin(), starts.end());
        std::vector<std::uint8_t> used(pieces_.size(), 0);
        for (std::size_t first = 0; first < pieces_.size(); ++first) {
            if (used[first]) continue;
            Geo_ring ring;
            std::size_t current = first;
            for (;;) {
                used[current] = 1;
                for (const Lon_lat p : pieces_[current].points)
                    push_distinct(ring, p);
                const std::int64_t exit = border(pieces_[current].points.back());
                auto next = std::lower_bound(starts.begin(), starts.end(),
                                             std::pair<std::int64_t, std::size_t>(exit, 0));
                if (next == starts.end()) next = starts.begin();
                border_between(exit, next->first, ring);
                current = next->second;
                // Back at the start closes the ring; a piece already used would mean rings
                // that cross, which the cell boundaries never do; close there too.
                if (current == first || used[current]) break;
            }
            finish(std::move(ring));
        }
        pieces_.clear();
    }

    // Closes a ring and keeps it when it still encloses an area.
    void finish(Geo_ring ring) {
        while (ring.size() > 1 && ring.back() == ring.front())
            ring.pop_back();
        if (ring.size() < 3) return;
        ring.push_back(ring.front());
        if (twice_area(ring) == 0) return;
        rings_.push_back(std::move(ring));
    }

    std::vector<glm::dvec3> dense_;
    std::vector<Lon_lat> points_;
    std::vector<std::uint8_t> east_;
    std::vector<Crossing> crossings_;
    std::vector<Piece> pieces_;
    std::vector<Geo_ring> rings_;
};

// The boundaries of the areas of equal label: for every directed edge from a labelled vertex
// to one with another label, the dual edge between the corners right and left of it,
// chained around the faces into rings with the area on their left. Calls
// emit(label, corners) once per ring.
template <class Emit>
void trace_boundaries(const Dual& d, std::span<const std::uint32_t> label, const Emit& emit) {
    const Mesh& m = d.mesh();
    std::vector<std::uint8_t> visited(m.edge_slots(), 0);
    std::vector<glm::dvec3> ring;
    for (const Edge base : m.edges())
        for (const Edge start : {base, base.sym()}) {
            const std::uint32_t inside = label[start.origin(m).index()];
            if (inside == no_label || visited[start.index()] ||
                label[start.dest(m).index()] == inside)
                continue;
            ring.clear();
            Edge e = start;
            do {
                visited[e.index()] = 1;
                d.append_side(e, ring);
                // Around the face left of e = (a, b, c) the boundary leaves through the edge
                // between c and whichever of a and b is on the other side of the boundary.
                const Edge bc = e.left_next(m);
                e = label[bc.dest(m).index()] == inside ? bc.sym() : e.origin_next(m);
            } while (e != start);
            emit(inside, std::span<const glm::dvec3>(ring));
        }
}

// The polygons of every label 0 .. count - 1 at once; labels without vertices get none.
std::vector<Geo_multi_polygon> label_polygons(const Dual& d, std::span<const std::uint32_t> label,
                                              std::uint32_t count) {
    const Mesh& m = d.mesh();
    std::vector<Plane_area> areas(count);
    std::vector<std::uint8_t> present(count, 0);
    for (const Vertex v : m.vertices())
        if (label[v.index()] != no_label) present[label[v.index()]] = 1;
    trace_boundaries(
        d, label, [&](std::uint32_t l, std::span<const glm::dvec3> ring) { areas[l].add(ring); });
    std::vector<Geo_multi_polygon> out(count);
    for (std::uint32_t l = 0; l < count; ++l)
        out[l] = areas[l].polygons(present[l] != 0);
    return out;
}

// Cuts a polyline at the antimeridian.
std::vector<Geo_line> plane_line(std::span<const glm::dvec3> points) {
    std::vector<Geo_line> parts(1);
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i > 0)
            if (const auto lat = antimeridian_crossing(points[i - 1], points[i])) {
                push_distinct(parts.back(), {edge_longitude(east_side(points[i - 1])), *lat});
                parts.emplace_back();
                push_distinct(parts.back(), {edge_longitude(east_side(points[i])), *lat});
            }
        push_distinct(parts.back(), lon_lat_of(points[i]));
    }
    std::erase_if(parts, [](const Geo_line& l) { return l.size() < 2; });
    return parts;
}

// ---- JSON text ----

void append_micro(std::string& out, std::int32_t v) {
    if (v < 0) out += '-';
    const std::uint32_t a =
        v < 0 ? static_cast<std::uint32_t>(-std::int64_t{v}) : static_cast<std::uint32_t>(v);
    out += std::to_string(a / micro);
    std::uint32_t fraction = a % micro;
    if (fraction == 0) return;
    char digits[7] = "000000";
    for (int i = 5; i >= 0; --i, fraction /= 10)
        digits[i] = static_cast<char>('0' + fraction % 10);
    int length = 6;
    while (digits[length - 1] == '0')
        --length;
    out += '.';
    out.append(digits, static_cast<std::size_t>(length));
}

void append_position(std::string& out, Lon_lat p) {
    out += '[';
    append_micro(out, p.lon);
    out += ',';
    append_micro(out, p.lat);
    out += ']';
}

void append_positions(std::string& out, std::span<const Lon_lat> points) {
    out += '[';
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) out += ',';
        append_position(out, points[i]);
    }
    out += ']';
}

void append_geometry(std::string& out, const Geo_multi_polygon& g) {
    out += R"("geometry":{"type":"MultiPolygon","coordinates":[)";
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (i) out += ',';
        out += '[';
        for (std::size_t r = 0; r < g[i].size(); ++r) {
            if (r) out += ',';
            append_positions(out, g[i][r]);
        }
        out += ']';
    }
    out += "]}";
}

void append_geometry(std::string& out, const std::vector<Geo_line>& g) {
    out += R"("geometry":{"type":"MultiLineString","coordinates":[)";
    for (std::size_t i = 0; i < g.size(); ++i) {
        if (i) out += ',';
        append_positions(out, g[i]);
    }
    out += "]}";
}

// A number the shortest way that reads back exactly; null when not finite (JSON has no NaN).
template <class T>
void append_number(std::string& out, T v) {
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) {
            out += "null";
            return;
        }
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, result.ptr);
}

// A quantity rounded to 3 decimals (metres of km, thousandths of km²).
void append_fixed(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed, 3);
    out.append(buffer, result.ptr);
}

void append_string(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
}

void begin_collection(std::string& out, std::string_view name) {
    out += R"({"type":"FeatureCollection","name":)";
    append_string(out, name);
    out += R"(,"features":[)";
}

void end_collection(std::string& out, std::size_t features) { out += features ? "\n]}\n" : "]}\n"; }

void begin_feature(std::string& out, std::size_t index, std::uint64_t id) {
    out += index ? ",\n" : "\n";
    out += R"({"type":"Feature","id":)";
    out += std::to_string(id);
    out += R"(,"properties":{)";
}

void key(std::string& out, std::string_view name, bool first = false) {
    if (!first) out += ',';
    append_string(out, name);
    out += ':';
}

void save(const std::filesystem::path& path, const std::string& text, Sync sync) {
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(text.data()),
                                           text.size());
    write_file_atomically(path, std::span<const std::span<const std::byte>>(&bytes, 1), sync);
}

std::string rivers_text(const std::vector<River>& rivers) {
    std::string out;
    begin_collection(out, "rivers");
    for (std::size_t i = 0; i < rivers.size(); ++i) {
        const River& r = rivers[i];
        begin_feature(out, i, i);
        key(out, "discharge", true);
        append_number(out, static_cast<float>(r.discharge));
        key(out, "strahler");
        append_number(out, r.strahler);
        key(out, "basin");
        append_number(out, r.basin);
        key(out, "length_km");
        append_fixed(out, r.length);
        out += "},";
        append_geometry(out, r.geometry);
        out += '}';
    }
    end_collection(out, rivers.size());
    return out;
}

std::string lakes_text(const std::vector<Lake>& lakes) {
    std::string out;
    begin_collection(out, "lakes");
    for (std::size_t i = 0; i < lakes.size(); ++i) {
        const Lake& l = lakes[i];
        begin_feature(out, i, static_cast<std::uint64_t>(l.id));
        key(out, "lake", true);
        append_number(out, l.id);
        key(out, "level");
        append_number(out, static_cast<float>(l.level));
        key(out, "area_km2");
        append_fixed(out, l.area);
        out += "},";
        append_geometry(out, l.geometry);
        out += '}';
    }
    end_collection(out, lakes.size());
    return out;
}

std::string land_text(const std::vector<Land_mass>& land) {
    std::string out;
    begin_collection(out, "coastlines");
    for (std::size_t i = 0; i < land.size(); ++i) {
        const Land_mass& l = land[i];
        begin_feature(out, i, static_cast<std::uint64_t>(l.id));
        key(out, "land_mass", true);
        append_number(out, l.id);
        key(out, "area_km2");
        append_fixed(out, l.area);
        key(out, "vertices");
        append_number(out, l.vertices);
        out += "},";
        append_geometry(out, l.geometry);
        out += '}';
    }
    end_collection(out, land.size());
    return out;
}

// Writes the value of one vertex into the properties, for every typed vertex layer.
struct Property_writer {
    std::string name;
    std::function<void(std::string&, Vertex)> write;
};

template <class T>
void append_value(std::string& out, const T& v) {
    if constexpr (std::same_as<T, bool>) {
        out += v ? "true" : "false";
    } else if constexpr (Layer_scalar<T>) {
        append_number(out, v);
    } else {
        out += '[';
        for (int i = 0; i < T::length(); ++i) {
            if (i) out += ',';
            append_number(out, v[i]);
        }
        out += ']';
    }
}

std::vector<Property_writer> vertex_properties(const World& world) {
    std::vector<Property_writer> out;
    for (const std::string& name : world.layer_names()) {
        const Layer_base* base = world.find_layer(name);
        if (!base || base->type() != Layer_type::vertex || name == "vertex") continue;
        with_value_type(base->value_tag(), [&]<class T>() {
            const auto& layer = static_cast<const Layer<T, Layer_type::vertex>&>(*base);
            out.push_back(
                {name, [&layer](std::string& text, Vertex v) { append_value(text, layer[v]); }});
            const Layer_hints* hints = world.hints(name);
            if constexpr (std::is_integral_v<T> && !std::same_as<T, bool>) {
                if (hints && !hints->categories.empty())
                    out.push_back({name + "_name", [&layer, hints](std::string& text, Vertex v) {
                                       const Layer_category* c =
                                           hints->category(static_cast<std::int64_t>(layer[v]));
                                       if (c)
                                           append_string(text, c->name);
                                       else
                                           text += "null";
                                   }});
            }
        });
    }
    return out;
}

std::string cells_text(const World& world, std::size_t& count) {
    const Mesh& m = world.mesh();
    require_closed(m);
    const Dual d(m, positions_of(world));
    const auto properties = vertex_properties(world);
    std::string out;
    out.reserve(m.vertex_count() * (240 + 16 * properties.size()));
    begin_collection(out, "cells");
    std::vector<glm::dvec3> corners;
    count = 0;
    for (const Vertex v : m.vertices()) {
        cell_corners(d, v, corners);
        Plane_area area;
        area.add(corners);
        const Geo_multi_polygon geometry = area.polygons(false);
        if (geometry.empty()) continue; // a cell too small for micro-degrees
        begin_feature(out, count++, v.index());
        key(out, "vertex", true);
        append_number(out, v.index());
        for (const Property_writer& w : properties) {
            key(out, w.name);
            w.write(out, v);
        }
        out += "},";
        append_geometry(out, geometry);
        out += '}';
    }
    end_collection(out, count);
    return out;
}

} // namespace

Lon_lat lon_lat_of(const glm::dvec3& p) {
    double lon = 0.0;
    if (p.z == 0.0)
        lon = p.x < 0.0 ? 180.0 : 0.0;
    else
        lon = radians_to_degrees(std::atan2(-p.z, p.x));
    return {to_micro(lon), latitude_of(p)};
}

Geo_multi_polygon cell_union(const World& world, std::span<const std::uint8_t> inside) {
    const Mesh& m = world.mesh();
    if (inside.size() < m.vertex_slots())
        refuse("cell_union: " + std::to_string(inside.size()) + " flags for " +
               std::to_string(m.vertex_slots()) + " vertex slots");
    std::vector<std::uint32_t> label(m.vertex_slots(), no_label);
    for (const Vertex v : m.vertices())
        if (inside[v.index()]) label[v.index()] = 0;
    require_closed(m);
    return std::move(label_polygons(Dual(m, positions_of(world)), label, 1)[0]);
}

double river_threshold(const World& world, const River_selection& s) {
    const auto* discharge =
        typed_layer<float, Layer_type::edge_primal_directed>(world, "discharge", "float", true);
    if (s.min_discharge) {
        if (!(std::isfinite(*s.min_discharge) && *s.min_discharge > 0.0))
            refuse("the smallest river discharge " + std::to_string(*s.min_discharge) +
                   " m³/s is not finite and positive");
        return *s.min_discharge;
    }
    if (!(s.min_discharge_fraction > 0.0 && s.min_discharge_fraction <= 1.0))
        refuse("the river discharge fraction " + std::to_string(s.min_discharge_fraction) +
               " is not in (0, 1]");
    const Mesh& m = world.mesh();
    double largest = 0.0;
    for (const Edge e : m.edges())
        largest = std::max({largest, static_cast<double>((*discharge)[e]),
                            static_cast<double>((*discharge)[e.sym()])});
    return largest * s.min_discharge_fraction;
}

std::vector<River> river_features(const World& world, double min_discharge) {
    const Mesh& m = world.mesh();
    const auto& discharge =
        *typed_layer<float, Layer_type::edge_primal_directed>(world, "discharge", "float", true);
    const Positions& p = positions_of(world);
    const auto* basin =
        typed_layer<std::int32_t, Layer_type::vertex>(world, "basin", "int32", false);
    const auto* lake = typed_layer<std::int32_t, Layer_type::vertex>(world, "lake", "int32", false);
    const auto* ocean = typed_layer<bool, Layer_type::vertex>(world, "ocean", "bool", false);

    // The river edges, grouped by origin (compressed rows).
    std::vector<Edge> edges;
    for (const Edge base : m.edges())
        for (const Edge e : {base, base.sym()}) {
            const double q = discharge[e];
            if (q > 0.0 && q >= min_discharge) edges.push_back(e);
        }
    const std::uint32_t slots = m.vertex_slots();
    std::vector<std::uint32_t> first(slots + 1, 0), in_count(slots, 0);
    for (const Edge e : edges) {
        ++first[e.origin(m).index() + 1];
        ++in_count[e.dest(m).index()];
    }
    for (std::uint32_t s = 0; s < slots; ++s)
        first[s + 1] += first[s];
    std::vector<Edge> out_edges(edges.size());
    {
        std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
        for (const Edge e : edges)
            out_edges[next[e.origin(m).index()]++] = e;
    }
    const auto out_of = [&](std::uint32_t s) {
        return std::span<const Edge>(out_edges.data() + first[s], first[s + 1] - first[s]);
    };

    // Strahler orders from the sources down (Kahn's topological order).
    std::vector<int> order(m.edge_slots(), 0);
    std::vector<int> top(slots, 0), at_top(slots, 0);
    std::vector<std::uint32_t> waiting(in_count);
    std::deque<std::uint32_t> ready;
    for (const Vertex v : m.vertices())
        if (in_count[v.index()] == 0 && first[v.index()] != first[v.index() + 1])
            ready.push_back(v.index());
    std::size_t done = 0;
    while (!ready.empty()) {
        const std::uint32_t s = ready.front();
        ready.pop_front();
        const int o = in_count[s] == 0 ? 1 : top[s] + (at_top[s] >= 2 ? 1 : 0);
        for (const Edge e : out_of(s)) {
            order[e.index()] = o;
            ++done;
            const std::uint32_t d = e.dest(m).index();
            if (o > top[d]) {
                top[d] = o;
                at_top[d] = 1;
            } else if (o == top[d]) {
                ++at_top[d];
            }
            if (--waiting[d] == 0) ready.push_back(d);
        }
    }
    if (done != edges.size())
        for (const Edge e : edges)
            if (order[e.index()] == 0)
                refuse("the rivers (discharge >= " + std::to_string(min_discharge) +
                       " m³/s) run in a cycle through vertex " + to_string(e.origin(m)) +
                       "; the discharge layer is not a drainage tree");

    // Drawn edges: not inside one lake, not leaving the ocean.
    const auto drawn = [&](Edge e) {
        const Vertex a = e.origin(m), b = e.dest(m);
        if (ocean && (*ocean)[a]) return false;
        return !(lake && (*lake)[a] >= 0 && (*lake)[a] == (*lake)[b]);
    };
    // A vertex a line runs through: one river edge in, one out, both drawn.
    std::vector<Edge> in_edge(slots, Edge{});
    for (const Edge e : edges)
        in_edge[e.dest(m).index()] = e;
    const auto passes = [&](std::uint32_t s) {
        return in_count[s] == 1 && first[s + 1] - first[s] == 1 && drawn(in_edge[s]) &&
               drawn(out_of(s)[0]);
    };

    std::vector<River> rivers;
    std::vector<glm::dvec3> points;
    for (const Edge start : edges) {
        if (!drawn(start) || passes(start.origin(m).index())) continue;
        River r;
        r.strahler = order[start.index()];
        r.vertices.push_back(start.origin(m));
        Edge e = start;
        for (;;) {
            const Vertex d = e.dest(m);
            r.vertices.push_back(d);
            r.discharge = discharge[e];
            if (!passes(d.index())) break;
            e = out_of(d.index())[0];
        }
        if (basin) r.basin = (*basin)[r.vertices.front()];
        points.clear();
        for (const Vertex v : r.vertices)
            points.push_back(position(p, v));
        for (std::size_t i = 1; i < points.size(); ++i)
            r.length += angle_between(points[i - 1], points[i]) * 0.5 *
                        (glm::length(points[i - 1]) + glm::length(points[i]));
        r.geometry = plane_line(points);
        if (!r.geometry.empty()) rivers.push_back(std::move(r));
    }
    return rivers;
}

std::vector<Lake> lake_features(const World& world) {
    const Mesh& m = world.mesh();
    const auto& lake = *typed_layer<std::int32_t, Layer_type::vertex>(world, "lake", "int32", true);
    const auto* level =
        typed_layer<float, Layer_type::vertex>(world, "water_level", "float", false);
    require_closed(m);
    const Dual d(m, positions_of(world));
    std::int32_t largest = -1;
    for (const Vertex v : m.vertices())
        largest = std::max(largest, lake[v]);
    const auto count = static_cast<std::uint32_t>(largest + 1);
    std::vector<std::uint32_t> label(m.vertex_slots(), no_label);
    std::vector<Lake> lakes(count);
    std::vector<std::uint8_t> present(count, 0);
    std::vector<glm::dvec3> scratch;
    for (std::uint32_t i = 0; i < count; ++i) {
        lakes[i].id = static_cast<std::int32_t>(i);
        lakes[i].level = std::numeric_limits<double>::quiet_NaN();
    }
    for (const Vertex v : m.vertices()) {
        const std::int32_t id = lake[v];
        if (id < 0) continue;
        label[v.index()] = static_cast<std::uint32_t>(id);
        Lake& l = lakes[static_cast<std::size_t>(id)];
        if (!present[static_cast<std::size_t>(id)] && level) l.level = (*level)[v];
        present[static_cast<std::size_t>(id)] = 1;
        l.area += cell_area(d, v, scratch);
    }
    auto polygons = label_polygons(d, label, count);
    std::vector<Lake> out;
    for (std::uint32_t i = 0; i < count; ++i)
        if (present[i]) {
            lakes[i].geometry = std::move(polygons[i]);
            out.push_back(std::move(lakes[i]));
        }
    return out;
}

std::vector<Land_mass> land_features(const World& world) {
    const Mesh& m = world.mesh();
    const auto& ocean = *typed_layer<bool, Layer_type::vertex>(world, "ocean", "bool", true);
    require_closed(m);
    const Dual d(m, positions_of(world));
    // Connected components of the land through mesh edges.
    std::vector<std::uint32_t> component(m.vertex_slots(), no_label);
    std::vector<Land_mass> land;
    std::vector<Vertex> stack;
    std::vector<glm::dvec3> scratch;
    for (const Vertex seed : m.vertices()) {
        if (ocean[seed] || component[seed.index()] != no_label) continue;
        const auto c = static_cast<std::uint32_t>(land.size());
        Land_mass mass;
        component[seed.index()] = c;
        stack.push_back(seed);
        while (!stack.empty()) {
            const Vertex v = stack.back();
            stack.pop_back();
            ++mass.vertices;
            mass.area += cell_area(d, v, scratch);
            for (const Vertex n : v.neighbors(m))
                if (!ocean[n] && component[n.index()] == no_label) {
                    component[n.index()] = c;
                    stack.push_back(n);
                }
        }
        land.push_back(std::move(mass));
    }
    // Ids by decreasing area (ties: the component found first).
    std::vector<std::uint32_t> rank(land.size());
    for (std::uint32_t i = 0; i < rank.size(); ++i)
        rank[i] = i;
    std::stable_sort(rank.begin(), rank.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return land[a].area > land[b].area; });
    std::vector<std::uint32_t> id_of(land.size());
    for (std::uint32_t i = 0; i < rank.size(); ++i)
        id_of[rank[i]] = i;
    for (const Vertex v : m.vertices())
        if (component[v.index()] != no_label) component[v.index()] = id_of[component[v.index()]];
    auto polygons = label_polygons(d, component, static_cast<std::uint32_t>(land.size()));
    std::vector<Land_mass> out;
    for (std::uint32_t i = 0; i < rank.size(); ++i) {
        Land_mass mass = std::move(land[rank[i]]);
        mass.id = static_cast<std::int32_t>(i);
        mass.geometry = std::move(polygons[i]);
        out.push_back(std::move(mass));
    }
    return out;
}

Geojson_report write_geojson(const World& world, const std::filesystem::path& folder,
                             const Geojson_options& o) {
    if (!o.rivers && !o.lakes && !o.coastlines && !o.cells)
        refuse("write_geojson: nothing to write (no rivers, lakes, coastlines or cells chosen)");
    // Build everything first, so a missing layer refuses before any file is touched.
    Geojson_report report;
    std::vector<std::pair<std::string, std::string>> files;
    if (o.rivers) {
        report.min_discharge = river_threshold(world, o.river_selection);
        const auto rivers = river_features(world, report.min_discharge);
        report.rivers = rivers.size();
        files.emplace_back("rivers.geojson", rivers_text(rivers));
    }
    if (o.lakes) {
        const auto lakes = lake_features(world);
        report.lakes = lakes.size();
        files.emplace_back("lakes.geojson", lakes_text(lakes));
    }
    if (o.coastlines) {
        const auto land = land_features(world);
        report.land_masses = land.size();
        files.emplace_back("coastlines.geojson", land_text(land));
    }
    if (o.cells) files.emplace_back("cells.geojson", cells_text(world, report.cells));

    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) {
        if (std::filesystem::exists(folder, error))
            throw File_error(folder, "", "is not a folder; GeoJSON files go into a folder");
        std::filesystem::create_directories(folder, error);
        if (error) throw File_error(folder, "", "cannot create the folder: " + error.message());
    }
    for (const auto& [name, text] : files) {
        const std::filesystem::path path = folder / name;
        save(path, text, o.sync);
        report.files.push_back(path);
    }
    return report;
}

} // namespace orbis::io
