// SPDX-License-Identifier: MIT
// CPU-side vertex and index arrays of a mesh, its Voronoi dual and their colours.
#include "orbis/render/mesh_buffers.hpp"

#include "orbis/render/first_touch.hpp"
#include "orbis/render/growth.hpp"
#include "orbis/render/live_range.hpp"
#include "orbis/render/live_slots.hpp"
#include "orbis/render/parallel.hpp"
#include "orbis/render/water_buffers.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/sphere_curve.hpp"
#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>

namespace orbis::render {
namespace {

constexpr std::uint32_t unset = UINT32_MAX;

void require_positions(const Mesh& m, std::span<const glm::vec3> positions) {
    if (positions.size() < m.vertex_slots())
        throw std::invalid_argument("render: " + std::to_string(positions.size()) +
                                    " positions for " + std::to_string(m.vertex_slots()) +
                                    " vertex slots");
}

using detail::in_parallel;

// The three corners of a live face, counterclockwise.
struct Corners {
    Vertex a, b, c;
};
inline Corners corners(const Mesh& m, Face f) {
    const Edge e0 = f.edge(m);
    const Edge e1 = e0.left_next(m);
    return {e0.origin(m), e1.origin(m), e1.dest(m)};
}

inline glm::vec3 unit_or(glm::vec3 v, glm::vec3 fallback) {
    const float len2 = glm::dot(v, v);
    return len2 > 0.f ? v / std::sqrt(len2) : fallback;
}

// The live faces in the order of the sphere's space-filling curve, ties in index order, about
// 32 vertices to a cell of the curve; a face goes where its first corner goes. Triangles laid
// out in this order keep a region's together, so that a brush dab or an edit patches a few
// runs of the GPU buffers instead of thousands of scattered triangles (a Fibonacci sphere
// numbers its neighbours far apart). The shared vertices need no such order: a triangle's
// three indices are patched wherever its corners are, and a corner's position or colour is
// rewritten alone. O(slots).
std::vector<std::uint32_t> along_curve(const Mesh& m, std::span<const glm::vec3> positions) {
    const int level = sphere_curve_level(m.vertex_count(), 32);
    const std::uint32_t cells = sphere_curve_cells(level);
    // Free slots get the key past the last cell: they sort to the end and are cut off there.
    const std::uint32_t free_slot = cells;
    std::vector<std::uint32_t> vertex_key;
    detail::touch_storage(vertex_key, m.vertex_slots());
    vertex_key.resize(m.vertex_slots());
    in_parallel(m.vertex_slots(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            vertex_key[i] = m.contains(Vertex{static_cast<std::uint32_t>(i)})
                                ? sphere_curve_key(positions[i], level)
                                : free_slot;
    });
    std::vector<std::uint32_t> face_key;
    detail::touch_storage(face_key, m.face_slots());
    face_key.resize(m.face_slots());
    in_parallel(m.face_slots(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            const Face f{static_cast<std::uint32_t>(i)};
            face_key[i] = m.contains(f) ? vertex_key[f.edge(m).origin(m).index()] : free_slot;
        }
    });
    std::vector<std::uint32_t>().swap(vertex_key);
    std::vector<std::uint32_t> order = order_by_key(face_key, cells + 1);
    order.resize(m.face_count());
    return order;
}

// The circumcentre of live face f (see circumcentres()); `normal` receives the unnormalised
// cross product it comes from.
glm::vec3 circumcentre(const Mesh& m, std::span<const glm::vec3> p, Face f,
                       glm::vec3* normal = nullptr) {
    const Corners k = corners(m, f);
    // Double precision: the cross product of two short edges of a large sphere loses about
    // log2(radius / edge) bits, which in float moves the circumcentre visibly off the point
    // equidistant from the corners.
    const glm::dvec3 pa = p[k.a.index()], pb = p[k.b.index()], pc = p[k.c.index()];
    const glm::dvec3 n = glm::cross(pb - pa, pc - pa);
    if (normal) *normal = glm::vec3(n);
    // Outward even for a face whose corners wind the other way round the centre (a
    // hemisphere-sized face of a tiny mesh), so that corners never land on the far side.
    const glm::dvec3 out = glm::dot(n, pa + pb + pc) < 0.0 ? -n : n;
    const double radius = (glm::length(pa) + glm::length(pb) + glm::length(pc)) / 3.0;
    const double len = glm::length(out);
    return len > 0.0 ? glm::vec3(out * (radius / len)) : glm::vec3(0.f);
}

// Per face slot: twice the area-weighted normal, and the circumcentre. Both come from the same
// cross product, so computing them together halves the work of a Voronoi build.
struct Face_geometry {
    std::vector<glm::vec3> normal; // cross(b - a, c - a), not normalised
    std::vector<glm::vec3> centre;
};
Face_geometry face_geometry(const Mesh& m, std::span<const glm::vec3> p) {
    Face_geometry g;
    g.normal.resize(m.face_slots());
    g.centre.resize(m.face_slots());
    in_parallel(m.face_slots(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            const Face f{static_cast<std::uint32_t>(i)};
            if (!m.contains(f)) {
                g.normal[i] = g.centre[i] = glm::vec3(0.f);
                continue;
            }
            g.centre[i] = circumcentre(m, p, f, &g.normal[i]);
        }
    });
    return g;
}

// Writes face f as flat triangle t of b: its corners, their face normal, and the ids.
inline void write_flat(const Mesh& m, std::span<const glm::vec3> positions, Face f, std::size_t t,
                       Triangle_buffers& out) {
    const Corners c = corners(m, f);
    const glm::vec3 pa = positions[c.a.index()], pb = positions[c.b.index()],
                    pc = positions[c.c.index()];
    const glm::vec3 n = unit_or(glm::cross(pb - pa, pc - pa), unit_or(pa, {0, 0, 1}));
    const std::size_t k = 3 * t;
    out.positions[k] = pa;
    out.positions[k + 1] = pb;
    out.positions[k + 2] = pc;
    out.normals[t] = n;
    out.vertex_of[k] = c.a;
    out.vertex_of[k + 1] = c.b;
    out.vertex_of[k + 2] = c.c;
    out.face_of[t] = f;
}

