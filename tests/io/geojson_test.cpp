// SPDX-License-Identifier: MIT
// GeoJSON export: unions of cells as valid lon/lat polygons (closed rings, orientation, no
// crossings, cut at the antimeridian, closed at the poles, areas that add up to the sphere),
// river chains and Strahler orders, lakes, land masses and the files GIS programs read.
#include "support/fixtures.hpp"

#include <orbis/core.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/io/equirectangular.hpp>
#include <orbis/io/file_error.hpp>
#include <orbis/io/geojson.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace orbis::io {
namespace {

namespace fs = std::filesystem;
constexpr double pi = std::numbers::pi;
constexpr std::int32_t deg = 1'000'000; // micro-degrees per degree
constexpr float earth = 6371.f;         // km

constexpr auto discharge_info = Layer_info<float, Layer_type::edge_primal_directed>("discharge");
constexpr auto lake_info = Layer_info<std::int32_t, Layer_type::vertex>("lake").initial(-1);
constexpr auto ocean_info = Layer_info<bool, Layer_type::vertex>("ocean");
constexpr auto level_info = Layer_info<float, Layer_type::vertex>("water_level");
constexpr auto basin_info = Layer_info<std::int32_t, Layer_type::vertex>("basin").initial(-1);

World sphere(std::uint32_t count, float radius = 1.f, std::uint64_t seed = 3) {
    return gen::make_sphere_world({count, radius, 0.5f, seed});
}

glm::dvec3 position_of(const World& w, Vertex v) {
    return glm::dvec3((*w.layer(position_layer))[v]);
}

// The unit direction of longitude and latitude in degrees (the documented convention).
glm::dvec3 direction(double lon, double lat) {
    const double l = lon * pi / 180, f = lat * pi / 180;
    return {std::cos(f) * std::cos(l), std::sin(f), -std::cos(f) * std::sin(l)};
}

double angle(const glm::dvec3& a, const glm::dvec3& b) {
    return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

std::vector<std::uint8_t> flags(const World& w, const std::function<bool(glm::dvec3)>& inside) {
    std::vector<std::uint8_t> f(w.mesh().vertex_slots(), 0);
    for (const Vertex v : w.mesh().vertices())
        f[v.index()] = inside(glm::normalize(position_of(w, v)));
    return f;
}

// Area on the unit sphere enclosed by a lon/lat ring whose segments are straight in lon/lat
// (Green's theorem: the integral of cos(lat) over the area is the integral of -sin(lat) along
// the boundary, exact for straight segments).
double sphere_area(const Geo_ring& ring) {
    double sum = 0;
    for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
        const double l1 = ring[i].lon * pi / (180.0 * deg),
                     l2 = ring[i + 1].lon * pi / (180.0 * deg);
        const double f1 = ring[i].lat * pi / (180.0 * deg),
                     f2 = ring[i + 1].lat * pi / (180.0 * deg);
        const double dl = l2 - l1, df = f2 - f1;
        sum -= std::abs(df) < 1e-12 ? std::sin(f1) * dl : dl * (std::cos(f1) - std::cos(f2)) / df;
    }
    return sum;
}

double sphere_area(const Geo_multi_polygon& g) {
    double sum = 0;
    for (const Geo_polygon& polygon : g)
        for (const Geo_ring& ring : polygon)
            sum += sphere_area(ring);
    return sum;
}

std::int64_t orient(Lon_lat a, Lon_lat b, Lon_lat c) {
    return std::int64_t{b.lon - a.lon} * (c.lat - a.lat) -
           std::int64_t{b.lat - a.lat} * (c.lon - a.lon);
}

bool on_segment(Lon_lat a, Lon_lat b, Lon_lat p) {
    return std::min(a.lon, b.lon) <= p.lon && p.lon <= std::max(a.lon, b.lon) &&
           std::min(a.lat, b.lat) <= p.lat && p.lat <= std::max(a.lat, b.lat);
}

// True when the closed segments ab and cd share a point (exact).
bool touch(Lon_lat a, Lon_lat b, Lon_lat c, Lon_lat d) {
    const auto s = [](std::int64_t x) { return (x > 0) - (x < 0); };
    const int o1 = s(orient(a, b, c)), o2 = s(orient(a, b, d)), o3 = s(orient(c, d, a)),
              o4 = s(orient(c, d, b));
    if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
           (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

std::int64_t twice_area(const Geo_ring& r) {
    double sum = 0; // doubles suffice for the sign of the rings of these tests
    for (std::size_t i = 0; i + 1 < r.size(); ++i)
        sum += double(r[i].lon) * r[i + 1].lat - double(r[i + 1].lon) * r[i].lat;
    return sum > 0 ? 1 : (sum < 0 ? -1 : 0);
}

// Everything RFC 7946 and a GIS program's validity check want of a multipolygon.
void expect_valid(const Geo_multi_polygon& g) {
    struct Segment {
        Lon_lat a, b;
        std::size_t ring, index, size;
    };
    std::vector<Segment> segments;
    std::size_t ring_id = 0;
    for (const Geo_polygon& polygon : g) {
        ASSERT_FALSE(polygon.empty());
        for (std::size_t r = 0; r < polygon.size(); ++r, ++ring_id) {
            const Geo_ring& ring = polygon[r];
            ASSERT_GE(ring.size(), 4u);
            EXPECT_EQ(ring.front(), ring.back()) << "ring not closed";
            EXPECT_EQ(twice_area(ring), r == 0 ? 1 : -1)
                << (r == 0 ? "exterior not counterclockwise" : "hole not clockwise");
            for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
                const Lon_lat a = ring[i], b = ring[i + 1];
                EXPECT_NE(a, b) << "repeated position";
                EXPECT_LE(std::abs(a.lon), 180 * deg);
                EXPECT_LE(std::abs(a.lat), 90 * deg);
                EXPECT_LE(std::abs(b.lon - a.lon), 180 * deg) << "segment spans > 180 degrees";
                segments.push_back({a, b, ring_id, i, ring.size() - 1});
            }
        }
    }
    // No two segments meet except consecutive ones of a ring at their shared end.
    for (std::size_t i = 0; i < segments.size(); ++i)
        for (std::size_t j = i + 1; j < segments.size(); ++j) {
            const Segment &s = segments[i], &t = segments[j];
            if (s.ring == t.ring &&
                (t.index == s.index + 1 || (s.index == 0 && t.index + 1 == s.size)))
                continue;
            ASSERT_FALSE(touch(s.a, s.b, t.a, t.b))
                << "segments meet: (" << s.a.lon << "," << s.a.lat << ")-(" << s.b.lon << ","
                << s.b.lat << ") and (" << t.a.lon << "," << t.a.lat << ")-(" << t.b.lon << ","
                << t.b.lat << ")";
        }
}

// Even-odd over every ring: inside an exterior and outside its holes.
bool contains(const Geo_multi_polygon& g, Lon_lat p) {
    bool inside = false;
    for (const Geo_polygon& polygon : g)
        for (const Geo_ring& ring : polygon)
            for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
                const Lon_lat a = ring[i], b = ring[i + 1];
                if ((a.lat > p.lat) == (b.lat > p.lat)) continue;
                const double x = a.lon + double(p.lat - a.lat) * (b.lon - a.lon) / (b.lat - a.lat);
                if (x > p.lon) inside = !inside;
            }
    return inside;
}

// Checks the union of `inside` and of its complement: both valid, areas adding up to the
// sphere, each vertex's site in the one it belongs to.
// `even` says whether the cells are of about equal area (an unrefined Fibonacci sphere), so
// that the union's area follows from its number of vertices.
void expect_union_and_complement(const World& w, const std::vector<std::uint8_t>& inside,
                                 bool even = true) {
    std::vector<std::uint8_t> outside(inside.size());
    for (std::size_t i = 0; i < inside.size(); ++i)
        outside[i] = !inside[i];
    const Geo_multi_polygon in = cell_union(w, inside), out = cell_union(w, outside);
    expect_valid(in);
    expect_valid(out);
    // Both share their boundary, so their areas add up to the sphere exactly; a ring closed
    // along the wrong side of the map would count the complement instead.
    EXPECT_NEAR(sphere_area(in) + sphere_area(out), 4 * pi, 1e-6);
    std::size_t inside_count = 0;
    for (const Vertex v : w.mesh().vertices())
        inside_count += inside[v.index()];
    const double expected = 4 * pi * double(inside_count) / double(w.mesh().vertex_count());
    if (even) {
        EXPECT_NEAR(sphere_area(in), expected, 0.02 * 4 * pi) << "area of the union";
    }
    for (const Vertex v : w.mesh().vertices()) {
        const Lon_lat site = lon_lat_of(position_of(w, v));
        if (std::abs(site.lat) > 80 * deg) continue; // straight lon/lat edges bend near poles
        EXPECT_EQ(contains(in, site), inside[v.index()] != 0) << "site of " << to_string(v);
        EXPECT_EQ(contains(out, site), inside[v.index()] == 0) << "site of " << to_string(v);
    }
}

TEST(Geojson, LonLatFollowsTheMapConvention) {
    EXPECT_EQ(lon_lat_of({1, 0, 0}), (Lon_lat{0, 0}));
    EXPECT_EQ(lon_lat_of({0, 0, -2}), (Lon_lat{90 * deg, 0}));
    EXPECT_EQ(lon_lat_of({0, 0, 1}), (Lon_lat{-90 * deg, 0}));
    EXPECT_EQ(lon_lat_of({-1, 0, 0}), (Lon_lat{180 * deg, 0}));
    const Lon_lat west = lon_lat_of({-1, 0, 1e-3}); // just west of the antimeridian
    EXPECT_LT(west.lon, -179 * deg);
    EXPECT_GT(west.lon, -180 * deg);
    EXPECT_EQ(lon_lat_of({0, 5, 0}).lat, 90 * deg);
    EXPECT_EQ(lon_lat_of({1, -1, 0}), (Lon_lat{0, -45 * deg}));
    const Lon_lat p = lon_lat_of(direction(-123.456789, 45.654321));
    EXPECT_EQ(p, (Lon_lat{-123'456'789, 45'654'321}));
}

TEST(Geojson, CapAroundANorthPoleIsClosedAlongTheTopEdge) {
    const World w = sphere(3000);
    const auto inside = flags(w, [](glm::dvec3 p) { return p.y > 0.7; });
    const Geo_multi_polygon cap = cell_union(w, inside);
    ASSERT_EQ(cap.size(), 1u);
    ASSERT_EQ(cap[0].size(), 1u);
    EXPECT_TRUE(contains(cap, {17 * deg, 89 * deg}));
    EXPECT_TRUE(contains(cap, {-170 * deg, 80 * deg}));
    EXPECT_FALSE(contains(cap, {0, 0}));
    const auto top = std::count_if(cap[0][0].begin(), cap[0][0].end(),
                                   [](Lon_lat p) { return p.lat == 90 * deg; });
    EXPECT_EQ(top, 5); // the two corners and every 90 degrees between
    EXPECT_NEAR(sphere_area(cap), 2 * pi * (1 - 0.7), 0.05 * 2 * pi * 0.3);
    expect_union_and_complement(w, inside);
}

TEST(Geojson, SouthPolarCapAndTheOceanAroundANorthPolarIsland) {
    const World w = sphere(3000);
    const auto ice = flags(w, [](glm::dvec3 p) { return p.y < -0.8; });
    const Geo_multi_polygon cap = cell_union(w, ice);
    ASSERT_EQ(cap.size(), 1u);
    EXPECT_TRUE(contains(cap, {45 * deg, -89 * deg}));
    EXPECT_FALSE(contains(cap, {45 * deg, 0}));
    // Everything but an island around the north pole: one polygon along the rest of the
    // border, not a hole in nothing.
    const auto ocean = flags(w, [](glm::dvec3 p) { return p.y < 0.9; });
    const Geo_multi_polygon sea = cell_union(w, ocean);
    ASSERT_EQ(sea.size(), 1u);
    ASSERT_EQ(sea[0].size(), 1u);
    EXPECT_TRUE(contains(sea, {0, -89 * deg}));
    EXPECT_TRUE(contains(sea, {179 * deg, 0}));
    EXPECT_FALSE(contains(sea, {0, 89 * deg}));
    expect_union_and_complement(w, ice);
    expect_union_and_complement(w, ocean);
}

TEST(Geojson, AreasAcrossTheAntimeridianAreCutIntoTwoParts) {
    const World w = sphere(3000);
    const glm::dvec3 centre = direction(180, 20);
    const auto disc = flags(w, [&](glm::dvec3 p) { return angle(p, centre) < 0.4; });
    const Geo_multi_polygon parts = cell_union(w, disc);
    ASSERT_EQ(parts.size(), 2u);
    std::set<std::int32_t> sides;
    for (const Geo_polygon& polygon : parts)
        for (const Lon_lat p : polygon[0])
            if (std::abs(p.lon) == 180 * deg) sides.insert(p.lon);
    EXPECT_EQ(sides.size(), 2u) << "each part is closed along its own edge of the map";
    // Its complement stays one polygon: the map with a notch on each side, no hole.
    std::vector<std::uint8_t> rest(disc.size());
    for (std::size_t i = 0; i < disc.size(); ++i)
        rest[i] = !disc[i];
    const Geo_multi_polygon notched = cell_union(w, rest);
    ASSERT_EQ(notched.size(), 1u);
    EXPECT_EQ(notched[0].size(), 1u);
    expect_union_and_complement(w, disc);
}

TEST(Geojson, AnIslandInARegionIsAHole) {
    const World w = sphere(3000);
    const glm::dvec3 centre = direction(30, 10);
    const auto ring = flags(w, [&](glm::dvec3 p) {
        const double a = angle(p, centre);
        return a < 0.6 && a > 0.25;
    });
    const Geo_multi_polygon g = cell_union(w, ring);
    ASSERT_EQ(g.size(), 1u);
    ASSERT_EQ(g[0].size(), 2u);
    EXPECT_TRUE(contains(g, lon_lat_of(direction(30, 10 + 0.45 * 180 / pi))));
    EXPECT_FALSE(contains(g, lon_lat_of(centre)));
    expect_union_and_complement(w, ring);
}

TEST(Geojson, ManyShapesGiveValidPolygons) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> lon(-180, 180), lat(-90, 90), radius(0.1, 1.0);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const World w = sphere(1500, 1.f, seed);
        std::vector<glm::dvec3> centres;
        std::vector<double> radii;
        for (int k = 0; k < 4; ++k) {
            centres.push_back(direction(lon(rng), lat(rng)));
            radii.push_back(radius(rng));
        }
        // Caps at the poles and on the antimeridian in every other world.
        if (seed % 2) {
            centres.push_back(direction(0, seed % 4 == 1 ? 90 : -90));
            radii.push_back(0.3);
            centres.push_back(direction(180, lat(rng) / 2));
            radii.push_back(0.3);
        }
        const auto inside = flags(w, [&](glm::dvec3 p) {
            for (std::size_t k = 0; k < centres.size(); ++k)
                if (angle(p, centres[k]) < radii[k]) return true;
            return false;
        });
        SCOPED_TRACE("world " + std::to_string(seed));
        expect_union_and_complement(w, inside);
    }
}

