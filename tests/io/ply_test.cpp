// SPDX-License-Identifier: MIT
// PLY exchange: round trips of every layer type in both encodings, compacted ids, the reader
// against hand-made files of every PLY type and encoding, refusals of non-manifold and broken
// input, and files written by OpenMesh and Open3D (tests/data/ply).
#include "orbis/io/file_error.hpp"
#include "orbis/io/ply.hpp"
#include "support/fixtures.hpp"

#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace orbis {
namespace {

using io::File_error;
using io::Ply_format;

std::vector<std::byte> bytes_of(std::string_view s) {
    std::vector<std::byte> b(s.size());
    if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());
    return b;
}

std::string text_of(const std::vector<std::byte>& b) {
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// The File_error read_ply throws for `text`; fails the test when it loads.
File_error ply_error(std::string_view text) {
    try {
        (void)io::read_ply(bytes_of(text), "test.ply");
    } catch (const File_error& e) {
        return e;
    }
    ADD_FAILURE() << "loaded:\n" << text;
    return File_error("test.ply", "", "no error");
}

// Deterministic values of every layer type, with negative, large and fractional ones.
template <class T>
T sample(std::uint32_t i, std::uint32_t salt) {
    const std::uint32_t k = i * 2654435761u + salt * 40503u;
    if constexpr (std::same_as<T, bool>) {
        return k % 3 == 0;
    } else if constexpr (std::same_as<T, std::int32_t>) {
        return std::bit_cast<std::int32_t>(k);
    } else if constexpr (std::same_as<T, std::uint32_t>) {
        return k;
    } else if constexpr (std::same_as<T, std::int64_t>) {
        // Up to 2^53 in magnitude: the range a PLY double holds exactly.
        return (static_cast<std::int64_t>(k) << 21) * (i % 2 ? -1 : 1);
    } else if constexpr (std::same_as<T, float>) {
        return static_cast<float>(k) * 1e-7f - 100.0f / static_cast<float>(i + 1);
    } else if constexpr (std::same_as<T, double>) {
        return std::sqrt(static_cast<double>(k)) * 1e10 + 1.0 / 3.0;
    } else {
        using C = Layer_component_t<T>;
        T v(C{0});
        for (int c = 0; c < layer_value_length<T>; ++c)
            v[c] = sample<C>(i, salt + static_cast<std::uint32_t>(c) + 1);
        return v;
    }
}

template <class T>
bool same_bits(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

constexpr Value_type all_types[] = {Value_type::boolean, Value_type::int32,   Value_type::uint32,
                                    Value_type::int64,   Value_type::float32, Value_type::float64,
                                    Value_type::vec2,    Value_type::vec3,    Value_type::vec4,
                                    Value_type::dvec2,   Value_type::dvec3,   Value_type::dvec4};

// Layer names for each type: "v_float", "f_dvec3", ... (kept alive for Layer_info's view).
const std::string& layer_name(char kind, Value_type t) {
    static std::map<std::pair<char, Value_type>, std::string> names;
    auto& s = names[{kind, t}];
    if (s.empty())
        s = std::string(1, kind) + "_" +
            std::string(with_value_type(t, []<class T>() { return layer_value_name<T>(); }));
    return s;
}

// A sphere world with one vertex and one face layer of every value type, an edge layer and a
// Dict (neither of which PLY has room for).
World rich_world(std::uint32_t points) {
    World w = gen::make_sphere_world({.count = points, .perturbation = 0.3f, .seed = 5});
    for (const Value_type t : all_types) {
        with_value_type(t, [&]<class T>() {
            auto [vl, fl] = w.lock_layer(Layer_info<T, Layer_type::vertex>(layer_name('v', t)),
                                         Layer_info<T, Layer_type::face>(layer_name('f', t)));
            for (const Vertex v : w.mesh().vertices())
                vl[v] = sample<T>(v.index(), 1);
            for (const Face f : w.mesh().faces())
                fl[f] = sample<T>(f.index(), 2);
        });
    }
    {
        auto [e] = w.lock_layer(Layer_info<float, Layer_type::edge_primal>("edge_length"));
        for (const Edge x : w.mesh().edges())
            e[x] = 1.0f;
    }
    w.lock_layer("notes")->set("author", std::string("test"));
    return w;
}

// Original live vertex -> row, as save_ply numbers them.
std::vector<std::uint32_t> rows(const Mesh& m) {
    std::vector<std::uint32_t> r(m.vertex_slots(), UINT32_MAX);
    std::uint32_t n = 0;
    for (const Vertex v : m.vertices())
        r[v.index()] = n++;
    return r;
}

// Checks that `loaded` holds the live part of `original`: positions and every vertex and face
// layer, bit for bit, with ids compacted; faces matched by their corners.
void expect_same_content(const World& original, const World& loaded) {
    const Mesh& a = original.mesh();
    const Mesh& b = loaded.mesh();
    ASSERT_EQ(b.vertex_count(), a.vertex_count());
    ASSERT_EQ(b.vertex_slots(), a.vertex_count());
    ASSERT_EQ(b.face_count(), a.face_count());
    ASSERT_FALSE(b.validate()) << *b.validate();
    const auto row = rows(a);

    // Loaded faces by their corners (canonical), original faces mapped through rows.
    std::map<Triangle, Face> loaded_face;
    for (const Face f : b.faces())
        loaded_face[test::canonical(test::corners(b, f))] = f;
    std::vector<Face> match(a.face_slots(), no_face);
    for (const Face f : a.faces()) {
        Triangle t = test::corners(a, f);
        for (auto& x : t)
            x = row[x];
        const auto it = loaded_face.find(test::canonical(t));
        ASSERT_NE(it, loaded_face.end()) << "face " << f << " lost";
        match[f.index()] = it->second;
    }

    if (const auto* pa = original.layer(position_layer)) {
        const auto* pb = loaded.layer(position_layer);
        ASSERT_NE(pb, nullptr);
        for (const Vertex v : a.vertices())
            ASSERT_TRUE(same_bits((*pa)[v], (*pb)[Vertex{row[v.index()]}])) << v;
    }
    for (const std::string& name : original.layer_names()) {
        const Layer_base* la = original.find_layer(name);
        if (!la || name == position_layer.name()) continue;
        const Layer_base* lb = loaded.find_layer(name);
        if (la->type() != Layer_type::vertex && la->type() != Layer_type::face) {
            EXPECT_EQ(lb, nullptr) << name << " should not be exported";
            continue;
        }
        ASSERT_NE(lb, nullptr) << name;
        ASSERT_EQ(lb->type(), la->type()) << name;
        ASSERT_EQ(lb->value_tag(), la->value_tag()) << name;
        with_value_type(la->value_tag(), [&]<class T>() {
            if (la->type() == Layer_type::vertex) {
                const auto& x = static_cast<const Layer<T, Layer_type::vertex>&>(*la);
                const auto& y = static_cast<const Layer<T, Layer_type::vertex>&>(*lb);
                for (const Vertex v : a.vertices())
                    ASSERT_TRUE(same_bits(x[v], y[Vertex{row[v.index()]}]))
                        << name << " " << v << ": " << x.format_value(v.index()) << " vs "
                        << y.format_value(row[v.index()]);
            } else {
                const auto& x = static_cast<const Layer<T, Layer_type::face>&>(*la);
                const auto& y = static_cast<const Layer<T, Layer_type::face>&>(*lb);
                for (const Face f : a.faces())
                    ASSERT_TRUE(same_bits(x[f], y[match[f.index()]]))
                        << name << " " << f << ": " << x.format_value(f.index()) << " vs "
                        << y.format_value(match[f.index()].index());
            }
        });
    }
    EXPECT_EQ(loaded.layer("notes"), nullptr) << "Dict layers are not exported";
}

// ---- round trips ----

TEST(Ply, BinaryRoundTripKeepsEveryLayerType) {
    const World w = rich_world(300);
    const World loaded = io::read_ply(io::write_ply(w, Ply_format::binary_little_endian));
    expect_same_content(w, loaded);
    // Same layers, same settings (defaults), same values: the Worlds are equal apart from the
    // mesh's internal numbering of edges.
    EXPECT_EQ(loaded.layer_names().size(), w.layer_names().size() - 2); // no edge layer, no dict
}

TEST(Ply, AsciiRoundTripKeepsEveryLayerType) {
    const World w = rich_world(300);
    const auto bytes = io::write_ply(w, Ply_format::ascii);
    const std::string text = text_of(bytes);
    EXPECT_TRUE(text.starts_with("ply\nformat ascii 1.0\ncomment "));
    expect_same_content(w, io::read_ply(bytes));
}

TEST(Ply, PlyToWorldToPlyIsStable) {
    const World w = rich_world(120);
    for (const Ply_format format : {Ply_format::binary_little_endian, Ply_format::ascii}) {
        const auto first = io::write_ply(w, format);
        const auto second = io::write_ply(io::read_ply(first), format);
        EXPECT_EQ(first, second);
    }
}

TEST(Ply, HeaderNamesComponentsAndTypes) {
    const World w = rich_world(20);
    const std::string text = text_of(io::write_ply(w, Ply_format::ascii));
    const std::string header = text.substr(0, text.find("end_header"));
    for (const char* line :
         {"format ascii 1.0", "element vertex 20", "property float x", "property float y",
          "property float z", "property uchar v_bool", "property int v_int32",
          "property uint v_uint32", "property double v_int64", "property float v_float",
          "property double v_double", "property float v_vec2_x", "property float v_vec2_y",
          "property float v_vec4_w", "property double v_dvec3_z",
          "property list uchar int vertex_indices", "property uchar f_bool",
          "comment orbis_layer vertex v_int64 int64", "comment orbis_layer face f_bool bool"})
        EXPECT_NE(header.find(std::string(line) + "\n"), std::string::npos) << line;
    EXPECT_EQ(header.find("edge_length"), std::string::npos);
    EXPECT_EQ(header.find("notes"), std::string::npos);
    EXPECT_LT(header.find("element vertex"), header.find("element face"));
}

TEST(Ply, SaveAndLoadThroughFiles) {
    const World w = rich_world(60);
    const auto dir = std::filesystem::temp_directory_path() / "orbis_ply_test";
    std::filesystem::create_directories(dir);
    const auto path = dir / "sphere.ply";
    io::save_ply(w, path, {.format = Ply_format::binary_little_endian, .sync = io::Sync::none});
    expect_same_content(w, io::load_ply(path));
    io::save_ply(w, path, {.format = Ply_format::ascii, .sync = io::Sync::none});
    expect_same_content(w, io::load_ply(path));
    std::filesystem::remove_all(dir);
    EXPECT_THROW(io::load_ply(path), File_error);
}

TEST(Ply, DeletedElementsAreCompacted) {
    World w = rich_world(400);
    {
        auto lock = w.lock_mesh();
        std::mt19937_64 rng(3);
        int done = 0;
        for (int tries = 0; done < 40 && tries < 1000; ++tries) {
            const Edge e{static_cast<std::uint32_t>(rng() % lock->edge_slots()) & ~1u};
            if (!lock->contains(e)) continue;
            if (!lock.try_collapse(e)) ++done;
        }
        ASSERT_EQ(done, 40);
    }
    ASSERT_LT(w.mesh().vertex_count(), w.mesh().vertex_slots());
    ASSERT_LT(w.mesh().face_count(), w.mesh().face_slots());
    for (const Ply_format format : {Ply_format::binary_little_endian, Ply_format::ascii}) {
        const World loaded = io::read_ply(io::write_ply(w, format));
        expect_same_content(w, loaded);
        // Compacted in index order: the n-th live vertex is vertex n.
        const auto& pa = *w.layer(position_layer);
        const auto& pb = *loaded.layer(position_layer);
        std::uint32_t n = 0;
        for (const Vertex v : w.mesh().vertices())
            EXPECT_EQ(pa[v], pb[Vertex{n++}]);
    }
}

TEST(Ply, WorldWithoutPositionsWritesZeros) {
    const test::Shape s = test::octahedron();
    World w;
    w.lock_mesh().assign(test::build(s));
    const World loaded = io::read_ply(io::write_ply(w));
    ASSERT_EQ(loaded.mesh().vertex_count(), 6u);
    ASSERT_EQ(loaded.mesh().face_count(), 8u);
    for (const glm::vec3& p : *loaded.layer(position_layer))
        EXPECT_EQ(p, glm::vec3(0.0f));
    EXPECT_EQ(test::face_corners(loaded.mesh()), test::canonical_sorted(s.triangles));
}

TEST(Ply, EmptyWorldRoundTrips) {
    const World loaded = io::read_ply(io::write_ply(World{}));
    EXPECT_EQ(loaded.mesh().vertex_count(), 0u);
    EXPECT_EQ(loaded.mesh().face_count(), 0u);
}

TEST(Ply, OpenDiscLoads) {
    const test::Shape s = test::disc(3);
    const auto pts = test::disc_positions(3);
    World w;
    w.lock_mesh().assign(test::build(s));
    {
        auto [p] = w.lock_layer(position_layer);
        for (std::uint32_t i = 0; i < s.vertex_count; ++i)
            p[Vertex{i}] = glm::vec3(pts[i][0], pts[i][1], pts[i][2]);
    }
    for (const Ply_format format : {Ply_format::binary_little_endian, Ply_format::ascii}) {
        const World loaded = io::read_ply(io::write_ply(w, format));
        expect_same_content(w, loaded);
        EXPECT_EQ(test::euler_characteristic(loaded.mesh()), 1);
        EXPECT_EQ(test::face_corners(loaded.mesh()), test::canonical_sorted(s.triangles));
        int boundary = 0;
        for (const Vertex v : loaded.mesh().vertices())
            boundary += loaded.mesh().is_boundary(v);
        EXPECT_EQ(boundary, 18);
    }
}

TEST(Ply, Int64BeyondTwoToThe53IsRefusedByTheWriter) {
    World w = gen::make_sphere_world({.count = 10});
    constexpr auto big = Layer_info<std::int64_t, Layer_type::vertex>("big");
    {
        auto [b] = w.lock_layer(big);
        b[Vertex{3}] = (std::int64_t{1} << 53);
        b[Vertex{4}] = -(std::int64_t{1} << 53);
    }
    const World loaded = io::read_ply(io::write_ply(w));
    EXPECT_EQ((*loaded.layer(big))[Vertex{3}], std::int64_t{1} << 53);
    EXPECT_EQ((*loaded.layer(big))[Vertex{4}], -(std::int64_t{1} << 53));
    {
        auto [b] = w.lock_layer(big);
        b[Vertex{7}] = (std::int64_t{1} << 53) + 1;
    }
    for (const Ply_format format : {Ply_format::binary_little_endian, Ply_format::ascii}) {
        try {
            (void)io::write_ply(w, format);
            ADD_FAILURE() << "wrote an int64 a double cannot hold";
        } catch (const File_error& e) {
            EXPECT_EQ(e.part(), "vertex layer 'big'");
            EXPECT_NE(e.problem().find("v7 = 9007199254740993"), std::string::npos) << e.what();
        }
    }
}

TEST(Ply, LayerNamesPlyCannotCarryAreRefused) {
    for (const char* bad : {"two words", "x", "tab\tname"}) {
        World w = gen::make_sphere_world({.count = 10});
        (void)w.lock_layer(Layer_info<float, Layer_type::vertex>(bad));
        EXPECT_THROW((void)io::write_ply(w), File_error) << bad;
    }
    // A vec2 "a" and a scalar "a_x" would both be property a_x.
    World w = gen::make_sphere_world({.count = 10});
    (void)w.lock_layer(Layer_info<glm::vec2, Layer_type::vertex>("a"),
                       Layer_info<float, Layer_type::face>("vertex_indices"));
    try {
        (void)io::write_ply(w);
        ADD_FAILURE();
    } catch (const File_error& e) {
        EXPECT_EQ(e.part(), "face layer 'vertex_indices'") << e.what();
    }
    World w2 = gen::make_sphere_world({.count = 10});
    (void)w2.lock_layer(Layer_info<glm::vec2, Layer_type::vertex>("a"),
                        Layer_info<float, Layer_type::vertex>("a_x"));
    EXPECT_THROW((void)io::write_ply(w2), File_error);
    // A "position" layer that is not the positions would shadow them.
    World w3;
    (void)w3.lock_layer(Layer_info<float, Layer_type::face>("position"));
    EXPECT_THROW((void)io::write_ply(w3), File_error);
}

// ---- the reader on hand-made files ----

constexpr const char* tetra_header = "ply\nformat ascii 1.0\nelement vertex 4\n"
                                     "property float x\nproperty float y\nproperty float z\n";
constexpr const char* tetra_vertices = "0 0 0\n1 0 0\n0 1 0\n0 0 1\n";
constexpr const char* tetra_faces = "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";

std::string tetra(const std::string& face_props = "", const std::string& faces = tetra_faces) {
    return std::string(tetra_header) + "element face 4\nproperty list uchar int vertex_indices\n" +
           face_props + "end_header\n" + tetra_vertices + faces;
}

TEST(Ply, ReadsATetrahedron) {
    const World w = io::read_ply(bytes_of(tetra()));
    EXPECT_EQ(w.mesh().vertex_count(), 4u);
    EXPECT_EQ(w.mesh().face_count(), 4u);
    EXPECT_EQ((*w.layer(position_layer))[Vertex{3}], glm::vec3(0, 0, 1));
    EXPECT_EQ(test::euler_characteristic(w.mesh()), 2);
}

TEST(Ply, ReadsEveryScalarTypeAndAlias) {
    const std::string header =
        "ply\nformat ascii 1.0\ncomment every type\nobj_info made by hand\nelement vertex 4\n"
        "property float32 x\nproperty float64 y\nproperty int8 z\n"
        "property char a\nproperty uchar b\nproperty short c\nproperty ushort d\n"
        "property int e\nproperty uint f\nproperty float g\nproperty double h\n"
        "property uint8 i\nproperty int16 j\nproperty uint16 k\nproperty int32 l\n"
        "property uint32 m\n"
        "element face 4\nproperty list uint8 uint32 vertex_index\nend_header\n";
    const std::string data = "0 0 0 -128 255 -32768 65535 -2147483648 4294967295 0.5 0.25 1 2 3 "
                             "4 5\n"
                             "1 0 0 127 0 32767 0 2147483647 0 -1.5 1e300 0 0 0 0 0\n"
                             "0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
                             "0 0 1 +1 0 0 0 0 0 1e-3 -0 0 0 0 0 0\n" +
                             std::string(tetra_faces);
    const World w = io::read_ply(bytes_of(header + data));
    EXPECT_EQ(w.mesh().face_count(), 4u);
    auto get = [&]<class T>(const char* name, std::uint32_t v) {
        const auto* l = w.layer(Layer_info<T, Layer_type::vertex>(name));
        EXPECT_NE(l, nullptr) << name;
        return l ? (*l)[Vertex{v}] : T{};
    };
    EXPECT_EQ(get.operator()<std::int32_t>("a", 0), -128);
    EXPECT_EQ(get.operator()<std::int32_t>("a", 3), 1);
    EXPECT_EQ(get.operator()<std::int32_t>("b", 0), 255);
    EXPECT_EQ(get.operator()<std::int32_t>("c", 0), -32768);
    EXPECT_EQ(get.operator()<std::int32_t>("d", 0), 65535);
    EXPECT_EQ(get.operator()<std::int32_t>("e", 0), INT32_MIN);
    EXPECT_EQ(get.operator()<std::int32_t>("e", 1), INT32_MAX);
    EXPECT_EQ(get.operator()<std::uint32_t>("f", 0), UINT32_MAX);
    EXPECT_EQ(get.operator()<float>("g", 1), -1.5f);
    EXPECT_EQ(get.operator()<double>("h", 1), 1e300);
    EXPECT_TRUE(std::signbit(get.operator()<double>("h", 3)));
    EXPECT_EQ(get.operator()<std::int32_t>("i", 0), 1);
    EXPECT_EQ(get.operator()<std::int32_t>("j", 0), 2);
    EXPECT_EQ(get.operator()<std::int32_t>("k", 0), 3);
    EXPECT_EQ(get.operator()<std::int32_t>("l", 0), 4);
    EXPECT_EQ(get.operator()<std::uint32_t>("m", 0), 5u);
}

// Appends `v` as type C in the given byte order.
template <class C>
void put(std::string& out, C v, bool big_endian) {
    char b[sizeof(C)];
    std::memcpy(b, &v, sizeof(C));
    if (big_endian == (std::endian::native == std::endian::little)) std::reverse(b, b + sizeof(C));
    out.append(b, sizeof(C));
}

// The tetrahedron in binary, with a property of every type, an unknown element with a list
// between vertices and faces, and a face list of short counts and ushort indices.
std::string binary_tetra(bool big_endian) {
    std::string s = std::string("ply\nformat ") +
                    (big_endian ? "binary_big_endian" : "binary_little_endian") +
                    " 1.0\nelement vertex 4\nproperty double x\nproperty float y\n"
                    "property float z\nproperty char a\nproperty uchar b\nproperty short c\n"
                    "property ushort d\nproperty int e\nproperty uint f\nproperty double g\n"
                    "property list uchar float texture\n"
                    "element edge 2\nproperty int vertex1\nproperty list int int stuff\n"
                    "element face 4\nproperty float quality\n"
                    "property list short ushort vertex_indices\nproperty int flags\n"
                    "end_header\n";
    const float p[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int v = 0; v < 4; ++v) {
        put<double>(s, p[v][0], big_endian);
        put<float>(s, p[v][1], big_endian);
        put<float>(s, p[v][2], big_endian);
        put<std::int8_t>(s, static_cast<std::int8_t>(-v), big_endian);
        put<std::uint8_t>(s, static_cast<std::uint8_t>(200 + v), big_endian);
        put<std::int16_t>(s, static_cast<std::int16_t>(-1000 * v), big_endian);
        put<std::uint16_t>(s, static_cast<std::uint16_t>(60000 + v), big_endian);
        put<std::int32_t>(s, -100000 * v, big_endian);
        put<std::uint32_t>(s, 4000000000u + static_cast<std::uint32_t>(v), big_endian);
        put<double>(s, 0.1 * v, big_endian);
        put<std::uint8_t>(s, 2, big_endian);
        put<float>(s, 0.5f, big_endian);
        put<float>(s, 0.25f, big_endian);
    }
    for (int e = 0; e < 2; ++e) {
        put<std::int32_t>(s, e, big_endian);
        put<std::int32_t>(s, e + 1, big_endian);
        for (int k = 0; k <= e; ++k)
            put<std::int32_t>(s, 7, big_endian);
    }
    const int faces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    for (int f = 0; f < 4; ++f) {
        put<float>(s, 1.5f * f, big_endian);
        put<std::int16_t>(s, 3, big_endian);
        for (const int c : faces[f])
            put<std::uint16_t>(s, static_cast<std::uint16_t>(c), big_endian);
        put<std::int32_t>(s, 10 + f, big_endian);
    }
    return s;
}

TEST(Ply, ReadsBinaryLittleAndBigEndian) {
    for (const bool big : {false, true}) {
        SCOPED_TRACE(big ? "big endian" : "little endian");
        const World w = io::read_ply(bytes_of(binary_tetra(big)));
        ASSERT_EQ(w.mesh().vertex_count(), 4u);
        ASSERT_EQ(w.mesh().face_count(), 4u);
        EXPECT_EQ((*w.layer(position_layer))[Vertex{1}], glm::vec3(1, 0, 0));
        EXPECT_EQ((*w.layer(position_layer))[Vertex{3}], glm::vec3(0, 0, 1));
        using V = Layer_type;
        EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("a")))[Vertex{3}], -3);
        EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("b")))[Vertex{3}], 203);
        EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("c")))[Vertex{3}], -3000);
        EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("d")))[Vertex{3}], 60003);
        EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("e")))[Vertex{3}], -300000);
        EXPECT_EQ((*w.layer(Layer_info<std::uint32_t, V::vertex>("f")))[Vertex{3}], 4000000003u);
        EXPECT_EQ((*w.layer(Layer_info<double, V::vertex>("g")))[Vertex{2}], 0.2);
        EXPECT_EQ(w.find_layer("texture"), nullptr);
        EXPECT_EQ(w.find_layer("vertex1"), nullptr);
        // Face layers follow the file's face order.
        const auto& quality = *w.layer(Layer_info<float, V::face>("quality"));
        const auto& flags = *w.layer(Layer_info<std::int32_t, V::face>("flags"));
        const Triangle order[4] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
        for (const Face f : w.mesh().faces()) {
            const Triangle t = test::canonical(test::corners(w.mesh(), f));
            const auto i = std::find(std::begin(order), std::end(order), t) - std::begin(order);
            ASSERT_LT(i, 4);
            EXPECT_EQ(quality[f], 1.5f * static_cast<float>(i));
            EXPECT_EQ(flags[f], 10 + i);
        }
    }
}