// The smooth normal of v from its own ring: summing unnormalised cross products weights each
// face by its area, so that slivers left by edits do not tilt the normal.
inline glm::vec3 smooth_normal(const Mesh& m, std::span<const glm::vec3> positions, Vertex v) {
    const glm::vec3 p = positions[v.index()];
    glm::vec3 n(0.f);
    for (const Edge e : v.edges(m)) {
        if (!e.left(m).valid()) continue;
        const glm::vec3 q = positions[e.dest(m).index()];
        const glm::vec3 r = positions[e.origin_next(m).dest(m).index()];
        n += glm::cross(q - p, r - p);
    }
    return unit_or(n, unit_or(p, {0, 0, 1}));
}

// Empties every array but keeps its memory: refilling touches no fresh pages, which on large
// meshes costs more than the build itself.
template <class... T>
void clear_all(std::vector<T>&... v) {
    (v.clear(), ...);
}
void clear(Triangle_buffers& b) {
    clear_all(b.positions, b.normals, b.indices, b.vertex_of, b.face_of);
    b.clusters.clear();
    b.in_slot_order = false;
    b.slot_triangles = 0;
}
void clear(Voronoi_buffers& b) {
    clear_all(b.positions, b.normals, b.indices, b.cell_vertex, b.cell_first, b.corner_face);
}

// Whether clusters of triangles laid out by face slot keep regions together about as well as
// the curve's: their mean angular radius (radius over the centre's distance from the middle of
// all clusters' centres, the sphere's centre wherever it lies; at most 1 each, so that a few
// scattered clusters do not decide) is within three times that of a round cap of
// cluster_triangles of `faces` equal triangles. The curve's clusters come out at 1.7 times that,
// the default pipeline's slots at 1.6-1.9, a Fibonacci sphere's slots (numbered along its
// spiral, each cluster a ring round the axis) at 5 to 18; a plate simulation's world after 150
// steps fails too.
bool slots_keep_regions_together(std::span<const Triangle_cluster> clusters, std::size_t faces) {
    if (faces == 0) return false;
    glm::dvec3 lo(std::numeric_limits<double>::infinity()), hi(-lo);
    for (const Triangle_cluster& c : clusters)
        if (c.radius > 0.f) {
            lo = glm::min(lo, glm::dvec3(c.centre));
            hi = glm::max(hi, glm::dvec3(c.centre));
        }
    if (!(lo.x <= hi.x)) return false; // no cluster draws anything
    const glm::dvec3 middle = 0.5 * (lo + hi);
    const double cap = std::sqrt(4.0 * double(cluster_triangles) / double(faces));
    double sum = 0.0;
    std::size_t drawn = 0;
    for (const Triangle_cluster& c : clusters) {
        if (!(c.radius > 0.f)) continue; // draws nothing
        const double distance = glm::length(glm::dvec3(c.centre) - middle);
        sum += distance > c.radius ? double(c.radius) / distance : 1.0;
        ++drawn;
    }
    return sum / double(drawn) <= 3.0 * cap;
}

} // namespace

std::size_t cell_of_triangle(const Voronoi_buffers& b, std::size_t t) {
    const std::uint32_t centre = b.indices[3 * t];
    const auto it = std::upper_bound(b.cell_first.begin(), b.cell_first.end(), centre);
    return static_cast<std::size_t>(it - b.cell_first.begin()) - 1;
}

Triangle_buffers triangles(const Mesh& m, std::span<const glm::vec3> positions, Shading shading) {
    Triangle_buffers out;
    triangles(m, positions, shading, out);
    return out;
}

void triangles(const Mesh& m, std::span<const glm::vec3> positions, Shading shading,
               Triangle_buffers& out, bool normals) {
    require_positions(m, positions);
    if (shading == Shading::smooth) {
        // Output vertex o is vertex slot o: the positions as they are, then the rest in place.
        const std::size_t slots = m.vertex_slots();
        out.positions.clear();
        detail::reserve_with_room(out.positions, slots); // edits append vertices in place
        detail::touch_storage(out.positions, slots);
        out.positions.resize(slots);
        in_parallel(slots, [&](std::size_t first, std::size_t last) {
            std::copy(positions.begin() + std::ptrdiff_t(first),
                      positions.begin() + std::ptrdiff_t(last),
                      out.positions.begin() + std::ptrdiff_t(first));
        });
        smooth_triangles(m, out, normals);
        return;
    }
    clear(out);
    out.shading = shading;
    out.with_normals = true;
    out.with_indices = true;
    const std::size_t faces = m.face_count();
    const std::vector<std::uint32_t> order = along_curve(m, positions);
    // Corners are in order: no indices. Edits append triangles in place: leave them room.
    std::vector<std::uint32_t>().swap(out.indices);
    detail::reserve_with_room(out.face_of, faces);
    detail::reserve_with_room(out.positions, 3 * faces);
    detail::reserve_with_room(out.normals, faces);
    detail::reserve_with_room(out.vertex_of, 3 * faces);
    detail::touch_storage(out.face_of, faces);
    out.face_of.resize(faces);
    detail::touch_storage(out.positions, 3 * faces);
    out.positions.resize(3 * faces);
    detail::touch_storage(out.normals, faces);
    out.normals.resize(faces);
    detail::touch_storage(out.vertex_of, 3 * faces);
    out.vertex_of.resize(3 * faces);
    in_parallel(faces, [&](std::size_t first, std::size_t last) {
        for (std::size_t t = first; t < last; ++t)
            write_flat(m, positions, Face{order[t]}, t, out);
    });
    out.clusters = triangle_clusters(out);
}

