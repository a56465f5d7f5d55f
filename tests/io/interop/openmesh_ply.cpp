// SPDX-License-Identifier: MIT
// OpenMesh's side of the PLY interop tests (tests/io/interop.cmake): reads a PLY with
// OpenMesh's own reader, or builds a mesh with OpenMesh and writes it with OpenMesh's writer,
// and prints the summary orbis_ply_tool.cpp describes (same lines, same arithmetic).
//
// Usage: openmesh_ply write FILE ascii|binary   (an icosphere with vertex property "temperature")
//        openmesh_ply read FILE [PROPERTY]      (PROPERTY: a float vertex property, read through
//                                                OpenMesh's custom-property support)
//        openmesh_ply octahedron FILE           (writes tests/data/ply/openmesh_octahedron.ply)
#include <OpenMesh/Core/IO/MeshIO.hh>
#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using Mesh = OpenMesh::TriMesh_ArrayKernelT<>;

std::int64_t q(double a) { return std::llround(a * 1e4); }

std::uint64_t mix(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (b < a && b < c) {
        std::tie(a, b, c) = std::make_tuple(b, c, a);
    } else if (c < a && c < b) {
        std::tie(a, b, c) = std::make_tuple(c, a, b);
    }
    return (std::uint64_t{a} * 73856093u) ^ (std::uint64_t{b} * 19349663u) ^
           (std::uint64_t{c} * 83492791u);
}

void print_summary(Mesh& m, const std::string& property) {
    std::cout << "vertices " << m.n_vertices() << "\nfaces " << m.n_faces() << "\n";
    OpenMesh::VPropHandleT<float> values_handle;
    const bool have_values = !property.empty() && m.get_property_handle(values_handle, property);
    std::int64_t positions = 0;
    std::int64_t values = 0;
    for (const auto vh : m.vertices()) {
        const auto i = static_cast<std::int64_t>(vh.idx());
        const auto& p = m.point(vh);
        positions += (q(p[0]) + 3 * q(p[1]) + 7 * q(p[2])) * (i % 7 + 1);
        if (have_values) values += q(m.property(values_handle, vh)) * (i % 7 + 1);
    }
    std::uint64_t triangles = 0;
    for (const auto fh : m.faces()) {
        // The face's own halfedge cycle: the corners in the order the file gave them.
        std::uint32_t c[3];
        auto h = m.halfedge_handle(fh);
        for (auto& x : c) {
            x = static_cast<std::uint32_t>(m.from_vertex_handle(h).idx());
            h = m.next_halfedge_handle(h);
        }
        triangles += mix(c[0], c[1], c[2]);
    }
    std::cout << "positions " << positions << "\ntriangles " << triangles << "\n";
    if (!property.empty()) {
        if (have_values)
            std::cout << "property " << property << " " << values << "\n";
        else
            std::cout << "property " << property << " missing\n";
    }
}

// An icosahedron subdivided once (42 vertices, 80 faces), on the unit sphere.
Mesh icosphere() {
    const double t = (1.0 + std::sqrt(5.0)) / 2.0;
    std::vector<Mesh::Point> points = {{-1, float(t), 0},  {1, float(t), 0},   {-1, float(-t), 0},
                                       {1, float(-t), 0},  {0, -1, float(t)},  {0, 1, float(t)},
                                       {0, -1, float(-t)}, {0, 1, float(-t)},  {float(t), 0, -1},
                                       {float(t), 0, 1},   {float(-t), 0, -1}, {float(-t), 0, 1}};
    std::vector<std::array<int, 3>> faces = {
        {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
        {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
        {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
        const auto key = std::minmax(a, b);
        const auto it = mid.find(key);
        if (it != mid.end()) return it->second;
        points.push_back((points[a] + points[b]) * 0.5f);
        return mid[key] = int(points.size()) - 1;
    };
    std::vector<std::array<int, 3>> fine;
    for (const auto& f : faces) {
        const int ab = midpoint(f[0], f[1]), bc = midpoint(f[1], f[2]), ca = midpoint(f[2], f[0]);
        fine.push_back({f[0], ab, ca});
        fine.push_back({f[1], bc, ab});
        fine.push_back({f[2], ca, bc});
        fine.push_back({ab, bc, ca});
    }
    Mesh m;
    std::vector<Mesh::VertexHandle> vh;
    for (auto& p : points)
        vh.push_back(m.add_vertex(p.normalized()));
    for (const auto& f : fine)
        m.add_face(vh[f[0]], vh[f[1]], vh[f[2]]);
    return m;
}

bool write(Mesh& m, const std::string& file, bool binary, bool custom) {
    OpenMesh::IO::Options opt;
    if (binary) opt += OpenMesh::IO::Options::Binary;
    if (custom) opt += OpenMesh::IO::Options::Custom;
    if (!OpenMesh::IO::write_mesh(m, file, opt)) {
        std::cerr << "openmesh_ply: OpenMesh could not write " << file << "\n";
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "write" && (args[2] == "ascii" || args[2] == "binary")) {
        Mesh m = icosphere();
        OpenMesh::VPropHandleT<float> temperature;
        m.add_property(temperature, "temperature");
        m.property(temperature).set_persistent(true);
        for (const auto v : m.vertices())
            m.property(temperature, v) = 0.125f * float(v.idx() % 37) - 2.0f;
        if (!write(m, args[1], args[2] == "binary", true)) return 1;
        print_summary(m, "temperature");
        return 0;
    }
    if ((args.size() == 2 || args.size() == 3) && args[0] == "read") {
        Mesh m;
        OpenMesh::IO::Options opt = OpenMesh::IO::Options::Custom;
        if (!OpenMesh::IO::read_mesh(m, args[1], opt)) {
            std::cerr << "openmesh_ply: OpenMesh could not read " << args[1] << "\n";
            return 1;
        }
        print_summary(m, args.size() == 3 ? args[2] : "");
        return 0;
    }
    if (args.size() == 2 && args[0] == "octahedron") {
        // Vertex 0 = +x, 1 = -x, 2 = +y, 3 = -y, 4 = +z, 5 = -z, faces counterclockwise.
        Mesh m;
        const Mesh::Point p[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                  {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
        std::vector<Mesh::VertexHandle> vh;
        for (const auto& x : p)
            vh.push_back(m.add_vertex(x));
        const int f[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                             {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
        for (const auto& t : f)
            m.add_face(vh[t[0]], vh[t[1]], vh[t[2]]);
        return write(m, args[1], true, false) ? 0 : 1;
    }
    std::cerr << "usage: openmesh_ply write FILE ascii|binary\n"
                 "       openmesh_ply read FILE [PROPERTY]\n"
                 "       openmesh_ply octahedron FILE\n";
    return 2;
}
