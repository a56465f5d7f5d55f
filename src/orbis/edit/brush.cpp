// SPDX-License-Identifier: MIT
// Brush dabs: a flood over the mesh from the vertex nearest the centre, then one write per value.
#include "orbis/edit/brush.hpp"

#include "orbis/edit/detail/sphere_search.hpp"
#include "orbis/edit/layer_values.hpp"
#include "orbis/gen/noise.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace orbis::edit {

namespace {

using detail::Anchor;
using detail::Id_set;

constexpr std::array<std::pair<Brush_mode, const char*>, 6> mode_names{{
    {Brush_mode::raise, "raise"},
    {Brush_mode::lower, "lower"},
    {Brush_mode::smooth, "smooth"},
    {Brush_mode::flatten, "flatten"},
    {Brush_mode::set, "set"},
    {Brush_mode::noise, "noise"},
}};
constexpr std::array<std::pair<Falloff, const char*>, 4> falloff_names{{
    {Falloff::smooth, "smooth"},
    {Falloff::linear, "linear"},
    {Falloff::constant, "constant"},
    {Falloff::sharp, "sharp"},
}};

// The name of `value` in `table`, "unknown" for a value outside it (a cast integer).
template <class E, std::size_t N>
const char* name_in(const std::array<std::pair<E, const char*>, N>& table, E value) {
    for (const auto& [v, name] : table)
        if (v == value) return name;
    return "unknown";
}

// The value named `name` in `table`, or nothing.
template <class E, std::size_t N>
std::optional<E> value_named(const std::array<std::pair<E, const char*>, N>& table,
                             std::string_view name) {
    for (const auto& [v, n] : table)
        if (name == n) return v;
    return std::nullopt;
}

// A vertex or face under the dab, with what painting it needs.
template <class Key>
struct Hit {
    Key key;
    double distance;
    glm::dvec3 point; // position (vertex) or corner centroid (face), for noise
};

std::vector<Hit<Vertex>> flood_vertices(const Anchor& a, double radius_km) {
    std::vector<Hit<Vertex>> hits;
    const std::size_t expected = detail::expected_vertices(a, radius_km);
    hits.reserve(expected);
    // The flood asks once per vertex; the distance it tests is the one the falloff needs.
    detail::flood(*a.mesh, a.vertex, expected, [&](Vertex v) {
        const glm::dvec3 p = a.position(v);
        const double d = a.distance_km(p);
        if (!(d <= radius_km)) return false;
        hits.push_back({v, d, p});
        return true;
    });
    return hits;
}

glm::dvec3 centroid(const Anchor& a, Face face) {
    glm::dvec3 sum{0.0};
    for (const Vertex v : face.vertices(*a.mesh))
        sum += a.position(v);
    return sum / 3.0;
}

std::vector<Hit<Face>> flood_faces(const Anchor& a, double radius_km) {
    std::vector<Hit<Face>> hits;
    const std::size_t expected = 2 * detail::expected_vertices(a, radius_km);
    Id_set seen(expected + expected / 4);
    auto consider = [&](Face face) {
        if (!face.valid() || !seen.insert(face.index())) return;
        const glm::dvec3 c = centroid(a, face);
        const double d = a.distance_km(c);
        if (d <= radius_km) hits.push_back({face, d, c});
    };
    // The face under the centre is not always a face of the nearest vertex, so the flood is
    // seeded from the faces of its neighbours too.
    for (const Face face : a.vertex.faces(*a.mesh))
        consider(face);
    for (const Vertex n : a.vertex.neighbors(*a.mesh))
        for (const Face face : n.faces(*a.mesh))
            consider(face);
    for (std::size_t i = 0; i < hits.size(); ++i)
        for (const Edge e : hits[i].key.edges(*a.mesh))
            consider(e.right(*a.mesh));
    return hits;
}

// The neighbours smooth averages over: adjacent vertices, or the faces across a face's edges.
template <class T, Layer_type Type>
double neighbour_mean(const Mesh& m, const Layer<T, Type>& layer, Layer_key<Type> key, double own) {
    double sum = 0.0;
    int n = 0;
    auto add = [&](double v) {
        if (std::isnan(v)) return; // one NaN must not spread over the whole disc
        sum += v;
        ++n;
    };
    if constexpr (Type == Layer_type::vertex) {
        for (const Vertex v : key.neighbors(m))
            add(static_cast<double>(layer[v]));
    } else {
        for (const Edge e : key.edges(m))
            if (const Face g = e.right(m); g.valid()) add(static_cast<double>(layer[g]));
    }
    return n > 0 ? sum / n : own;
}

template <class T, Layer_type Type>
Dab_result paint(World& world, const Layer<T, Type>& layer, const Brush& brush, const Anchor& a,
                 const std::vector<Hit<Layer_key<Type>>>& hits) {
    // Floating layers default to [-inf, inf]; a brush holds values finite instead, since
    // painting an infinity is never what a user means.
    const Value_bounds<T> bounds = finite_bounds(layer_bounds(layer.info()));
    std::optional<gen::Fractal_noise> noise;
    const double noise_scale = brush.noise_scale_km > 0.0 ? brush.noise_scale_km : brush.radius_km;
    if (brush.mode == Brush_mode::noise)
        noise.emplace(gen::Noise_params{.seed = brush.seed, .octaves = 5});

    // Every new value is computed before anything is written: smooth reads its neighbours as
    // they were before the dab, whatever order the flood found them in.
    std::vector<std::pair<std::size_t, T>> writes; // index into hits, new value
    writes.reserve(hits.size());
    Dab_result result;
    for (std::size_t i = 0; i < hits.size(); ++i) {
        const Hit<Layer_key<Type>>& h = hits[i];
        const T old = layer[h.key];
        const double v = static_cast<double>(old);
        const double w = falloff_weight(brush.falloff, h.distance / brush.radius_km);
        double r = v;
        if constexpr (std::is_same_v<T, bool>) {
            // bool layers: raise paints true and lower false wherever the weight is positive,
            // set paints the value on the whole disc; check_brush refuses the other modes, as
            // a fraction of "true" means nothing.
            if (brush.mode == Brush_mode::set)
                r = brush.value;
            else if (w > 0.0)
                r = brush.mode == Brush_mode::raise ? 1.0 : 0.0;
        } else {
            switch (brush.mode) {
            case Brush_mode::raise:
                r = v + brush.strength * w;
                break;
            case Brush_mode::lower:
                r = v - brush.strength * w;
                break;
            case Brush_mode::smooth:
                r = v + brush.strength * w * (neighbour_mean(*a.mesh, layer, h.key, v) - v);
                break;
            case Brush_mode::flatten:
                r = v + brush.strength * w * (brush.value - v);
                break;
            case Brush_mode::set:
                r = brush.value;
                break;
            case Brush_mode::noise:
                r = v + brush.strength * w * (*noise)(h.point / noise_scale);
                break;
            }
        }
        if (std::isnan(r)) continue;
        bool clamped = false;
        const T nv = to_layer_value<T>(r, bounds, clamped);
        if (clamped) ++result.clamped;
        if (std::memcmp(&nv, &old, sizeof(T)) != 0) writes.emplace_back(i, nv);
    }
    if (writes.empty()) return result;

    // A name that outlives the lock: the layer object may be cloned by lock_layer.
    const Layer_info<T, Type> info(brush.layer);
    {
        auto [values] = world.lock_layer(info);
        for (const auto& [i, nv] : writes)
            values[hits[i].key] = nv;
        values.release(); // range validation, if the layer has it, throws here
    }
    if constexpr (Type == Layer_type::vertex) {
        result.vertices.reserve(writes.size());
        for (const auto& [i, nv] : writes)
            result.vertices.push_back(hits[i].key);
    } else {
        result.faces.reserve(writes.size());
        Id_set corners(writes.size() * 2);
        for (const auto& [i, nv] : writes) {
            result.faces.push_back(hits[i].key);
            for (const Vertex v : hits[i].key.vertices(*a.mesh))
                if (corners.insert(v.index())) result.vertices.push_back(v);
        }
    }
    return result;
}

} // namespace