TEST(Ply, RegroupsComponentsIntoVectors) {
    const std::string header =
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
        "property float z\nproperty float normal_x\nproperty float normal_y\n"
        "property float normal_z\nproperty double uv_x\nproperty float uv_y\n"
        "property float c_x\nproperty float c_y\nproperty float c_z\nproperty float c_w\n"
        "property int i_x\nproperty int i_y\nproperty float lone_x\n"
        "element face 4\nproperty list uchar int vertex_indices\nend_header\n";
    std::string data;
    for (int v = 0; v < 4; ++v)
        data += std::string(v == 0   ? "0 0 0"
                            : v == 1 ? "1 0 0"
                            : v == 2 ? "0 1 0"
                                     : "0 0 1") +
                " 0 0 1 0.5 0.25 1 2 3 4 7 8 9\n";
    const World w = io::read_ply(bytes_of(header + data + tetra_faces));
    using V = Layer_type;
    EXPECT_EQ((*w.layer(Layer_info<glm::vec3, V::vertex>("normal")))[Vertex{2}],
              glm::vec3(0, 0, 1));
    EXPECT_EQ((*w.layer(Layer_info<glm::dvec2, V::vertex>("uv")))[Vertex{2}],
              glm::dvec2(0.5, 0.25));
    EXPECT_EQ((*w.layer(Layer_info<glm::vec4, V::vertex>("c")))[Vertex{0}], glm::vec4(1, 2, 3, 4));
    // Integer components and a lone _x stay scalars.
    EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("i_x")))[Vertex{0}], 7);
    EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("i_y")))[Vertex{0}], 8);
    EXPECT_EQ((*w.layer(Layer_info<float, V::vertex>("lone_x")))[Vertex{0}], 9.0f);
}

