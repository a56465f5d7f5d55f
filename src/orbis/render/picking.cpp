// SPDX-License-Identifier: MIT
// Picking by walking a ray through the radial cones of the faces, with exact final decisions.
#include "orbis/render/picking.hpp"

#include "orbis/core/exact_orientation.hpp"
#include "orbis/core/layer_info.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include <glm/geometric.hpp>

namespace orbis::render {

namespace {

using Positions = Layer<glm::vec3, Layer_type::vertex>;
constexpr std::uint32_t empty_cell = UINT32_MAX;

// A face's edges e[i] from v[i] to v[(i + 1) % 3], counterclockwise seen from outside.
struct Corners {
    std::array<Edge, 3> e;
    std::array<Vertex, 3> v;
    std::array<glm::vec3, 3> p;
};

Corners corners(const Mesh& m, const Positions& pos, Face f) {
    Corners c;
    c.e[0] = f.edge(m);
    c.e[1] = c.e[0].left_next(m);
    c.e[2] = c.e[1].left_next(m);
    for (int i = 0; i < 3; ++i) {
        c.v[i] = c.e[i].origin(m);
        c.p[i] = pos[c.v[i]];
    }
    return c;
}

Face first_face(const Mesh& m) {
    for (Face f : m.faces())
        return f;
    return no_face;
}

// Walks are bounded by a multiple of the mesh's diameter in faces (about sqrt(faces) steps on
// a sphere); a walk that runs longer is cycling (possible on non-Delaunay meshes after edits)
// and the caller switches to a scan.
std::size_t walk_cap(const Mesh& m) {
    return 8 * static_cast<std::size_t>(std::sqrt(double(m.face_count()))) + 64;
}

// True when the cone of face c contains x, by the exact predicate.
bool cone_contains(const Corners& c, const glm::dvec3& x) {
    for (int i = 0; i < 3; ++i)
        if (orbis::detail::orientation_on_sphere(c.p[i], c.p[(i + 1) % 3], x) < 0) return false;
    return true;
}

// Among the faces whose cones contain x, the lowest id; `f` contains x with signs `s`. The
// neighbours are tested rather than assumed to contain x, because after edits a folded
// (clockwise) face next to x may not.
Face lowest_containing(const Mesh& m, const Positions& pos, const Corners& c, Face f,
                       const std::array<int, 3>& s, const glm::dvec3& x) {
    const int zeros = (s[0] == 0) + (s[1] == 0) + (s[2] == 0);
    if (zeros == 0) return f;
    Face best = f;
    const auto consider = [&](Face g) {
        if (g.valid() && g < best && cone_contains(corners(m, pos, g), x)) best = g;
    };
    if (zeros == 1) {
        // On the plane of one edge: the face on the other side of it contains x too.
        consider(c.e[s[0] == 0 ? 0 : (s[1] == 0 ? 1 : 2)].right(m));
        return best;
    }
    // On two edges' planes: x points at their shared corner, where (on a mesh without folds)
    // every face around it has x on two of its edges' planes and inside the third.
    const int i = s[0] != 0 ? 2 : (s[1] != 0 ? 0 : 1);
    for (Face g : c.v[i].faces(m))
        consider(g);
    return best;
}

// The exact lowest-id face containing x by testing every face; no_face when none does.
Face scan_locate(const Mesh& m, const Positions& pos, const glm::dvec3& x) {
    for (Face f : m.faces()) {
        const Corners c = corners(m, pos, f);
        if (cone_contains(c, x)) return f; // faces() runs in index order: the first is lowest
    }
    return no_face;
}

// Visibility walk with exact tests: leaves the face across an edge that x lies strictly right
// of, trying the edges from a rotating offset so that the walk cannot cycle on Delaunay meshes
// and rarely elsewhere. Capped; then the scan decides.
Face walk_locate(const Mesh& m, const Positions& pos, const glm::dvec3& x, Face f) {
    const std::size_t cap = walk_cap(m);
    for (std::size_t step = 0; step < cap && f.valid(); ++step) {
        const Corners c = corners(m, pos, f);
        std::array<int, 3> s{};
        Face next = no_face;
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t i = (k + step) % 3;
            s[i] = orbis::detail::orientation_on_sphere(c.p[i], c.p[(i + 1) % 3], x);
            if (s[i] < 0) {
                next = c.e[i].right(m);
                break;
            }
        }
        if (!next.valid()) {
            if (s[0] >= 0 && s[1] >= 0 && s[2] >= 0) return lowest_containing(m, pos, c, f, s, x);
            break; // walked off an open mesh's boundary
        }
        f = next;
    }
    return scan_locate(m, pos, x);
}

// Radial barycentric weights of x in face c: det[p1;p2;x], det[p2;p0;x], det[p0;p1;x],
// normalised; all >= 0 (up to rounding) exactly when the cone contains x.
glm::dvec3 radial_barycentric(const Corners& c, const glm::dvec3& x) {
    const glm::dvec3 p0(c.p[0]), p1(c.p[1]), p2(c.p[2]);
    glm::dvec3 w(glm::dot(x, glm::cross(p1, p2)), glm::dot(x, glm::cross(p2, p0)),
                 glm::dot(x, glm::cross(p0, p1)));
    const double sum = w.x + w.y + w.z;
    return sum != 0 ? w / sum : glm::dvec3(1.0 / 3.0);
}

// Ray parameter where the ray meets the plane of face c, when it crosses it from outside
// (the side away from the origin) to inside; nothing when parallel or crossing outward.
std::optional<double> plane_hit(const Corners& c, const Ray& ray) {
    const glm::dvec3 p0(c.p[0]), p1(c.p[1]), p2(c.p[2]);
    const glm::dvec3 n = glm::cross(p1 - p0, p2 - p0);
    const double nd = glm::dot(n, ray.direction);
    if (!(nd < 0)) return std::nullopt;
    return glm::dot(n, p0 - ray.origin) / nd;
}

Pick make_pick(const Corners& c, Face f, double t, const glm::dvec3& x) {
    Pick p;
    p.face = f;
    p.t = t;
    p.point = x;
    p.barycentric = radial_barycentric(c, x);
    int largest = 0, smallest = 0;
    for (int i = 1; i < 3; ++i) {
        if (p.barycentric[i] > p.barycentric[largest]) largest = i;
        if (p.barycentric[i] < p.barycentric[smallest]) smallest = i;
    }
    p.vertex = c.v[largest];
    // The edge opposite the corner with the smallest weight runs from v[i + 1] to v[i + 2].
    p.edge = c.e[(smallest + 1) % 3];
    return p;
}

// The hit on face f's plane, made exact: the point is re-located exactly, and if that gives
// another face the point is recomputed on that face's plane, a few rounds at most. The face
// reported always contains the reported point by the exact predicate.
std::optional<Pick> settle(const Mesh& m, const Positions& pos, const Ray& ray, Face f, double t) {
    glm::dvec3 x = ray.origin + t * ray.direction;
    for (int round = 0; round < 4; ++round) {
        const Face g = walk_locate(m, pos, x, f);
        if (!g.valid()) return std::nullopt;
        const Corners c = corners(m, pos, g);
        if (g == f || round == 3) return make_pick(c, g, t, x);
        const std::optional<double> th = plane_hit(c, ray);
        if (!th) return make_pick(c, g, t, x);
        f = g;
        t = *th;
        x = ray.origin + t * ray.direction;
    }
    return std::nullopt;
}

// Every face's front-facing plane hit inside its cone; the nearest. For capped walks only.
std::optional<Pick> scan_pick(const Mesh& m, const Positions& pos, const Ray& ray, double t_min) {
    Face best = no_face;
    double best_t = std::numeric_limits<double>::infinity();
    for (Face f : m.faces()) {
        const Corners c = corners(m, pos, f);
        const std::optional<double> t = plane_hit(c, ray);
        if (!t || *t < t_min || *t >= best_t) continue;
        const glm::dvec3 x = ray.origin + *t * ray.direction;
        if (cone_contains(c, x)) {
            best = f;
            best_t = *t;
        }
    }
    if (!best.valid()) return std::nullopt;
    return settle(m, pos, ray, best, best_t);
}

} // namespace