const char* brush_mode_name(Brush_mode mode) { return name_in(mode_names, mode); }

std::optional<Brush_mode> brush_mode_from_name(std::string_view name) {
    return value_named(mode_names, name);
}

const char* falloff_name(Falloff falloff) { return name_in(falloff_names, falloff); }

std::optional<Falloff> falloff_from_name(std::string_view name) {
    return value_named(falloff_names, name);
}

double falloff_weight(Falloff f, double x) {
    if (!(x <= 1.0)) return 0.0; // beyond the rim, or NaN
    x = std::max(x, 0.0);
    switch (f) {
    case Falloff::smooth:
        return 1.0 - x * x * (3.0 - 2.0 * x);
    case Falloff::linear:
        return 1.0 - x;
    case Falloff::constant:
        return 1.0;
    case Falloff::sharp:
        return (1.0 - x) * (1.0 - x);
    }
    return 0.0;
}

std::optional<std::string> check_brush(const World& world, const Brush& brush) {
    if (auto why =
            check_scalar_layer(world, brush.layer, "brushes paint scalar vertex and face layers"))
        return why;
    const Layer_base& base = *world.find_layer(brush.layer);
    const bool is_bool = base.value_tag() == Value_type::boolean;
    if (is_bool && brush.mode != Brush_mode::raise && brush.mode != Brush_mode::lower &&
        brush.mode != Brush_mode::set)
        return "layer '" + brush.layer +
               "' holds bool values; only raise, lower and set paint them";
    if (!std::isfinite(brush.radius_km) || brush.radius_km <= 0.0)
        return "the brush radius must be a positive number of kilometres";
    if (!std::isfinite(brush.strength)) return "the brush strength must be a finite number";
    const bool fraction = brush.mode == Brush_mode::smooth || brush.mode == Brush_mode::flatten;
    if (fraction && !(brush.strength >= 0.0 && brush.strength <= 1.0))
        return std::string("the ") + brush_mode_name(brush.mode) +
               " strength must be a fraction between 0 and 1";
    if (brush.mode == Brush_mode::noise &&
        (!std::isfinite(brush.noise_scale_km) || brush.noise_scale_km < 0.0))
        return "the noise scale must be a finite, non-negative number of kilometres";
    // Representable, not in range: a dab clamps to the layer's range (and counts it).
    if (brush.mode == Brush_mode::set || brush.mode == Brush_mode::flatten)
        if (auto why = check_representable(base, brush.value,
                                           brush.mode == Brush_mode::set ? "the value to set"
                                                                         : "the flatten target"))
            return why;
    if (!detail::positions_of(world))
        return "the world has no vertex positions (layer 'position' of vec3), so a brush has "
               "nowhere to go";
    if (world.mesh().vertex_count() == 0) return "the world has no vertices to paint";
    return std::nullopt;
}