TEST(Ply, OrbisLayerCommentsAreCheckedAgainstTheProperties) {
    auto file = [](const std::string& comments, const std::string& props,
                   const std::string& values) {
        std::string vertices;
        for (const char* p : {"0 0 0", "1 0 0", "0 1 0", "0 0 1"})
            vertices += std::string(p) + " " + values + "\n";
        return "ply\nformat ascii 1.0\n" + comments +
               "element vertex 4\nproperty float x\nproperty float y\nproperty float z\n" + props +
               "element face 4\nproperty list uchar int vertex_indices\nend_header\n" + vertices +
               tetra_faces;
    };
    using V = Layer_type;
    // Matching comments restore bool, int64 and scalars that look like components.
    World w = io::read_ply(bytes_of(file("comment orbis_layer vertex b bool\n"
                                         "comment orbis_layer vertex n int64\n"
                                         "comment orbis_layer vertex w_x float\n"
                                         "comment orbis_layer vertex w_y float\n",
                                         "property uchar b\nproperty double n\n"
                                         "property float w_x\nproperty float w_y\n",
                                         "1 -9007199254740992 1 2")));
    EXPECT_TRUE((*w.layer(Layer_info<bool, V::vertex>("b")))[Vertex{2}]);
    EXPECT_EQ((*w.layer(Layer_info<std::int64_t, V::vertex>("n")))[Vertex{2}],
              -(std::int64_t{1} << 53));
    EXPECT_EQ((*w.layer(Layer_info<float, V::vertex>("w_x")))[Vertex{2}], 1.0f);
    EXPECT_EQ(w.find_layer("w"), nullptr);
    // A comment whose properties have other types is ignored: the types follow the file.
    w = io::read_ply(
        bytes_of(file("comment orbis_layer vertex b bool\n"
                      "comment orbis_layer vertex c dvec2\n"
                      "comment orbis_layer face gone float\n"
                      "comment orbis_layer vertex broken\n",
                      "property int b\nproperty float c_x\nproperty float c_y\n", "7 1 2")));
    EXPECT_EQ((*w.layer(Layer_info<std::int32_t, V::vertex>("b")))[Vertex{0}], 7);
    EXPECT_EQ((*w.layer(Layer_info<glm::vec2, V::vertex>("c")))[Vertex{0}], glm::vec2(1, 2));
    EXPECT_EQ(w.find_layer("gone"), nullptr);
    // An int64 layer whose value is not an integer.
    const File_error e =
        ply_error(file("comment orbis_layer vertex n int64\n", "property double n\n", "2.5"));
    EXPECT_EQ(e.part(), "vertex 0") << e.what();
    EXPECT_NE(e.problem().find("int64"), std::string::npos) << e.what();
}

