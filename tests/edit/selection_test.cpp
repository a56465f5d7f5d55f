// SPDX-License-Identifier: MIT
// Selections on 100,000-vertex worlds: picking against brute force, statistics, and the
// operations (refine, coarsen, Delaunay, values): what changes, what must not, refusals, undo.
#include "orbis/edit/selection.hpp"

#include "orbis/gen/delaunay_module.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::edit;

constexpr double radius_km = 6371.0;
constexpr auto extra_height =
    Layer_info<double, Layer_type::vertex>("extra_height").interpolation(Interpolation::lerp);
constexpr auto extra_count = Layer_info<std::int64_t, Layer_type::vertex>("extra_count")
                                 .interpolation(Interpolation::keep_src);
constexpr auto extra_flag =
    Layer_info<bool, Layer_type::vertex>("extra_flag").interpolation(Interpolation::max_value);
constexpr auto extra_wind =
    Layer_info<glm::vec3, Layer_type::vertex>("extra_wind").interpolation(Interpolation::lerp);
constexpr auto face_cover = Layer_info<float, Layer_type::face>("face_cover");
constexpr auto face_kind = Layer_info<std::int32_t, Layer_type::face>("face_kind");
constexpr auto unit_share = Layer_info<float, Layer_type::vertex>("unit_share")
                                .min(0.f)
                                .max(1.f)
                                .validate(Validation::range)
                                .interpolation(Interpolation::lerp);
constexpr auto edge_flow = Layer_info<float, Layer_type::edge_primal>("edge_flow");

// Fills the extra layers with values that differ per element, so that a value moved to the
// wrong element shows.
void fill_extra_layers(World& w) {
    const Mesh& m = w.mesh();
    auto [h, c, f, wind, cover, kind, share, flow] =
        w.lock_layer(extra_height, extra_count, extra_flag, extra_wind, face_cover, face_kind,
                     unit_share, edge_flow);
    for (const Vertex v : m.vertices()) {
        const double i = v.index();
        h[v] = std::sin(i * 0.37) * 1000.0;
        c[v] = static_cast<std::int64_t>(v.index() % 1000) - 500;
        f[v] = v.index() % 3 == 0;
        wind[v] = glm::vec3(float(i), 1.f, 2.f);
        share[v] = float(v.index() % 100) / 100.f;
    }
    for (const Face x : m.faces()) {
        cover[x] = float(x.index() % 77) * 0.25f;
        kind[x] = static_cast<std::int32_t>(x.index() % 11);
    }
    for (const Edge e : m.edges())
        flow[e] = float(e.quad_index() % 13);
}