void smooth_triangles(const Mesh& m, Triangle_buffers& out, bool normals, Triangle_index* index,
                      bool indices) {
    require_positions(m, out.positions);
    clear_all(out.normals, out.indices, out.face_of);
    out.clusters.clear();
    std::vector<Vertex>().swap(out.vertex_of); // smooth outputs are the vertex slots
    out.shading = Shading::smooth;
    out.with_normals = false;
    out.with_indices = indices;
    out.in_slot_order = false;
    out.slot_triangles = 0;
    if (!indices) {
        // The slots themselves, when they keep regions together: then no map is kept.
        out.in_slot_order = true;
        out.slot_triangles = m.face_slots();
        // Judged from every 16th cluster first, so that a mesh whose slots are scattered (a
        // Fibonacci sphere, a plate simulation's world after many steps) pays little for
        // asking; then from all of them, which are kept.
        std::vector<Triangle_cluster> sample;
        const std::size_t count = (out.slot_triangles + cluster_triangles - 1) / cluster_triangles;
        for (std::size_t k = 0; k < count; k += 16)
            sample.push_back(triangle_cluster(out, k, &m));
        if (slots_keep_regions_together(sample, m.face_count()))
            out.clusters = triangle_clusters(out, &m);
        if (!out.clusters.empty() && slots_keep_regions_together(out.clusters, m.face_count())) {
            std::vector<Face>().swap(out.face_of);
            if (index) std::vector<std::uint32_t>().swap(index->triangle_of_face);
            if (normals) add_smooth_normals(m, out.positions, out);
            return;
        }
        out.in_slot_order = false;
        out.slot_triangles = 0;
        out.clusters.clear();
    }
    const std::size_t faces = m.face_count();
    const std::vector<std::uint32_t> order = along_curve(m, out.positions);
    // Edits append triangles in place: leave them room.
    if (indices) {
        detail::reserve_with_room(out.indices, 3 * faces);
        detail::touch_storage(out.indices, 3 * faces);
        out.indices.resize(3 * faces);
    } else {
        std::vector<std::uint32_t>().swap(out.indices);
    }
    detail::reserve_with_room(out.face_of, faces);
    detail::touch_storage(out.face_of, faces);
    out.face_of.resize(faces);
    // Faces are read in slot order, in which a face and its quad-edges were made together, and
    // written at their place along the curve: one scattered store a face instead of the
    // several scattered loads of walking a face's edges in curve order.
    // Where each face goes is the index an edit needs (index_triangles), kept when asked for.
    std::vector<std::uint32_t> place;
    if (index) {
        place = std::move(index->triangle_of_face);
        place.clear();
        detail::reserve_with_room(place, m.face_slots()); // edits append faces
    }
    detail::touch_storage(place, m.face_slots());
    place.resize(m.face_slots());
    in_parallel(m.face_slots(), [&](std::size_t first, std::size_t last) {
        std::fill(place.begin() + std::ptrdiff_t(first), place.begin() + std::ptrdiff_t(last),
                  unset);
    });
    in_parallel(faces, [&](std::size_t first, std::size_t last) {
        for (std::size_t t = first; t < last; ++t) {
            place[order[t]] = static_cast<std::uint32_t>(t);
            out.face_of[t] = Face{order[t]};
        }
    });
    if (indices) {
        in_parallel(m.face_slots(), [&](std::size_t first, std::size_t last) {
            for (std::size_t i = first; i < last; ++i) {
                const std::uint32_t t = place[i];
                if (t == unset) continue;
                const Corners c = corners(m, Face{static_cast<std::uint32_t>(i)});
                out.indices[3 * std::size_t{t}] = c.a.index();
                out.indices[3 * std::size_t{t} + 1] = c.b.index();
                out.indices[3 * std::size_t{t} + 2] = c.c.index();
            }
        });
    }
    // Without indices the triangles' corners are a walk of the mesh each, which in the curve's
    // order is scattered: the bounds are read face by face instead.
    out.clusters = indices ? triangle_clusters(out)
                           : triangle_clusters_by_face(m, out.positions, place, faces);
    if (index) index->triangle_of_face = std::move(place);
    if (normals) add_smooth_normals(m, out.positions, out);
}

void smooth_indices_by_face(const Mesh& m, const Triangle_buffers& b, const Triangle_index& index,
                            std::span<std::uint32_t> out) {
    if (b.in_slot_order) return smooth_indices(m, b, 0, out); // in slot order already
    const std::size_t triangles = out.size() / 3;
    const std::size_t slots = std::min<std::size_t>(m.face_slots(), index.triangle_of_face.size());
    // Each triangle is written once: by its live face, or below when its face is gone.
    in_parallel(slots, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t t = index.triangle_of_face[i];
            if (t >= triangles) continue;
            const Corners c = corners(m, Face{static_cast<std::uint32_t>(i)});
            out[3 * std::size_t{t}] = c.a.index();
            out[3 * std::size_t{t} + 1] = c.b.index();
            out[3 * std::size_t{t} + 2] = c.c.index();
        }
    });
    in_parallel(triangles, [&](std::size_t first, std::size_t last) {
        for (std::size_t t = first; t < last; ++t)
            if (!b.face_of[t].valid()) out[3 * t] = out[3 * t + 1] = out[3 * t + 2] = 0;
    });
}

std::array<std::uint32_t, 3> triangle_corners(const Mesh& m, const Triangle_buffers& b,
                                              std::size_t t) {
    if (b.with_indices) return {b.corner(t, 0), b.corner(t, 1), b.corner(t, 2)};
    const Face f = b.face_at(m, t);
    if (!f.valid()) return {0, 0, 0};
    const Corners c = corners(m, f);
    return {c.a.index(), c.b.index(), c.c.index()};
}

void smooth_indices(const Mesh& m, const Triangle_buffers& b, std::size_t first,
                    std::span<std::uint32_t> out) {
    in_parallel(out.size() / 3, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const Face f = b.face_at(m, first + i);
            const Corners c = f.valid() ? corners(m, f) : Corners{Vertex{0}, Vertex{0}, Vertex{0}};
            out[3 * i] = c.a.index();
            out[3 * i + 1] = c.b.index();
            out[3 * i + 2] = c.c.index();
        }
    });
}

void add_smooth_normals(const Mesh& m, std::span<const glm::vec3> positions, Triangle_buffers& b) {
    require_positions(m, positions);
    if (b.with_normals) return;
    // Normals per vertex from its own ring, so that threads never add into a shared vertex.
    detail::reserve_with_room(b.normals, b.positions.size());
    b.normals.resize(b.positions.size());
    in_parallel(b.positions.size(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            const Vertex v{static_cast<std::uint32_t>(i)};
            b.normals[i] = m.contains(v) ? smooth_normal(m, positions, v) : glm::vec3(0.f);
        }
    });
    b.with_normals = true;
}

Triangle_index index_triangles(const Triangle_buffers& b, const Mesh& m) {
    Triangle_index index;
    if (b.in_slot_order) return index; // triangle t is face slot t
    detail::reserve_with_room(index.triangle_of_face, m.face_slots());
    index.triangle_of_face.assign(m.face_slots(), unset);
    // Each face and vertex is in the buffers once, so the threads' writes never meet.
    in_parallel(b.face_of.size(), [&](std::size_t first, std::size_t last) {
        for (std::size_t t = first; t < last; ++t)
            if (b.face_of[t].valid() && b.face_of[t].index() < m.face_slots())
                index.triangle_of_face[b.face_of[t].index()] = static_cast<std::uint32_t>(t);
    });
    return index;
}