TEST(Ply, ReadsFacesBeforeVertices) {
    const std::string text = "ply\nformat ascii 1.0\nelement face 4\n"
                             "property list uchar int vertex_indices\nelement vertex 4\n"
                             "property float x\nproperty float y\nproperty float z\n"
                             "end_header\n" +
                             std::string(tetra_faces) + tetra_vertices;
    const World w = io::read_ply(bytes_of(text));
    EXPECT_EQ(w.mesh().face_count(), 4u);
    EXPECT_EQ((*w.layer(position_layer))[Vertex{1}], glm::vec3(1, 0, 0));
}

TEST(Ply, ReadsAPointCloudAndIsolatedVertices) {
    const std::string cloud = std::string(tetra_header) + "end_header\n" + tetra_vertices;
    const World w = io::read_ply(bytes_of(cloud));
    EXPECT_EQ(w.mesh().vertex_count(), 4u);
    EXPECT_EQ(w.mesh().face_count(), 0u);
    // One face and a vertex no face uses.
    const std::string one = std::string(tetra_header) +
                            "element face 1\nproperty list uchar int vertex_indices\nend_header\n" +
                            tetra_vertices + "3 0 1 2\n";
    const World w1 = io::read_ply(bytes_of(one));
    EXPECT_EQ(w1.mesh().vertex_count(), 4u);
    EXPECT_EQ(w1.mesh().face_count(), 1u);
    EXPECT_FALSE(w1.mesh().validate());
}