// How far (radians) the boundary of v's cell strays from being as close to v as to its
// nearest neighbour: 0 for a Voronoi cell, whose boundary points are as close to the cell's
// vertex as to a neighbour and closer to no other vertex.
double voronoi_error(const World& w, Vertex v) {
    const Mesh& m = w.mesh();
    std::vector<std::uint8_t> one(m.vertex_slots(), 0);
    one[v.index()] = 1;
    const glm::dvec3 site = position_of(w, v);
    double worst = 0;
    for (const Geo_polygon& polygon : cell_union(w, one))
        for (const Lon_lat q : polygon[0]) {
            if (std::abs(q.lat) == 90 * deg) continue; // closing along a pole
            const glm::dvec3 x = direction(q.lon * 1e-6, q.lat * 1e-6);
            double nearest_other = 10;
            for (const Vertex n : v.neighbors(m))
                nearest_other = std::min(nearest_other, angle(x, position_of(w, n)));
            worst = std::max(worst, std::abs(nearest_other - angle(x, site)));
        }
    return worst;
}

TEST(Geojson, CellsOfADelaunayMeshAreItsVoronoiCells) {
    const World w = sphere(1000);
    double worst = 0;
    for (const Vertex v : w.mesh().vertices())
        worst = std::max(worst, voronoi_error(w, v));
    // Micro-degrees are 1.7e-8 radians; a centroid corner would be off by about 1e-2.
    EXPECT_LT(worst, 2e-7);
}

