// SPDX-License-Identifier: MIT
// Brush dabs: a flood over the mesh from the vertex nearest the centre, then one write per value.
#include "orbis/edit/brush.hpp"

#include "orbis/gen/noise.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace orbis::edit {

namespace {

using Positions = Layer<glm::vec3, Layer_type::vertex>;

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

// Set of 32-bit ids with open addressing: the flood needs "seen?" in O(1) without an array as
// large as the world, which would make every dab O(world).
class Id_set {
public:
    explicit Id_set(std::size_t expected) {
        std::size_t cap = 64;
        while (cap < 2 * expected)
            cap *= 2;
        slots_.assign(cap, empty_);
    }
    // True when `id` was not in the set (and is now).
    bool insert(std::uint32_t id) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash(id) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == id) return false;
            if (slots_[i] == empty_) {
                slots_[i] = id;
                ++size_;
                return true;
            }
        }
    }

private:
    static constexpr std::uint32_t empty_ = UINT32_MAX; // never a valid id
    static std::size_t hash(std::uint32_t id) {
        return static_cast<std::size_t>((std::uint64_t{id} * 0x9E3779B97F4A7C15ull) >> 32);
    }
    void grow() {
        std::vector<std::uint32_t> old(slots_.size() * 2, empty_);
        old.swap(slots_);
        size_ = 0;
        for (const std::uint32_t id : old)
            if (id != empty_) insert(id);
    }
    std::vector<std::uint32_t> slots_;
    std::size_t size_ = 0;
};

// The angle between two non-zero vectors; atan2 keeps full precision near 0 and pi, where acos
// of a dot product loses half its digits.
double angle_between(const glm::dvec3& a, const glm::dvec3& b) {
    return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

bool usable_point(const glm::dvec3& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) &&
           (p.x != 0.0 || p.y != 0.0 || p.z != 0.0);
}

// The position layer, or nullptr when the world has none of the right type.
const Positions* positions_of(const World& world) {
    const Layer_base* base = world.find_layer(position_layer.name());
    if (!base || base->type() != Layer_type::vertex || base->value_tag() != Value_type::vec3)
        return nullptr;
    return static_cast<const Positions*>(base);
}

glm::dvec3 position(const Positions& pos, Vertex v) { return glm::dvec3(pos[v]); }

// Cosine of the angle between v's position and the unit direction `dir`; -2 (worse than any
// real cosine) for a vertex at the origin, which has no direction.
double cos_to(const Positions& pos, Vertex v, const glm::dvec3& dir) {
    const glm::dvec3 p = position(pos, v);
    const double len = glm::length(p);
    return len > 0.0 ? glm::dot(p, dir) / len : -2.0;
}

Vertex start_vertex(const Mesh& m, Vertex hint) {
    if (m.contains(hint) && hint.edge(m).valid()) return hint;
    if (m.contains(Vertex{0}) && Vertex{0}.edge(m).valid()) return Vertex{0};
    // Rare (vertex 0 deleted or isolated): the first vertex with edges, so the walk can move.
    Vertex first = no_vertex;
    for (const Vertex v : m.vertices()) {
        if (!first.valid()) first = v;
        if (v.edge(m).valid()) return v;
    }
    return first;
}

Vertex walk(const Mesh& m, const Positions& pos, const glm::dvec3& dir, Vertex start) {
    Vertex v = start;
    double best = cos_to(pos, v, dir);
    for (;;) {
        Vertex next = v;
        for (const Vertex n : v.neighbors(m)) {
            const double c = cos_to(pos, n, dir);
            if (c > best) {
                best = c;
                next = n;
            }
        }
        if (next == v) {
            // A local minimum, which a Delaunay mesh never has but a hand-flipped one may: one
            // look over the second ring gets past most single bad flips.
            for (const Vertex n : v.neighbors(m))
                for (const Vertex n2 : n.neighbors(m)) {
                    const double c = cos_to(pos, n2, dir);
                    if (c > best) {
                        best = c;
                        next = n2;
                    }
                }
            if (next == v) return v;
        }
        v = next; // best strictly increases, so the walk ends
    }
}