TEST(Ply, ToleratesCrLfAndBlankLines) {
    std::string text = tetra();
    std::string crlf;
    for (const char c : text) {
        if (c == '\n') crlf += '\r';
        crlf += c;
    }
    EXPECT_EQ(io::read_ply(bytes_of(crlf)).mesh().face_count(), 4u);
    const std::string blank = tetra("", "3 0 2 1\n\n3 0 1 3\n  \n3 0 3 2\n3 1 2 3");
    EXPECT_EQ(io::read_ply(bytes_of(blank)).mesh().face_count(), 4u);
}

// ---- refusals ----

TEST(Ply, QuadsAreRefusedNamingTheFace) {
    const std::string text =
        std::string(tetra_header) +
        "element face 2\nproperty list uchar int vertex_indices\nend_header\n" + tetra_vertices +
        "3 0 1 2\n4 0 1 2 3\n";
    const File_error e = ply_error(text);
    EXPECT_EQ(e.part(), "face 1 (line 15)");
    EXPECT_NE(e.problem().find("4 corners"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("triangulate"), std::string::npos) << e.what();
    EXPECT_EQ(e.path(), "test.ply");

    // The same in binary.
    World w = gen::make_sphere_world({.count = 10});
    auto bytes = io::write_ply(w);
    const std::string header_end = "end_header\n";
    const auto data = text_of(bytes).find(header_end) + header_end.size();
    bytes[data + 10 * 12 + 2 * 13] = std::byte{4};
    try {
        (void)io::read_ply(bytes, "quad.ply");
        ADD_FAILURE();
    } catch (const File_error& err) {
        EXPECT_EQ(err.part(), "face 2");
        EXPECT_NE(err.problem().find("4 corners"), std::string::npos) << err.what();
    }
}

TEST(Ply, ThreeFacesOnAnEdgeAreRefusedNamingTheFaces) {
    const std::string text =
        "ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\n"
        "property float z\nelement face 3\nproperty list uchar int vertex_indices\nend_header\n"
        "0 0 0\n1 0 0\n0 1 0\n0 -1 0\n0 0 1\n"
        "3 0 1 2\n3 1 0 3\n3 0 1 4\n";
    const File_error e = ply_error(text);
    EXPECT_EQ(e.part(), "face 2") << e.what();
    EXPECT_NE(e.problem().find("corners 0 1 4"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("face 0 (corners 0 1 2)"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("non-manifold"), std::string::npos) << e.what();
}

TEST(Ply, BowTieVertexIsRefusedNamingTheFaces) {
    const std::string text =
        "ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\n"
        "property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n"
        "0 0 0\n1 0 0\n1 1 0\n-1 0 0\n-1 -1 0\n"
        "3 0 1 2\n3 0 3 4\n";
    const File_error e = ply_error(text);
    EXPECT_EQ(e.part(), "vertex 0") << e.what();
    EXPECT_NE(e.problem().find("face 0 (corners 0 1 2)"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("face 1 (corners 0 3 4)"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find("bow-tie"), std::string::npos) << e.what();
}

TEST(Ply, InconsistentOrientationAndDuplicatesAreRefused) {
    // Face 1 runs the shared edge the same way as face 0.
    File_error e = ply_error(tetra("", "3 0 2 1\n3 0 2 3\n3 0 3 2\n3 1 2 3\n"));
    EXPECT_EQ(e.part(), "face 1") << e.what();
    e = ply_error(tetra("", "3 0 2 1\n3 2 1 0\n3 0 3 2\n3 1 2 3\n"));
    EXPECT_EQ(e.part(), "face 1") << e.what();
    EXPECT_NE(e.problem().find("repeats face 0"), std::string::npos) << e.what();
    e = ply_error(tetra("", "3 0 2 1\n3 0 1 1\n3 0 3 2\n3 1 2 3\n"));
    EXPECT_EQ(e.part(), "face 1") << e.what();
    EXPECT_NE(e.problem().find("vertex 1 is a corner twice"), std::string::npos) << e.what();
}

TEST(Ply, BadIndicesAndNumbersAreRefused) {
    struct Case {
        std::string text;
        std::string part;
        std::string words;
    };
    const std::vector<Case> cases = {
        {tetra("", "3 0 2 1\n3 0 1 4\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)",
         "corner 4 is not a vertex"},
        {tetra("", "3 0 2 1\n3 0 1 -1\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)",
         "corner -1 is not a vertex"},
        {tetra("", "3 0 2 1\n3 0 1 3 7\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)", "more values"},
        {tetra("", "3 0 2 1\n3 0 1\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)", "the line ends"},
        {tetra("", "3 0 2 1\n2 0 1\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)", "2 corners"},
        {tetra("", "3 0 2 1\n3 0 1 x\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)",
         "'x' is not a valid int"},
        {tetra("", "3 0 2 1\n3 0 1 1.5\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)",
         "'1.5' is not a valid int"},
        {tetra("", "3 0 2 1\n300 0 1 2\n3 0 3 2\n3 1 2 3\n"), "face 1 (line 15)",
         "'300' is not a valid uchar"},
        {tetra("", "3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n3 1 2 3\n"), "line 18",
         "data after the last element"},
        {tetra("", "3 0 2 1\n3 0 1 3\n3 0 3 2\n"), "face 3 (line 17)", "the file ends"},
        {std::string(tetra_header) + "end_header\n0 0 0\n1 0 0\n0 1e99 0\n0 0 1\n",
         "vertex 2 (line 10)", "'1e99' is not a valid float"},
        {std::string(tetra_header) + "end_header\n0 0 0\n1 0 0\n0 1..5 0\n0 0 1\n",
         "vertex 2 (line 10)", "not a valid float"},
        {std::string(tetra_header) + "end_header\n0 0 0\n1 0 0\n0 nanx 0\n0 0 1\n",
         "vertex 2 (line 10)", "not a valid float"},
    };
    for (const Case& c : cases) {
        const File_error e = ply_error(c.text);
        EXPECT_EQ(e.part(), c.part) << e.what();
        EXPECT_NE(e.problem().find(c.words), std::string::npos) << e.what();
    }
}

TEST(Ply, BadHeadersAreRefused) {
    const std::string v =
        "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "not a PLY file"},
        {"PLY\nformat ascii 1.0\nend_header\n", "not a PLY file"},
        {"ply\nformat ascii 1.0\n" + v, "without an end_header"},
        {"ply\n" + v + "end_header\n0 0 0\n", "no format"},
        {"ply\nformat ascii 2.0\n" + v + "end_header\n0 0 0\n", "version"},
        {"ply\nformat binary_middle_endian 1.0\n" + v + "end_header\n", "unknown encoding"},
        {"ply\nformat ascii 1.0\nproperty float x\nend_header\n", "before any element"},
        {"ply\nformat ascii 1.0\n" + v + "property quad w\nend_header\n", "unknown type"},
        {"ply\nformat ascii 1.0\n" + v + "property float x\nend_header\n", "a second property"},
        {"ply\nformat ascii 1.0\n" + v + v + "end_header\n", "a second element"},
        {"ply\nformat ascii 1.0\nelement vertex -1\nend_header\n", "not a number"},
        {"ply\nformat ascii 1.0\nelement vertex 99999999999999999999\nend_header\n",
         "not a number"},
        {"ply\nformat ascii 1.0\n" + v +
             "element face 1\nproperty list float int "
             "vertex_indices\nend_header\n",
         "not an integer type"},
        {"ply\nformat ascii 1.0\n" + v +
             "element face 1\nproperty list uchar float "
             "vertex_indices\nend_header\n",
         "non-integer"},
        {"ply\nformat ascii 1.0\n" + v + "element face 1\nproperty int flags\nend_header\n",
         "no 'vertex_indices'"},
        {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
         "end_header\n0 0\n",
         "no scalar property 'z'"},
        {"ply\nformat ascii 1.0\n" + v + "elephant 3\nend_header\n", "unknown header keyword"},
        {"ply\nformat ascii 1.0\n" + v + "property list uchar int\nend_header\n", "property list"},
    };
    for (const auto& [text, words] : cases) {
        const File_error e = ply_error(text);
        EXPECT_NE(e.problem().find(words), std::string::npos) << e.what();
    }
}

TEST(Ply, NameCollisionsAreRefused) {
    // A vertex and a face property of one name would be two layers of one name (the clash is
    // found from the header, before the data).
    File_error e = ply_error(std::string(tetra_header) +
                             "property float quality\nelement face 4\n"
                             "property list uchar int vertex_indices\nproperty float quality\n"
                             "end_header\n");
    EXPECT_EQ(e.part(), "face property quality") << e.what();
    EXPECT_NE(e.problem().find("vertex property quality"), std::string::npos) << e.what();
    // Components that regroup into the name of another property.
    const std::string h = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                          "property float y\nproperty float z\nproperty float a\n"
                          "property float a_x\nproperty float a_y\nend_header\n0 0 0 1 2 3\n";
    e = ply_error(h);
    EXPECT_NE(e.what(), std::string()) << e.what();
    EXPECT_NE(e.problem().find("layer 'a'"), std::string::npos) << e.what();
    // position_x, position_y, position_z would be the positions' layer a second time.
    const std::string p = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                          "property float y\nproperty float z\nproperty float position_x\n"
                          "property float position_y\nproperty float position_z\n"
                          "end_header\n0 0 0 1 2 3\n";
    e = ply_error(p);
    EXPECT_NE(e.problem().find("layer 'position'"), std::string::npos) << e.what();
}

TEST(Ply, ForgedCountsAreRefusedBeforeAllocating) {
    const std::vector<std::string> cases = {
        "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\n"
        "property float y\nproperty float z\nend_header\n0123456789ab",
        "ply\nformat binary_little_endian 1.0\nelement vertex 3000000000\nproperty float x\n"
        "property float y\nproperty float z\nend_header\n0123456789ab",
        "ply\nformat binary_big_endian 1.0\nelement vertex 0\nproperty float x\n"
        "property float y\nproperty float z\nelement face 900000000\n"
        "property list uchar int vertex_indices\nend_header\n",
        "ply\nformat binary_little_endian 1.0\nelement junk 18446744073709551615\n"
        "property list uint uint stuff\nend_header\nabcd",
        "ply\nformat ascii 1.0\nelement junk 18446744073709551615\nproperty char c\n"
        "end_header\n1\n2\n",
        "ply\nformat ascii 1.0\nelement vertex 1000\nproperty float x\nproperty float y\n"
        "property float z\nend_header\n0 0 0\n",
    };
    for (const std::string& text : cases) {
        const File_error e = ply_error(text);
        EXPECT_FALSE(e.part().empty()) << e.what();
    }
    // A list length larger than the file.
    std::string s = "ply\nformat binary_little_endian 1.0\nelement junk 1\n"
                    "property list uint double stuff\nend_header\n";
    put<std::uint32_t>(s, 0xFFFFFFF0u, false);
    s += "12345678";
    EXPECT_NE(ply_error(s).problem().find("ends inside"), std::string::npos);
    // An element without properties takes no bytes, whatever its count.
    const std::string empty = "ply\nformat binary_little_endian 1.0\nelement nothing "
                              "18446744073709551615\nend_header\n";
    EXPECT_EQ(io::read_ply(bytes_of(empty)).mesh().vertex_count(), 0u);
}

// Every prefix of a valid file, and many files with bytes changed, either load or throw
// File_error; nothing else escapes and nothing crashes.
void expect_only_file_errors(const std::vector<std::byte>& bytes, std::uint64_t seed) {
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const std::span<const std::byte> prefix(bytes.data(), n);
        EXPECT_THROW((void)io::read_ply(prefix), File_error) << n << " of " << bytes.size();
    }
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 3000; ++round) {
        auto copy = bytes;
        const int changes = 1 + static_cast<int>(rng() % 4);
        for (int c = 0; c < changes; ++c) {
            const std::size_t at = rng() % copy.size();
            copy[at] =
                rng() % 2 ? std::byte(rng() % 256) : std::byte("0123456789 -.e\n"[rng() % 15]);
        }
        try {
            const World w = io::read_ply(copy);
            EXPECT_FALSE(w.mesh().validate());
        } catch (const File_error&) {
        } catch (const std::exception& e) {
            ADD_FAILURE() << "round " << round << ": " << typeid(e).name() << ": " << e.what();
        }
    }
}

TEST(Ply, TruncatedAndGarbledBinaryFilesGiveFileErrors) {
    World w = gen::make_sphere_world({.count = 12});
    {
        auto [h, q] = w.lock_layer(Layer_info<float, Layer_type::vertex>("h"),
                                   Layer_info<glm::dvec2, Layer_type::face>("q"));
        h[Vertex{1}] = 2.0f;
        q[Face{0}] = glm::dvec2(1, 2);
    }
    expect_only_file_errors(io::write_ply(w), 1);
    expect_only_file_errors(bytes_of(binary_tetra(true)), 2);
}

TEST(Ply, TruncatedAndGarbledAsciiFilesGiveFileErrors) {
    World w = gen::make_sphere_world({.count = 12});
    {
        auto [h] = w.lock_layer(Layer_info<std::int64_t, Layer_type::face>("h"));
        h[Face{1}] = -5;
    }
    const auto bytes = io::write_ply(w, Ply_format::ascii);
    // Prefixes that end in the trailing whitespace are complete files: cut only before it.
    std::vector<std::byte> trimmed(bytes.begin(), bytes.end() - 1);
    expect_only_file_errors(trimmed, 3);
}

// ---- files written by other programs (tests/data/ply, see tests/io/interop) ----

TEST(Ply, ReadsAFileWrittenByOpenMesh) {
    const World w =
        io::load_ply(std::filesystem::path(ORBIS_TEST_DATA) / "ply" / "openmesh_octahedron.ply");
    EXPECT_EQ(w.mesh().vertex_count(), 6u);
    EXPECT_EQ(w.mesh().face_count(), 8u);
    EXPECT_EQ(test::euler_characteristic(w.mesh()), 2);
    const auto& p = *w.layer(position_layer);
    EXPECT_EQ(p[Vertex{0}], glm::vec3(1, 0, 0));
    EXPECT_EQ(p[Vertex{5}], glm::vec3(0, 0, -1));
}

TEST(Ply, ReadsAFileWrittenByOpen3D) {
    const World w =
        io::load_ply(std::filesystem::path(ORBIS_TEST_DATA) / "ply" / "open3d_icosahedron.ply");
    EXPECT_EQ(w.mesh().vertex_count(), 12u);
    EXPECT_EQ(w.mesh().face_count(), 20u);
    EXPECT_EQ(test::euler_characteristic(w.mesh()), 2);
    // Open3D's icosahedron has corners (+-1, 0, +-phi) and its permutations, in double with six
    // digits.
    const auto& p = *w.layer(position_layer);
    EXPECT_EQ(p[Vertex{0}], glm::vec3(-1.0f, 0.0f, 1.61803f));
    for (const glm::vec3& x : p)
        EXPECT_NEAR(glm::length(x), std::sqrt(1.0f + 1.61803f * 1.61803f), 1e-5f);
}

} // namespace
} // namespace orbis