// A 100,000-point default-pipeline planet (plates, elevation, refine, boundaries) plus the
// extra layers; built once, handed out as snapshots.
World pipeline_world() {
    static const World cached = [] {
        gen::Pipeline p = gen::default_pipeline();
        gen::override_parameter(p, gen::builtin_modules(), "count",
                                Dict_value(std::int64_t(100'000)), "sphere");
        World w;
        gen::run_pipeline(w, p, gen::builtin_modules());
        fill_extra_layers(w);
        return w;
    }();
    return cached;
}

// A 100,000-point Fibonacci sphere of radius 6371 km with the extra layers.
World sphere_world() {
    static const World cached = [] {
        World w = gen::make_sphere_world(
            {.count = 100'000, .radius = float(radius_km), .perturbation = 0.5f, .seed = 7});
        fill_extra_layers(w);
        return w;
    }();
    return cached;
}

glm::dvec3 lat_lon(double lat_deg, double lon_deg) {
    const double lat = lat_deg * std::numbers::pi / 180, lon = lon_deg * std::numbers::pi / 180;
    return {radius_km * std::cos(lat) * std::cos(lon), radius_km * std::sin(lat),
            -radius_km * std::cos(lat) * std::sin(lon)};
}

glm::dvec3 position(const World& w, Vertex v) { return glm::dvec3((*w.layer(position_layer))[v]); }

// Geodesic distance by acos of unit vectors: another formula than the library's atan2.
double distance_km(const glm::dvec3& a, const glm::dvec3& b) {
    const double c = std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0, 1.0);
    return std::acos(c) * glm::length(a);
}

// Inside a convex spherical polygon: on the same side of every edge's great circle as
// `interior`. Independent of the library's projection and crossing tests.
bool inside_convex(const std::vector<glm::dvec3>& polygon, const glm::dvec3& interior,
                   const glm::dvec3& p) {
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        const glm::dvec3 n = glm::cross(polygon[i], polygon[(i + 1) % polygon.size()]);
        if ((glm::dot(n, p) > 0) != (glm::dot(n, interior) > 0)) return false;
    }
    return true;
}

std::vector<Vertex> brute_convex(const World& w, const std::vector<glm::dvec3>& polygon,
                                 const glm::dvec3& interior) {
    std::vector<Vertex> out;
    for (const Vertex v : w.mesh().vertices())
        if (inside_convex(polygon, interior, position(w, v))) out.push_back(v);
    return out;
}

long euler(const Mesh& m) {
    return long(m.vertex_count()) - long(m.edge_count()) + long(m.face_count());
}

// Every vertex layer of `before`, compared bit for bit on every vertex that `outside` accepts:
// the vertex must still exist and hold the same value.
template <class Outside>
void expect_vertex_values_kept(const World& before, const World& after, Outside outside) {
    std::size_t checked = 0;
    for (const std::string& name : before.layer_names()) {
        const Layer_base* a = before.find_layer(name);
        if (!a || a->type() != Layer_type::vertex) continue;
        const Layer_base* b = after.find_layer(name);
        ASSERT_NE(b, nullptr) << name;
        with_value_type(a->value_tag(), [&]<class T>() {
            const auto& la = static_cast<const Layer<T, Layer_type::vertex>&>(*a);
            const auto& lb = dynamic_cast<const Layer<T, Layer_type::vertex>&>(*b);
            for (const Vertex v : before.mesh().vertices()) {
                if (!outside(v)) continue;
                ASSERT_TRUE(after.mesh().contains(v)) << to_string(v) << " was deleted";
                ASSERT_EQ(std::memcmp(&la[v], &lb[v], sizeof(T)), 0)
                    << name << " changed at " << to_string(v);
                ++checked;
            }
        });
    }
    EXPECT_GT(checked, 0u);
}

// True when every edge with both ends in `vertices` is locally Delaunay.
bool inner_edges_delaunay(const World& w, const std::vector<Vertex>& vertices) {
    const Mesh& m = w.mesh();
    const auto* layer = w.layer(position_layer);
    const std::vector<glm::vec3> p(layer->begin(), layer->end());
    for (const Vertex a : vertices)
        for (const Edge e : a.edges(m))
            if (std::binary_search(vertices.begin(), vertices.end(), e.dest(m)) &&
                !gen::is_locally_delaunay(m, p, e))
                return false;
    return true;
}

template <class Op>
void expect_refused(World& w, Op op, const std::string& words) {
    const World reference = w.deep_copy();
    try {
        op();
        ADD_FAILURE() << "not refused; expected: " << words;
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_TRUE(w == reference) << "a refused operation changed the world (" << words << ")";
}

// ---- picking ----

TEST(Selection_disc, matches_brute_force) {
    const World w = sphere_world();
    for (const auto& [lat, lon, r] : std::vector<std::tuple<double, double, double>>{
             {0, 0, 200}, {45, 120, 1000}, {-89.9, 10, 500}, {12, 179.9, 300}, {70, -60, 50}}) {
        const glm::dvec3 c = lat_lon(lat, lon);
        std::vector<Vertex> expected;
        for (const Vertex v : w.mesh().vertices())
            if (distance_km(position(w, v), c) <= r) expected.push_back(v);
        EXPECT_EQ(select_disc(w, c, r), expected) << lat << ", " << lon << ", " << r;
        // A far hint only makes the walk longer; the centre's length does not matter.
        EXPECT_EQ(select_disc(w, c * 0.001, r, Vertex(12345)), expected);
        EXPECT_GT(expected.size(), 0u);
    }
}

TEST(Selection_disc, refuses_bad_input) {
    const World w = sphere_world();
    EXPECT_TRUE(select_disc(w, glm::dvec3(0), 100).empty());
    EXPECT_TRUE(select_disc(w, glm::dvec3(NAN, 0, 1), 100).empty());
    EXPECT_TRUE(select_disc(w, lat_lon(0, 0), -1).empty());
    EXPECT_TRUE(select_disc(w, lat_lon(0, 0), INFINITY).empty());
    EXPECT_TRUE(select_disc(World{}, lat_lon(0, 0), 100).empty());
}

TEST(Selection_lasso, small_quad_matches_brute_force) {
    const World w = sphere_world();
    const std::vector<glm::dvec3> quad{lat_lon(10, 30), lat_lon(12, 41), lat_lon(21, 44),
                                       lat_lon(19, 29)};
    const auto expected = brute_convex(w, quad, lat_lon(15, 36));
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(select_lasso(w, quad), expected);
    const std::vector<glm::dvec3> reversed(quad.rbegin(), quad.rend());
    EXPECT_EQ(select_lasso(w, reversed), expected);
    // Points off the sphere count by their direction only.
    std::vector<glm::dvec3> scaled = quad;
    scaled[1] *= 3.0;
    scaled[2] *= 0.01;
    EXPECT_EQ(select_lasso(w, scaled), expected);
}

TEST(Selection_lasso, across_the_antimeridian) {
    const World w = sphere_world();
    const std::vector<glm::dvec3> quad{lat_lon(-10, 170), lat_lon(-10, -170), lat_lon(10, -170),
                                       lat_lon(10, 170)};
    const auto expected = brute_convex(w, quad, lat_lon(0, 180));
    ASSERT_GT(expected.size(), 100u);
    const auto got = select_lasso(w, quad);
    EXPECT_EQ(got, expected);
    for (const Vertex v : got) {
        const glm::dvec3 p = position(w, v);
        EXPECT_GT(std::abs(std::atan2(-p.z, p.x)), 169.0 * std::numbers::pi / 180);
    }
}

TEST(Selection_lasso, around_a_pole) {
    const World w = sphere_world();
    std::vector<glm::dvec3> ring;
    for (int i = 0; i < 12; ++i)
        ring.push_back(lat_lon(75, 30.0 * i + 7));
    const glm::dvec3 pole(0, radius_km, 0);
    const auto expected = brute_convex(w, ring, pole);
    ASSERT_GT(expected.size(), 100u);
    const auto got = select_lasso(w, ring);
    EXPECT_EQ(got, expected);
    const auto near_pole = select_disc(w, pole, 30);
    ASSERT_FALSE(near_pole.empty());
    EXPECT_TRUE(std::includes(got.begin(), got.end(), near_pole.begin(), near_pole.end()));
}

TEST(Selection_lasso, a_lasso_beyond_a_small_cap_takes_the_smaller_side) {
    const World w = sphere_world();
    // Rings just south and just north of the equator: no cap under 89 degrees holds them, and
    // the smaller region is the one away from the equator.
    for (const double lat : {-0.5, 0.7}) {
        std::vector<glm::dvec3> ring;
        for (int i = 0; i < 8; ++i)
            ring.push_back(lat_lon(lat, 45.0 * i));
        const glm::dvec3 pole(0, lat < 0 ? -radius_km : radius_km, 0);
        const auto expected = brute_convex(w, ring, pole);
        ASSERT_GT(expected.size(), 40'000u);
        ASSERT_LT(expected.size(), 50'000u);
        EXPECT_EQ(select_lasso(w, ring), expected) << lat;
        const std::vector<glm::dvec3> reversed(ring.rbegin(), ring.rend());
        EXPECT_EQ(select_lasso(w, reversed), expected) << lat;
    }
}

TEST(Selection_lasso, refuses_fewer_than_three_points) {
    const World w = sphere_world();
    EXPECT_TRUE(select_lasso(w, {}).empty());
    EXPECT_TRUE(select_lasso(w, {lat_lon(0, 0), lat_lon(1, 1)}).empty());
    EXPECT_TRUE(select_lasso(w, {lat_lon(0, 0), lat_lon(1, 1), lat_lon(1, 1)}).empty());
    EXPECT_TRUE(select_lasso(w, {lat_lon(0, 0), glm::dvec3(0), lat_lon(1, 1)}).empty());
    EXPECT_TRUE(select_lasso(World{}, {lat_lon(0, 0), lat_lon(1, 1), lat_lon(0, 2)}).empty());
}

// ---- sets ----

TEST(Selection_sets, faces_of_matches_brute_force) {
    const World w = pipeline_world();
    const auto vertices = select_disc(w, lat_lon(30, 60), 400);
    ASSERT_GT(vertices.size(), 50u);
    std::vector<Face> expected;
    for (const Face f : w.mesh().faces()) {
        bool all = true;
        for (const Vertex v : f.vertices(w.mesh()))
            all = all && std::binary_search(vertices.begin(), vertices.end(), v);
        if (all) expected.push_back(f);
    }
    EXPECT_EQ(faces_of(w, vertices), expected);
    EXPECT_TRUE(faces_of(w, {}).empty());
}

TEST(Selection_sets, unite_and_subtract) {
    const Selection a{{Vertex(1), Vertex(3), Vertex(5)}, {Face(2)}};
    const Selection b{{Vertex(3), Vertex(4)}, {Face(1), Face(2)}};
    EXPECT_EQ(unite(a, b),
              (Selection{{Vertex(1), Vertex(3), Vertex(4), Vertex(5)}, {Face(1), Face(2)}}));
    EXPECT_EQ(subtract(a, b), (Selection{{Vertex(1), Vertex(5)}, {}}));
    EXPECT_EQ(subtract(b, a), (Selection{{Vertex(4)}, {Face(1)}}));
    EXPECT_TRUE(subtract(a, a).empty());
    EXPECT_EQ(unite(a, Selection{}), a);
}

// ---- statistics ----

TEST(Selection_stats, whole_sphere_area_is_four_pi_r_squared) {
    const World w = pipeline_world();
    Selection all;
    for (const Vertex v : w.mesh().vertices())
        all.vertices.push_back(v);
    const double r = glm::length(position(w, all.vertices.front()));
    const double sphere = 4 * std::numbers::pi * r * r;
    const Selection_stats s = selection_stats(w, all);
    EXPECT_EQ(s.vertices, w.mesh().vertex_count());
    EXPECT_NEAR(s.area_km2 / sphere, 1.0, 1e-3);
    Selection faces;
    for (const Face f : w.mesh().faces())
        faces.faces.push_back(f);
    const Selection_stats t = selection_stats(w, faces);
    EXPECT_EQ(t.faces, w.mesh().face_count());
    EXPECT_NEAR(t.area_km2 / sphere, 1.0, 1e-3);
    EXPECT_NEAR(t.face_area_km2, t.area_km2, 0);
    // A small disc covers about its own area.
    const auto disc = select_disc(w, lat_lon(-20, -40), 800);
    const double cap = 2 * std::numbers::pi * r * r * (1 - std::cos(800 / r));
    EXPECT_NEAR(selection_stats(w, {disc, {}}).area_km2 / cap, 1.0, 0.05);
}

TEST(Selection_stats, layer_summaries_match_brute_force) {
    const World w = pipeline_world();
    Selection s{select_disc(w, lat_lon(5, 5), 700), {}};
    s.faces = faces_of(w, s.vertices);
    const Selection_stats stats = selection_stats(w, s);
    std::vector<std::string> names;
    for (const Layer_summary& l : stats.layers)
        names.push_back(l.layer);
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    for (const std::string expected : {"elevation", "plate_id", "extra_height", "extra_count",
                                       "extra_flag", "face_cover", "face_kind", "unit_share"})
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    for (const std::string absent : {"position", "extra_wind", "edge_flow", "plate_boundary"})
        EXPECT_EQ(std::find(names.begin(), names.end(), absent), names.end()) << absent;
    for (const Layer_summary& l : stats.layers) {
        const Layer_base* base = w.find_layer(l.layer);
        ASSERT_NE(base, nullptr);
        EXPECT_EQ(l.type, base->type());
        std::vector<double> values;
        // format_value is the layer's own text form: an independent path to the values.
        if (base->type() == Layer_type::vertex)
            for (const Vertex v : s.vertices) {
                const std::string text = base->format_value(v.index());
                values.push_back(text == "true" ? 1.0 : text == "false" ? 0.0 : std::stod(text));
            }
        else
            for (const Face f : s.faces)
                values.push_back(std::stod(base->format_value(f.index())));
        ASSERT_EQ(l.count, values.size()) << l.layer;
        double sum = 0;
        for (const double x : values)
            sum += x;
        // The text form has 9 significant digits for float layers.
        const double lo = *std::min_element(values.begin(), values.end());
        const double hi = *std::max_element(values.begin(), values.end());
        EXPECT_NEAR(l.min, lo, 1e-8 * (1 + std::abs(lo))) << l.layer;
        EXPECT_NEAR(l.max, hi, 1e-8 * (1 + std::abs(hi))) << l.layer;
        EXPECT_NEAR(l.mean, sum / double(values.size()), 1e-9 * (1 + std::abs(l.mean))) << l.layer;
    }
}

// ---- refine, coarsen, Delaunay ----

// Refines or coarsens a 500 km disc of `w` and checks everything that must hold after it.
void check_operation(World w, const glm::dvec3& centre, double target_km, bool refining) {
    const Selection before_selection{select_disc(w, centre, 500), {}};
    ASSERT_GT(before_selection.vertices.size(), 100u);
    const World snapshot = w;
    const World reference = w.deep_copy();
    const std::size_t vertices_before = w.mesh().vertex_count();

    ASSERT_EQ(refining ? check_refine(w, before_selection, target_km)
                       : check_coarsen(w, before_selection, target_km),
              std::nullopt);
    const Selection_edit edit =
        refining ? refine(w, before_selection, target_km) : coarsen(w, before_selection, target_km);
    EXPECT_GT(refining ? edit.splits : edit.collapses, 20u);
    EXPECT_EQ(edit.operations, edit.splits + edit.collapses + edit.flips);
    EXPECT_EQ(w.mesh().vertex_count(), vertices_before + edit.splits - edit.collapses);
    EXPECT_EQ(w.mesh().validate(), std::nullopt);
    EXPECT_EQ(euler(w.mesh()), 2);
    EXPECT_TRUE(snapshot == reference) << "the snapshot taken before changed";
    EXPECT_FALSE(w == reference);

    // The selection after: the old one plus the new vertices, minus the deleted ones.
    const Selection& after = edit.selection;
    EXPECT_TRUE(std::is_sorted(after.vertices.begin(), after.vertices.end()));
    EXPECT_EQ(after.vertices.size(),
              before_selection.vertices.size() + edit.splits - edit.collapses);
    for (const Vertex v : after.vertices) {
        EXPECT_TRUE(w.mesh().contains(v));
        const bool was_selected = std::binary_search(before_selection.vertices.begin(),
                                                     before_selection.vertices.end(), v);
        EXPECT_TRUE(was_selected || (refining && !reference.mesh().contains(v)) ||
                    (refining && std::binary_search(edit.vertices.begin(), edit.vertices.end(), v)))
            << to_string(v);
    }
    for (const Vertex v : before_selection.vertices)
        EXPECT_EQ(w.mesh().contains(v),
                  std::binary_search(after.vertices.begin(), after.vertices.end(), v));

    // Refine leaves no edge inside longer than the target; inside is Delaunay again.
    if (refining) {
        const Mesh& m = w.mesh();
        for (const Vertex a : after.vertices)
            for (const Edge e : a.edges(m))
                if (std::binary_search(after.vertices.begin(), after.vertices.end(), e.dest(m))) {
                    EXPECT_LE(distance_km(position(w, a), position(w, e.dest(m))),
                              target_km + 1e-3);
                }
    }
    EXPECT_TRUE(inner_edges_delaunay(w, after.vertices));

    expect_vertex_values_kept(reference, w, [&](Vertex v) {
        return !std::binary_search(before_selection.vertices.begin(),
                                   before_selection.vertices.end(), v);
    });
    // Undo is exact: going back to the snapshot gives the world as it was.
    w = snapshot;
    EXPECT_TRUE(w == reference);
}

// The longest (or shortest) edge with both ends in a 500 km disc.
double extreme_inner_edge(const World& w, const glm::dvec3& centre, bool longest) {
    const auto s = select_disc(w, centre, 500);
    const Mesh& m = w.mesh();
    double best = longest ? 0 : 1e30;
    for (const Vertex a : s)
        for (const Edge e : a.edges(m))
            if (std::binary_search(s.begin(), s.end(), e.dest(m))) {
                const double l = distance_km(position(w, a), position(w, e.dest(m)));
                best = longest ? std::max(best, l) : std::min(best, l);
            }
    return best;
}

TEST(Selection_refine, splits_inside_only_and_keeps_snapshots) {
    check_operation(sphere_world(), lat_lon(40, -100), 40, true);
}

TEST(Selection_refine, on_the_default_pipeline_world) {
    const World w = pipeline_world();
    const glm::dvec3 c = lat_lon(-12, 33);
    check_operation(w, c, 0.5 * extreme_inner_edge(w, c, true), true);
}

TEST(Selection_coarsen, collapses_inside_only_and_keeps_snapshots) {
    check_operation(sphere_world(), lat_lon(-30, 20), 150, false);
}

TEST(Selection_coarsen, on_the_default_pipeline_world) {
    const World w = pipeline_world();
    const glm::dvec3 c = lat_lon(50, 150);
    check_operation(w, c, 2.5 * extreme_inner_edge(w, c, false), false);
}

TEST(Selection_coarsen, then_refine_on_a_face_selection) {
    // Faces stand for their corners; the selection after keeps faces recomputed.
    World w = sphere_world();
    const auto vertices = select_disc(w, lat_lon(60, 10), 300);
    const Selection faces_only{{}, faces_of(w, vertices)};
    ASSERT_FALSE(faces_only.faces.empty());
    const Selection_edit coarse = coarsen(w, faces_only, 120);
    EXPECT_GT(coarse.collapses, 0u);
    EXPECT_FALSE(coarse.selection.faces.empty());
    EXPECT_EQ(coarse.selection.faces, faces_of(w, coarse.selection.vertices));
    const Selection_edit fine = refine(w, coarse.selection, 60);
    EXPECT_GT(fine.splits, 0u);
    EXPECT_EQ(w.mesh().validate(), std::nullopt);
    EXPECT_EQ(euler(w.mesh()), 2);
}

TEST(Selection_refine, refusals_leave_the_world_unchanged) {
    World w = sphere_world();
    const Selection disc{select_disc(w, lat_lon(0, 90), 300), {}};
    EXPECT_EQ(check_refine(w, {}, 40), "the selection is empty");
    expect_refused(
        w, [&] { refine(w, {}, 40); }, "the selection is empty");
    expect_refused(
        w, [&] { refine(w, disc, 0); }, "target length must be > 0 km");
    expect_refused(
        w, [&] { refine(w, disc, -5); }, "target length must be > 0 km");
    expect_refused(
        w, [&] { refine(w, disc, NAN); }, "target length must be > 0 km");
    expect_refused(
        w, [&] { refine(w, disc, 1000); }, "nothing in the selection is longer than 1000 km");
    expect_refused(
        w, [&] { refine(w, disc, 0.001); }, "would create about");
    expect_refused(
        w,
        [&] {
            refine(w, {{Vertex(w.mesh().vertex_slots() + 5)}, {}}, 40);
        },
        "out of date");
    expect_refused(
        w,
        [&] {
            refine(w, {{Vertex(9), Vertex(3)}, {}}, 40);
        },
        "not sorted");
    expect_refused(
        w, [&] { coarsen(w, {}, 40); }, "the selection is empty");
    expect_refused(
        w, [&] { coarsen(w, disc, 0); }, "target length must be > 0 km");
    expect_refused(
        w, [&] { coarsen(w, disc, 1); }, "nothing in the selection is shorter than 1 km");
    expect_refused(
        w, [&] { restore_delaunay(w, {}); }, "the selection is empty");
    expect_refused(
        w, [&] { restore_delaunay(w, disc); }, "already Delaunay");
    World bare = gen::make_sphere_world({.count = 100, .radius = float(radius_km)});
    bare.remove_layer("position");
    expect_refused(
        bare,
        [&] {
            refine(bare, {{Vertex(1), Vertex(2)}, {}}, 40);
        },
        "no position layer");
    // A vertex layer that resets itself on every split would change values outside.
    World resetting = sphere_world();
    {
        auto [l] =
            resetting.lock_layer(Layer_info<float, Layer_type::vertex>("fragile").interpolation(
                Interpolation::reset_all));
        l[Vertex(0)] = 1;
    }
    expect_refused(
        resetting,
        [&] {
            refine(resetting, {select_disc(resetting, lat_lon(0, 0), 300), {}}, 30);
        },
        "layer 'fragile'");
}

// Nudges every selected vertex along the sphere by up to `km`, as a user dragging them would.
void nudge(World& w, const Selection& s, double km) {
    auto [p] = w.lock_layer(position_layer);
    for (const Vertex v : s.vertices) {
        const glm::dvec3 q(p[v]);
        const glm::dvec3 t = glm::normalize(glm::cross(q, glm::dvec3(0, 1, 0)));
        const double step = km * std::sin(0.7 * v.index());
        p[v] = glm::vec3(glm::normalize(q + step * t) * radius_km);
    }
}

std::size_t folded_faces(const World& w) {
    const auto* layer = w.layer(position_layer);
    const std::vector<glm::vec3> p(layer->begin(), layer->end());
    return gen::count_folded_faces(w.mesh(), p);
}

TEST(Selection_delaunay, restores_after_moving_vertices_inside) {
    for (const double km : {5.0, 25.0}) {
        World w = sphere_world();
        const Selection s{select_disc(w, lat_lon(-45, 135), 400), {}};
        // Only vertices well inside move, so that folds involve only edges that may flip.
        nudge(w, {select_disc(w, lat_lon(-45, 135), 300), {}}, km);
        ASSERT_FALSE(inner_edges_delaunay(w, s.vertices));
        // 5 km folds no face; 25 km folds some, which the flips untangle.
        const std::size_t folded_before = folded_faces(w);
        EXPECT_EQ(folded_before == 0, km < 10) << folded_before;
        const World reference = w.deep_copy();
        const Selection_edit edit = restore_delaunay(w, s);
        EXPECT_GT(edit.flips, 0u);
        EXPECT_EQ(edit.operations, edit.flips);
        EXPECT_EQ(edit.selection, s);
        EXPECT_EQ(w.mesh().validate(), std::nullopt);
        EXPECT_EQ(euler(w.mesh()), 2);
        if (folded_before == 0) {
            EXPECT_EQ(folded_faces(w), 0u);
            EXPECT_TRUE(inner_edges_delaunay(w, s.vertices)) << km;
            EXPECT_EQ(check_restore_delaunay(w, s),
                      "every edge in the selection is already Delaunay");
        } else {
            // Flips untangle most folds, never make one; large moves may leave some.
            EXPECT_LT(folded_faces(w), folded_before);
        }
        // Flips change no vertex value anywhere, and only edges with both ends inside flip:
        // every edge with an end outside still joins the same two vertices.
        expect_vertex_values_kept(reference, w, [](Vertex) { return true; });
        const auto selected = [&](Vertex v) {
            return std::binary_search(s.vertices.begin(), s.vertices.end(), v);
        };
        const Mesh &m = w.mesh(), &old = reference.mesh();
        for (const Edge e : old.edges())
            if (!selected(e.origin(old)) || !selected(e.dest(old))) {
                ASSERT_TRUE(m.contains(e));
                ASSERT_EQ(e.origin(m), e.origin(old));
                ASSERT_EQ(e.dest(m), e.dest(old));
            }
    }
}

// ---- values ----

TEST(Selection_values, set_changes_only_selected_values) {
    World w = pipeline_world();
    const Selection s{select_disc(w, lat_lon(10, 10), 300), {}};
    const World reference = w.deep_copy();
    const Selection_edit edit = set_values(w, s, "elevation", 1234.5);
    EXPECT_EQ(edit.operations, s.vertices.size());
    EXPECT_EQ(edit.vertices, s.vertices);
    const auto& now = *w.layer(Layer_info<float, Layer_type::vertex>("elevation"));
    const auto& old = *reference.layer(Layer_info<float, Layer_type::vertex>("elevation"));
    for (const Vertex v : w.mesh().vertices()) {
        if (std::binary_search(s.vertices.begin(), s.vertices.end(), v)) {
            EXPECT_EQ(now[v], 1234.5f);
        } else {
            EXPECT_EQ(now[v], old[v]);
        }
    }
    // A face layer on a vertex selection takes the faces inside it.
    set_values(w, s, "face_kind", 7);
    const auto& kind = *w.layer(face_kind);
    const auto& old_kind = *reference.layer(face_kind);
    const auto inner = faces_of(w, s.vertices);
    for (const Face f : w.mesh().faces())
        EXPECT_EQ(kind[f], std::binary_search(inner.begin(), inner.end(), f) ? 7 : old_kind[f]);
    set_values(w, s, "extra_flag", 1);
    set_values(w, s, "unit_share", 0.25);
    EXPECT_EQ((*w.layer(unit_share))[s.vertices.front()], 0.25f);
}

TEST(Selection_values, refusals_leave_the_world_unchanged) {
    World w = pipeline_world();
    const Selection s{select_disc(w, lat_lon(10, 10), 300), {}};
    expect_refused(
        w, [&] { set_values(w, {}, "elevation", 1); }, "the selection is empty");
    expect_refused(
        w, [&] { set_values(w, s, "no_such_layer", 1); }, "there is no layer");
    expect_refused(
        w, [&] { set_values(w, s, "position", 1); }, "vec3");
    expect_refused(
        w, [&] { set_values(w, s, "extra_wind", 1); }, "vec3");
    expect_refused(
        w, [&] { set_values(w, s, "edge_flow", 1); }, "edge layer");
    expect_refused(
        w, [&] { set_values(w, s, "elevation", NAN); }, "finite");
    expect_refused(
        w, [&] { set_values(w, s, "elevation", INFINITY); }, "finite");
    expect_refused(
        w, [&] { set_values(w, s, "elevation", 1e300); }, "too large");
    expect_refused(
        w, [&] { set_values(w, s, "plate_id", 2.5); }, "2.5, is not a");
    expect_refused(
        w, [&] { set_values(w, s, "plate_id", 3e9); }, "is not a");
    expect_refused(
        w, [&] { set_values(w, s, "extra_flag", 2); }, "0 or 1");
    expect_refused(
        w, [&] { set_values(w, s, "unit_share", 1.5); }, "outside the range");
    expect_refused(
        w, [&] { set_values(w, s, "unit_share", -0.1); }, "outside the range");
    {
        auto d = w.lock_layer(std::string_view("notes"));
        (void)d;
    }
    expect_refused(
        w, [&] { set_values(w, s, "notes", 1); }, "Dict layer");
    expect_refused(
        w, [&] { smooth_values(w, s, "elevation", 0); }, "iterations");
    expect_refused(
        w, [&] { smooth_values(w, s, "elevation", 5000); }, "iterations");
    expect_refused(
        w, [&] { smooth_values(w, s, "extra_wind", 1); }, "vec3");
    expect_refused(
        w, [&] { smooth_values(w, {}, "elevation", 1); }, "the selection is empty");
    EXPECT_EQ(check_set_values(w, s, "elevation", 5), std::nullopt);
    EXPECT_EQ(check_smooth_values(w, s, "elevation", 3), std::nullopt);
}

TEST(Selection_values, smooth_moves_toward_neighbours_and_only_inside) {
    World w = pipeline_world();
    const Selection s{select_disc(w, lat_lon(-5, 100), 400), {}};
    const World reference = w.deep_copy();
    const Selection_edit edit = smooth_values(w, s, "extra_height", 1);
    EXPECT_EQ(edit.vertices, s.vertices);
    const Mesh& m = w.mesh();
    const auto& now = *w.layer(extra_height);
    const auto& old = *reference.layer(extra_height);
    std::size_t changed = 0;
    for (const Vertex v : m.vertices()) {
        if (!std::binary_search(s.vertices.begin(), s.vertices.end(), v)) {
            EXPECT_EQ(now[v], old[v]);
            continue;
        }
        // One Jacobi step: halfway toward the mean of the old neighbour values.
        double sum = 0;
        int n = 0;
        for (const Vertex x : v.neighbors(m)) {
            sum += old[x];
            ++n;
        }
        EXPECT_NEAR(now[v], 0.5 * old[v] + 0.5 * sum / n, 1e-9);
        changed += now[v] != old[v];
    }
    EXPECT_GT(changed, s.vertices.size() / 2);

    // Many iterations make the values rough no more: the sum of squared differences across
    // the edges at selected vertices falls.
    World v = reference;
    smooth_values(v, s, "extra_height", 50);
    const auto roughness = [&](const World& x) {
        const auto& l = *x.layer(extra_height);
        double sum = 0;
        for (const Vertex u : s.vertices)
            for (const Vertex n : u.neighbors(m))
                sum += (l[u] - l[n]) * (l[u] - l[n]);
        return sum;
    };
    EXPECT_LT(roughness(v), 0.3 * roughness(reference));
    // Integer layers stay integers in range; face layers smooth over face neighbours.
    smooth_values(v, s, "plate_id", 3);
    smooth_values(v, s, "face_cover", 2);
    smooth_values(v, s, "unit_share", 2);
    EXPECT_TRUE(v.mesh() == reference.mesh());
}

} // namespace