namespace {

void sort_unique(std::vector<std::uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

// A new triangle at the end of b for face f; its corners are written by the caller.
std::uint32_t append_triangle(Triangle_buffers& b, Face f) {
    const auto t = static_cast<std::uint32_t>(b.face_of.size());
    b.face_of.push_back(f);
    if (b.shading == Shading::flat) {
        b.positions.resize(b.positions.size() + 3);
        b.normals.emplace_back();
        b.vertex_of.resize(b.vertex_of.size() + 3);
    } else if (b.with_indices) {
        b.indices.resize(b.indices.size() + 3);
    }
    return t;
}

} // namespace

Buffer_dirt update_triangles(const Mesh& m, std::span<const glm::vec3> positions,
                             std::span<const Vertex> vertices, std::span<const Face> faces,
                             Triangle_buffers& b, Triangle_index& index) {
    require_positions(m, positions);
    Buffer_dirt dirt;
    // Maps only grow: an undo can shrink the slot counts, and the triangles of the slots that
    // went away must still be found to be collapsed. Triangles in slot order grow the same way.
    const bool slot_order = b.in_slot_order;
    const std::size_t old_triangles = b.triangle_count();
    if (slot_order)
        b.slot_triangles = std::max<std::size_t>(b.slot_triangles, m.face_slots());
    else if (index.triangle_of_face.size() < m.face_slots())
        index.triangle_of_face.resize(m.face_slots(), unset);
    const std::size_t known = slot_order ? b.slot_triangles : index.triangle_of_face.size();
    const bool smooth = b.shading == Shading::smooth;
    // Smooth outputs are the vertex slots: the arrays grow with them (never shrink, as above).
    // The positions may have grown already (a caller's surface held in them), the normals not.
    if (smooth && b.positions.size() < m.vertex_slots())
        b.positions.resize(m.vertex_slots(), glm::vec3(0.f));
    if (smooth && b.with_normals && b.normals.size() < b.positions.size())
        b.normals.resize(b.positions.size(), glm::vec3(0.f));

    // The faces to rewrite: those listed and every face around a listed vertex.
    std::vector<std::uint32_t> face_ids;
    for (const Face f : faces)
        if (f.valid() && f.index() < known) face_ids.push_back(f.index());
    for (const Vertex v : vertices)
        if (m.contains(v))
            for (const Face f : v.faces(m))
                face_ids.push_back(f.index());
    sort_unique(face_ids);

    // Smooth: positions of listed vertices (a deleted one's slot is left as it is, unused).
    std::vector<std::uint32_t> normal_of; // vertex ids whose normal is recomputed
    if (smooth) {
        for (const Vertex v : vertices) {
            if (!m.contains(v)) continue;
            b.positions[v.index()] = positions[v.index()];
            normal_of.push_back(v.index());
        }
    }

    // The positions and normals around live face f's corners.
    const auto follow_corners = [&](Face f) {
        const Corners c = corners(m, f);
        for (const Vertex v : {c.a, c.b, c.c}) {
            // A corner never listed (a vertex created without being named) may not have its
            // position yet.
            b.positions[v.index()] = positions[v.index()];
            normal_of.push_back(v.index());
        }
        return c;
    };
    for (const std::uint32_t i : face_ids) {
        const Face f{i};
        if (slot_order) {
            // Triangle i draws the face or, once it is gone, nothing: its indices are read from
            // the mesh (smooth_indices) when patched.
            if (m.contains(f)) follow_corners(f);
            dirt.triangles.push_back(i);
            continue;
        }
        std::uint32_t& t = index.triangle_of_face[i];
        if (m.contains(f)) {
            if (t == unset) {
                t = append_triangle(b, f);
                dirt.triangles.push_back(t);
            }
            if (smooth) {
                const Corners c = follow_corners(f);
                if (b.with_indices) {
                    b.indices[3 * std::size_t{t}] = c.a.index();
                    b.indices[3 * std::size_t{t} + 1] = c.b.index();
                    b.indices[3 * std::size_t{t} + 2] = c.c.index();
                }
                b.face_of[t] = f;
                dirt.triangles.push_back(t);
            } else {
                write_flat(m, positions, f, t, b);
                for (std::uint32_t k = 0; k < 3; ++k)
                    dirt.vertices.push_back(3 * t + k);
            }
        } else if (t != unset) {
            // Deleted: collapse the triangle onto one point so that it draws nothing.
            const std::size_t k = 3 * std::size_t{t};
            b.face_of[t] = no_face;
            if (smooth) {
                // Without indices, smooth_indices() makes its indices a point from face_of.
                if (b.with_indices) b.indices[k + 1] = b.indices[k + 2] = b.indices[k];
                dirt.triangles.push_back(t);
            } else {
                for (std::size_t j = 0; j < 3; ++j) {
                    b.positions[k + j] = b.positions[k];
                    b.vertex_of[k + j] = no_vertex;
                    dirt.vertices.push_back(static_cast<std::uint32_t>(k + j));
                }
            }
            t = unset;
        }
    }
    // New slots' triangles (drawn or not) are written whole, with their corners even when
    // a caller did not list the face.
    for (std::size_t t = old_triangles; slot_order && t < b.slot_triangles; ++t) {
        if (const Face f{static_cast<std::uint32_t>(t)}; m.contains(f)) follow_corners(f);
        dirt.triangles.push_back(static_cast<std::uint32_t>(t));
    }
    if (smooth) {
        sort_unique(normal_of);
        for (const std::uint32_t v : normal_of) {
            if (b.with_normals) b.normals[v] = smooth_normal(m, positions, Vertex{v});
            dirt.vertices.push_back(v);
        }
    }
    sort_unique(dirt.vertices);
    sort_unique(dirt.triangles);
    // Bounds follow the triangles rewritten: listed, or (flat) through their corners.
    std::vector<std::uint32_t> moved = dirt.triangles;
    if (!smooth)
        for (const std::uint32_t o : dirt.vertices)
            moved.push_back(o / 3);
    // Every appended triangle is listed: slot order lists the new slots, the curve's
    // append_triangle() calls.
    update_triangle_clusters(b, moved, b.clusters, &m, true);
    return dirt;
}

Buffer_dirt outputs_showing(const Mesh& m, std::span<const Vertex> vertices,
                            std::span<const Face> faces, const Triangle_buffers& b,
                            const Triangle_index& index) {
    Buffer_dirt dirt;
    if (b.shading == Shading::smooth) {
        for (const Vertex v : vertices)
            if (m.contains(v) && v.index() < b.positions.size()) dirt.vertices.push_back(v.index());
        sort_unique(dirt.vertices);
        return dirt;
    }
    std::vector<std::uint32_t> triangles;
    auto add = [&](Face f) {
        if (f.valid() && f.index() < index.triangle_of_face.size() &&
            index.triangle_of_face[f.index()] != unset)
            triangles.push_back(index.triangle_of_face[f.index()]);
    };
    for (const Face f : faces)
        if (m.contains(f)) add(f);
    for (const Vertex v : vertices)
        if (m.contains(v))
            for (const Face f : v.faces(m))
                add(f);
    sort_unique(triangles);
    dirt.vertices.reserve(3 * triangles.size());
    for (const std::uint32_t t : triangles)
        for (std::uint32_t k = 0; k < 3; ++k)
            dirt.vertices.push_back(3 * t + k);
    return dirt;
}

Line_buffers primal_edges(const Mesh& m, std::span<const glm::vec3> positions) {
    require_positions(m, positions);
    Line_buffers out;
    detail::reserve_with_room(out.positions, 2 * m.edge_count());
    detail::reserve_with_room(out.edge_of, m.edge_count());
    out.positions.resize(2 * m.edge_count());
    out.edge_of.resize(m.edge_count());
    std::size_t s = 0;
    for (const Edge e : m.edges()) {
        out.positions[2 * s] = positions[e.origin(m).index()];
        out.positions[2 * s + 1] = positions[e.dest(m).index()];
        out.edge_of[s++] = e;
    }
    return out;
}

Line_index index_lines(const Line_buffers& b, const Mesh& m) {
    Line_index index;
    detail::reserve_with_room(index.segment_of_quad, m.edge_slots() / 2);
    index.segment_of_quad.assign(m.edge_slots() / 2, unset);
    for (std::size_t s = 0; s < b.edge_of.size(); ++s) {
        const Edge e = b.edge_of[s];
        if (!e.valid()) continue;
        const std::uint32_t q = e.quad_index();
        if (q < index.segment_of_quad.size())
            index.segment_of_quad[q] = static_cast<std::uint32_t>(s);
    }
    return index;
}

Buffer_dirt update_lines(const Mesh& m, std::span<const glm::vec3> positions,
                         std::span<const Vertex> vertices, std::span<const Face> faces,
                         std::span<const Edge> edges, bool dual, Line_buffers& b,
                         Line_index& index) {
    require_positions(m, positions);
    const std::size_t quads = m.edge_slots() / 2;
    if (index.segment_of_quad.size() < quads) index.segment_of_quad.resize(quads, unset);
    // The quad-edges to rewrite: those listed, those at listed vertices, and those of listed
    // faces; for dual segments also every edge of a face whose circumcentre may have moved.
    std::vector<std::uint32_t> quad_ids;
    auto add_face = [&](Face f) {
        if (!m.contains(f)) return;
        for (const Edge e : f.edges(m))
            quad_ids.push_back(e.quad_index());
    };
    for (const Edge e : edges)
        if (e.valid() && e.quad_index() < index.segment_of_quad.size())
            quad_ids.push_back(e.quad_index());
    for (const Vertex v : vertices) {
        if (!m.contains(v)) continue;
        for (const Edge e : v.edges(m))
            quad_ids.push_back(e.quad_index());
        if (dual)
            for (const Face f : v.faces(m))
                add_face(f);
    }
    for (const Face f : faces)
        add_face(f);
    sort_unique(quad_ids);

    Buffer_dirt dirt;
    for (const std::uint32_t q : quad_ids) {
        const Edge e{2 * q};
        std::uint32_t& s = index.segment_of_quad[q];
        const bool live = m.contains(e);
        const Face left = live ? e.left(m) : no_face;
        const Face right = live ? e.right(m) : no_face;
        const bool drawn = live && (!dual || (left.valid() && right.valid()));
        if (drawn) {
            if (s == unset) {
                s = static_cast<std::uint32_t>(b.edge_of.size());
                b.edge_of.push_back(no_edge);
                b.positions.resize(b.positions.size() + 2);
            }
            if (dual) {
                b.positions[2 * std::size_t{s}] = circumcentre(m, positions, right);
                b.positions[2 * std::size_t{s} + 1] = circumcentre(m, positions, left);
                b.edge_of[s] = e.rot();
            } else {
                b.positions[2 * std::size_t{s}] = positions[e.origin(m).index()];
                b.positions[2 * std::size_t{s} + 1] = positions[e.dest(m).index()];
                b.edge_of[s] = e;
            }
        } else if (s != unset) {
            // Gone (or without a face on both sides): a segment of zero length draws nothing.
            b.positions[2 * std::size_t{s} + 1] = b.positions[2 * std::size_t{s}];
            b.edge_of[s] = no_edge;
        } else {
            continue;
        }
        dirt.vertices.push_back(2 * s);
        dirt.vertices.push_back(2 * s + 1);
        if (!drawn) s = unset;
    }
    sort_unique(dirt.vertices);
    return dirt;
}

std::vector<glm::vec3> circumcentres(const Mesh& m, std::span<const glm::vec3> positions) {
    require_positions(m, positions);
    return face_geometry(m, positions).centre;
}

Voronoi_buffers voronoi_cells(const Mesh& m, std::span<const glm::vec3> positions) {
    Voronoi_buffers out;
    voronoi_cells(m, positions, out);
    return out;
}

void voronoi_cells(const Mesh& m, std::span<const glm::vec3> positions, Voronoi_buffers& out) {
    require_positions(m, positions);
    const Face_geometry g = face_geometry(m, positions);
    clear(out);
    // First the size of every cell (faces around each vertex) and of its fan (one triangle per
    // edge with faces on both sides), from one pass over the quad-edges; prefix sums of those
    // let the threads below write each cell in place.
    std::vector<std::uint32_t> corner_count(m.vertex_slots(), 0);
    std::vector<std::uint32_t> fan_count(m.vertex_slots(), 0);
    for (const Edge e : m.edges()) {
        const bool left = e.left(m).valid(), right = e.right(m).valid();
        const std::uint32_t o = e.origin(m).index(), d = e.dest(m).index();
        corner_count[o] += left;
        corner_count[d] += right;
        fan_count[o] += left && right;
        fan_count[d] += left && right;
    }
    std::vector<std::uint32_t> first_vertex(m.vertex_slots(), unset);
    std::vector<std::uint32_t> first_index(m.vertex_slots(), unset);
    std::uint32_t vertices = 0, indices = 0;
    for (const Vertex v : m.vertices()) {
        const std::uint32_t i = v.index();
        if (corner_count[i] == 0) continue;
        out.cell_vertex.push_back(v);
        out.cell_first.push_back(vertices);
        first_vertex[i] = vertices;
        first_index[i] = indices;
        vertices += 1 + corner_count[i];
        indices += 3 * fan_count[i];
    }
    out.cell_first.push_back(vertices);
    out.positions.resize(vertices);
    out.normals.resize(vertices);
    out.corner_face.resize(vertices);
    out.indices.resize(indices);
    in_parallel(out.cell_vertex.size(), [&](std::size_t first_cell, std::size_t last_cell) {
        for (std::size_t cell = first_cell; cell < last_cell; ++cell) {
            const Vertex v = out.cell_vertex[cell];
            // Start right after a gap (the outside), if there is one, so that the walk below
            // never joins corners across it.
            Edge start = v.edge(m);
            glm::vec3 normal(0.f);
            for (const Edge e : v.edges(m)) {
                const Face f = e.left(m);
                if (f.valid())
                    normal += g.normal[f.index()];
                else
                    start = e.origin_next(m);
            }
            const glm::vec3 centre = positions[v.index()];
            normal = unit_or(normal, unit_or(centre, {0, 0, 1}));
            const std::uint32_t first = first_vertex[v.index()];
            std::uint32_t next_vertex = first;
            std::uint32_t next_index = first_index[v.index()];
            out.positions[next_vertex] = centre;
            out.normals[next_vertex] = normal;
            out.corner_face[next_vertex++] = no_face;
            std::uint32_t previous = unset; // output index of the previous corner, if adjacent
            for (const Edge e : start.origin_ccw(m)) {
                const Face f = e.left(m);
                if (!f.valid()) {
                    previous = unset;
                    continue;
                }
                const std::uint32_t corner = next_vertex++;
                out.positions[corner] = g.centre[f.index()];
                out.normals[corner] = normal;
                out.corner_face[corner] = f;
                if (previous != unset) {
                    out.indices[next_index++] = first;
                    out.indices[next_index++] = previous;
                    out.indices[next_index++] = corner;
                }
                previous = corner;
            }
            // Close the fan when the ring has no gap: the last face and the first share an edge.
            if (previous != unset && previous != first + 1 && start.right(m).valid()) {
                out.indices[next_index++] = first;
                out.indices[next_index++] = previous;
                out.indices[next_index++] = first + 1;
            }
        }
    });
}

Line_buffers dual_edges(const Mesh& m, std::span<const glm::vec3> positions) {
    require_positions(m, positions);
    const std::vector<glm::vec3> centre = face_geometry(m, positions).centre;
    Line_buffers out;
    detail::reserve_with_room(out.positions, 2 * m.edge_count());
    detail::reserve_with_room(out.edge_of, m.edge_count());
    for (const Edge e : m.edges()) {
        const Face left = e.left(m), right = e.right(m);
        if (!left.valid() || !right.valid()) continue;
        out.positions.push_back(centre[right.index()]);
        out.positions.push_back(centre[left.index()]);
        out.edge_of.push_back(e.rot()); // from the right face to the left one
    }
    return out;
}

std::vector<glm::vec3> vertex_positions(const World& world) {
    const auto* layer = world.layer(position_layer);
    if (!layer)
        throw std::invalid_argument("render: the world has no '" +
                                    std::string(position_layer.name()) + "' layer");
    std::vector<glm::vec3> out;
    detail::reserve_with_room(out, layer->size()); // splits append vertices
    detail::touch_storage(out, layer->size());
    out.resize(layer->size());
    std::vector<std::size_t> start(layer->chunk_count() + 1, 0);
    for (std::size_t c = 0; c < layer->chunk_count(); ++c)
        start[c + 1] = start[c] + layer->chunk(c).size();
    // Split by values (a chunk holds 4,096): the copy's page faults divide between threads.
    in_parallel(out.size(), [&](std::size_t first, std::size_t last) {
        std::size_t c =
            std::size_t(std::upper_bound(start.begin(), start.end(), first) - start.begin()) - 1;
        for (std::size_t i = first; i < last; ++c) {
            const auto chunk = layer->chunk(c);
            const std::size_t from = i - start[c], to = std::min(chunk.size(), last - start[c]);
            std::copy(chunk.begin() + std::ptrdiff_t(from), chunk.begin() + std::ptrdiff_t(to),
                      out.begin() + std::ptrdiff_t(i));
            i = start[c] + to;
        }
    });
    return out;
}

namespace {

Colour opaque(Srgb8 c) { return {c.r, c.g, c.b, 255}; }

std::string describe(const Layer_base& layer) {
    return "layer '" + layer.name() + "' (" + std::string(layer.value_name()) + ", " +
           std::string(layer_type_name(layer.type())) + ")";
}

template <class T>
double component(const T& v, int i) {
    if constexpr (Layer_scalar<T>) {
        (void)i;
        return static_cast<double>(v);
    } else {
        return static_cast<double>(v[i]);
    }
}

// The colour of one value under the map and range chosen for a layer of value type T.
template <class T>
Colour colour_of(const T& value, Colour_map_kind kind, std::pair<double, double> range,
                 const Colour_options& o) {
    if constexpr (Layer_scalar<T>) {
        if (kind == Colour_map_kind::categorical && !o.categories.empty() &&
            std::isfinite(static_cast<double>(value)))
            for (const Layer_category& c : o.categories)
                if (double(c.value) == std::round(static_cast<double>(value)))
                    return opaque(c.colour);
        return opaque(
            map_colour(kind, static_cast<double>(value), range.first, range.second, o.sea_level));
    } else {
        Colour c{0, 0, 0, 255};
        for (int i = 0; i < layer_value_length<T>; ++i) {
            const double t = normalise(component(value, i), range.first, range.second);
            c[i] = std::isnan(t) ? 0 : static_cast<std::uint8_t>(std::lround(t * 255.0));
        }
        return c;
    }
}

// The map a layer of value type T is coloured with.
template <class T>
Colour_map_kind map_of(const Colour_options& o) {
    return o.map.value_or(std::integral<T> ? Colour_map_kind::categorical
                                           : Colour_map_kind::viridis);
}

// Whether the range matters: terrain and categorical ignore it (and vectors always use it).
template <class T>
bool ranged(const Colour_options& o) {
    if constexpr (Layer_scalar<T>) {
        const Colour_map_kind kind = map_of<T>(o);
        return kind != Colour_map_kind::terrain && kind != Colour_map_kind::categorical;
    } else {
        return true;
    }
}

// Whether `water` decides the colours of a layer of value type T and kind Type: terrain-mapped
// scalar vertex layers of a World with water layers.
template <class T, Layer_type Type>
bool water_decides(const Colour_options& o, const Water_layers& water) {
    if constexpr (Type == Layer_type::vertex && Layer_scalar<T>)
        return water && map_of<T>(o) == Colour_map_kind::terrain;
    else
        return false;
}

// The colour of slot s of `layer`; with water deciding, by what covers the vertex.
template <class T, Layer_type Type>
Colour colour_at(const Layer<T, Type>& layer, std::size_t s, Colour_map_kind kind,
                 std::pair<double, double> range, const Colour_options& o,
                 const Water_layers& water) {
    if constexpr (Type == Layer_type::vertex && Layer_scalar<T>) {
        if (water_decides<T, Type>(o, water)) {
            const Vertex v(static_cast<std::uint32_t>(s));
            return opaque(terrain_surface(static_cast<double>(layer.at_slot(s)) - o.sea_level,
                                          water.surface(v),
                                          double((*water.level)[v]) - o.sea_level));
        }
    }
    return colour_of(layer.at_slot(s), kind, range, o);
}

template <class T, Layer_type Type>
void require_colourable(const Layer<T, Type>& layer, const Mesh& m) {
    if constexpr (layer_value_length<T> == 2)
        throw std::invalid_argument("render: " + describe(layer) +
                                    " cannot be coloured: two components are neither a scalar "
                                    "nor a colour");
    if (layer.size() != Layer<T, Type>::slot_count(m))
        throw std::invalid_argument("render: " + describe(layer) +
                                    " does not match its world's mesh");
}

// Where the automatic range comes from: a cache that follows edits, or a pass over the layer.
struct Range_source {
    const World& world;
    Live_range_cache* cache = nullptr;
    const World_delta* delta = nullptr;