TEST(Geojson, CellsOfARefinedEarthSizedWorldAreValid) {
    // Refinement leaves faces a kilometre across next to ones a hundred times larger; float
    // positions of an Earth-sized sphere are off it by decimetres, enough to tilt such a
    // face's plane and throw its circumcentre kilometres out of order unless the corners are
    // taken as directions.
    World w = sphere(4000, earth, 7);
    {
        auto [elevation] = w.lock_layer(gen::elevation_layer);
        for (const Vertex v : w.mesh().vertices()) {
            const glm::dvec3 p = glm::normalize(position_of(w, v));
            elevation[v] = static_cast<float>(2000 * std::sin(4 * p.x) * std::cos(3 * p.z));
        }
    }
    Dict refine;
    refine.set("split_length", 60.0);
    refine.set("collapse_length", 120.0);
    (void)gen::run_module(w, gen::Refine_module{}, refine);
    ASSERT_GT(w.mesh().vertex_count(), 10000u);
    // The cells of every 40th vertex, each a union of its own: valid, and Voronoi cells.
    std::size_t k = 0;
    double worst = 0;
    for (const Vertex v : w.mesh().vertices()) {
        if (k++ % 40) continue;
        std::vector<std::uint8_t> one(w.mesh().vertex_slots(), 0);
        one[v.index()] = 1;
        SCOPED_TRACE("cell of " + to_string(v));
        expect_valid(cell_union(w, one));
        worst = std::max(worst, voronoi_error(w, v));
        if (::testing::Test::HasFailure()) break;
    }
    EXPECT_LT(worst, 1e-7);
    const auto land =
        flags(w, [](glm::dvec3 p) { return std::sin(4 * p.x) * std::cos(3 * p.z) > 0.2; });
    expect_union_and_complement(w, land, false);
}

