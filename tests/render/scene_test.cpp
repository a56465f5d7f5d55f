// SPDX-License-Identifier: MIT
// Tests of Scene_builder: the parts the display modes ask for, layer colours routed to the
// parts of their kind, and stamps that change exactly when something must be uploaded.
#include "orbis/render/scene.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace orbis::render {
namespace {

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr auto area = Layer_info<float, Layer_type::face>("area");
constexpr auto crease = Layer_info<float, Layer_type::edge_primal>("crease");
constexpr auto flow = Layer_info<float, Layer_type::edge_dual_directed>("flow");

World sphere() {
    World w =
        gen::make_sphere_world({.count = 300, .radius = 2.f, .perturbation = 0.5f, .seed = 5});
    auto [h, a, c, f] = w.lock_layer(height, area, crease, flow);
    for (const Vertex v : w.mesh().vertices())
        h[v] = float(v.index());
    for (const Face x : w.mesh().faces())
        a[x] = float(x.index());
    return w;
}

Edge flippable(const World& w) {
    for (const Edge e : w.mesh().edges())
        if (!w.mesh().check_flip(e)) return e;
    return no_edge;
}

TEST(Scene, ModesAskForTheirParts) {
    const World w = sphere();
    Scene_builder b;
    View_options o;
    o.triangles = false;
    o.boundary = false;
    Scene s = b.build(w, o);
    EXPECT_FALSE(s.triangles.geometry || s.voronoi.geometry || s.primal_edges.geometry ||
                 s.dual_edges.geometry || s.points.geometry || s.boundary.geometry);
    o = View_options{};
    o.wireframe = o.voronoi_cells = o.dual_edges = o.points = true;
    s = b.build(w, o);
    ASSERT_TRUE(s.triangles.geometry && s.voronoi.geometry && s.primal_edges.geometry &&
                s.dual_edges.geometry && s.points.geometry);
    EXPECT_EQ(s.points.geometry->positions.size(), w.mesh().vertex_count());
    EXPECT_EQ(s.primal_edges.geometry->edge_of.size(), w.mesh().edge_count());
    // A closed sphere has no boundary to draw.
    EXPECT_FALSE(s.boundary.geometry);
    EXPECT_NEAR(s.radius, 2.0, 1e-5);
}

TEST(Scene, LayersColourThePartsOfTheirKind) {
    const World w = sphere();
    Scene_builder b;
    View_options o;
    o.wireframe = o.voronoi_cells = o.dual_edges = true;
    o.layer = "height";
    Scene s = b.build(w, o);
    EXPECT_TRUE(s.triangles.colours && s.voronoi.colours);
    EXPECT_FALSE(s.primal_edges.colours || s.dual_edges.colours);
    EXPECT_TRUE(s.layer_error.empty());

    o.layer = "area";
    o.shading = Shading::smooth;
    s = b.build(w, o);
    ASSERT_TRUE(s.triangles.colours);
    EXPECT_EQ(s.triangles.geometry->shading, Shading::flat) << "face colours need flat triangles";
    EXPECT_FALSE(s.voronoi.colours);

    o.layer = "crease";
    s = b.build(w, o);
    EXPECT_TRUE(s.primal_edges.colours);
    EXPECT_FALSE(s.triangles.colours || s.dual_edges.colours);

    o.layer = "flow";
    s = b.build(w, o);
    EXPECT_TRUE(s.dual_edges.colours);
    EXPECT_FALSE(s.primal_edges.colours);
}

TEST(Scene, UnshowableLayersSayWhy) {
    World w = sphere();
    (void)w.lock_layer("notes");
    Scene_builder b;
    View_options o;
    o.layer = "missing";
    EXPECT_NE(b.build(w, o).layer_error.find("no layer named 'missing'"), std::string::npos);
    o.layer = "notes";
    EXPECT_NE(b.build(w, o).layer_error.find("Dict"), std::string::npos);
    o.layer = "crease";
    const Scene s = b.build(w, o); // wireframe off: nothing to colour
    EXPECT_NE(s.layer_error.find("wireframe"), std::string::npos);
    EXPECT_FALSE(s.triangles.colours);
}

TEST(Scene, StampsChangeOnlyWithWhatTheyStandFor) {
    World w = sphere();
    Scene_builder b;
    View_options o;
    o.layer = "height";
    const Scene first = b.build(w, o);
    const Scene same = b.build(w, o);
    EXPECT_EQ(same.triangles.geometry_stamp, first.triangles.geometry_stamp);
    EXPECT_EQ(same.triangles.colour_stamp, first.triangles.colour_stamp);
    EXPECT_EQ(b.last_rebuilds().total(), 0);

    // A new colour map: colours only.
    o.colours.map = Colour_map_kind::diverging;
    const Scene recoloured = b.build(w, o);
    EXPECT_EQ(recoloured.triangles.geometry_stamp, first.triangles.geometry_stamp);
    EXPECT_NE(recoloured.triangles.colour_stamp, first.triangles.colour_stamp);

    // A value edit: colours only.
    {
        auto [h] = w.lock_layer(height);
        h[Vertex(0)] = 1000.f;
    }
    const Scene edited = b.build(w, o);
    EXPECT_EQ(edited.triangles.geometry_stamp, first.triangles.geometry_stamp);
    EXPECT_NE(edited.triangles.colour_stamp, recoloured.triangles.colour_stamp);

    // A flip: geometry and colours.
    w.lock_mesh().flip(flippable(w));
    const Scene flipped = b.build(w, o);
    EXPECT_NE(flipped.triangles.geometry_stamp, edited.triangles.geometry_stamp);
    EXPECT_NE(flipped.triangles.colour_stamp, edited.triangles.colour_stamp);

    // Flat shading draws the shared vertices without normals; smooth shading adds them (one
    // upload), and going back to flat keeps them: nothing to upload.
    EXPECT_TRUE(flipped.flat_shading);
    EXPECT_FALSE(flipped.triangles.geometry->with_normals);
    EXPECT_TRUE(flipped.triangles.geometry->normals.empty());
    o.shading = Shading::smooth;
    const Scene smooth_first = b.build(w, o);
    EXPECT_NE(smooth_first.triangles.geometry_stamp, flipped.triangles.geometry_stamp);
    EXPECT_TRUE(smooth_first.triangles.geometry->with_normals);
    EXPECT_FALSE(smooth_first.flat_shading);
    o.shading = Shading::flat;
    const Scene flat_again = b.build(w, o);
    EXPECT_EQ(flat_again.triangles.geometry_stamp, smooth_first.triangles.geometry_stamp);
    EXPECT_EQ(b.last_rebuilds().triangles, 0);
    o.shading = Shading::smooth;
    const Scene smooth = b.build(w, o);
    EXPECT_EQ(smooth.triangles.geometry_stamp, flat_again.triangles.geometry_stamp);
    // Face colours are other geometry (three corners per face); going back is the shared
    // vertices again but a new stamp, since the GPU holds the face layer's by then.
    o.layer = "area";
    const Scene faces = b.build(w, o);
    EXPECT_NE(faces.triangles.geometry_stamp, smooth.triangles.geometry_stamp);
    EXPECT_TRUE(faces.flat_shading);
    o.layer = "height";
    EXPECT_NE(b.build(w, o).triangles.geometry_stamp, faces.triangles.geometry_stamp);
}

TEST(Scene, VectorLayersShowAsArrowsFromEachVertex) {
    World w = sphere();
    constexpr auto wind = Layer_info<glm::vec3, Layer_type::vertex>("wind");
    {
        auto [v, p] = w.lock_layer(wind, position_layer);
        for (const Vertex x : w.mesh().vertices())
            v[x] = glm::cross(glm::vec3(0, 1, 0), p[x]) * float(1 + x.index() % 3);
    }
    Scene_builder b;
    View_options o;
    o.layer = "wind";
    o.arrows = true;
    const Scene s = b.build(w, o);
    ASSERT_TRUE(s.arrows.geometry && s.arrows.colours);
    EXPECT_TRUE(s.layer_error.empty()) << s.layer_error;
    const auto& a = *s.arrows.geometry;
    ASSERT_EQ(a.positions.size(), 2 * w.mesh().vertex_count());
    EXPECT_EQ(s.arrows.colours->size(), a.positions.size());
    // Each arrow starts at its vertex and points along the vector.
    const auto* p = w.layer(position_layer);
    const auto* v = w.layer(wind);
    for (std::size_t i = 0; i < a.positions.size(); i += 2) {
        const Vertex x = a.vertex_of[i];
        EXPECT_EQ(a.positions[i], (*p)[x]);
        const glm::vec3 d = a.positions[i + 1] - a.positions[i];
        if (glm::length((*v)[x]) > 0.f) {
            EXPECT_GT(glm::dot(glm::normalize(d), glm::normalize((*v)[x])), 0.999f);
        }
    }
    // Unchanged inputs, unchanged stamps; a scalar layer is refused with the reason.
    EXPECT_EQ(b.build(w, o).arrows.geometry_stamp, s.arrows.geometry_stamp);
    o.layer = "height";
    const Scene refused = b.build(w, o);
    EXPECT_FALSE(refused.arrows.geometry);
    EXPECT_NE(refused.layer_error.find("arrows"), std::string::npos);
}

TEST(Scene, OpenMeshesHaveBoundarySegments) {
    // Two triangles sharing an edge: an open mesh with four boundary edges.
    World open;
    {
        auto m = open.lock_mesh();
        const Vertex a = m.add_vertices(4);
        m.add_face(a, Vertex(a.index() + 1), Vertex(a.index() + 2));
        m.add_face(a, Vertex(a.index() + 2), Vertex(a.index() + 3));
    }
    {
        auto [p] = open.lock_layer(position_layer);
        p[Vertex(0)] = {0, 0, 1};
        p[Vertex(1)] = {1, 0, 1};
        p[Vertex(2)] = {1, 1, 1};
        p[Vertex(3)] = {0, 1, 1};
    }
    Scene_builder b;
    const Scene s = b.build(open, View_options{});
    ASSERT_TRUE(s.boundary.geometry);
    EXPECT_EQ(s.boundary.geometry->positions.size(), 2u * 4u); // four outer edges
}

} // namespace
} // namespace orbis::render