// Where a dab or query is: the nearest vertex, the unit direction and the sphere's radius there.
struct Frame {
    const Mesh* m = nullptr;
    const Positions* pos = nullptr;
    Vertex start;
    glm::dvec3 dir{0.0};
    double sphere_radius = 0.0; // |position| of `start`: kilometres per radian

    double distance(const glm::dvec3& p) const { return angle_between(p, dir) * sphere_radius; }
};

std::optional<Frame> frame_of(const World& world, const glm::dvec3& centre, Vertex hint) {
    if (!usable_point(centre)) return std::nullopt;
    const Positions* pos = positions_of(world);
    if (!pos) return std::nullopt;
    const Mesh& m = world.mesh();
    const Vertex start = start_vertex(m, hint);
    if (!start.valid()) return std::nullopt;
    Frame f;
    f.m = &m;
    f.pos = pos;
    f.dir = glm::normalize(centre);
    f.start = walk(m, *pos, f.dir, start);
    f.sphere_radius = glm::length(position(*pos, f.start));
    return f;
}

// About how many vertices a disc of `radius_km` holds, to size the flood's tables once.
std::size_t expected_count(const Frame& f, double radius_km) {
    if (!(f.sphere_radius > 0.0)) return 16;
    const double angle = std::min(radius_km / f.sphere_radius, std::numbers::pi);
    const double fraction = (1.0 - std::cos(angle)) / 2.0;
    const double n = fraction * static_cast<double>(f.m->vertex_count());
    return static_cast<std::size_t>(std::min(n * 1.2, static_cast<double>(f.m->vertex_count()))) +
           32;
}

template <class Key>
struct Hit {
    Key key;
    double distance;
    glm::dvec3 point; // position (vertex) or corner centroid (face), for noise
};

std::vector<Hit<Vertex>> flood_vertices(const Frame& f, double radius_km) {
    std::vector<Hit<Vertex>> hits;
    const glm::dvec3 p0 = position(*f.pos, f.start);
    const double d0 = f.distance(p0);
    if (!(d0 <= radius_km)) return hits;
    const std::size_t expected = expected_count(f, radius_km);
    hits.reserve(expected);
    Id_set seen(expected + expected / 4);
    seen.insert(f.start.index());
    hits.push_back({f.start, d0, p0});
    // `hits` is also the queue: everything before `i` has had its neighbours looked at.
    for (std::size_t i = 0; i < hits.size(); ++i) {
        for (const Vertex n : hits[i].key.neighbors(*f.m)) {
            if (!seen.insert(n.index())) continue;
            const glm::dvec3 p = position(*f.pos, n);
            const double d = f.distance(p);
            if (d <= radius_km) hits.push_back({n, d, p});
        }
    }
    return hits;
}

glm::dvec3 centroid(const Frame& f, Face face) {
    glm::dvec3 sum{0.0};
    for (const Vertex v : face.vertices(*f.m))
        sum += position(*f.pos, v);
    return sum / 3.0;
}

std::vector<Hit<Face>> flood_faces(const Frame& f, double radius_km) {
    std::vector<Hit<Face>> hits;
    const std::size_t expected = 2 * expected_count(f, radius_km);
    Id_set seen(expected + expected / 4);
    auto consider = [&](Face face) {
        if (!face.valid() || !seen.insert(face.index())) return;
        const glm::dvec3 c = centroid(f, face);
        const double d = f.distance(c);
        if (d <= radius_km) hits.push_back({face, d, c});
    };
    // The face under the centre is not always a face of the nearest vertex, so the flood is
    // seeded from the faces of its neighbours too.
    for (const Face face : f.start.faces(*f.m))
        consider(face);
    for (const Vertex n : f.start.neighbors(*f.m))
        for (const Face face : n.faces(*f.m))
            consider(face);
    for (std::size_t i = 0; i < hits.size(); ++i)
        for (const Edge e : hits[i].key.edges(*f.m))
            consider(e.right(*f.m));
    return hits;
}

// The values a layer of T can hold once its Layer_info range is applied.
template <class T>
struct Bounds {
    T lo;
    T hi;
};

template <class T, Layer_type Type>
Bounds<T> bounds_of(const Layer_info<T, Type>& info) {
    return {info.min_value(), info.max_value()};
}