// True when the faces on both sides of e are counterclockwise seen from outside.
bool unfolded(const World& w, Edge e) {
    const Mesh& m = w.mesh();
    for (const Edge x : {e, e.sym()}) {
        const glm::dvec3 a = position_of(w, x.origin(m)), b = position_of(w, x.dest(m)),
                         c = position_of(w, x.left_next(m).dest(m));
        if (glm::dot(glm::cross(b - a, c - a), a + b + c) <= 0) return false;
    }
    return true;
}

// The angle at the corner of the face left of e opposite e.
double opposite_angle(const World& w, Edge e) {
    const Mesh& m = w.mesh();
    const glm::dvec3 a = position_of(w, e.origin(m)), b = position_of(w, e.dest(m)),
                     c = position_of(w, e.left_next(m).dest(m));
    return angle(a - c, b - c);
}

TEST(Geojson, CellsStayValidOnAMeshThatIsNotDelaunay) {
    // Flip random edges of convex quads: the mesh stays unfolded but many edges stop being
    // locally Delaunay, so circumcentres leave their faces and Voronoi cells would overlap.
    World w = sphere(2000, 1.f, 5);
    std::mt19937_64 rng(3);
    std::vector<Edge> edges;
    for (const Edge e : w.mesh().edges())
        edges.push_back(e);
    std::shuffle(edges.begin(), edges.end(), rng);
    for (std::size_t i = 0; i < 600; ++i) {
        if (w.lock_mesh().try_flip(edges[i])) continue;
        if (!unfolded(w, edges[i])) (void)w.lock_mesh().try_flip(edges[i]); // undo a fold
    }
    std::size_t not_delaunay = 0;
    for (const Edge e : w.mesh().edges())
        not_delaunay += opposite_angle(w, e) + opposite_angle(w, e.sym()) > pi + 1e-9;
    EXPECT_GT(not_delaunay, 200u);
    for (const Vertex v : w.mesh().vertices()) {
        std::vector<std::uint8_t> one(w.mesh().vertex_slots(), 0);
        one[v.index()] = 1;
        const Geo_multi_polygon cell = cell_union(w, one);
        SCOPED_TRACE("cell of " + to_string(v));
        expect_valid(cell);
        if (::testing::Test::HasFailure()) break;
    }
    const auto blob =
        flags(w, [](glm::dvec3 p) { return std::sin(5 * p.x) + std::cos(4 * p.y) > 0.8; });
    expect_union_and_complement(w, blob);
}

TEST(Geojson, EverythingIsTheWholeMapAndNothingIsEmpty) {
    const World w = sphere(500);
    const std::vector<std::uint8_t> all(w.mesh().vertex_slots(), 1);
    const Geo_multi_polygon whole = cell_union(w, all);
    ASSERT_EQ(whole.size(), 1u);
    ASSERT_EQ(whole[0].size(), 1u);
    EXPECT_NEAR(sphere_area(whole), 4 * pi, 1e-9);
    expect_valid(whole);
    EXPECT_TRUE(cell_union(w, std::vector<std::uint8_t>(w.mesh().vertex_slots(), 0)).empty());
}

TEST(Geojson, RefusesAnOpenMesh) {
    World w;
    w.lock_mesh().assign(test::build(test::disc(2)));
    {
        auto [p] = w.lock_layer(position_layer);
        const auto points = test::disc_positions(2);
        for (std::uint32_t i = 0; i < points.size(); ++i)
            p[Vertex{i}] = glm::vec3(points[i][0], points[i][1], 1.0);
    }
    const std::vector<std::uint8_t> all(w.mesh().vertex_slots(), 1);
    try {
        (void)cell_union(w, all);
        FAIL() << "an open mesh was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("mesh is open"), std::string::npos) << e.what();
    }
}

// ---- rivers ----

// Sets the discharge of the directed edges a -> b given as vertex pairs.
void set_discharge(World& w, const std::vector<std::tuple<Vertex, Vertex, float>>& flows) {
    const Mesh& m = w.mesh();
    auto [d] = w.lock_layer(discharge_info);
    for (const auto& [a, b, q] : flows) {
        bool found = false;
        for (const Edge e : a.edges(m))
            if (e.dest(m) == b) {
                d[e] = q;
                found = true;
            }
        ASSERT_TRUE(found) << to_string(a) << " and " << to_string(b) << " are not neighbours";
    }
}

// The vertex nearest to a direction.
Vertex nearest(const World& w, const glm::dvec3& d) {
    Vertex best{};
    double best_angle = 10;
    for (const Vertex v : w.mesh().vertices())
        if (const double a = angle(position_of(w, v), d); a < best_angle) {
            best_angle = a;
            best = v;
        }
    return best;
}

// The vertex nearest to `at` (C), five of its neighbours in ring order and a neighbour of the
// fourth (D) that is none of them: A, B -> C -> D -> G, E -> D.
struct Tree {
    Vertex a, b, c, d, e, g;
};
Tree small_tree(const World& w, const glm::dvec3& at = direction(-90, 0)) {
    const Mesh& m = w.mesh();
    const Vertex c = nearest(w, at);
    std::vector<Vertex> ring;
    for (const Vertex n : c.neighbors(m))
        ring.push_back(n);
    Tree t{ring[0], ring[1], c, ring[3], ring[4], Vertex{}};
    for (const Vertex n : t.d.neighbors(m))
        if (n != c && std::find(ring.begin(), ring.end(), n) == ring.end()) t.g = n;
    return t;
}