    std::pair<double, double> operator()(const Layer_base& layer) const {
        return cache ? cache->range(world, layer.name(), delta) : live_range(world, layer.name());
    }
};

template <class T, Layer_type Type>
Slot_colours colour_layer(const Layer<T, Type>& layer, const Mesh& m, const Colour_options& o,
                          const Water_layers& water, const Range_source& live) {
    require_colourable(layer, m);
    Slot_colours out{Type, {}};
    detail::reserve_with_room(out.colours, layer.size()); // recolour_slots appends
    out.colours.assign(layer.size(), no_colour);
    if constexpr (layer_value_length<T> != 2) {
        const Colour_map_kind kind = map_of<T>(o);
        // Maps that ignore the range skip the pass that finds it.
        out.range = o.range ? *o.range : ranged<T>(o) ? live(layer) : std::pair{0.0, 1.0};
        in_parallel(layer.size(), [&](std::size_t first, std::size_t last) {
            for (std::size_t s = first; s < last; ++s)
                if (detail::is_live_slot<Type>(m, s))
                    out.colours[s] = colour_at(layer, s, kind, out.range, o, water);
        });
    }
    return out;
}

template <class T, Layer_type Type>
bool recolour_layer(const Layer<T, Type>& layer, const Mesh& m, const Colour_options& o,
                    const Water_layers& water, std::span<const std::size_t> slots,
                    Slot_colours& out, const Range_source& live) {
    require_colourable(layer, m);
    if (out.type != Type)
        throw std::invalid_argument("render: " + describe(layer) +
                                    " is not the kind of layer these colours came from");
    if constexpr (layer_value_length<T> != 2) {
        // An automatic range may have grown or shrunk (a changed slot held the extreme):
        // then every colour moves. Only for maps that use the range.
        if (!o.range && ranged<T>(o) && live(layer) != out.range) return false;
        const Colour_map_kind kind = map_of<T>(o);
        out.colours.resize(layer.size(), no_colour);
        for (const std::size_t s : slots) {
            if (s >= layer.size()) continue;
            out.colours[s] = detail::is_live_slot<Type>(m, s)
                                 ? colour_at(layer, s, kind, out.range, o, water)
                                 : no_colour;
        }
    }
    return true;
}

Slot_colours colours_of(const World& world, std::string_view name, const Colour_options& o,
                        bool (*accepts)(Layer_type), std::string_view wanted,
                        Live_range_cache* ranges = nullptr) {
    const Layer_base* base = world.find_layer(name);
    if (!base)
        throw std::invalid_argument("render: there is no typed layer '" + std::string(name) +
                                    "' to colour");
    if (!accepts(base->type()))
        throw std::invalid_argument("render: " + describe(*base) + " is not " +
                                    std::string(wanted));
    const Mesh& m = world.mesh();
    const Water_layers water = o.water ? water_layers(world) : Water_layers{};
    return with_value_type(base->value_tag(), [&]<class T>() {
        return with_layer_type(base->type(), [&]<Layer_type Type>() {
            return colour_layer(static_cast<const Layer<T, Type>&>(*base), m, o, water,
                                Range_source{world, ranges, nullptr});
        });
    });
}

void require_slot(const Slot_colours& c, std::size_t slot) {
    if (slot >= c.colours.size())
        throw std::invalid_argument("render: colours of " + std::to_string(c.colours.size()) +
                                    " slots do not cover slot " + std::to_string(slot) +
                                    " (colours of another mesh?)");
}

} // namespace

Slot_colours colours_for_vertices(const World& world, std::string_view name,
                                  const Colour_options& options) {
    return colours_of(
        world, name, options, [](Layer_type t) { return t == Layer_type::vertex; },
        "a vertex layer");
}

Slot_colours colours_for_faces(const World& world, std::string_view name,
                               const Colour_options& options) {
    return colours_of(
        world, name, options, [](Layer_type t) { return t == Layer_type::face; }, "a face layer");
}

Slot_colours colours_for_edges(const World& world, std::string_view name,
                               const Colour_options& options) {
    return colours_of(world, name, options, is_edge_layer, "an edge layer");
}

Slot_colours colours_for_layer(const World& world, std::string_view name,
                               const Colour_options& options, Live_range_cache* ranges) {
    return colours_of(
        world, name, options, [](Layer_type) { return true; }, "a typed layer", ranges);
}

bool recolour_slots(const World& world, std::string_view name, const Colour_options& options,
                    std::span<const std::size_t> slots, Slot_colours& colours,
                    Live_range_cache* ranges, const World_delta* delta) {
    const Layer_base* base = world.find_layer(name);
    if (!base)
        throw std::invalid_argument("render: there is no typed layer '" + std::string(name) +
                                    "' to colour");
    const Mesh& m = world.mesh();
    const Water_layers water = options.water ? water_layers(world) : Water_layers{};
    return with_value_type(base->value_tag(), [&]<class T>() {
        return with_layer_type(base->type(), [&]<Layer_type Type>() {
            return recolour_layer(static_cast<const Layer<T, Type>&>(*base), m, options, water,
                                  slots, colours, Range_source{world, ranges, delta});
        });
    });
}

namespace {

// Refuses colours that cannot lie on triangles of b.
void require_triangle_colours(const Triangle_buffers& b, const Slot_colours& c) {
    if (c.type != Layer_type::vertex && c.type != Layer_type::face)
        throw std::invalid_argument("render: triangles take vertex or face colours, not " +
                                    std::string(layer_type_name(c.type)) + " colours");
    if (c.type == Layer_type::face && b.shading != Shading::flat)
        throw std::invalid_argument("render: face colours need flat triangles (smooth ones share "
                                    "corners between faces)");
}

// The colour of output vertex i of b (flat triangles own outputs 3t to 3t + 2).
Colour triangle_output_colour(const Triangle_buffers& b, const Slot_colours& c, std::size_t i) {
    if (c.type == Layer_type::vertex) {
        const Vertex v = b.vertex_at(i);
        if (!v.valid()) return no_colour;
        // A smooth output past the layer is a slot an undo took away: drawn by no triangle.
        if (b.shading == Shading::smooth && v.index() >= c.colours.size()) return no_colour;
        require_slot(c, v.index());
        return c.colours[v.index()];
    }
    const Face f = b.face_of[i / 3];
    if (!f.valid()) return no_colour;
    require_slot(c, f.index());
    return c.colours[f.index()];
}

} // namespace

std::vector<Colour> colours_on(const Triangle_buffers& b, const Slot_colours& c) {
    require_triangle_colours(b, c);
    std::vector<Colour> out;
    detail::reserve_with_room(out, b.positions.size()); // the in-place colours_on appends
    out.assign(b.positions.size(), no_colour);
    in_parallel(out.size(), [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            out[i] = triangle_output_colour(b, c, i);
    });
    return out;
}

void colours_on(const Triangle_buffers& b, const Slot_colours& c,
                std::span<const std::uint32_t> outputs, std::vector<Colour>& out) {
    require_triangle_colours(b, c);
    out.resize(b.positions.size(), no_colour);
    for (const std::uint32_t i : outputs)
        if (i < out.size()) out[i] = triangle_output_colour(b, c, i);
}

std::vector<Colour> colours_on(const Voronoi_buffers& b, const Slot_colours& c) {
    if (c.type != Layer_type::vertex)
        throw std::invalid_argument("render: Voronoi cells take vertex colours, not " +
                                    std::string(layer_type_name(c.type)) + " colours");
    std::vector<Colour> out(b.positions.size(), no_colour);
    for (std::size_t cell = 0; cell < b.cell_vertex.size(); ++cell) {
        const std::size_t slot = b.cell_vertex[cell].index();
        require_slot(c, slot);
        std::fill(out.begin() + b.cell_first[cell], out.begin() + b.cell_first[cell + 1],
                  c.colours[slot]);
    }
    return out;
}

namespace {

// The colours of segment s's two ends (no_colour for the zero-length segments of gone edges).
std::pair<Colour, Colour> segment_colours(const Line_buffers& b, const Slot_colours& c,
                                          std::size_t s, bool primal) {
    const Edge e = b.edge_of[s];
    if (!e.valid()) return {no_colour, no_colour};
    if (e.is_primal() != primal)
        throw std::invalid_argument(std::string("render: ") + std::string(layer_type_name(c.type)) +
                                    " colours on segments of " +
                                    (e.is_primal() ? "primal" : "dual") + " edges");
    const std::size_t from = is_directed(c.type) ? e.index() : e.quad_index();
    const std::size_t to = is_directed(c.type) ? e.sym().index() : e.quad_index();
    require_slot(c, std::max(from, to));
    return {c.colours[from], c.colours[to]};
}

bool primal_colours(const Slot_colours& c) {
    if (!is_edge_layer(c.type))
        throw std::invalid_argument("render: segments take edge colours, not " +
                                    std::string(layer_type_name(c.type)) + " colours");
    return c.type == Layer_type::edge_primal || c.type == Layer_type::edge_primal_directed;
}

} // namespace

std::vector<Colour> colours_on(const Line_buffers& b, const Slot_colours& c) {
    const bool primal = primal_colours(c);
    std::vector<Colour> out;
    detail::reserve_with_room(out, b.positions.size());
    out.assign(b.positions.size(), no_colour);
    for (std::size_t s = 0; s < b.edge_of.size(); ++s)
        std::tie(out[2 * s], out[2 * s + 1]) = segment_colours(b, c, s, primal);
    return out;
}

void colours_on(const Line_buffers& b, const Slot_colours& c,
                std::span<const std::uint32_t> outputs, std::vector<Colour>& out) {
    const bool primal = primal_colours(c);
    out.resize(b.positions.size(), no_colour);
    for (const std::uint32_t i : outputs)
        if (i / 2 < b.edge_of.size()) {
            const auto ends = segment_colours(b, c, i / 2, primal);
            out[i] = i % 2 ? ends.second : ends.first;
        }
}

} // namespace orbis::render
