// SPDX-License-Identifier: MIT
// Selections and the operations on them: disc and lasso picking, statistics, refine/coarsen/
// Delaunay restoration restricted to the selection, setting and smoothing layer values.
#include "orbis/edit/selection.hpp"

#include "orbis/core/interpolation.hpp"
#include "orbis/core/sphere_geometry.hpp"
#include "orbis/edit/detail/sphere_search.hpp"
#include "orbis/edit/layer_values.hpp"
#include "orbis/edit/sphere_search.hpp"
#include "orbis/gen/sphere_predicates.hpp"

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <new>
#include <numbers>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace orbis::edit {

namespace {

using detail::Id_set;
using detail::Positions;
using detail::positions_of;

// ---- small helpers ----

const Positions& positions_or_throw(const World& world) {
    const Positions* p = positions_of(world);
    if (!p) throw std::invalid_argument("the world has no position layer");
    return *p;
}

// Great-circle length in km; the mean of both radii makes it exact on a sphere and sensible on
// a lumpy surface.
double arc_km(const glm::vec3& a, const glm::vec3& b) {
    const glm::dvec3 p(a), q(b);
    return angle_between(p, q) * 0.5 * (glm::length(p) + glm::length(q));
}

double det(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    return glm::dot(a, glm::cross(b, c));
}

int sign(double x) { return (x > 0) - (x < 0); }

std::string format_km(double x) {
    std::ostringstream out;
    out.precision(6);
    out << x;
    return out.str();
}

template <class Id>
void sort_unique(std::vector<Id>& ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

template <class Id>
bool sorted_unique(const std::vector<Id>& ids) {
    return std::adjacent_find(ids.begin(), ids.end(), [](Id a, Id b) { return !(a < b); }) ==
           ids.end();
}

// ---- lasso ----

// A planar polygon with its edges bucketed into horizontal bands, so that the even-odd test
// of a point looks at the few edges of its band instead of all of them.
class Banded_polygon {
public:
    explicit Banded_polygon(std::vector<glm::dvec2> points)
        : points_(std::move(points)) {
        const std::size_t k = points_.size();
        y0_ = y1_ = points_[0].y;
        for (const auto& q : points_) {
            y0_ = std::min(y0_, q.y);
            y1_ = std::max(y1_, q.y);
        }
        bands_ = static_cast<int>(std::max<std::size_t>(1, k));
        height_ = (y1_ - y0_) / bands_;
        if (!(height_ > 0)) {
            bands_ = 1;
            height_ = 1;
        }
        std::vector<std::size_t> count(bands_ + 1, 0);
        for (std::size_t i = 0; i < k; ++i) {
            const auto [lo, hi] = span(i);
            for (int b = lo; b <= hi; ++b)
                ++count[b + 1];
        }
        for (int b = 0; b < bands_; ++b)
            count[b + 1] += count[b];
        first_ = count;
        edges_.resize(count[bands_]);
        for (std::size_t i = 0; i < k; ++i) {
            const auto [lo, hi] = span(i);
            for (int b = lo; b <= hi; ++b)
                edges_[count[b]++] = static_cast<std::uint32_t>(i);
        }
    }

    bool contains(const glm::dvec2& q) const {
        if (q.y < y0_ || q.y > y1_) return false;
        const int b = band(q.y);
        bool inside = false;
        for (std::size_t j = first_[b]; j < first_[b + 1]; ++j) {
            const std::uint32_t i = edges_[j];
            const glm::dvec2& a = points_[i];
            const glm::dvec2& c = points_[(i + 1) % points_.size()];
            if ((a.y > q.y) == (c.y > q.y)) continue;
            const double x = a.x + (q.y - a.y) * (c.x - a.x) / (c.y - a.y);
            if (q.x < x) inside = !inside;
        }
        return inside;
    }

private:
    int band(double y) const {
        const int b = static_cast<int>(std::floor((y - y0_) / height_));
        return std::clamp(b, 0, bands_ - 1);
    }
    std::pair<int, int> span(std::size_t i) const {
        const double a = points_[i].y, c = points_[(i + 1) % points_.size()].y;
        return {band(std::min(a, c)), band(std::max(a, c))};
    }

    std::vector<glm::dvec2> points_;
    double y0_ = 0, y1_ = 0, height_ = 1;
    int bands_ = 1;
    std::vector<std::size_t> first_;
    std::vector<std::uint32_t> edges_;
};

// True when the minor arcs a-b and c-d cross at a point inside both (touching does not count).
bool arcs_cross(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                const glm::dvec3& d) {
    const int acb = -sign(det(a, b, c));
    const int bda = sign(det(a, b, d));
    if (acb == 0 || acb != bda) return false;
    const int cbd = -sign(det(c, d, b));
    const int dac = sign(det(c, d, a));
    return cbd == acb && dac == acb;
}

// The lasso that fits in no small cap: even-odd crossings from each vertex to a point just
// left of the first arc, and Gauss-Bonnet (left area = 2 pi - total turning) to know whether
// the left or the right side is the smaller region. O(vertices x lasso size).
std::vector<Vertex> lasso_everywhere(const Mesh& m, const Positions& p,
                                     const std::vector<glm::dvec3>& a) {
    const std::size_t k = a.size();
    double turning = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const glm::dvec3& prev = a[(i + k - 1) % k];
        const glm::dvec3& here = a[i];
        const glm::dvec3& next = a[(i + 1) % k];
        const glm::dvec3 t_in = glm::cross(glm::cross(prev, here), here);
        const glm::dvec3 t_out = glm::cross(glm::cross(here, next), here);
        turning += std::atan2(glm::dot(glm::cross(t_in, t_out), here), glm::dot(t_in, t_out));
    }
    const double left_area = 2 * std::numbers::pi - turning;
    const bool want_left = left_area <= 2 * std::numbers::pi;
    const glm::dvec3 mid = glm::normalize(a[0] + a[1]);
    const glm::dvec3 reference =
        glm::normalize(mid + 1e-7 * glm::normalize(glm::cross(a[0], a[1])));
    std::vector<Vertex> out;
    for (const Vertex v : m.vertices()) {
        const glm::dvec3 q = glm::normalize(glm::dvec3(p[v]));
        bool odd = false;
        for (std::size_t i = 0; i < k; ++i)
            if (arcs_cross(q, reference, a[i], a[(i + 1) % k])) odd = !odd;
        if (odd != want_left) out.push_back(v); // even crossings: same side as the reference
    }
    return out;
}

// ---- selections as vertex and face sets ----

std::vector<Face> faces_of_mesh(const Mesh& m, const std::vector<Vertex>& vertices) {
    std::vector<Face> out;
    const auto selected = [&](Vertex v) {
        return std::binary_search(vertices.begin(), vertices.end(), v);
    };
    for (const Vertex v : vertices) {
        if (!m.contains(v)) continue;
        for (const Edge e : v.edges(m)) {
            const Face f = e.left(m);
            if (!f.valid()) continue;
            const Vertex b = e.dest(m), c = e.left_prev(m).origin(m);
            // Each face once: from its smallest corner.
            if (v < b && v < c && selected(b) && selected(c)) out.push_back(f);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The vertices an operation works on: the selected vertices and the corners of selected faces.
std::vector<Vertex> vertex_set(const Mesh& m, const Selection& s) {
    if (s.faces.empty()) return s.vertices;
    std::vector<Vertex> out = s.vertices;
    for (const Face f : s.faces)
        for (const Vertex v : f.vertices(m))
            out.push_back(v);
    sort_unique(out);
    return out;
}

// The faces an operation works on: the selected faces and the faces of the selected vertices.
std::vector<Face> face_set(const Mesh& m, const Selection& s) {
    std::vector<Face> out = faces_of_mesh(m, s.vertices);
    std::vector<Face> merged;
    std::set_union(out.begin(), out.end(), s.faces.begin(), s.faces.end(),
                   std::back_inserter(merged));
    return merged;
}

std::optional<std::string> check_selection(const World& world, const Selection& s) {
    if (s.empty()) return "the selection is empty";
    if (!sorted_unique(s.vertices) || !sorted_unique(s.faces))
        return "the selection's ids are not sorted and unique";
    const Mesh& m = world.mesh();
    for (const Vertex v : s.vertices)
        if (!m.contains(v)) return "the selection is out of date: " + to_string(v) + " is gone";
    for (const Face f : s.faces)
        if (!m.contains(f)) return "the selection is out of date: " + to_string(f) + " is gone";
    return std::nullopt;
}

// unite and subtract: one sorted-range set operation on the vertices and on the faces.
template <class Op>
Selection combine(const Selection& a, const Selection& b, Op op) {
    Selection s;
    op(a.vertices.begin(), a.vertices.end(), b.vertices.begin(), b.vertices.end(),
       std::back_inserter(s.vertices));
    op(a.faces.begin(), a.faces.end(), b.faces.begin(), b.faces.end(), std::back_inserter(s.faces));
    return s;
}

// ---- mesh edits inside the selection ----

// A mesh edit inside the selection must not change vertex values outside it: refuse vertex
// layers whose rules reset or remove the whole layer on a split (refine) or collapse (coarsen).
std::optional<std::string> check_vertex_rules(const World& world, bool collapses) {
    const Positions* p = positions_of(world);
    if (!p) return "the world has no position layer";
    const Interpolation pi = p->info().interpolation_mode();
    if (pi != Interpolation::slerp && pi != Interpolation::lerp)
        return "the position layer's interpolation is " + std::string(interpolation_name(pi)) +
               "; new vertices need slerp or lerp to be placed";
    for (const std::string& name : world.layer_names()) {
        const Layer_base* base = world.find_layer(name);
        if (!base || base->type() != Layer_type::vertex) continue;
        std::optional<std::string> why;
        with_value_type(base->value_tag(), [&]<class T>() {
            const auto& info = static_cast<const Layer<T, Layer_type::vertex>&>(*base).info();
            const Interpolation i = info.interpolation_mode();
            const On_mesh_change c = info.mesh_change();
            if (i == Interpolation::reset_all || i == Interpolation::remove_layer ||
                (collapses &&
                 (c == On_mesh_change::reset_all || c == On_mesh_change::remove_layer)))
                why = "layer '" + name + "' is reset or removed whole by every " +
                      (collapses ? "collapse" : "split") +
                      ", which would change values outside the selection";
        });
        if (why) return why;
    }
    return std::nullopt;
}

// ---- what an operation touched ----

struct Touched {
    std::vector<Vertex> vertices;
    std::vector<Face> faces;
    std::vector<Edge> edges;

    // v, its neighbours, faces and edges: all that a split creating v, or a collapse into or
    // out of v, changes.
    void around(const Mesh& m, Vertex v) {
        vertices.push_back(v);
        for (const Edge e : v.edges(m)) {
            vertices.push_back(e.dest(m));
            edges.push_back(e.base());
            const Face f = e.left(m);
            if (f.valid()) faces.push_back(f);
        }
    }
    void finish(Selection_edit& out) {
        sort_unique(vertices);
        sort_unique(faces);
        sort_unique(edges);
        out.vertices = std::move(vertices);
        out.faces = std::move(faces);
        out.edges = std::move(edges);
    }
};

// Runs `op`; on any failure puts the World back as it was (a snapshot costs O(layers)) and
// throws std::invalid_argument, so that a refused or failed operation never leaves half an
// edit behind.
template <class Op>
Selection_edit guarded(World& world, Op op) {
    World before = world;
    try {
        return op();
    } catch (const std::bad_alloc&) {
        world = before;
        throw;
    } catch (const std::invalid_argument&) {
        world = before;
        throw;
    } catch (const std::exception& e) {
        world = before;
        throw std::invalid_argument(e.what());
    }
}

// ---- Delaunay flips restricted to the selection ----

struct Quad {
    Vertex a, b, c, d; // e = a->b, c left of it, d right of it
};

bool quad_of(const Mesh& m, Edge e, Quad& q) {
    if (!e.left(m).valid() || !e.right(m).valid()) return false;
    q = {e.origin(m), e.dest(m), e.left_next(m).dest(m), e.sym().left_next(m).dest(m)};
    return true;
}

// Lawson's rule on the quad of `e`, with exact predicates: flip when d lies strictly inside the
// circumcircle of the counterclockwise face (a, b, c) and both new faces are counterclockwise.
// Where moved vertices folded a face, flip when that leaves more faces counterclockwise (or as
// many, and the in-circle test agrees, so that no edge flips back and forth): that untangles
// small folds and never makes one.
bool wants_flip(const Positions& p, const Quad& q) {
    const glm::vec3 &a = p[q.a], &b = p[q.b], &c = p[q.c], &d = p[q.d];
    const int before =
        (gen::orientation_on_sphere(a, b, c) > 0) + (gen::orientation_on_sphere(b, a, d) > 0);
    const bool violates = gen::direction_orientation(a, b, c, d) > 0;
    if (before == 2 && !violates) return false;
    const int after =
        (gen::orientation_on_sphere(a, d, c) > 0) + (gen::orientation_on_sphere(d, b, c) > 0);
    if (before == 2) return after == 2;
    return after > before || (after == before && violates);
}

// Lawson flips of the edges whose ends are both in `inside`, starting from `seeds` and
// following the edges each flip makes suspect. Terminates: each flip lowers the lifted
// triangulation strictly; the cap only guards against inexact positions.
std::size_t flip_inside(World& world, Mesh_lock& lock, const Id_set& inside,
                        const std::vector<Edge>& seeds, Touched& touched) {
    Id_set queued(seeds.size());
    std::vector<Edge> stack;
    const auto push = [&](const Mesh& m, Edge e) {
        const Edge b = e.base();
        if (!m.contains(b) || !inside.contains(b.origin(m).index()) ||
            !inside.contains(b.dest(m).index()) || !queued.insert(b.quad_index()))
            return;
        stack.push_back(b);
    };
    for (const Edge e : seeds)
        push(*lock, e);
    const std::size_t max_flips = 64 * (stack.size() + inside.size() + 16);
    std::size_t flips = 0;
    while (!stack.empty() && flips < max_flips) {
        const Edge e = stack.back();
        stack.pop_back();
        queued.erase(e.quad_index());
        const Mesh& m = *lock; // re-read: the first write may copy a shared mesh
        Quad q;
        if (!m.contains(e) || !quad_of(m, e, q) || !inside.contains(q.a.index()) ||
            !inside.contains(q.b.index()))
            continue;
        if (!wants_flip(positions_or_throw(world), q)) continue;
        const Face left = e.left(m), right = e.right(m);
        if (lock.try_flip(e)) continue;
        ++flips;
        touched.vertices.insert(touched.vertices.end(), {q.a, q.b, q.c, q.d});
        touched.faces.insert(touched.faces.end(), {left, right});
        touched.edges.push_back(e);
        const Mesh& f = *lock;
        for (const Edge n :
             {e.left_next(f), e.left_prev(f), e.sym().left_next(f), e.sym().left_prev(f)})
            push(f, n);
    }
    return flips;
}

std::vector<Edge> edges_around(const Mesh& m, const std::vector<Vertex>& vertices) {
    std::vector<Edge> edges;
    for (const Vertex v : vertices) {
        if (!m.contains(v)) continue;
        for (const Edge e : v.edges(m)) {
            edges.push_back(e);
            edges.push_back(e.left_next(m)); // the link: opposite edges can become suspect too
        }
    }
    return edges;
}

// ---- refine and coarsen ----

struct Edge_item {
    double length;
    Edge e;
    Vertex a, b;
};
// refine's order: it wants the edges longer than its target, the longest first.
struct Longer_first {
    static constexpr const char* wanted_words = "longer";
    static constexpr bool collapses = false;
    static bool wanted(double length, double target_km) { return length > target_km; }
    bool operator()(const Edge_item& x, const Edge_item& y) const {
        return x.length < y.length || (x.length == y.length && x.e.mask() > y.e.mask());
    }
};
// coarsen's order: it wants the edges shorter than its target, the shortest first.
struct Shorter_first {
    static constexpr const char* wanted_words = "shorter";
    static constexpr bool collapses = true;
    static bool wanted(double length, double target_km) { return length < target_km; }
    bool operator()(const Edge_item& x, const Edge_item& y) const {
        return x.length > y.length || (x.length == y.length && x.e.mask() > y.e.mask());
    }
};

// Edges with both ends in `vertices` (sorted) whose length passes `keep`, each once.
template <class Keep>
std::vector<Edge_item> inner_edges(const Mesh& m, const Positions& p,
                                   const std::vector<Vertex>& vertices, Keep keep) {
    std::vector<Edge_item> out;
    for (const Vertex a : vertices)
        for (const Edge e : a.edges(m)) {
            const Vertex b = e.dest(m);
            if (!(a < b) || !std::binary_search(vertices.begin(), vertices.end(), b)) continue;
            const double length = arc_km(p[a], p[b]);
            if (keep(length)) out.push_back({length, e, a, b});
        }
    return out;
}

std::optional<std::string> check_target(double target_km) {
    if (!std::isfinite(target_km) || !(target_km > 0)) return "target length must be > 0 km";
    return std::nullopt;
}

double cell_area_km2(const Mesh& m, const Positions& p, Vertex v);

// True when moving a and b (the ends of e) to `target` keeps every face that survives the
// collapse counterclockwise.
bool collapse_keeps_orientation(const Mesh& m, const Positions& p, Edge e,
                                const glm::vec3& target) {
    const Vertex a = e.origin(m), b = e.dest(m);
    const Face gone_left = e.left(m), gone_right = e.right(m);
    const auto at = [&](Vertex x) { return x == a || x == b ? target : p[x]; };
    for (const Vertex v : {a, b})
        for (const Edge out : v.edges(m)) {
            const Face f = out.left(m);
            if (!f.valid() || f == gone_left || f == gone_right) continue;
            const Vertex u = out.dest(m), w = out.left_prev(m).origin(m);
            if (gen::orientation_on_sphere(at(v), at(u), at(w)) <= 0) return false;
        }
    return true;
}

Selection after_selection(const World& world, const Selection& before,
                          std::vector<Vertex> vertices) {
    Selection s;
    s.vertices = std::move(vertices);
    if (!before.faces.empty()) s.faces = faces_of_mesh(world.mesh(), s.vertices);
    return s;
}

// What refine, coarsen and restore_delaunay share: the selection's vertex set, the vertices
// inside it (kept current as an edit adds and deletes vertices; flips stay among them), and
// what the edit touched.
struct Inside_edit {
    Selection_edit out;
    Touched touched;
    std::vector<Vertex> vertices; // the selection's vertex set, sorted
    Id_set inside;

    Inside_edit(const Mesh& m, const Selection& selection)
        : vertices(vertex_set(m, selection))
        , inside(vertices.size() * 2) {
        for (const Vertex v : vertices)
            inside.insert(v.index());
    }
    // The closing Lawson flips from `seeds`, the lock's release (where layers validate, so it
    // may throw) and the lists of what changed.
    void finish(World& world, Mesh_lock& lock, const std::vector<Edge>& seeds) {
        out.flips = flip_inside(world, lock, inside, seeds, touched);
        lock.release();
        touched.finish(out);
    }
};

// The edges inside the selection that `Order` wants (Longer_first, Shorter_first), in its order;
// edits make entries stale, and pop skips those.
template <class Order>
class Edge_queue {
public:
    Edge_queue(const Mesh& m, const Positions& p, const std::vector<Vertex>& vertices,
               double target_km)
        : target_km_(target_km)
        , queue_(Order{}, inner_edges(m, p, vertices, [&](double length) {
                     return Order::wanted(length, target_km);
                 })) {}

    // The next edge still in the mesh with the ends it was queued with, or nothing when none is
    // left: a split keeps an edge's id but gives it a new end, a collapse deletes edges.
    std::optional<Edge_item> pop(const Mesh& m) {
        while (!queue_.empty()) {
            const Edge_item item = queue_.top();
            queue_.pop();
            if (m.contains(item.e) && item.e.origin(m) == item.a && item.e.dest(m) == item.b)
                return item;
        }
        return std::nullopt;
    }
    // Queues `item` when Order wants its length.
    void push(const Edge_item& item) {
        if (Order::wanted(item.length, target_km_)) queue_.push(item);
    }
    // Queues the wanted edges from `v` to vertices inside: those a split or collapse at v made.
    void push_from(const Mesh& m, const Positions& p, Vertex v, const Id_set& inside) {
        for (const Edge x : v.edges(m)) {
            const Vertex other = x.dest(m);
            if (inside.contains(other.index())) push({arc_km(p[v], p[other]), x, v, other});
        }
    }

private:
    double target_km_;
    std::priority_queue<Edge_item, std::vector<Edge_item>, Order> queue_;
};

// What check_refine and check_coarsen share: a usable selection and target, vertex layers that
// follow a split (collapse) inside without changing values outside, and an edge Order wants.
template <class Order>
std::optional<std::string> check_length_edit(const World& world, const Selection& selection,
                                             double target_km) {
    if (auto why = check_selection(world, selection)) return why;
    if (auto why = check_target(target_km)) return why;
    if (auto why = check_vertex_rules(world, Order::collapses)) return why;
    const Mesh& m = world.mesh();
    if (inner_edges(m, *positions_of(world), vertex_set(m, selection), [&](double length) {
            return Order::wanted(length, target_km);
        }).empty())
        return std::string("nothing in the selection is ") + Order::wanted_words + " than " +
               format_km(target_km) + " km";
    return std::nullopt;
}

// The loop refine and coarsen share: the edges Order wants, one at a time while still live, to
// `step(lock, item, edit, queue)`, which edits there (counting, marking `inside` and `touched`,
// queueing new edges) and returns the vertex the closing flips start around, or no_vertex when
// it made no edit; then the flips, and the selection's vertex set with new vertices added and
// deleted ones gone. Rolled back whole on failure (guarded).
template <class Order, class Step>
Selection_edit edit_by_length(World& world, const Selection& selection, double target_km,
                              Step step) {
    return guarded(world, [&] {
        Inside_edit edit(world.mesh(), selection);
        Edge_queue<Order> queue(world.mesh(), positions_or_throw(world), edit.vertices, target_km);
        std::vector<Vertex> changed;
        auto lock = world.lock_mesh();
        while (const auto item = queue.pop(*lock))
            if (const Vertex v = step(lock, *item, edit, queue); v.valid()) changed.push_back(v);
        edit.finish(world, lock, edges_around(*lock, changed));
        edit.out.operations = edit.out.splits + edit.out.collapses + edit.out.flips;
        std::vector<Vertex> vertices = std::move(edit.vertices);
        vertices.insert(vertices.end(), changed.begin(), changed.end());
        sort_unique(vertices);
        std::erase_if(vertices, [&](Vertex v) { return !edit.inside.contains(v.index()); });
        edit.out.selection = after_selection(world, selection, std::move(vertices));
        return std::move(edit.out);
    });
}

// ---- values ----

std::optional<std::string> check_values_common(const World& world, const Selection& selection,
                                               const std::string& layer, const Layer_base*& base) {
    if (auto why = check_selection(world, selection)) return why;
    if (auto why = check_scalar_layer(
            world, layer, "only scalar vertex and face layers can be edited on a selection"))
        return why;
    base = world.find_layer(layer);
    const Mesh& m = world.mesh();
    if (base->type() == Layer_type::vertex ? vertex_set(m, selection).empty()
                                           : face_set(m, selection).empty())
        return std::string("the selection has no ") +
               (base->type() == Layer_type::vertex ? "vertices" : "faces") + " for layer '" +
               layer + "'";
    return std::nullopt;
}

// What set_values and smooth_values share: under `guarded`, `write(layer, keys)` with the typed
// layer and the selection's vertex or face set (by the layer's kind), returning how many values
// it wrote; the keys become the edit's changed elements.
template <class Write>
Selection_edit edit_values(World& world, const Selection& selection, const std::string& layer,
                           Write write) {
    return guarded(world, [&] {
        Selection_edit out;
        out.selection = selection;
        with_scalar_layer(*world.find_layer(layer), [&](const auto& typed) {
            using Key = typename std::decay_t<decltype(typed)>::key_type;
            std::vector<Key> keys;
            if constexpr (std::is_same_v<Key, Vertex>)
                keys = vertex_set(world.mesh(), selection);
            else
                keys = face_set(world.mesh(), selection);
            out.operations = write(typed, keys);
            if constexpr (std::is_same_v<Key, Vertex>)
                out.vertices = std::move(keys);
            else
                out.faces = std::move(keys);
        });
        return out;
    });
}

double spherical_triangle_area(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    // Van Oosterom and Strackee: signed, exact for unit vectors, fine for thin triangles.
    return 2 * std::atan2(det(a, b, c), 1 + glm::dot(a, b) + glm::dot(b, c) + glm::dot(c, a));
}

double cell_area_km2(const Mesh& m, const Positions& p, Vertex v) {
    const glm::dvec3 pv(p[v]);
    const double r = glm::length(pv);
    if (r == 0) return 0;
    const glm::dvec3 u = pv / r;
    // Corners of the Voronoi cell: circumcentres of the faces around v, counterclockwise.
    glm::dvec3 first{0}, prev{0};
    bool have = false;
    double area = 0;
    for (const Edge e : v.edges(m)) {
        if (!e.left(m).valid()) return area; // open mesh: the cell is unbounded, count its part
        const glm::dvec3 b = glm::normalize(glm::dvec3(p[e.dest(m)]));
        const glm::dvec3 c = glm::normalize(glm::dvec3(p[e.left_prev(m).origin(m)]));
        const glm::dvec3 n = glm::cross(b - u, c - u);
        const double len = glm::length(n);
        if (len == 0) continue;
        const glm::dvec3 centre = n / len;
        if (have) {
            area += spherical_triangle_area(u, prev, centre);
        } else {
            first = centre;
            have = true;
        }
        prev = centre;
    }
    if (have) area += spherical_triangle_area(u, prev, first);
    return area * r * r;
}

double face_area_km2(const Mesh& m, const Positions& p, Face f) {
    glm::dvec3 c[3];
    double r = 0;
    int i = 0;
    for (const Vertex v : f.vertices(m)) {
        const glm::dvec3 q(p[v]);
        r += glm::length(q) / 3;
        c[i++] = glm::normalize(q);
    }
    return spherical_triangle_area(c[0], c[1], c[2]) * r * r;
}

} // namespace

// ---- picking ----

std::vector<Vertex> select_disc(const World& world, const glm::dvec3& centre, double radius_km,
                                Vertex hint) {
    if (!std::isfinite(radius_km)) return {}; // vertices_within takes an infinite radius
    std::vector<Vertex> out = vertices_within(world, centre, radius_km, hint);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Vertex> select_lasso(const World& world, const std::vector<glm::dvec3>& lasso) {
    const Positions* p = positions_of(world);
    if (!p) return {};
    std::vector<glm::dvec3> a;
    for (const glm::dvec3& q : lasso) {
        if (!detail::usable_point(q)) continue;
        const glm::dvec3 u = glm::normalize(q);
        if (!a.empty() && angle_between(a.back(), u) < 1e-12) continue; // repeated point
        a.push_back(u);
    }
    while (a.size() > 1 && angle_between(a.back(), a.front()) < 1e-12)
        a.pop_back();
    if (a.size() < 3) return {};
    const Mesh& m = world.mesh();

    glm::dvec3 sum(0);
    for (const auto& u : a)
        sum += u;
    constexpr double max_cap = 89.0 * std::numbers::pi / 180.0;
    double cap = std::numbers::pi;
    glm::dvec3 c(0);
    if (glm::length(sum) > 1e-9 * double(a.size())) {
        c = glm::normalize(sum);
        cap = 0;
        for (const auto& u : a)
            cap = std::max(cap, angle_between(c, u));
    }
    std::vector<Vertex> out;
    if (cap >= max_cap) {
        out = lasso_everywhere(m, *p, a);
        return out;
    }
    // The cap is under a hemisphere, so it holds the arcs between its points and the smaller
    // region; the gnomonic projection at its centre maps great circles to straight lines, which
    // turns the spherical polygon into a planar one exactly.
    const glm::dvec3 axis = std::abs(c.y) < 0.9 ? glm::dvec3(0, 1, 0) : glm::dvec3(1, 0, 0);
    const glm::dvec3 e1 = glm::normalize(glm::cross(c, axis));
    const glm::dvec3 e2 = glm::cross(c, e1);
    const auto project = [&](const glm::dvec3& q) {
        const double z = glm::dot(q, c);
        return glm::dvec2(glm::dot(q, e1) / z, glm::dot(q, e2) / z);
    };
    std::vector<glm::dvec2> planar;
    planar.reserve(a.size());
    for (const auto& u : a)
        planar.push_back(project(u));
    const Banded_polygon polygon(std::move(planar));
    const auto anchor = detail::anchor_at(world, c, no_vertex);
    if (!anchor) return {};
    for (const Vertex v : detail::vertices_in_cap(*anchor, cap))
        if (polygon.contains(project(glm::dvec3((*p)[v])))) out.push_back(v);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Face> faces_of(const World& world, const std::vector<Vertex>& vertices) {
    return faces_of_mesh(world.mesh(), vertices);
}

Selection unite(const Selection& a, const Selection& b) {
    return combine(a, b, [](auto... args) { return std::set_union(args...); });
}

Selection subtract(const Selection& a, const Selection& b) {
    return combine(a, b, [](auto... args) { return std::set_difference(args...); });
}

// ---- statistics ----

Selection_stats selection_stats(const World& world, const Selection& selection) {
    Selection_stats stats;
    stats.vertices = selection.vertices.size();
    stats.faces = selection.faces.size();
    const Mesh& m = world.mesh();
    if (const Positions* p = positions_of(world)) {
        for (const Vertex v : selection.vertices)
            stats.vertex_area_km2 += cell_area_km2(m, *p, v);
        for (const Face f : selection.faces)
            stats.face_area_km2 += face_area_km2(m, *p, f);
    }
    stats.area_km2 = selection.vertices.empty() ? stats.face_area_km2 : stats.vertex_area_km2;
    for (const std::string& name : world.layer_names()) {
        const Layer_base* base = world.find_layer(name);
        if (!base) continue;
        with_scalar_layer(*base, [&](const auto& layer) {
            using L = std::decay_t<decltype(layer)>;
            Layer_summary s{name, 0, 0, 0, 0, base->type()};
            double sum = 0;
            const auto add = [&](const auto& value) {
                const double x = static_cast<double>(value);
                if (std::isnan(x)) return;
                s.min = s.count ? std::min(s.min, x) : x;
                s.max = s.count ? std::max(s.max, x) : x;
                sum += x;
                ++s.count;
            };
            if constexpr (std::is_same_v<typename L::key_type, Vertex>) {
                if (selection.vertices.empty()) return;
                for (const Vertex v : selection.vertices)
                    add(layer[v]);
            } else {
                if (selection.faces.empty()) return;
                for (const Face f : selection.faces)
                    add(layer[f]);
            }
            s.mean = s.count ? sum / double(s.count) : 0;
            stats.layers.push_back(std::move(s));
        });
    }
    return stats;
}

// ---- refine ----

std::optional<std::string> check_refine(const World& world, const Selection& selection,
                                        double target_km) {
    if (auto why = check_length_edit<Longer_first>(world, selection, target_km)) return why;
    const Mesh& m = world.mesh();
    const Positions& p = *positions_of(world);
    const std::vector<Vertex> vertices = vertex_set(m, selection);
    // A mesh of edge length L has about 2 / (sqrt(3) L^2) vertices per km^2.
    double area = 0;
    for (const Vertex v : vertices)
        area += cell_area_km2(m, p, v);
    const double estimate = area * 2 / (std::sqrt(3.0) * target_km * target_km);
    constexpr double limit = 20e6;
    if (estimate > limit)
        return "refining to " + format_km(target_km) + " km would create about " +
               format_km(std::round(estimate)) + " vertices (the limit is 20 million)";
    return std::nullopt;
}

Selection_edit refine(World& world, const Selection& selection, double target_km) {
    if (auto why = check_refine(world, selection, target_km)) throw std::invalid_argument(*why);
    return edit_by_length<Longer_first>(world, selection, target_km,
                                        [&](Mesh_lock& lock, const Edge_item& item,
                                            Inside_edit& edit, Edge_queue<Longer_first>& queue) {
                                            Edge half;
                                            if (lock.try_split(item.e, 0.5f, &half))
                                                return no_vertex;
                                            ++edit.out.splits;
                                            const Mesh& after = *lock;
                                            const Vertex mid = half.origin(after);
                                            edit.inside.insert(mid.index());
                                            edit.touched.around(after, mid);
                                            queue.push_from(after, positions_or_throw(world), mid,
                                                            edit.inside);
                                            return mid;
                                        });
}

// ---- coarsen ----

std::optional<std::string> check_coarsen(const World& world, const Selection& selection,
                                         double target_km) {
    return check_length_edit<Shorter_first>(world, selection, target_km);
}

Selection_edit coarsen(World& world, const Selection& selection, double target_km) {
    if (auto why = check_coarsen(world, selection, target_km)) throw std::invalid_argument(*why);
    return edit_by_length<Shorter_first>(
        world, selection, target_km,
        [&](Mesh_lock& lock, const Edge_item& item, Inside_edit& edit,
            Edge_queue<Shorter_first>& queue) {
            const Mesh& m = *lock;
            const Positions& p = positions_or_throw(world);
            // Survivors move, so a queued length may be old: queue it again with the new one.
            const double length = arc_km(p[item.a], p[item.b]);
            if (length != item.length) {
                queue.push({length, item.e, item.a, item.b});
                return no_vertex;
            }
            const glm::vec3 target = interpolate(p.info().interpolation_mode(), p[item.a],
                                                 p[item.b], 0.5f, p.info().initial_value());
            if (m.check_collapse(item.e, 0.5f) ||
                !collapse_keeps_orientation(m, p, item.e, target)) {
                ++edit.out.skipped;
                return no_vertex;
            }
            edit.touched.around(m, item.a);
            edit.touched.around(m, item.b);
            if (lock.try_collapse(item.e, 0.5f)) {
                ++edit.out.skipped;
                return no_vertex;
            }
            ++edit.out.collapses;
            edit.inside.erase(item.b.index());
            queue.push_from(*lock, positions_or_throw(world), item.a, edit.inside);
            return item.a;
        });
}

// ---- Delaunay ----

std::optional<std::string> check_restore_delaunay(const World& world, const Selection& selection) {
    if (auto why = check_selection(world, selection)) return why;
    const Positions* p = positions_of(world);
    if (!p) return "the world has no position layer";
    const Mesh& m = world.mesh();
    for (const Edge_item& item :
         inner_edges(m, *p, vertex_set(m, selection), [](double) { return true; })) {
        Quad q;
        if (quad_of(m, item.e, q) && wants_flip(*p, q)) return std::nullopt;
    }
    return "every edge in the selection is already Delaunay";
}

Selection_edit restore_delaunay(World& world, const Selection& selection) {
    if (auto why = check_restore_delaunay(world, selection)) throw std::invalid_argument(*why);
    return guarded(world, [&] {
        Inside_edit edit(world.mesh(), selection);
        std::vector<Edge> seeds;
        for (const Edge_item& item : inner_edges(world.mesh(), positions_or_throw(world),
                                                 edit.vertices, [](double) { return true; }))
            seeds.push_back(item.e);
        auto lock = world.lock_mesh();
        edit.finish(world, lock, seeds);
        edit.out.operations = edit.out.flips;
        edit.out.selection = selection;
        return std::move(edit.out);
    });
}

// ---- values ----

std::optional<std::string> check_set_values(const World& world, const Selection& selection,
                                            const std::string& layer, double value) {
    const Layer_base* base = nullptr;
    if (auto why = check_values_common(world, selection, layer, base)) return why;
    return check_in_range(*base, value, "the value");
}

Selection_edit set_values(World& world, const Selection& selection, const std::string& layer,
                          double value) {
    if (auto why = check_set_values(world, selection, layer, value))
        throw std::invalid_argument(*why);
    return edit_values(world, selection, layer, [&](const auto& typed, const auto& keys) {
        using T = typename std::decay_t<decltype(typed)>::value_type;
        auto [lock] = world.lock_layer(typed.info()); // `typed` may be cloned: not used after
        const T v = static_cast<T>(value);
        for (const auto x : keys)
            lock[x] = v;
        lock.release();
        return keys.size();
    });
}

std::optional<std::string> check_smooth_values(const World& world, const Selection& selection,
                                               const std::string& layer, int iterations) {
    const Layer_base* base = nullptr;
    if (auto why = check_values_common(world, selection, layer, base)) return why;
    if (iterations < 1 || iterations > 1000) return "iterations must be between 1 and 1000";
    return std::nullopt;
}

Selection_edit smooth_values(World& world, const Selection& selection, const std::string& layer,
                             int iterations) {
    if (auto why = check_smooth_values(world, selection, layer, iterations))
        throw std::invalid_argument(*why);
    const Mesh& m = world.mesh();
    return edit_values(world, selection, layer, [&](const auto& typed, const auto& keys) {
        using L = std::decay_t<decltype(typed)>;
        using T = typename L::value_type;
        using Key = typename L::key_type;
        const auto info = typed.info();
        auto [lock] = world.lock_layer(info); // `typed` may be cloned: not used after
        const auto neighbours = [&](Key k, auto each) {
            if constexpr (std::is_same_v<Key, Vertex>) {
                for (const Vertex n : k.neighbors(m))
                    each(n);
            } else {
                for (const Edge e : k.edges(m))
                    if (const Face g = e.right(m); g.valid()) each(g);
            }
        };
        // Means of values in range stay in range; the clamp only guards rounding at a bound.
        const Value_bounds<T> bounds = layer_bounds(info);
        const auto round_to_t = [&](double x) {
            bool clamped = false;
            return to_layer_value<T>(x, bounds, clamped);
        };
        std::vector<T> next(keys.size());
        for (int it = 0; it < iterations; ++it) {
            for (std::size_t i = 0; i < keys.size(); ++i) {
                const T old = lock.get(keys[i]);
                double sum = 0;
                int count = 0;
                neighbours(keys[i], [&](Key n) {
                    const double x = static_cast<double>(lock.get(n));
                    if (std::isnan(x)) return;
                    sum += x;
                    ++count;
                });
                const double self = static_cast<double>(old);
                next[i] = count == 0 || std::isnan(self)
                              ? old
                              : round_to_t(0.5 * self + 0.5 * sum / count);
            }
            for (std::size_t i = 0; i < keys.size(); ++i)
                lock[keys[i]] = next[i];
        }
        lock.release();
        return keys.size() * static_cast<std::size_t>(iterations);
    });
}

} // namespace orbis::edit
