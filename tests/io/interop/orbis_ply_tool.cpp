// SPDX-License-Identifier: MIT
// Orbis's side of the PLY interop tests (tests/io/interop.cmake): writes a known world, or loads
// a PLY written by another program, and prints a summary that the other program's tool
// (openmesh_ply.cpp, open3d_ply.py) prints the same way:
//
//   vertices N
//   faces F
//   positions P      sum over vertices i of (q(x) + 3 q(y) + 7 q(z)) * (i % 7 + 1), q(a) =
//                    llround(a * 1e4): exact integers, so any two readers of the same floats agree
//   triangles T      sum over faces of mix(a, b, c), corners rotated so the smallest comes first
//                    (orientation counts, face order does not), modulo 2^64
//   property NAME S  sum over vertices i of q(value) * (i % 7 + 1) (only when asked for)
//
// Usage: orbis_ply_tool write FILE ascii|binary   (the world has vertex layer "height")
//        orbis_ply_tool read FILE [PROPERTY]
#include "orbis/io/file_error.hpp"
#include "orbis/io/ply.hpp"

#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace orbis;

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

// The value of vertex layer `name` at `v` as double, whatever its scalar type.
std::optional<double> scalar_value(const World& w, const std::string& name, Vertex v) {
    const Layer_base* l = w.find_layer(name);
    if (!l || l->type() != Layer_type::vertex) return std::nullopt;
    return with_value_type(l->value_tag(), [&]<class T>() -> std::optional<double> {
        if constexpr (Layer_scalar<T>)
            return static_cast<double>(static_cast<const Layer<T, Layer_type::vertex>&>(*l)[v]);
        else
            return std::nullopt;
    });
}

void print_summary(const World& w, const std::string& property) {
    const Mesh& m = w.mesh();
    std::cout << "vertices " << m.vertex_count() << "\nfaces " << m.face_count() << "\n";
    // Live vertices are numbered in index order, as save_ply writes them.
    std::vector<std::uint32_t> row(m.vertex_slots(), 0);
    std::int64_t positions = 0;
    std::int64_t values = 0;
    bool have_values = !property.empty();
    std::uint32_t i = 0;
    const auto* p = w.layer(position_layer);
    for (const Vertex v : m.vertices()) {
        row[v.index()] = i;
        const glm::vec3 x = p ? (*p)[v] : glm::vec3(0.0f);
        const std::int64_t weight = i % 7 + 1;
        positions += (q(x.x) + 3 * q(x.y) + 7 * q(x.z)) * weight;
        if (have_values) {
            const auto value = scalar_value(w, property, v);
            if (value)
                values += q(*value) * weight;
            else
                have_values = false;
        }
        ++i;
    }
    std::uint64_t triangles = 0;
    for (const Face f : m.faces()) {
        std::uint32_t c[3];
        int k = 0;
        for (const Vertex v : f.vertices(m))
            if (k < 3) c[k++] = row[v.index()];
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

World known_world() {
    World w = gen::make_sphere_world({.count = 642, .perturbation = 0.3f, .seed = 7});
    auto [h] = w.lock_layer(Layer_info<float, Layer_type::vertex>("height"));
    for (const Vertex v : w.mesh().vertices())
        h[v] = 0.001f * static_cast<float>((v.index() * v.index()) % 1000) - 0.25f;
    return w;
}

} // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (args.size() == 3 && args[0] == "write" && (args[2] == "ascii" || args[2] == "binary")) {
            const World w = known_world();
            io::save_ply(w, args[1],
                         {.format = args[2] == "ascii" ? io::Ply_format::ascii
                                                       : io::Ply_format::binary_little_endian,
                          .sync = io::Sync::none});
            print_summary(w, "height");
            return 0;
        }
        if ((args.size() == 2 || args.size() == 3) && args[0] == "read") {
            print_summary(io::load_ply(args[1]), args.size() == 3 ? args[2] : "");
            return 0;
        }
    } catch (const std::exception& e) {
        std::cerr << "orbis_ply_tool: " << e.what() << "\n";
        return 1;
    }
    std::cerr << "usage: orbis_ply_tool write FILE ascii|binary\n"
                 "       orbis_ply_tool read FILE [PROPERTY]\n";
    return 2;
}
