// SPDX-License-Identifier: MIT
#include "orbis/gen/delaunay_module.hpp"

#include "orbis/core/face_soup.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/scratch_buffer.hpp"
#include "orbis/gen/sphere_delaunay.hpp"
#include "orbis/gen/sphere_predicates.hpp"

#include <stdexcept>

namespace orbis::gen {

namespace {

// The quad around primal edge e = (a -> b): c left of it, d right of it, both faces
// counterclockwise seen from outside.
struct Quad {
    Vertex a, b, c, d;
};

bool quad_of(const Mesh& m, Edge e, Quad& q) {
    if (!e.left(m).valid() || !e.right(m).valid()) return false;
    q.a = e.origin(m);
    q.b = e.dest(m);
    q.c = e.left_next(m).dest(m);
    q.d = e.sym().left_next(m).dest(m);
    return true;
}

bool violates(std::span<const glm::vec3> p, const Quad& q) {
    return direction_orientation(p[q.a.index()], p[q.b.index()], p[q.c.index()], p[q.d.index()]) >
           0;
}

// violates() with the unit directions computed once per vertex instead of once per test.
bool violates(std::span<const glm::vec3> p, std::span<const glm::dvec3> unit, const Quad& q) {
    const int sign = detail::direction_orientation_filter(unit[q.a.index()], unit[q.b.index()],
                                                          unit[q.c.index()], unit[q.d.index()]);
    return sign != 0 ? sign > 0 : violates(p, q);
}

// Lawson's rule on a quad of two counterclockwise faces: flip when the edge is not locally
// Delaunay (then the quad is convex and the new faces are counterclockwise too). Vertices that
// moved can fold faces (clockwise seen from outside); there the flip is made when it leaves
// more counterclockwise faces than it found, which untangles folds in a few steps without ever
// making one. `violates()` is the in-circle test, passed in so callers can cache directions.
template <class Violates>
Flip_decision decide_quad(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                          const glm::vec3& d, Violates violates) {
    const int before = (orientation_on_sphere(a, b, c) > 0) + (orientation_on_sphere(b, a, d) > 0);
    if (before == 2 && !violates()) return Flip_decision::keep;
    const int after = (orientation_on_sphere(a, d, c) > 0) + (orientation_on_sphere(d, b, c) > 0);
    if (before == 2) return after == 2 ? Flip_decision::flip : Flip_decision::blocked;
    // Sideways flips (as many folded faces after as before) only where the in-circle test asks
    // for them too: the test flips sign with the diagonal, so an edge cannot flip back and forth.
    if (after > before || (after == before && violates())) return Flip_decision::flip;
    return Flip_decision::blocked;
}

Flip_decision decide(std::span<const glm::vec3> p, std::span<const glm::dvec3> unit,
                     const Quad& q) {
    return decide_quad(p[q.a.index()], p[q.b.index()], p[q.c.index()], p[q.d.index()],
                       [&] { return violates(p, unit, q); });
}

} // namespace

Flip_decision lawson_decision(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                              const glm::vec3& d) {
    return decide_quad(a, b, c, d, [&] { return direction_orientation(a, b, c, d) > 0; });
}

bool is_locally_delaunay(const Mesh& mesh, std::span<const glm::vec3> positions, Edge e) {
    Quad q;
    return !quad_of(mesh, e, q) || !violates(positions, q);
}

std::size_t count_folded_faces(const Mesh& mesh, std::span<const glm::vec3> positions) {
    std::size_t count = 0;
    for (const Face f : mesh.faces()) {
        const Edge e = f.edge(mesh);
        const Vertex a = e.origin(mesh), b = e.dest(mesh), c = e.left_next(mesh).dest(mesh);
        count += orientation_on_sphere(positions[a.index()], positions[b.index()],
                                       positions[c.index()]) <= 0;
    }
    return count;
}

std::size_t count_non_delaunay_edges(const Mesh& mesh, std::span<const glm::vec3> positions) {
    std::size_t count = 0;
    for (const Edge e : mesh.edges())
        count += is_locally_delaunay(mesh, positions, e) ? 0 : 1;
    return count;
}

namespace {

// Lawson's loop over an initial list of `count` edges, `initial(k)` the k-th (a dead edge is
// skipped), visited from the last to the first as a stack would pop them; each
// flip pushes the four edges around it, and those are drained before the next edge of the
// list. `queued` marks the edges waiting: every edge of the list until it is visited, and the
// pushed ones.
template <class Initial>
Lawson_result flip_from(Mesh_lock& lock, std::span<const glm::vec3> p, std::size_t count,
                        Initial initial, std::vector<bool> queued) {
    Scratch_vector<glm::dvec3> unit(p.size());
    parallel_ranges(static_cast<std::uint32_t>(p.size()),
                    [&](std::uint32_t begin, std::uint32_t end, unsigned) {
                        for (std::uint32_t i = begin; i < end; ++i)
                            unit[i] = p[i] != glm::vec3(0) ? unit_direction(p[i]) : glm::dvec3(0);
                    });
    // Most edges stay as they are. Their verdicts on the unchanged mesh are found first, on two
    // threads; the loop below then skips an edge whose verdict was keep unless a flip has since
    // changed its quad (a flip marks the four edges around it), which visits the edges in the
    // same order and makes the same flips as deciding every edge in turn.
    Scratch_vector<std::uint8_t> kept(count);
    {
        const Mesh& m = *lock;
        parallel_ranges(static_cast<std::uint32_t>(count), [&](std::uint32_t begin,
                                                               std::uint32_t end, unsigned) {
            for (std::uint32_t k = begin; k < end; ++k) {
                const Edge e = initial(k);
                if (!m.contains(e)) {
                    kept[k] = 1;
                    continue;
                }
                Quad q;
                kept[k] = !quad_of(m, e, q) || decide(p, unit, q) == Flip_decision::keep;
            }
        });
    }
    std::vector<bool> changed(queued.size(), false);
    const std::size_t max_flips = 64 * (lock->edge_count() + 1);
    Lawson_result result;
    std::vector<Edge> stack, blocked;
    const auto visit = [&](Edge e) {
        queued[e.quad_index()] = false;
        // Re-read after every flip: the first write may copy a mesh that a snapshot shares.
        const Mesh& m = *lock;
        if (!m.contains(e)) return;
        Quad q;
        if (!quad_of(m, e, q)) return;
        const Flip_decision d = decide(p, unit, q);
        if (d == Flip_decision::keep) return;
        if (result.flips >= max_flips || d == Flip_decision::blocked || lock.try_flip(e)) {
            blocked.push_back(e);
            return;
        }
        ++result.flips;
        const Mesh& flipped = *lock;
        for (const Edge n : {e.left_next(flipped), e.left_prev(flipped), e.sym().left_next(flipped),
                             e.sym().left_prev(flipped)}) {
            const Edge b = n.base();
            changed[b.quad_index()] = true;
            if (queued[b.quad_index()]) continue;
            queued[b.quad_index()] = true;
            stack.push_back(b);
        }
    };
    const auto drain = [&] {
        while (!stack.empty()) {
            const Edge n = stack.back();
            stack.pop_back();
            visit(n);
        }
    };
    for (std::size_t k = count; k-- > 0;) {
        const Edge e = initial(k);
        if (kept[k] && !changed[e.quad_index()])
            queued[e.quad_index()] = false;
        else
            visit(e);
        drain();
    }
    // A flip refused because the new edge already exists (a corner of degree 3 between the
    // quad's far vertices) becomes possible once that edge has flipped away, but that flip
    // queues only the four edges of its own quad. So blocked edges are tried again, in the
    // order they were blocked, for as long as a round flips something.
    std::vector<std::uint32_t> tried; // the round in which each quad-edge was last tried
    for (std::uint32_t round = 1; !blocked.empty(); ++round) {
        if (tried.empty()) tried.assign(queued.size(), 0);
        const std::size_t flips = result.flips;
        std::vector<Edge> again;
        again.swap(blocked);
        for (const Edge e : again) {
            if (tried[e.quad_index()] == round) continue;
            tried[e.quad_index()] = round;
            queued[e.quad_index()] = true;
            visit(e);
            drain();
        }
        if (result.flips == flips) break;
    }
    result.blocked = blocked.size();
    return result;
}

} // namespace

Lawson_result lawson_flips(Mesh_lock& lock, std::span<const glm::vec3> p, std::vector<Edge> edges) {
    // One mark per quad-edge, so each edge is in the list once and waits in the stack at most
    // once at a time.
    std::vector<bool> queued(lock->edge_slots() / 2, false);
    std::vector<Edge> list;
    list.reserve(edges.size());
    for (const Edge e : edges) {
        const Edge b = e.base();
        if (b.is_dual() || !lock->contains(b) || queued[b.quad_index()]) continue;
        queued[b.quad_index()] = true;
        list.push_back(b);
    }
    return flip_from(
        lock, p, list.size(), [&](std::size_t k) { return list[k]; }, std::move(queued));
}

Lawson_result lawson_flips(Mesh_lock& lock, std::span<const glm::vec3> p) {
    // Every live edge in index order is the list: quad-edge k's base edge, dead slots skipped,
    // so no list is built. Marking the dead slots as waiting too is harmless: no flip reaches
    // them.
    const std::size_t quads = lock->edge_slots() / 2;
    std::vector<bool> queued(quads, true);
    return flip_from(
        lock, p, quads, [](std::size_t k) { return Edge(static_cast<std::uint32_t>(2 * k)); },
        std::move(queued));
}

bool rebuild_delaunay(Mesh_lock& lock, std::span<const glm::vec3> positions) {
    const Mesh& m = *lock;
    // The live points only: the triangulation needs every point it is given in a triangle.
    std::vector<std::uint32_t> live;
    std::vector<glm::vec3> points;
    live.reserve(m.vertex_count());
    points.reserve(m.vertex_count());
    for (const Vertex v : m.vertices()) {
        live.push_back(v.index());
        points.push_back(positions[v.index()]);
    }
    Sphere_triangulation t;
    try {
        t = delaunay_on_sphere(points);
    } catch (const std::invalid_argument&) {
        return false;
    }
    for (auto& triangle : t.triangles)
        for (std::uint32_t& corner : triangle)
            corner = live[corner];
    Mesh rebuilt =
        rebuild_closed_triangulation(m, t.triangles, t.opposite, parallel_parts(m.vertex_slots()));
    lock.replace_connectivity(std::move(rebuilt));
    return true;
}

std::string_view Delaunay_module::description() const {
    return "restores the Delaunay condition after vertices moved, by edge flips (Lawson) with "
           "exact predicates on the sphere; reads 'position', changes the mesh";
}

const Parameter_list<No_parameters>& Delaunay_module::parameter_list() const {
    static const Parameter_list<No_parameters> list;
    return list;
}

Layer_uses Delaunay_module::layers_for(const No_parameters&) const {
    return {.reads = {Layer_use::of(position_layer)}, .writes = {Layer_use::mesh()}};
}

Dict Delaunay_module::run_with(World& world, const No_parameters&, const Progress& progress) const {
    const auto* layer = world.layer(position_layer);
    if (!layer) throw std::runtime_error("module 'delaunay' needs the 'position' layer");
    const std::vector<glm::vec3> positions(layer->begin(), layer->end());
    progress.report(name(), 0.1);
    auto lock = world.lock_mesh();
    const Lawson_result r = lawson_flips(lock, positions);
    progress.report(name(), 0.8);
    // Without a blocked flip every edge ended locally Delaunay between counterclockwise faces.
    std::size_t left = r.blocked == 0 ? 0
                                      : count_non_delaunay_edges(*lock, positions) +
                                            count_folded_faces(*lock, positions);
    const bool rebuild = left > 0 && rebuild_delaunay(lock, positions);
    if (rebuild) left = 0;
    Dict report;
    report.set("flips", std::int64_t(r.flips));
    report.set("rebuilt", rebuild);
    report.set("non_delaunay", std::int64_t(left));
    return report;
}

} // namespace orbis::gen
