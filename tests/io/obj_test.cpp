// SPDX-License-Identifier: MIT
// OBJ exchange: round trips of positions and triangles, the corner forms and negative indices
// of the format, and refusals naming the line.
#include "orbis/io/file_error.hpp"
#include "orbis/io/obj.hpp"
#include "support/fixtures.hpp"

#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace orbis {
namespace {

using io::File_error;

std::vector<std::byte> bytes_of(std::string_view s) {
    std::vector<std::byte> b(s.size());
    if (!s.empty()) std::memcpy(b.data(), s.data(), s.size());
    return b;
}

File_error obj_error(std::string_view text) {
    try {
        (void)io::read_obj(bytes_of(text), "test.obj");
    } catch (const File_error& e) {
        return e;
    }
    ADD_FAILURE() << "loaded:\n" << text;
    return File_error("test.obj", "", "no error");
}

// Positions of the live vertices in index order, and faces as rows.
void expect_same_geometry(const World& a, const World& b) {
    const Mesh& ma = a.mesh();
    const Mesh& mb = b.mesh();
    ASSERT_EQ(mb.vertex_count(), ma.vertex_count());
    ASSERT_EQ(mb.face_count(), ma.face_count());
    ASSERT_FALSE(mb.validate());
    std::vector<std::uint32_t> row(ma.vertex_slots(), UINT32_MAX);
    std::uint32_t n = 0;
    const auto& pa = *a.layer(position_layer);
    const auto& pb = *b.layer(position_layer);
    for (const Vertex v : ma.vertices()) {
        EXPECT_EQ(pa[v], pb[Vertex{n}]) << v;
        row[v.index()] = n++;
    }
    std::vector<Triangle> expected;
    for (const Face f : ma.faces()) {
        Triangle t = test::corners(ma, f);
        for (auto& x : t)
            x = row[x];
        expected.push_back(t);
    }
    EXPECT_EQ(test::face_corners(mb), test::canonical_sorted(expected));
}

TEST(Obj, RoundTripKeepsPositionsAndFaces) {
    const World w = gen::make_sphere_world({.count = 500, .perturbation = 0.4f, .seed = 2});
    const auto bytes = io::write_obj(w);
    const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    EXPECT_TRUE(text.starts_with("# written by Orbis"));
    EXPECT_NE(text.find("\nf "), std::string::npos);
    expect_same_geometry(w, io::read_obj(bytes));
}

TEST(Obj, DeletedElementsAreCompacted) {
    World w = gen::make_sphere_world({.count = 300, .seed = 4});
    {
        auto lock = w.lock_mesh();
        std::mt19937_64 rng(8);
        int done = 0;
        for (int tries = 0; done < 25 && tries < 1000; ++tries) {
            const Edge e{static_cast<std::uint32_t>(rng() % lock->edge_slots()) & ~1u};
            if (lock->contains(e) && !lock.try_collapse(e)) ++done;
        }
    }
    ASSERT_LT(w.mesh().vertex_count(), w.mesh().vertex_slots());
    expect_same_geometry(w, io::read_obj(io::write_obj(w)));
}

TEST(Obj, SaveAndLoadThroughFiles) {
    const World w = gen::make_sphere_world({.count = 50});
    const auto dir = std::filesystem::temp_directory_path() / "orbis_obj_test";
    std::filesystem::create_directories(dir);
    const auto path = dir / "sphere.obj";
    io::save_obj(w, path, io::Sync::none);
    expect_same_geometry(w, io::load_obj(path));
    std::filesystem::remove_all(dir);
    EXPECT_THROW(io::load_obj(path), File_error);
}

TEST(Obj, WorldWithoutPositionsWritesZeros) {
    World w;
    w.lock_mesh().assign(test::build(test::tetrahedron()));
    const World loaded = io::read_obj(io::write_obj(w));
    EXPECT_EQ(loaded.mesh().face_count(), 4u);
    for (const glm::vec3& p : *loaded.layer(position_layer))
        EXPECT_EQ(p, glm::vec3(0.0f));
}

TEST(Obj, ReadsCornerFormsNegativeIndicesAndIgnoresOtherStatements) {
    const std::string text = "# a tetrahedron\r\n"
                             "mtllib x.mtl\n"
                             "o thing\n"
                             "v 0 0 0\n"
                             "v 1 0 0 1.0\n"         // w
                             "v 0 1 0 0.5 0.5 0.5\n" // colour
                             "vt 0 0\nvn 0 0 1\n"
                             "g side\nusemtl red\ns 1\n"
                             "f 1 3 2\n"
                             "f 1/1 2/1 4/1 # forward reference to vertex 4\n"
                             "v +0 0 1e0\n"
                             "f -4//1 -1//1 -2//1\n"
                             "f 2/1/1 3/1/1 4/1/1\n"
                             "l 1 2\n";
    const World w = io::read_obj(bytes_of(text));
    EXPECT_EQ(w.mesh().vertex_count(), 4u);
    EXPECT_EQ(w.mesh().face_count(), 4u);
    EXPECT_EQ(test::euler_characteristic(w.mesh()), 2);
    EXPECT_EQ((*w.layer(position_layer))[Vertex{3}], glm::vec3(0, 0, 1));
    EXPECT_EQ(test::face_corners(w.mesh()),
              test::canonical_sorted({{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}));
}

TEST(Obj, OpenDiscLoads) {
    const test::Shape s = test::disc(2);
    const auto pts = test::disc_positions(2);
    std::string text;
    for (const auto& p : pts)
        text += "v " + std::to_string(p[0]) + " " + std::to_string(p[1]) + " 0\n";
    for (const auto& t : s.triangles)
        text += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " +
                std::to_string(t[2] + 1) + "\n";
    const World w = io::read_obj(bytes_of(text));
    EXPECT_EQ(test::face_corners(w.mesh()), test::canonical_sorted(s.triangles));
    EXPECT_EQ(test::euler_characteristic(w.mesh()), 1);
}

TEST(Obj, QuadsAreRefusedNamingTheLine) {
    const File_error e = obj_error("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n\nf 1 2 3 4\n");
    EXPECT_EQ(e.part(), "line 6");
    EXPECT_NE(e.problem().find("4 corners"), std::string::npos) << e.what();
    EXPECT_EQ(e.path(), "test.obj");
}

TEST(Obj, BadInputIsRefusedNamingTheLine) {
    const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {v + "f 1 2\n", "line 4"},   {v + "f 1 2 0\n", "line 4"},
        {v + "f 1 2 4\n", "line 4"}, {v + "f 1 2 -4\n", "line 4"},
        {v + "f 1 2 x\n", "line 4"}, {v + "f 1 2 3/\n\nf 1 2 3.5\n", "line 6"},
        {"v 0 0\n", "line 1"},       {"v 0 0 zero\n", "line 1"},
        {"v 0 0 1e60\n", "line 1"},  {v + "f 1 2 99999999999999999999\n", "line 4"},
    };
    for (const auto& [text, part] : cases) {
        const File_error e = obj_error(text);
        EXPECT_EQ(e.part(), part) << e.what();
    }
}

TEST(Obj, NonManifoldInputIsRefusedNamingFacesAndLines) {
    const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\n";
    File_error e = obj_error(v + "f 1 2 3\nf 2 1 4\nf 1 2 5\n");
    EXPECT_EQ(e.part(), "face 2 (line 8)") << e.what();
    EXPECT_NE(e.problem().find("face 0 (line 6) (corners 0 1 2)"), std::string::npos) << e.what();
    e = obj_error(v + "f 1 2 3\nf 1 4 5\n");
    EXPECT_EQ(e.part(), "vertex 0") << e.what();
    EXPECT_NE(e.problem().find("face 1 (line 7)"), std::string::npos) << e.what();
}

TEST(Obj, GarbledFilesGiveFileErrorsOnly) {
    const auto bytes = io::write_obj(gen::make_sphere_world({.count = 12}));
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        try {
            (void)io::read_obj(std::span<const std::byte>(bytes.data(), n));
        } catch (const File_error&) {
        }
    }
    std::mt19937_64 rng(11);
    for (int round = 0; round < 3000; ++round) {
        auto copy = bytes;
        for (int c = 0; c < 3; ++c)
            copy[rng() % copy.size()] = std::byte("0123456789 -/.e\nfv"[rng() % 18]);
        try {
            const World w = io::read_obj(copy);
            EXPECT_FALSE(w.mesh().validate());
        } catch (const File_error&) {
        } catch (const std::exception& e) {
            ADD_FAILURE() << "round " << round << ": " << e.what();
        }
    }
}

} // namespace
} // namespace orbis