template <class T>
Bounds<T> effective_bounds(Bounds<T> b) {
    using Lim = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>) {
        // Floating layers default to [-inf, inf]; a brush holds values finite instead, since
        // painting an infinity is never what a user means. A NaN bound means "no bound".
        b.lo = std::isnan(b.lo) ? Lim::lowest() : std::max(b.lo, Lim::lowest());
        b.hi = std::isnan(b.hi) ? Lim::max() : std::min(b.hi, Lim::max());
    }
    return b;
}

// `r` as a T inside `b`, rounded to nearest for integers; `clamped` is set when `r` was outside.
template <class T>
T to_value(double r, const Bounds<T>& b, bool& clamped) {
    if constexpr (std::is_same_v<T, bool>) {
        return r >= 0.5;
    } else {
        if constexpr (std::is_integral_v<T>) r = std::round(r);
        const double lo = static_cast<double>(b.lo);
        const double hi = static_cast<double>(b.hi);
        if (r < lo) {
            clamped = true;
            return b.lo;
        }
        // `>=`: a bound like INT64_MAX rounds up as a double, so `hi` itself may not fit in T.
        if (r >= hi) {
            clamped = r > hi;
            return b.hi;
        }
        return static_cast<T>(r);
    }
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
Dab_result paint(World& world, const Layer<T, Type>& layer, const Brush& brush, const Frame& f,
                 const std::vector<Hit<Layer_key<Type>>>& hits) {
    const Bounds<T> bounds = effective_bounds(bounds_of(layer.info()));
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
                r = v + brush.strength * w * (neighbour_mean(*f.m, layer, h.key, v) - v);
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
        const T nv = to_value<T>(r, bounds, clamped);
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
            for (const Vertex v : hits[i].key.vertices(*f.m))
                if (corners.insert(v.index())) result.vertices.push_back(v);
        }
    }
    return result;
}

// Whether `value` fits an integer (or bool) T exactly.
template <class T>
bool representable(double value) {
    if constexpr (std::is_same_v<T, bool>) {
        return value == 0.0 || value == 1.0;
    } else if constexpr (std::is_integral_v<T>) {
        // 2^digits is one past the largest T and exact as a double (INT64_MAX is not).
        return value == std::floor(value) &&
               value >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
               value < std::ldexp(1.0, std::numeric_limits<T>::digits);
    } else {
        return true;
    }
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

} // namespace

const char* brush_mode_name(Brush_mode mode) {
    for (const auto& [m, name] : mode_names)
        if (m == mode) return name;
    return "unknown";
}

std::optional<Brush_mode> brush_mode_from_name(std::string_view name) {
    for (const auto& [m, n] : mode_names)
        if (name == n) return m;
    return std::nullopt;
}

const char* falloff_name(Falloff falloff) {
    for (const auto& [f, name] : falloff_names)
        if (f == falloff) return name;
    return "unknown";
}

std::optional<Falloff> falloff_from_name(std::string_view name) {
    for (const auto& [f, n] : falloff_names)
        if (name == n) return f;
    return std::nullopt;
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
    const std::string name = quoted(brush.layer);
    const Layer_base* base = world.find_layer(brush.layer);
    if (!base) {
        if (world.layer(std::string_view(brush.layer)))
            return "layer " + name + " is a Dict layer; brushes paint scalar layers";
        return "there is no layer " + name;
    }
    const std::string value_name(base->value_name());
    const bool scalar =
        with_value_type(base->value_tag(), []<class T>() { return Layer_scalar<T>; });
    if (!scalar)
        return "layer " + name + " holds " + value_name + " values; brushes paint scalar layers";
    if (base->type() != Layer_type::vertex && base->type() != Layer_type::face)
        return "layer " + name + " belongs to " + std::string(layer_type_name(base->type())) +
               " edges; brushes paint vertex and face layers";
    const bool is_bool = base->value_tag() == Value_type::boolean;
    if (is_bool && brush.mode != Brush_mode::raise && brush.mode != Brush_mode::lower &&
        brush.mode != Brush_mode::set)
        return "layer " + name + " holds bool values; only raise, lower and set paint them";
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
    if (brush.mode == Brush_mode::set || brush.mode == Brush_mode::flatten) {
        const char* what = brush.mode == Brush_mode::set ? "value to set" : "flatten target";
        if (!std::isfinite(brush.value)) return std::string("the ") + what + " must be finite";
        const bool fits = with_value_type(base->value_tag(),
                                          [&]<class T>() { return representable<T>(brush.value); });
        if (!fits)
            return std::string("the ") + what + " is not a " + value_name + " (layer " + name + ")";
    }
    if (!positions_of(world))
        return "the world has no vertex positions (layer 'position' of vec3), so a brush has "
               "nowhere to go";
    if (world.mesh().vertex_count() == 0) return "the world has no vertices to paint";
    return std::nullopt;
}