const River* river_from(const std::vector<River>& rivers, Vertex first) {
    for (const River& r : rivers)
        if (r.vertices.front() == first) return &r;
    return nullptr;
}

TEST(GeojsonRivers, StrahlerOrdersOnAHandBuiltTree) {
    World w = sphere(2000);
    const Tree t = small_tree(w);
    ASSERT_TRUE(t.g.valid());
    set_discharge(w, {{t.a, t.c, 1}, {t.b, t.c, 1}, {t.c, t.d, 3}, {t.e, t.d, 1}, {t.d, t.g, 5}});
    const auto rivers = river_features(w, 0.5);
    ASSERT_EQ(rivers.size(), 5u);
    const std::map<std::uint32_t, std::pair<int, double>> expected = {{t.a.index(), {1, 1}},
                                                                      {t.b.index(), {1, 1}},
                                                                      {t.c.index(), {2, 3}},
                                                                      {t.e.index(), {1, 1}},
                                                                      {t.d.index(), {2, 5}}};
    for (const auto& [first, want] : expected) {
        const River* r = river_from(rivers, Vertex{first});
        ASSERT_NE(r, nullptr) << "no river starts at v" << first;
        EXPECT_EQ(r->vertices.size(), 2u);
        EXPECT_EQ(r->strahler, want.first) << "river from v" << first;
        EXPECT_EQ(r->discharge, want.second) << "river from v" << first;
        EXPECT_EQ(r->basin, -1); // no basin layer
        ASSERT_EQ(r->geometry.size(), 1u);
        EXPECT_EQ(r->geometry[0].front(), lon_lat_of(position_of(w, r->vertices.front())));
        EXPECT_NEAR(r->length,
                    angle(position_of(w, r->vertices[0]), position_of(w, r->vertices[1])), 1e-6);
    }
    // Where two order-2 rivers meet the order rises to 3.
    World w3 = sphere(2000);
    set_discharge(w3, {{t.a, t.c, 1}, {t.b, t.c, 1}, {t.c, t.d, 3}, {t.e, t.d, 3}, {t.d, t.g, 7}});
    {
        // E is fed by two sources of its own, so its river is of order 2 too.
        const Mesh& m = w3.mesh();
        std::vector<Vertex> feeders;
        for (const Vertex n : t.e.neighbors(m))
            if (n != t.c && n != t.d && n != t.a && n != t.b && n != t.g) feeders.push_back(n);
        ASSERT_GE(feeders.size(), 2u);
        set_discharge(w3, {{feeders[0], t.e, 1}, {feeders[1], t.e, 1}});
    }
    const auto r3 = river_features(w3, 0.5);
    EXPECT_EQ(river_from(r3, t.e)->strahler, 2);
    EXPECT_EQ(river_from(r3, t.d)->strahler, 3);
}

TEST(GeojsonRivers, ThresholdKeepsTheLargeEdgesAsOneRiver) {
    World w = sphere(2000);
    const Tree t = small_tree(w);
    set_discharge(w, {{t.a, t.c, 1}, {t.b, t.c, 1}, {t.c, t.d, 3}, {t.e, t.d, 1}, {t.d, t.g, 5}});
    const auto rivers = river_features(w, 2.0);
    ASSERT_EQ(rivers.size(), 1u);
    EXPECT_EQ(rivers[0].vertices, (std::vector<Vertex>{t.c, t.d, t.g}));
    EXPECT_EQ(rivers[0].strahler, 1); // the tributaries below the threshold do not count
    EXPECT_EQ(rivers[0].discharge, 5.0);
    EXPECT_DOUBLE_EQ(river_threshold(w, {}), 0.05);
    EXPECT_DOUBLE_EQ(
        river_threshold(w, {.min_discharge = std::nullopt, .min_discharge_fraction = 0.5}), 2.5);
    EXPECT_DOUBLE_EQ(river_threshold(w, {.min_discharge = 4.0, .min_discharge_fraction = 0.5}),
                     4.0);
    EXPECT_THROW((void)river_threshold(w, {.min_discharge = -1.0, .min_discharge_fraction = 0.5}),
                 std::invalid_argument);
    EXPECT_THROW(
        (void)river_threshold(w, {.min_discharge = std::nullopt, .min_discharge_fraction = 0}),
        std::invalid_argument);
}

TEST(GeojsonRivers, LakesAndTheOceanInterruptTheLines) {
    World w = sphere(2000);
    const Tree t = small_tree(w);
    set_discharge(w, {{t.a, t.c, 1}, {t.b, t.c, 1}, {t.c, t.d, 3}, {t.e, t.d, 1}, {t.d, t.g, 5}});
    {
        auto [lake, ocean] = w.lock_layer(lake_info, ocean_info);
        lake[t.c] = 4;
        lake[t.d] = 4;
        ocean[t.g] = true;
    }
    const auto rivers = river_features(w, 0.5);
    // C -> D lies in the lake: rivers end at its shore and leave from its outlet D.
    ASSERT_EQ(rivers.size(), 4u);
    EXPECT_EQ(river_from(rivers, t.c), nullptr);
    EXPECT_EQ(river_from(rivers, t.d)->strahler, 2); // the order counts the edge in the lake
}