Picker::Picker(const World& world) { update(world); }

bool Picker::update(const World& world) {
    const Positions* pos = world.layer(position_layer);
    const std::uint64_t pos_version = pos ? pos->version() : 0;
    if (built_ && world.mesh_version() == mesh_version_ && pos_version == position_version_)
        return false;
    built_ = true;
    mesh_version_ = world.mesh_version();
    position_version_ = pos_version;
    cells_.clear();
    resolution_ = 0;
    max_radius_ = 0.0;
    if (!pos) return true;
    const Mesh& m = world.mesh();
    // About 32 vertices per cell, each cell keeping a face at one of its vertices: a start a few
    // faces from the target (a random pick walks a few microseconds longer than from a face per
    // two vertices). A face per two vertices held 36 MB at 9M vertices while building, which set
    // the editor's peak memory when it came after a large world's first frame. One pass over
    // the vertices (not the faces) keeps this cheap.
    resolution_ =
        std::max<std::uint32_t>(1, std::uint32_t(std::sqrt(double(m.vertex_count()) / 192.0)));
    cells_.assign(std::size_t(6) * resolution_ * resolution_, empty_cell);
    // Slots [first, last) into `cells`, the last vertex of a cell winning; returns their
    // largest radius.
    const auto fill = [&](std::size_t first, std::size_t last, std::vector<std::uint32_t>& cells) {
        double radius = 0.0;
        for (std::size_t i = first; i < last; ++i) {
            const Vertex v{static_cast<std::uint32_t>(i)};
            if (!m.contains(v)) continue;
            const glm::dvec3 p((*pos)[v]);
            radius = std::max(radius, glm::length(p));
            const Edge e = v.edge(m);
            if (!e.valid() || p == glm::dvec3(0.0)) continue;
            // The face left of the vertex's edge, or right of it on an open mesh's boundary.
            const Face f = e.left(m).valid() ? e.left(m) : e.right(m);
            if (f.valid()) cells[cell_of(p)] = f.index();
        }
        return radius;
    };
    const std::size_t slots = m.vertex_slots();
    if (slots < (std::size_t{1} << 18) || std::thread::hardware_concurrency() < 2) {
        max_radius_ = fill(0, slots, cells_);
    } else {
        // Halves on two threads; a cell the second half reached takes its face, as one pass
        // in slot order would leave it.
        std::vector<std::uint32_t> second(cells_.size(), empty_cell);
        double second_radius = 0.0;
        std::thread other([&] { second_radius = fill(slots / 2, slots, second); });
        max_radius_ = fill(0, slots / 2, cells_);
        other.join();
        max_radius_ = std::max(max_radius_, second_radius);
        for (std::size_t c = 0; c < cells_.size(); ++c)
            if (second[c] != empty_cell) cells_[c] = second[c];
    }
    // Cells no vertex fell into take the previous filled cell's face, which lies on the same
    // cube side or the one before it: a nearby start, and never an empty one.
    std::uint32_t last = empty_cell;
    for (std::uint32_t& cell : cells_) {
        if (cell == empty_cell)
            cell = last;
        else
            last = cell;
    }
    for (std::uint32_t& cell : cells_) {
        if (cell != empty_cell) break;
        cell = last;
    }
    return true;
}

