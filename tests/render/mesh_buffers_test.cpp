// SPDX-License-Identifier: MIT
// Tests of the render buffers: triangles, edges, Voronoi cells and layer colours.
#include "orbis/render/mesh_buffers.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <stdexcept>

namespace orbis::render {
namespace {

constexpr float radius = 2.f;
constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr auto plate = Layer_info<std::int32_t, Layer_type::face>("plate");
constexpr auto flow = Layer_info<float, Layer_type::edge_primal>("flow");
constexpr auto slope = Layer_info<float, Layer_type::edge_primal_directed>("slope");
constexpr auto wind = Layer_info<double, Layer_type::edge_dual_directed>("wind");
constexpr auto tint = Layer_info<glm::vec3, Layer_type::vertex>("tint");
constexpr auto uv = Layer_info<glm::vec2, Layer_type::vertex>("uv");

World sphere(std::uint32_t count) {
    return gen::make_sphere_world(
        {.count = count, .radius = radius, .perturbation = 0.5f, .seed = 7});
}

// Collapses up to `n` edges that check_collapse accepts, leaving holes in every free list.
void collapse_some(World& w, int n) {
    auto lock = w.lock_mesh();
    int done = 0;
    for (std::uint32_t q = 0; done < n && q < lock->edge_slots() / 2; q += 37) {
        const Edge e{2 * q};
        if (lock->contains(e) && !lock->check_collapse(e)) {
            lock.collapse(e);
            ++done;
        }
    }
    ASSERT_EQ(done, n);
}

float triangle_area(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    return 0.5f * glm::length(glm::cross(b - a, c - a));
}

TEST(MeshBuffers, FlatTrianglesHaveThreeCornersPerFace) {
    const World w = sphere(500);
    const auto p = vertex_positions(w);
    const Triangle_buffers b = triangles(w.mesh(), p, Shading::flat);
    ASSERT_EQ(b.positions.size(), 3 * w.mesh().face_count());
    ASSERT_EQ(b.face_of.size(), w.mesh().face_count());
    ASSERT_EQ(b.normals.size(), w.mesh().face_count());
    EXPECT_TRUE(b.indices.empty());
    for (std::size_t t = 0; t < b.face_of.size(); ++t) {
        std::set<Vertex> corners;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t i = b.corner(t, k);
            EXPECT_EQ(i, 3 * t + k); // in order: drawn without indices
            EXPECT_EQ(b.positions[i], p[b.vertex_of[i].index()]);
            corners.insert(b.vertex_of[i]);
            EXPECT_GT(glm::dot(b.normal_of(i), b.positions[i]), 0.f); // outward
        }
        // One normal per triangle: its face's.
        const glm::vec3 a = b.positions[3 * t], c1 = b.positions[3 * t + 1],
                        c2 = b.positions[3 * t + 2];
        EXPECT_NEAR(glm::dot(b.normals[t], glm::normalize(glm::cross(c1 - a, c2 - a))), 1.f, 1e-5f);
        std::set<Vertex> expected;
        for (const Vertex v : b.face_of[t].vertices(w.mesh()))
            expected.insert(v);
        EXPECT_EQ(corners, expected);
    }
}

TEST(MeshBuffers, SmoothTrianglesShareOneCornerPerVertex) {
    const World w = sphere(500);
    const auto p = vertex_positions(w);
    const Triangle_buffers b = triangles(w.mesh(), p, Shading::smooth);
    // Output vertex i is vertex slot i.
    ASSERT_EQ(b.positions.size(), w.mesh().vertex_slots());
    ASSERT_EQ(b.indices.size(), 3 * w.mesh().face_count());
    EXPECT_TRUE(b.vertex_of.empty());
    for (std::size_t i = 0; i < b.positions.size(); ++i) {
        EXPECT_EQ(b.vertex_at(i), Vertex(static_cast<std::uint32_t>(i)));
        EXPECT_EQ(b.positions[i], p[i]);
        // On a sphere the averaged normal is close to the radial direction.
        EXPECT_GT(glm::dot(b.normals[i], glm::normalize(b.positions[i])), 0.95f);
    }
}

// A region's triangles lie together in the buffers (along the sphere's curve), so that a dab's
// patch goes up in a few runs; in index order a Fibonacci sphere scatters them over the buffer.
// (Smooth output vertices are the slots themselves: Gl_renderer::patch joins them.)
TEST(MeshBuffers, TrianglesOfARegionLieTogether) {
    const World w = sphere(40000);
    const auto p = vertex_positions(w);
    for (const Shading shading : {Shading::flat, Shading::smooth}) {
        const Triangle_buffers b = triangles(w.mesh(), p, shading);
        // Every live face exactly once.
        std::set<std::uint32_t> faces;
        for (const Face f : b.face_of)
            faces.insert(f.index());
        ASSERT_EQ(faces.size(), w.mesh().face_count());
        for (const glm::vec3 centre : {glm::vec3(0, radius, 0), glm::vec3(radius, 0, 0),
                                       glm::normalize(glm::vec3(1, 1, -1)) * radius}) {
            // The triangles within 0.1 rad (about 150 faces), as a dab lists them (flat: their
            // corners, the outputs a patch sends).
            std::vector<std::uint32_t> outputs;
            for (std::size_t t = 0; t < b.face_of.size(); ++t) {
                const glm::vec3 corner = b.positions[b.corner(t, 0)];
                if (glm::dot(glm::normalize(corner), glm::normalize(centre)) > std::cos(0.1f))
                    for (std::uint32_t k = 0; k < 3; ++k)
                        outputs.push_back(static_cast<std::uint32_t>(3 * t + k));
            }
            std::sort(outputs.begin(), outputs.end());
            outputs.erase(std::unique(outputs.begin(), outputs.end()), outputs.end());
            ASSERT_GT(outputs.size(), 100u);
            // Runs as Gl_renderer::patch sends them: gaps of up to 8 outputs join.
            std::size_t runs = 1;
            for (std::size_t i = 1; i < outputs.size(); ++i)
                runs += outputs[i] > outputs[i - 1] + 8;
            EXPECT_LT(runs * 10, outputs.size()) << runs << " runs for " << outputs.size();
        }
    }
}

TEST(MeshBuffers, SmoothTrianglesBuiltWithoutNormalsGetTheSameOnesLater) {
    World w = sphere(500);
    collapse_some(w, 5);
    const auto p = vertex_positions(w);
    const Triangle_buffers full = triangles(w.mesh(), p, Shading::smooth);
    Triangle_buffers bare;
    triangles(w.mesh(), p, Shading::smooth, bare, false);
    EXPECT_FALSE(bare.with_normals);
    EXPECT_TRUE(bare.normals.empty());
    EXPECT_EQ(bare.positions, full.positions);
    EXPECT_EQ(bare.indices, full.indices);
    add_smooth_normals(w.mesh(), p, bare);
    EXPECT_TRUE(bare.with_normals);
    EXPECT_EQ(bare.normals, full.normals);
    // Flat triangles always have theirs.
    Triangle_buffers flat;
    triangles(w.mesh(), p, Shading::flat, flat, false);
    EXPECT_TRUE(flat.with_normals);
    EXPECT_EQ(flat.normals.size(), flat.face_of.size());
}

TEST(MeshBuffers, PrimalSegmentsRunFromOriginToDest) {
    const World w = sphere(300);
    const auto p = vertex_positions(w);
    const Line_buffers b = primal_edges(w.mesh(), p);
    ASSERT_EQ(b.edge_of.size(), w.mesh().edge_count());
    for (std::size_t s = 0; s < b.edge_of.size(); ++s) {
        const Edge e = b.edge_of[s];
        EXPECT_TRUE(e.is_primal());
        EXPECT_EQ(b.positions[2 * s], p[e.origin(w.mesh()).index()]);
        EXPECT_EQ(b.positions[2 * s + 1], p[e.dest(w.mesh()).index()]);
    }
}

TEST(MeshBuffers, DualSegmentsJoinCircumcentresOfRightAndLeft) {
    const World w = sphere(300);
    const auto p = vertex_positions(w);
    const auto centres = circumcentres(w.mesh(), p);
    const Line_buffers b = dual_edges(w.mesh(), p);
    ASSERT_EQ(b.edge_of.size(), w.mesh().edge_count());
    for (std::size_t s = 0; s < b.edge_of.size(); ++s) {
        const Edge d = b.edge_of[s];
        ASSERT_TRUE(d.is_dual());
        const Edge e = d.inv_rot(); // the primal edge it crosses
        EXPECT_EQ(b.positions[2 * s], centres[e.right(w.mesh()).index()]);
        EXPECT_EQ(b.positions[2 * s + 1], centres[e.left(w.mesh()).index()]);
        EXPECT_EQ(d.origin_face(w.mesh()), e.right(w.mesh()));
    }
}

TEST(MeshBuffers, VoronoiCellsHaveOneCornerPerFaceEquidistantFromItsCorners) {
    const World w = sphere(2000);
    const Mesh& m = w.mesh();
    const auto p = vertex_positions(w);
    const Voronoi_buffers b = voronoi_cells(m, p);
    ASSERT_EQ(b.cell_vertex.size(), m.vertex_count());
    ASSERT_EQ(b.cell_first.size(), m.vertex_count() + 1);
    for (std::size_t c = 0; c < b.cell_vertex.size(); ++c) {
        const Vertex v = b.cell_vertex[c];
        const std::uint32_t first = b.cell_first[c];
        const std::uint32_t corners = b.cell_first[c + 1] - first - 1;
        ASSERT_EQ(corners, static_cast<std::uint32_t>(v.valence(m)));
        EXPECT_EQ(b.positions[first], p[v.index()]);
        for (std::uint32_t i = first + 1; i <= first + corners; ++i) {
            const Face f = b.corner_face[i];
            ASSERT_TRUE(m.contains(f));
            float d[3];
            int k = 0;
            for (const Vertex x : f.vertices(m))
                d[k++] = glm::distance(b.positions[i], p[x.index()]);
            // Relative to the radius: float positions lie on the sphere only to about 1e-7 r,
            // and that offset reaches the distances amplified by r / d.
            EXPECT_NEAR(d[0], d[1], 1e-5f * radius);
            EXPECT_NEAR(d[0], d[2], 1e-5f * radius);
            EXPECT_NEAR(glm::length(b.positions[i]), radius, 1e-5f * radius);
        }
    }
    for (std::size_t t = 0; t < b.indices.size() / 3; ++t) {
        const std::size_t c = cell_of_triangle(b, t);
        EXPECT_EQ(b.indices[3 * t], b.cell_first[c]);
        EXPECT_LT(b.indices[3 * t + 2], b.cell_first[c + 1]);
    }
}

TEST(MeshBuffers, VoronoiCellsTileTheSphere) {
    const World w = sphere(20000);
    const auto p = vertex_positions(w);
    const Voronoi_buffers b = voronoi_cells(w.mesh(), p);
    double area = 0;
    for (std::size_t t = 0; t < b.indices.size(); t += 3) {
        const glm::vec3 a = b.positions[b.indices[t]], c1 = b.positions[b.indices[t + 1]],
                        c2 = b.positions[b.indices[t + 2]];
        area += triangle_area(a, c1, c2);
        // Counterclockwise seen from outside, but for rounding where two circumcentres
        // (nearly) coincide: four co-circular points give a Voronoi edge of length zero.
        EXPECT_GT(glm::dot(glm::cross(c1 - a, c2 - a), a), -1e-6f);
    }
    const double sphere_area = 4 * std::numbers::pi * radius * radius;
    EXPECT_NEAR(area, sphere_area, 1e-3 * sphere_area);
    EXPECT_EQ(b.indices.size() / 3, 2 * w.mesh().edge_count()); // one fan triangle per corner
}

TEST(MeshBuffers, VertexColoursEqualMapColour) {
    World w = sphere(400);
    {
        auto [h] = w.lock_layer(height);
        for (const Vertex v : w.mesh().vertices())
            h[v] = static_cast<float>(v.index() % 50) - 10.f;
    }
    const auto p = vertex_positions(w);
    const Colour_options options{.map = Colour_map_kind::viridis, .range = std::pair{-10.0, 40.0}};
    const Slot_colours c = colours_for_vertices(w, "height", options);
    const auto* h = w.layer(height);
    auto expected = [&](Vertex v) {
        const Srgb8 s = map_colour(Colour_map_kind::viridis, (*h)[v], -10.0, 40.0);
        return Colour(s, 255);
    };
    const Triangle_buffers smooth = triangles(w.mesh(), p, Shading::smooth);
    const auto on_smooth = colours_on(smooth, c);
    ASSERT_EQ(on_smooth.size(), w.mesh().vertex_slots());
    for (std::size_t i = 0; i < on_smooth.size(); ++i)
        EXPECT_EQ(on_smooth[i], w.mesh().contains(smooth.vertex_at(i))
                                    ? expected(smooth.vertex_at(i))
                                    : no_colour);
    const Voronoi_buffers cells = voronoi_cells(w.mesh(), p);
    const auto on_cells = colours_on(cells, c);
    for (std::size_t cell = 0; cell < cells.cell_vertex.size(); ++cell)
        for (std::uint32_t i = cells.cell_first[cell]; i < cells.cell_first[cell + 1]; ++i)
            EXPECT_EQ(on_cells[i], expected(cells.cell_vertex[cell]));
    // Default map and range for floats: viridis over the live values' extremes, -10 and 39.
    const Slot_colours d = colours_for_vertices(w, "height");
    for (const Vertex v : w.mesh().vertices())
        EXPECT_EQ(d.colours[v.index()],
                  Colour(map_colour(Colour_map_kind::viridis, (*h)[v], -10.0, 39.0), 255));
}

TEST(MeshBuffers, FaceColoursLandOnTheirTriangles) {
    World w = sphere(300);
    {
        auto [f] = w.lock_layer(plate);
        for (const Face x : w.mesh().faces())
            f[x] = static_cast<std::int32_t>(x.index() % 7);
    }
    const auto p = vertex_positions(w);
    const Slot_colours c = colours_for_faces(w, "plate");
    const Triangle_buffers flat = triangles(w.mesh(), p, Shading::flat);
    const auto on = colours_on(flat, c);
    for (std::size_t t = 0; t < flat.face_of.size(); ++t) {
        const Colour want(categorical(flat.face_of[t].index() % 7), 255); // integers: categorical
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(on[flat.corner(t, k)], want);
    }
    EXPECT_THROW((void)colours_on(triangles(w.mesh(), p, Shading::smooth), c),
                 std::invalid_argument);
    EXPECT_THROW((void)colours_on(voronoi_cells(w.mesh(), p), c), std::invalid_argument);
}

TEST(MeshBuffers, EdgeColoursLandOnTheirSegments) {
    World w = sphere(300);
    const Mesh& m = w.mesh();
    {
        auto [f, s, d] = w.lock_layer(flow, slope, wind);
        for (const Edge e : m.edges()) {
            f[e] = static_cast<float>(e.quad_index());
            s[e] = static_cast<float>(e.index());
            s[e.sym()] = -static_cast<float>(e.index());
            d[e.rot()] = 1.0;
            d[e.rot().sym()] = 2.0;
        }
    }
    const Colour_options o{.map = Colour_map_kind::viridis, .range = std::pair{-1000.0, 1000.0}};
    auto colour = [&](double x) {
        return Colour(map_colour(Colour_map_kind::viridis, x, -1000, 1000), 255);
    };
    const auto p = vertex_positions(w);
    const Line_buffers primal = primal_edges(m, p);
    const auto on_flow = colours_on(primal, colours_for_edges(w, "flow", o));
    const auto on_slope = colours_on(primal, colours_for_edges(w, "slope", o));
    for (std::size_t s = 0; s < primal.edge_of.size(); ++s) {
        const Edge e = primal.edge_of[s];
        EXPECT_EQ(on_flow[2 * s], colour(e.quad_index()));
        EXPECT_EQ(on_flow[2 * s + 1], colour(e.quad_index()));
        EXPECT_EQ(on_slope[2 * s], colour(e.index()));
        EXPECT_EQ(on_slope[2 * s + 1], colour(-static_cast<double>(e.index())));
    }
    const Line_buffers dual = dual_edges(m, p);
    const auto on_wind = colours_on(dual, colours_for_edges(w, "wind", o));
    for (std::size_t s = 0; s < dual.edge_of.size(); ++s) {
        const Edge d = dual.edge_of[s];
        const auto& layer = *w.layer(wind);
        EXPECT_EQ(on_wind[2 * s], colour(layer[d]));
        EXPECT_EQ(on_wind[2 * s + 1], colour(layer[d.sym()]));
    }
    EXPECT_THROW((void)colours_on(dual, colours_for_edges(w, "flow", o)), std::invalid_argument);
    EXPECT_THROW((void)colours_on(primal, colours_for_edges(w, "wind", o)), std::invalid_argument);
}

TEST(MeshBuffers, VectorLayersAreRgbAndPairsAreRefused) {
    World w = sphere(100);
    {
        auto [t, u] = w.lock_layer(tint, uv);
        for (const Vertex v : w.mesh().vertices()) {
            t[v] = glm::vec3(0.f, 0.5f, 1.f);
            u[v] = glm::vec2(1.f);
        }
    }
    const Slot_colours c =
        colours_for_vertices(w, "tint", {.map = std::nullopt, .range = std::pair{0.0, 1.0}});
    EXPECT_EQ(c.colours[3], Colour(0, 128, 255, 255));
    try {
        (void)colours_for_vertices(w, "uv");
        FAIL() << "vec2 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'uv'"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)colours_for_vertices(w, "missing"), std::invalid_argument);
    EXPECT_THROW((void)colours_for_faces(w, "tint"), std::invalid_argument);
}