TEST(GeojsonRivers, OrdersMatchTheDefinitionOnASpanningTree) {
    World w = sphere(3000, 1.f, 9);
    const Mesh& m = w.mesh();
    // A breadth-first tree draining everything to vertex 0; discharge = vertices upstream.
    std::vector<Vertex> parent(m.vertex_slots()), order;
    std::vector<std::uint8_t> seen(m.vertex_slots(), 0);
    order.push_back(Vertex{0});
    seen[0] = 1;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (const Vertex n : order[i].neighbors(m))
            if (!seen[n.index()]) {
                seen[n.index()] = 1;
                parent[n.index()] = order[i];
                order.push_back(n);
            }
    std::vector<float> upstream(m.vertex_slots(), 1.f);
    std::vector<int> strahler(m.vertex_slots(), 0), top(m.vertex_slots(), 0),
        at_top(m.vertex_slots(), 0), children(m.vertex_slots(), 0);
    for (std::size_t i = order.size(); i-- > 1;) {
        const Vertex v = order[i];
        strahler[v.index()] =
            children[v.index()] == 0 ? 1 : top[v.index()] + (at_top[v.index()] > 1);
        const std::uint32_t p = parent[v.index()].index();
        upstream[p] += upstream[v.index()];
        ++children[p];
        if (strahler[v.index()] > top[p]) {
            top[p] = strahler[v.index()];
            at_top[p] = 1;
        } else if (strahler[v.index()] == top[p]) {
            ++at_top[p];
        }
    }
    std::vector<std::tuple<Vertex, Vertex, float>> flows;
    for (std::size_t i = 1; i < order.size(); ++i)
        flows.emplace_back(order[i], parent[order[i].index()], upstream[order[i].index()]);
    set_discharge(w, flows);

    const double threshold = 3.0; // leaves out the smallest twigs
    const auto rivers = river_features(w, threshold);
    std::set<std::uint32_t> covered;
    int largest = 0;
    for (const River& r : rivers) {
        ASSERT_GE(r.vertices.size(), 2u);
        for (std::size_t i = 0; i + 1 < r.vertices.size(); ++i) {
            const Vertex v = r.vertices[i];
            EXPECT_EQ(parent[v.index()], r.vertices[i + 1]) << "the river follows the tree";
            EXPECT_TRUE(covered.insert(v.index()).second)
                << "edge from " << to_string(v) << " twice";
            EXPECT_GE(upstream[v.index()], threshold);
        }
        EXPECT_EQ(r.discharge, upstream[r.vertices[r.vertices.size() - 2].index()]);
        largest = std::max(largest, r.strahler);
    }
    // Strahler orders computed on the river edges alone: recompute the definition there.
    std::vector<int> river_order(m.vertex_slots(), 0), rtop(m.vertex_slots(), 0),
        rat_top(m.vertex_slots(), 0), rchildren(m.vertex_slots(), 0);
    std::size_t river_edges = 0;
    for (std::size_t i = order.size(); i-- > 1;) {
        const Vertex v = order[i];
        if (upstream[v.index()] < threshold) continue;
        ++river_edges;
        const std::uint32_t x = v.index();
        river_order[x] = rchildren[x] == 0 ? 1 : rtop[x] + (rat_top[x] > 1);
        const std::uint32_t p = parent[x].index();
        ++rchildren[p];
        if (river_order[x] > rtop[p]) {
            rtop[p] = river_order[x];
            rat_top[p] = 1;
        } else if (river_order[x] == rtop[p]) {
            ++rat_top[p];
        }
    }
    EXPECT_EQ(covered.size(), river_edges) << "every river edge is in exactly one river";
    for (const River& r : rivers)
        for (std::size_t i = 0; i + 1 < r.vertices.size(); ++i)
            EXPECT_EQ(r.strahler, river_order[r.vertices[i].index()]);
    EXPECT_GE(largest, 3);
    // Lines break exactly where the tree branches.
    for (const River& r : rivers)
        for (std::size_t i = 1; i + 1 < r.vertices.size(); ++i)
            EXPECT_EQ(rchildren[r.vertices[i].index()], 1);
}

TEST(GeojsonRivers, ARiverAcrossTheAntimeridianHasTwoParts) {
    World w = sphere(3000);
    const Mesh& m = w.mesh();
    // Walk greedily from 170 E towards 170 W along the equator, down to the vertex nearest
    // the target (on a Delaunay mesh a closer neighbour exists until then).
    const glm::dvec3 target = direction(-170, 5);
    Vertex v = nearest(w, direction(170, 5));
    std::vector<std::tuple<Vertex, Vertex, float>> flows;
    float q = 1;
    for (;;) {
        Vertex next = v;
        for (const Vertex n : v.neighbors(m))
            if (angle(position_of(w, n), target) < angle(position_of(w, next), target)) next = n;
        if (next == v) break;
        flows.emplace_back(v, next, q++);
        v = next;
    }
    ASSERT_GT(flows.size(), 4u);
    set_discharge(w, flows);
    const auto rivers = river_features(w, 0.5);
    ASSERT_EQ(rivers.size(), 1u);
    const auto& parts = rivers[0].geometry;
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].back().lon, 180 * deg);
    EXPECT_EQ(parts[1].front().lon, -180 * deg);
    EXPECT_EQ(parts[0].back().lat, parts[1].front().lat);
    for (const Geo_line& part : parts)
        for (std::size_t i = 0; i + 1 < part.size(); ++i)
            EXPECT_LE(std::abs(part[i + 1].lon - part[i].lon), 20 * deg);
}

TEST(GeojsonRivers, RefusesACycleAndAMissingLayer) {
    World w = sphere(500);
    EXPECT_THROW((void)river_features(w, 1.0), std::invalid_argument);
    const Tree t = small_tree(w);
    set_discharge(w, {{t.c, t.d, 2}, {t.d, t.c, 2}});
    try {
        (void)river_features(w, 1.0);
        FAIL() << "a cycle was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
    }
}

// ---- lakes and land ----