std::uint32_t Picker::cell_of(const glm::dvec3& x) const {
    const glm::dvec3 a = glm::abs(x);
    int axis = 0;
    if (a.y > a[axis]) axis = 1;
    if (a.z > a[axis]) axis = 2;
    const std::uint32_t side = std::uint32_t(2 * axis + (x[axis] < 0 ? 1 : 0));
    const double u = x[(axis + 1) % 3] / a[axis], v = x[(axis + 2) % 3] / a[axis];
    const auto to_cell = [this](double w) {
        const double k = std::floor((w + 1.0) * 0.5 * resolution_);
        return std::uint32_t(std::clamp(k, 0.0, double(resolution_ - 1)));
    };
    return (side * resolution_ + to_cell(u)) * resolution_ + to_cell(v);
}

Face Picker::index_face(const Mesh& m, const glm::dvec3& x) const {
    if (!cells_.empty()) {
        // A stale entry (deleted or reused face) is still a valid start if it is live: the walk
        // never relies on the start being near.
        const Face f{cells_[cell_of(x)]};
        if (f.valid() && m.contains(f)) return f;
    }
    return first_face(m);
}

std::optional<Face> Picker::locate(const World& world, const glm::dvec3& x, Face start) const {
    const Positions* pos = world.layer(position_layer);
    const Mesh& m = world.mesh();
    if (!pos || m.face_count() == 0) return std::nullopt;
    if (!(start.valid() && m.contains(start))) start = index_face(m, x);
    const Face f = walk_locate(m, *pos, x, start);
    if (!f.valid()) return std::nullopt;
    return f;
}