Dab_result apply_dab(World& world, const Brush& brush, const glm::dvec3& centre, Vertex hint) {
    if (const auto why = check_brush(world, brush)) throw std::invalid_argument(*why);
    const auto anchor = detail::anchor_at(world, centre, hint);
    if (!anchor) throw std::invalid_argument("the dab's centre must be a finite, non-zero point");
    Dab_result result;
    with_scalar_layer(*world.find_layer(brush.layer), [&](const auto& layer) {
        if constexpr (std::is_same_v<typename std::decay_t<decltype(layer)>::key_type, Vertex>)
            result = paint(world, layer, brush, *anchor, flood_vertices(*anchor, brush.radius_km));
        else
            result = paint(world, layer, brush, *anchor, flood_faces(*anchor, brush.radius_km));
    });
    return result;
}

std::optional<double> value_at(const World& world, const std::string& layer,
                               const glm::dvec3& centre, Vertex hint) {
    Brush probe;
    probe.layer = layer;
    if (check_brush(world, probe)) return std::nullopt;
    const auto anchor = detail::anchor_at(world, centre, hint);
    if (!anchor) return std::nullopt;
    std::optional<double> value;
    with_scalar_layer(*world.find_layer(layer), [&](const auto& typed) {
        if constexpr (std::is_same_v<typename std::decay_t<decltype(typed)>::key_type, Vertex>) {
            value = static_cast<double>(typed[anchor->vertex]);
        } else {
            Face best = no_face;
            double best_d = std::numeric_limits<double>::infinity();
            auto consider = [&](Face face) {
                const double d = anchor->distance_km(centroid(*anchor, face));
                if (d < best_d) {
                    best_d = d;
                    best = face;
                }
            };
            for (const Face face : anchor->vertex.faces(*anchor->mesh))
                consider(face);
            for (const Vertex n : anchor->vertex.neighbors(*anchor->mesh))
                for (const Face face : n.faces(*anchor->mesh))
                    consider(face);
            if (best.valid()) value = static_cast<double>(typed[best]);
        }
    });
    return value;
}

std::vector<glm::dvec3> stroke_points(const glm::dvec3& from, const glm::dvec3& to,
                                      double spacing_km) {
    if (!std::isfinite(spacing_km) || spacing_km <= 0.0)
        throw std::invalid_argument("stroke_points: the spacing must be a positive distance");
    if (!detail::usable_point(from) || !detail::usable_point(to))
        throw std::invalid_argument("stroke_points: the ends must be finite, non-zero points");
    if (from == to) return {};
    const double radius = glm::length(to);
    const glm::dvec3 a = glm::normalize(from);
    const glm::dvec3 b = glm::normalize(to);
    const double angle = angle_between(a, b);
    // The arc is a rotation of `a` towards `w`, the unit vector perpendicular to `a` in the
    // plane of both ends; at (anti)parallel ends that plane is undefined and any will do.
    glm::dvec3 w = b - glm::dot(a, b) * a;
    if (glm::length(w) < 1e-12) {
        const glm::dvec3 axis = std::abs(a.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
        w = glm::cross(a, axis);
    }
    w = glm::normalize(w);
    constexpr double max_points = 65536.0;
    const double steps = std::clamp(std::ceil(angle * radius / spacing_km), 1.0, max_points);
    const auto n = static_cast<std::size_t>(steps);
    std::vector<glm::dvec3> points;
    points.reserve(n);
    for (std::size_t k = 1; k < n; ++k) {
        const double t = angle * static_cast<double>(k) / steps;
        points.push_back((std::cos(t) * a + std::sin(t) * w) * radius);
    }
    points.push_back(to);
    return points;
}

} // namespace orbis::edit