TEST(GeojsonLakes, IdsLevelsAreasIslandsAndTheAntimeridian) {
    World w = sphere(4000, earth);
    const glm::dvec3 ring_centre = direction(40, -20), seam = direction(180, 40);
    {
        auto [lake, level] = w.lock_layer(lake_info, level_info);
        for (const Vertex v : w.mesh().vertices()) {
            const glm::dvec3 p = glm::normalize(position_of(w, v));
            const double a = angle(p, ring_centre);
            if (a < 0.5 && a > 0.2) {
                lake[v] = 0;
                level[v] = 120.f;
            } else if (angle(p, seam) < 0.3) {
                lake[v] = 1;
                level[v] = -15.5f;
            } else if (angle(p, direction(-60, 60)) < 0.15) {
                lake[v] = 3; // no lake 2
                level[v] = 800.f;
            }
        }
    }
    const auto lakes = lake_features(w);
    ASSERT_EQ(lakes.size(), 3u);
    EXPECT_EQ(lakes[0].id, 0);
    EXPECT_EQ(lakes[1].id, 1);
    EXPECT_EQ(lakes[2].id, 3);
    EXPECT_EQ(lakes[0].level, 120.0);
    EXPECT_EQ(lakes[1].level, -15.5);
    ASSERT_EQ(lakes[0].geometry.size(), 1u);
    EXPECT_EQ(lakes[0].geometry[0].size(), 2u) << "the island is a hole";
    EXPECT_EQ(lakes[1].geometry.size(), 2u) << "cut at the antimeridian";
    EXPECT_EQ(lakes[2].geometry.size(), 1u);
    for (const Lake& l : lakes) {
        expect_valid(l.geometry);
        // The cells' area (from their corners on the sphere) and the polygon's agree.
        EXPECT_NEAR(l.area, sphere_area(l.geometry) * earth * earth, 0.01 * l.area);
    }
    const double cap = 2 * pi * (1 - std::cos(0.3)) * earth * earth;
    EXPECT_NEAR(lakes[1].area, cap, 0.05 * cap);
}

TEST(GeojsonLand, LandMassesLargestFirstWithAPolarContinent) {
    World w = sphere(4000, earth);
    std::size_t land = 0;
    {
        auto [ocean] = w.lock_layer(ocean_info);
        for (const Vertex v : w.mesh().vertices()) {
            const glm::dvec3 p = glm::normalize(position_of(w, v));
            const bool dry = p.y < -0.75 || angle(p, direction(100, 20)) < 0.5 ||
                             angle(p, direction(-179, 0)) < 0.2;
            ocean[v] = !dry;
            land += dry;
        }
    }
    const auto masses = land_features(w);
    ASSERT_EQ(masses.size(), 3u);
    std::size_t vertices = 0;
    for (std::size_t i = 0; i < masses.size(); ++i) {
        EXPECT_EQ(masses[i].id, static_cast<std::int32_t>(i));
        if (i) {
            EXPECT_GE(masses[i - 1].area, masses[i].area);
        }
        vertices += masses[i].vertices;
        expect_valid(masses[i].geometry);
        EXPECT_NEAR(masses[i].area, sphere_area(masses[i].geometry) * earth * earth,
                    0.01 * masses[i].area);
    }
    EXPECT_EQ(vertices, land);
    // The polar one holds the pole; the small one on the antimeridian comes in two parts.
    EXPECT_TRUE(contains(masses[0].geometry, {0, -89 * deg}));
    EXPECT_EQ(masses[2].geometry.size(), 2u);
}

// ---- files ----

struct Temp_folder {
    fs::path path = fs::temp_directory_path() / ("orbis_geojson_" + std::to_string(::getpid()));
    Temp_folder() { fs::remove_all(path); }
    ~Temp_folder() { fs::remove_all(path); }
};

nlohmann::json read_json(const fs::path& p) {
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}

// A world with every layer the export reads, plus a few more for the cells.
World hydrology_world() {
    World w = sphere(1500, earth);
    const Tree t = small_tree(w);
    set_discharge(w, {{t.a, t.c, 1}, {t.b, t.c, 1}, {t.c, t.d, 3}, {t.e, t.d, 1}, {t.d, t.g, 5}});
    auto [ocean, lake, level, basin, wind] =
        w.lock_layer(ocean_info, lake_info, level_info, basin_info,
                     Layer_info<glm::vec3, Layer_type::vertex>("wind"));
    for (const Vertex v : w.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(position_of(w, v));
        ocean[v] = p.x > 0.3;
        lake[v] = angle(p, direction(150, 30)) < 0.2 ? 0 : -1;
        level[v] = ocean[v] ? 0.f : (lake[v] >= 0 ? 250.f : std::nanf(""));
        basin[v] = ocean[v] ? -1 : 7;
        wind[v] = glm::vec3(1, 2, 3);
    }
    return w;
}

