// SPDX-License-Identifier: MIT
// OpenMesh 9 TriMesh_ArrayKernelT as the anchor benchmarks use it: built from the shared sphere
// input, validated with MeshCheckerT, and the random flip and collapse loops (is_*_ok, then the
// edit), shared by orbis_openmesh_bench and orbis_edit_check_bench so that both time the same
// code.
#pragma once

#include "workloads.hpp"

#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <OpenMesh/Tools/Utils/MeshCheckerT.hh>

#include <array>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace orbis::bench::openmesh {

/// The mesh the anchors edit (default traits).
using Mesh = OpenMesh::TriMesh_ArrayKernelT<>;
/// A face list.
using Faces = std::vector<std::array<std::uint32_t, 3>>;

/// Adds the points (as floats) and then the faces in the given order; returns how many faces
/// add_face refused.
inline std::size_t build_mesh(Mesh& mesh, const std::vector<std::array<double, 3>>& points,
                              const Faces& faces) {
    for (const auto& p : points)
        mesh.add_vertex(Mesh::Point(static_cast<float>(p[0]), static_cast<float>(p[1]),
                                    static_cast<float>(p[2])));
    std::size_t refused = 0;
    for (const auto& f : faces) {
        const OpenMesh::FaceHandle added =
            mesh.add_face(OpenMesh::VertexHandle(static_cast<int>(f[0])),
                          OpenMesh::VertexHandle(static_cast<int>(f[1])),
                          OpenMesh::VertexHandle(static_cast<int>(f[2])));
        if (!added.is_valid()) ++refused;
    }
    return refused;
}

/// Euler characteristic, element counts and OpenMesh's own MeshCheckerT; deleted elements must
/// have been garbage-collected so that n_vertices() etc. count live elements only. Aborts
/// through require() on a failure.
inline void validate(const Mesh& mesh, std::size_t vertices, std::size_t faces, const char* what) {
    const std::string where = std::string("OpenMesh ") + what + ": ";
    require(mesh.n_vertices() == vertices, where + "wrong vertex count");
    require(mesh.n_faces() == faces, where + "wrong face count");
    require(static_cast<long long>(mesh.n_vertices()) - static_cast<long long>(mesh.n_edges()) +
                    static_cast<long long>(mesh.n_faces()) ==
                2,
            where + "V - E + F != 2");
    OpenMesh::Utils::MeshCheckerT<Mesh> checker(mesh);
    require(checker.check(OpenMesh::Utils::MeshCheckerT<Mesh>::CHECK_ALL, std::cerr),
            where + "MeshCheckerT failed");
}

/// The mesh built from the input's faces in input order, cached per input for the process
/// (workloads copy it outside their timed region).
inline const Mesh& built_mesh(const Sphere_input& in) {
    static std::map<const Sphere_input*, std::unique_ptr<Mesh>> cache;
    std::unique_ptr<Mesh>& slot = cache[&in];
    if (!slot) {
        slot = std::make_unique<Mesh>();
        require(build_mesh(*slot, in.points, in.faces) == 0, "OpenMesh refused an input face");
        validate(*slot, in.points.size(), in.faces.size(), "cached build");
    }
    return *slot;
}

/// Flips random edges (splitmix64 from flip_seed, the picks of every library) until `count`
/// flips were done; returns the number of refused picks. Not inlined, so that a profiler can
/// count it alone.
[[gnu::noinline]] inline std::uint32_t flip_random_edges(Mesh& mesh, std::uint32_t count) {
    Splitmix64 random{flip_seed};
    const auto edges = static_cast<std::uint32_t>(mesh.n_edges());
    std::uint32_t rejected = 0;
    for (std::uint32_t done = 0; done < count;) {
        const OpenMesh::EdgeHandle e(static_cast<int>(random.below(edges)));
        if (mesh.is_flip_ok(e)) {
            mesh.flip(e);
            ++done;
        } else {
            ++rejected;
        }
    }
    return rejected;
}

/// Requests the status flags OpenMesh needs to delete anything (+48 B per vertex); setup that
/// the collapse workloads do outside their timed region.
inline void request_status(Mesh& mesh) {
    mesh.request_vertex_status();
    mesh.request_halfedge_status();
    mesh.request_edge_status();
    mesh.request_face_status();
}

/// What a collapse loop skipped.
struct Collapse_counts {
    std::uint32_t rejected = 0;      ///< picks is_collapse_ok refused
    std::uint32_t deleted_picks = 0; ///< picks of edges an earlier collapse removed
};

/// Collapses random edges (from collapse_seed) until `count` collapses were done, each after
/// is_collapse_ok. Needs request_status() first.
[[gnu::noinline]] inline Collapse_counts collapse_random_edges(Mesh& mesh, std::uint32_t count) {
    Splitmix64 random{collapse_seed};
    const auto edges = static_cast<std::uint32_t>(mesh.n_edges());
    Collapse_counts counts;
    for (std::uint32_t done = 0; done < count;) {
        const OpenMesh::EdgeHandle e(static_cast<int>(random.below(edges)));
        if (mesh.status(e).deleted()) {
            ++counts.deleted_picks;
            continue;
        }
        const OpenMesh::HalfedgeHandle h = mesh.halfedge_handle(e, 0);
        if (mesh.is_collapse_ok(h)) {
            mesh.collapse(h);
            ++done;
        } else {
            ++counts.rejected;
        }
    }
    return counts;
}

} // namespace orbis::bench::openmesh