Dab_result apply_dab(World& world, const Brush& brush, const glm::dvec3& centre, Vertex hint) {
    if (const auto why = check_brush(world, brush)) throw std::invalid_argument(*why);
    const auto frame = frame_of(world, centre, hint);
    if (!frame) throw std::invalid_argument("the dab's centre must be a finite, non-zero point");
    const Layer_base& base = *world.find_layer(brush.layer);
    Dab_result result;
    with_value_type(base.value_tag(), [&]<class T>() {
        if constexpr (Layer_scalar<T>) {
            if (base.type() == Layer_type::vertex) {
                const auto hits = flood_vertices(*frame, brush.radius_km);
                result = paint(world, static_cast<const Layer<T, Layer_type::vertex>&>(base), brush,
                               *frame, hits);
            } else {
                const auto hits = flood_faces(*frame, brush.radius_km);
                result = paint(world, static_cast<const Layer<T, Layer_type::face>&>(base), brush,
                               *frame, hits);
            }
        }
    });
    return result;
}

std::optional<double> value_at(const World& world, const std::string& layer,
                               const glm::dvec3& centre, Vertex hint) {
    Brush probe;
    probe.layer = layer;
    if (check_brush(world, probe)) return std::nullopt;
    const auto f = frame_of(world, centre, hint);
    if (!f) return std::nullopt;
    const Layer_base& base = *world.find_layer(layer);
    return with_value_type(base.value_tag(), [&]<class T>() -> std::optional<double> {
        if constexpr (Layer_scalar<T>) {
            if (base.type() == Layer_type::vertex)
                return static_cast<double>(
                    static_cast<const Layer<T, Layer_type::vertex>&>(base)[f->start]);
            Face best = no_face;
            double best_d = std::numeric_limits<double>::infinity();
            auto consider = [&](Face face) {
                const double d = f->distance(centroid(*f, face));
                if (d < best_d) {
                    best_d = d;
                    best = face;
                }
            };
            for (const Face face : f->start.faces(*f->m))
                consider(face);
            for (const Vertex n : f->start.neighbors(*f->m))
                for (const Face face : n.faces(*f->m))
                    consider(face);
            if (!best.valid()) return std::nullopt;
            return static_cast<double>(static_cast<const Layer<T, Layer_type::face>&>(base)[best]);
        } else {
            return std::nullopt;
        }
    });
}

std::vector<glm::dvec3> stroke_points(const glm::dvec3& from, const glm::dvec3& to,
                                      double spacing_km) {
    if (!std::isfinite(spacing_km) || spacing_km <= 0.0)
        throw std::invalid_argument("stroke_points: the spacing must be a positive distance");
    if (!usable_point(from) || !usable_point(to))
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

Vertex nearest_vertex(const World& world, const glm::dvec3& p, Vertex hint) {
    const auto f = frame_of(world, p, hint);
    return f ? f->start : no_vertex;
}

std::vector<Vertex> vertices_within(const World& world, const glm::dvec3& centre, double radius_km,
                                    Vertex hint) {
    std::vector<Vertex> out;
    if (!(radius_km >= 0.0)) return out;
    const auto f = frame_of(world, centre, hint);
    if (!f) return out;
    const auto hits = flood_vertices(*f, radius_km);
    out.reserve(hits.size());
    for (const auto& h : hits)
        out.push_back(h.key);
    return out;
}

} // namespace orbis::edit