TEST(GeojsonFile, WritesOneTypedCollectionPerKind) {
    const World w = hydrology_world();
    Temp_folder folder;
    const Geojson_report report =
        write_geojson(w, folder.path / "out",
                      {.rivers = true,
                       .lakes = true,
                       .coastlines = true,
                       .cells = true,
                       .river_selection = {.min_discharge = 0.5, .min_discharge_fraction = 0.01},
                       .sync = Sync::none});
    ASSERT_EQ(report.files.size(), 4u);
    EXPECT_EQ(report.rivers, 5u);
    EXPECT_EQ(report.lakes, 1u);
    EXPECT_EQ(report.land_masses, 1u);
    EXPECT_EQ(report.cells, w.mesh().vertex_count());
    EXPECT_EQ(report.min_discharge, 0.5);
    const std::pair<const char*, const char*> kinds[] = {{"rivers", "MultiLineString"},
                                                         {"lakes", "MultiPolygon"},
                                                         {"coastlines", "MultiPolygon"},
                                                         {"cells", "MultiPolygon"}};
    const std::size_t counts[] = {report.rivers, report.lakes, report.land_masses, report.cells};
    for (std::size_t k = 0; k < 4; ++k) {
        const auto& [name, type] = kinds[k];
        EXPECT_EQ(report.files[k], folder.path / "out" / (std::string(name) + ".geojson"));
        const nlohmann::json j = read_json(report.files[k]);
        EXPECT_EQ(j["type"], "FeatureCollection");
        EXPECT_EQ(j["name"], name);
        ASSERT_EQ(j["features"].size(), counts[k]) << name;
        for (const auto& f : j["features"]) {
            EXPECT_EQ(f["type"], "Feature");
            EXPECT_EQ(f["geometry"]["type"], type) << name;
            // Positions are [lon, lat] with at most 6 decimals.
            std::function<void(const nlohmann::json&)> check = [&](const nlohmann::json& c) {
                if (c[0].is_number()) {
                    ASSERT_EQ(c.size(), 2u);
                    for (const double x : {c[0].get<double>(), c[1].get<double>()})
                        EXPECT_NEAR(x * 1e6, std::round(x * 1e6), 1e-6);
                    EXPECT_LE(std::abs(c[0].get<double>()), 180.0);
                    EXPECT_LE(std::abs(c[1].get<double>()), 90.0);
                } else {
                    for (const auto& x : c)
                        check(x);
                }
            };
            check(f["geometry"]["coordinates"]);
        }
    }
    const nlohmann::json rivers = read_json(report.files[0]);
    std::set<int> orders;
    for (const auto& f : rivers["features"]) {
        orders.insert(f["properties"]["strahler"].get<int>());
        EXPECT_EQ(f["properties"]["basin"], 7);
        EXPECT_GT(f["properties"]["discharge"].get<double>(), 0.0);
        EXPECT_GT(f["properties"]["length_km"].get<double>(), 0.0);
    }
    EXPECT_EQ(orders, (std::set<int>{1, 2}));
    const nlohmann::json lakes = read_json(report.files[1]);
    EXPECT_EQ(lakes["features"][0]["properties"]["lake"], 0);
    EXPECT_EQ(lakes["features"][0]["properties"]["level"], 250.0);
    EXPECT_GT(lakes["features"][0]["properties"]["area_km2"].get<double>(), 1e5);
    const nlohmann::json cells = read_json(report.files[3]);
    const auto& props = cells["features"][0]["properties"];
    for (const char* layer :
         {"vertex", "ocean", "lake", "water_level", "basin", "wind", "position"})
        EXPECT_TRUE(props.contains(layer)) << layer;
    EXPECT_EQ(props["wind"], nlohmann::json::array({1, 2, 3}));
    EXPECT_EQ(props["position"].size(), 3u);
    bool null_level = false;
    for (const auto& f : cells["features"])
        null_level = null_level || f["properties"]["water_level"].is_null();
    EXPECT_TRUE(null_level) << "NaN is written as null";
}

TEST(GeojsonFile, RefusesMissingLayersBeforeWritingAnything) {
    const World w = sphere(500);
    Temp_folder folder;
    try {
        (void)write_geojson(w, folder.path, {});
        FAIL() << "a world without hydrology was exported";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'discharge'"), std::string::npos) << what;
        EXPECT_NE(what.find("hydrology"), std::string::npos) << what;
    }
    EXPECT_FALSE(fs::exists(folder.path));
    // Cells alone need no hydrology.
    const auto report = write_geojson(w, folder.path,
                                      {.rivers = false,
                                       .lakes = false,
                                       .coastlines = false,
                                       .cells = true,
                                       .river_selection = {},
                                       .sync = Sync::none});
    EXPECT_EQ(report.cells, 500u);
    // A file where the folder should be.
    std::ofstream(folder.path / "file") << "x";
    EXPECT_THROW((void)write_geojson(w, folder.path / "file",
                                     {.rivers = false,
                                      .lakes = false,
                                      .coastlines = false,
                                      .cells = true,
                                      .river_selection = {},
                                      .sync = Sync::none}),
                 File_error);
}

// ---- the map overlay ----

TEST(GeojsonMap, DrawsLakesAndRiversWhereTheyAre) {
    World w = sphere(3000, earth);
    {
        auto [lake] = w.lock_layer(lake_info);
        for (const Vertex v : w.mesh().vertices())
            if (angle(position_of(w, v), direction(0, 0)) < 0.3) lake[v] = 0;
    }
    // A river eastwards along 10 N from 60 E to 100 E.
    const glm::dvec3 target = direction(100, 10);
    Vertex v = nearest(w, direction(60, 10));
    std::vector<std::tuple<Vertex, Vertex, float>> flows;
    for (float q = 1;; ++q) {
        Vertex next = v;
        for (const Vertex n : v.neighbors(w.mesh()))
            if (angle(position_of(w, n), target) < angle(position_of(w, next), target)) next = n;
        if (next == v) break;
        flows.emplace_back(v, next, q);
        v = next;
    }
    set_discharge(w, flows);
    const Srgb8 grey(128, 128, 128);
    Image image(512, 256, grey);
    const Water_overlay overlay;
    draw_water(image, w, overlay);
    // Pixel (x, y) has its centre at longitude -180 + (x + 0.5) * 360 / 512.
    const auto at = [&](double lon, double lat) {
        return image.at(static_cast<std::uint32_t>((lon + 180) / 360 * 512),
                        static_cast<std::uint32_t>((90 - lat) / 180 * 256));
    };
    EXPECT_EQ(at(0, 0), overlay.lake_colour);
    EXPECT_EQ(at(-90, -45), grey);
    EXPECT_EQ(at(80, -30), grey);
    // Along the river some pixel of each column is (nearly) the river's colour.
    for (double lon = 65; lon <= 95; lon += 5) {
        int best = 255;
        for (double lat = 5; lat <= 15; lat += 0.35) {
            const Srgb8 c = at(lon, lat);
            best = std::min(best, std::max({std::abs(c.r - overlay.river_colour.r),
                                            std::abs(c.g - overlay.river_colour.g),
                                            std::abs(c.b - overlay.river_colour.b)}));
        }
        EXPECT_LE(best, 40) << "no river at longitude " << lon;
    }
    // Without the hydrology layers there is nothing to draw from.
    Image plain(64, 32, grey);
    EXPECT_THROW(draw_water(plain, sphere(500), overlay), std::invalid_argument);
}

} // namespace
} // namespace orbis::io