// A smooth build over positions already in place indexes its triangles as it lays them out:
// the same index index_triangles() makes, dead face slots included, whatever the index held.
TEST(MeshBuffers, SmoothBuildIndexesItsTriangles) {
    World w = sphere(600);
    collapse_some(w, 20);
    ASSERT_LT(w.mesh().face_count(), w.mesh().face_slots());
    Triangle_buffers b;
    b.positions = vertex_positions(w);
    Triangle_index index;
    index.triangle_of_face.assign(5, 3); // a stale index, reused
    smooth_triangles(w.mesh(), b, true, &index);
    EXPECT_EQ(index.triangle_of_face, index_triangles(b, w.mesh()).triangle_of_face);
    const Triangle_buffers copied = triangles(w.mesh(), vertex_positions(w), Shading::smooth);
    EXPECT_EQ(b.indices, copied.indices);
    EXPECT_EQ(b.face_of, copied.face_of);
}

TEST(MeshBuffers, DeletedElementsNeverAppear) {
    World w = sphere(600);
    collapse_some(w, 20);
    const Mesh& m = w.mesh();
    ASSERT_FALSE(m.validate());
    ASSERT_LT(m.vertex_count(), m.vertex_slots());
    const auto p = vertex_positions(w);
    const Triangle_buffers flat = triangles(m, p, Shading::flat);
    const Triangle_buffers smooth = triangles(m, p, Shading::smooth);
    EXPECT_EQ(flat.face_of.size(), m.face_count());
    EXPECT_EQ(smooth.positions.size(), m.vertex_slots());
    for (const Vertex v : flat.vertex_of)
        EXPECT_TRUE(m.contains(v));
    // Dead slots are outputs too, but no triangle draws them.
    for (const std::uint32_t i : smooth.indices)
        EXPECT_TRUE(m.contains(Vertex(i)));
    for (const Face f : flat.face_of)
        EXPECT_TRUE(m.contains(f));
    const Line_buffers primal = primal_edges(m, p);
    EXPECT_EQ(primal.edge_of.size(), m.edge_count());
    for (const Edge e : primal.edge_of)
        EXPECT_TRUE(m.contains(e));
    const Voronoi_buffers cells = voronoi_cells(m, p);
    EXPECT_EQ(cells.cell_vertex.size(), m.vertex_count());
    for (std::size_t c = 0; c < cells.cell_vertex.size(); ++c) {
        EXPECT_TRUE(m.contains(cells.cell_vertex[c]));
        EXPECT_EQ(cells.cell_first[c + 1] - cells.cell_first[c] - 1,
                  static_cast<std::uint32_t>(cells.cell_vertex[c].valence(m)));
    }
    for (const Face f : cells.corner_face)
        EXPECT_TRUE(f == no_face || m.contains(f));
    EXPECT_EQ(dual_edges(m, p).edge_of.size(), m.edge_count());
}