std::optional<Pick> Picker::pick(const World& world, const Ray& ray, Face hint) const {
    const Positions* pos = world.layer(position_layer);
    const Mesh& m = world.mesh();
    if (!pos || m.face_count() == 0 || max_radius_ <= 0) return std::nullopt;

    // Enter at the sphere of the largest radius (slightly enlarged, so the start is outside the
    // surface despite rounding); a ray that misses it misses the surface.
    const double radius = max_radius_ * (1.0 + 0x1p-20);
    const double a = glm::dot(ray.direction, ray.direction);
    const double b = glm::dot(ray.origin, ray.direction);
    const double disc = b * b - a * (glm::dot(ray.origin, ray.origin) - radius * radius);
    if (!(a > 0) || !(disc >= 0)) return std::nullopt;
    const double root = std::sqrt(disc);
    const double t_out = (-b + root) / a;
    if (t_out < 0) return std::nullopt;
    const double t = std::max(0.0, (-b - root) / a);
    const glm::dvec3 entry = ray.origin + t * ray.direction;
    if (entry == glm::dvec3(0.0)) return std::nullopt;

    // Start from the hint when its first corner points closer to the entry than the index's
    // face does: coherent hover picks then walk a step or two.
    Face f = index_face(m, entry);
    if (hint.valid() && m.contains(hint) && f.valid()) {
        const glm::dvec3 h((*pos)[hint.edge(m).origin(m)]), g((*pos)[f.edge(m).origin(m)]);
        if (glm::dot(h, entry) / glm::length(h) > glm::dot(g, entry) / glm::length(g)) f = hint;
    }
    f = walk_locate(m, *pos, entry, f);
    if (!f.valid()) return std::nullopt;

    // Walk through the cones along the ray: in each, either the ray crosses the face's plane
    // before leaving the cone (the hit), or it leaves through the side plane of one edge, the
    // first one it crosses outward, into the face across that edge.
    const std::size_t cap = walk_cap(m);
    for (std::size_t step = 0; step < cap; ++step) {
        const Corners c = corners(m, *pos, f);
        double t_exit = std::numeric_limits<double>::infinity();
        int exit_edge = -1;
        for (int i = 0; i < 3; ++i) {
            // Points left of edge i satisfy dot(inward, x) > 0; leaving means it turns negative.
            const glm::dvec3 inward = glm::cross(glm::dvec3(c.p[i]), glm::dvec3(c.p[(i + 1) % 3]));
            const double md = glm::dot(inward, ray.direction);
            if (!(md < 0)) continue;
            const double te = -glm::dot(inward, ray.origin) / md;
            if (te < t_exit) {
                t_exit = te;
                exit_edge = i;
            }
        }
        const std::optional<double> th = plane_hit(c, ray);
        if (th && *th <= t_exit) return settle(m, *pos, ray, f, std::max(*th, 0.0));
        if (exit_edge < 0 || t_exit > t_out) return std::nullopt;
        const Face next = c.e[exit_edge].right(m);
        if (!next.valid()) return std::nullopt; // left an open mesh through its boundary
        f = next;
    }
    return scan_pick(m, *pos, ray, 0.0);
}

} // namespace orbis::render
