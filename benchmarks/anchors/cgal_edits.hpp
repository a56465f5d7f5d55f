// SPDX-License-Identifier: MIT
// CGAL 5.5 Surface_mesh as the anchor benchmarks use it: built from the shared sphere input,
// validated with CGAL's own checks, and the random flip and collapse loops (check, then edit:
// CGAL's only idiom), shared by orbis_cgal_bench and orbis_edit_check_bench so that both time
// the same code.
#pragma once

#include "workloads.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/boost/graph/Euler_operations.h>
#include <CGAL/boost/graph/helpers.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace orbis::bench::cgal {

/// The kernel of every CGAL anchor.
using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
/// A vertex position.
using Point = Kernel::Point_3;
/// The mesh the anchors edit.
using Mesh = CGAL::Surface_mesh<Point>;
/// A face list.
using Faces = std::vector<std::array<std::uint32_t, 3>>;

/// Adds the points and then the faces in the given order; returns how many faces add_face
/// refused.
inline std::size_t build_mesh(Mesh& mesh, const std::vector<std::array<double, 3>>& points,
                              const Faces& faces) {
    for (const auto& p : points)
        mesh.add_vertex(Point(p[0], p[1], p[2]));
    std::size_t refused = 0;
    for (const auto& f : faces) {
        const Mesh::Face_index added = mesh.add_face(
            Mesh::Vertex_index(f[0]), Mesh::Vertex_index(f[1]), Mesh::Vertex_index(f[2]));
        if (added == Mesh::null_face()) ++refused;
    }
    return refused;
}

/// Euler characteristic, element counts and CGAL's own checks (is_valid, is_triangle_mesh);
/// removed elements must have been collected first. Aborts through require() on a failure.
inline void validate(const Mesh& mesh, std::size_t vertices, std::size_t faces, const char* what) {
    const std::string where = std::string("CGAL ") + what + ": ";
    require(mesh.number_of_vertices() == vertices, where + "wrong vertex count");
    require(mesh.number_of_faces() == faces, where + "wrong face count");
    require(static_cast<long long>(mesh.number_of_vertices()) -
                    static_cast<long long>(mesh.number_of_edges()) +
                    static_cast<long long>(mesh.number_of_faces()) ==
                2,
            where + "V - E + F != 2");
    require(mesh.is_valid(true), where + "Surface_mesh::is_valid failed");
    require(CGAL::is_triangle_mesh(mesh), where + "not a triangle mesh");
}

/// The mesh built from the input's faces in input order, cached per input for the process
/// (workloads copy it outside their timed region).
inline const Mesh& built_mesh(const Sphere_input& in) {
    static std::map<const Sphere_input*, std::unique_ptr<Mesh>> cache;
    std::unique_ptr<Mesh>& slot = cache[&in];
    if (!slot) {
        slot = std::make_unique<Mesh>();
        require(build_mesh(*slot, in.points, in.faces) == 0, "CGAL refused an input face");
        validate(*slot, in.points.size(), in.faces.size(), "cached build");
    }
    return *slot;
}

/// CGAL has no flip check; this is the test OpenMesh's is_flip_ok applies on a closed mesh.
inline bool is_flip_ok(const Mesh& mesh, Mesh::Edge_index e) {
    if (mesh.is_border(e)) return false;
    const Mesh::Halfedge_index h = mesh.halfedge(e);
    const Mesh::Vertex_index c = mesh.target(mesh.next(h));
    const Mesh::Vertex_index d = mesh.target(mesh.next(mesh.opposite(h)));
    return c != d && mesh.halfedge(c, d) == Mesh::null_halfedge();
}

/// Flips random edges (splitmix64 from flip_seed, the picks of every library) until `count`
/// flips were done; returns the number of refused picks. Not inlined, so that a profiler can
/// count it alone.
[[gnu::noinline]] inline std::uint32_t flip_random_edges(Mesh& mesh, std::uint32_t count) {
    Splitmix64 random{flip_seed};
    const auto edges = static_cast<std::uint32_t>(mesh.num_edges());
    std::uint32_t rejected = 0;
    for (std::uint32_t done = 0; done < count;) {
        const Mesh::Edge_index e(random.below(edges));
        if (is_flip_ok(mesh, e)) {
            CGAL::Euler::flip_edge(mesh.halfedge(e), mesh);
            ++done;
        } else {
            ++rejected;
        }
    }
    return rejected;
}

/// What a collapse loop skipped.
struct Collapse_counts {
    std::uint32_t rejected = 0;      ///< picks the link condition refused
    std::uint32_t deleted_picks = 0; ///< picks of edges an earlier collapse removed
};

/// Collapses random edges (from collapse_seed) until `count` collapses were done, each after
/// CGAL's link-condition test.
[[gnu::noinline]] inline Collapse_counts collapse_random_edges(Mesh& mesh, std::uint32_t count) {
    Splitmix64 random{collapse_seed};
    const auto edges = static_cast<std::uint32_t>(mesh.num_edges());
    Collapse_counts counts;
    for (std::uint32_t done = 0; done < count;) {
        const Mesh::Edge_index e(random.below(edges));
        if (mesh.is_removed(e)) {
            ++counts.deleted_picks;
            continue;
        }
        if (CGAL::Euler::does_satisfy_link_condition(e, mesh)) {
            CGAL::Euler::collapse_edge(e, mesh);
            ++done;
        } else {
            ++counts.rejected;
        }
    }
    return counts;
}

} // namespace orbis::bench::cgal