TEST(MeshBuffers, OpenMeshGetsPartialCells) {
    // A fan of four triangles around vertex 0, open at the rim.
    World w;
    {
        auto lock = w.lock_mesh();
        const Vertex first = lock.add_vertices(5);
        const Vertex c = first, a{1}, b{2}, d{3}, e{4};
        lock.add_face(c, a, b);
        lock.add_face(c, b, d);
        lock.add_face(c, d, e);
    }
    {
        auto [p] = w.lock_layer(position_layer);
        p[Vertex{0}] = glm::normalize(glm::vec3(0, 0, 1));
        p[Vertex{1}] = glm::normalize(glm::vec3(1, 0, 1));
        p[Vertex{2}] = glm::normalize(glm::vec3(0, 1, 1));
        p[Vertex{3}] = glm::normalize(glm::vec3(-1, 0, 1));
        p[Vertex{4}] = glm::normalize(glm::vec3(0, -1, 1));
    }
    const Voronoi_buffers cells = voronoi_cells(w.mesh(), vertex_positions(w));
    ASSERT_EQ(cells.cell_vertex.size(), 5u);
    // The centre has three faces, hence three corners but only two fan triangles; the rim
    // vertices 1 and 4 have one face (no triangle), 2 and 3 two faces (one triangle).
    EXPECT_EQ(cells.cell_first[1] - cells.cell_first[0] - 1, 3u);
    EXPECT_EQ(cells.indices.size() / 3, 2u + 0 + 1 + 1 + 0);
    EXPECT_EQ(dual_edges(w.mesh(), vertex_positions(w)).edge_of.size(), 2u);
}

} // namespace
} // namespace orbis::render
