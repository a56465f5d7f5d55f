// SPDX-License-Identifier: MIT
// Tests of in-place buffer updates: after any sequence of flips, splits, collapses and position
// edits, triangles and colours updated from recorded deltas draw exactly what a fresh build
// draws, and stale deltas are refused.
#include "orbis/core/delta_recorder.hpp"
#include "orbis/render/buffer_cache.hpp"
#include "orbis/render/scene.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/gen/sphere_module.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <tuple>

namespace orbis::render {
namespace {

constexpr auto height =
    Layer_info<float, Layer_type::vertex>("height").interpolation(Interpolation::lerp);
constexpr auto area = Layer_info<float, Layer_type::face>("area");

// A Fibonacci sphere: its face slots follow the spiral, which keeps a region's triangles
// together only while the mesh is small (600 points: the view lays smooth triangles out in slot
// order), not at 50,000 (along the curve, through the maps between faces and triangles).
World sphere(std::uint32_t count = 600) {
    World w =
        gen::make_sphere_world({.count = count, .radius = 1.f, .perturbation = 0.5f, .seed = 9});
    auto [h, a] = w.lock_layer(height, area);
    for (const Vertex v : w.mesh().vertices())
        h[v] = float(v.index() % 97);
    for (const Face f : w.mesh().faces())
        a[f] = float(f.index() % 13);
    return w;
}

// One random edit (flip, split, collapse or a move of a vertex), recorded.
void random_edit(World& w, std::mt19937_64& rng, Delta_recorder& recorder) {
    const Mesh& m = w.mesh();
    std::vector<Edge> edges;
    for (const Edge e : m.edges())
        edges.push_back(e);
    const Edge e = edges[rng() % edges.size()];
    switch (rng() % 4) {
    case 0:
        (void)w.lock_mesh().try_flip(e);
        break;
    case 1:
        (void)w.lock_mesh().try_split(e, 0.3f);
        break;
    case 2:
        (void)w.lock_mesh().try_collapse(e, 0.5f);
        break;
    default: {
        const Vertex v = e.origin(m);
        auto [p] = w.lock_layer(position_layer);
        p[v] = glm::normalize(p[v] + glm::vec3(0.01f, -0.02f, 0.015f));
        recorder.touch(v);
        break;
    }
    }
}

// What a triangle buffer draws: per live face, its corners (from the first corner of the
// face's own order) with position, normal and colour.
using Corner = std::tuple<std::uint32_t, float, float, float, float, float, float, int, int, int>;
std::map<std::uint32_t, std::vector<Corner>> drawn(const Mesh& m, const Triangle_buffers& b,
                                                   const std::vector<Colour>* colours) {
    std::map<std::uint32_t, std::vector<Corner>> out;
    for (std::size_t t = 0; t < b.triangle_count(); ++t) {
        const Face f = b.face_at(m, t);
        if (!f.valid()) continue;
        std::vector<Corner> corners;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t o = triangle_corners(m, b, t)[k];
            const glm::vec3 p = b.positions[o], n = b.normal_of(o);
            const Colour c = colours ? (*colours)[o] : Colour{};
            // Normals rounded: a smooth normal summed in another order differs in the last bits.
            auto r = [](float x) { return std::round(x * 1e4f) / 1e4f; };
            corners.emplace_back(b.vertex_at(o).index(), p.x, p.y, p.z, r(n.x), r(n.y), r(n.z), c.r,
                                 c.g, c.b);
        }
        std::rotate(corners.begin(), std::min_element(corners.begin(), corners.end()),
                    corners.end());
        out[f.index()] = corners;
    }
    return out;
}

// Smooth triangles built without indices read them from the mesh: through a build and every
// kind of edit, what the mesh says equals what indexed twins updated alongside hold, and the
// culling bounds and the rewritten outputs agree.
TEST(IncrementalUpdates, TrianglesWithoutIndicesReadTheIndicesIndexedOnesHold) {
    World w = sphere(50'000);
    const auto positions = [&w] { return vertex_positions(w); };
    Triangle_buffers indexed = triangles(w.mesh(), positions(), Shading::smooth);
    Triangle_index indexed_index = index_triangles(indexed, w.mesh());
    Triangle_buffers bare;
    bare.positions = positions();
    Triangle_index bare_index;
    smooth_triangles(w.mesh(), bare, true, &bare_index, false);
    EXPECT_FALSE(bare.with_indices);
    EXPECT_TRUE(bare.indices.empty());
    EXPECT_TRUE(indexed.with_indices);
    ASSERT_FALSE(bare.in_slot_order) << "the spiral's slots are scattered at this size";
    auto expect_same = [&](int step) {
        ASSERT_EQ(bare.face_of, indexed.face_of) << "after step " << step;
        std::vector<std::uint32_t> all(3 * bare.face_of.size());
        smooth_indices(w.mesh(), bare, 0, all);
        for (std::size_t t = 0; t < bare.face_of.size(); ++t) {
            const std::array<std::uint32_t, 3> read = triangle_corners(w.mesh(), bare, t);
            ASSERT_EQ(read, (std::array{all[3 * t], all[3 * t + 1], all[3 * t + 2]}));
            if (bare.face_of[t].valid()) {
                ASSERT_EQ(read, triangle_corners(w.mesh(), indexed, t)) << "after step " << step;
            } else {
                // Collapsed: a point either way, which draws nothing.
                ASSERT_EQ(read, (std::array<std::uint32_t, 3>{0, 0, 0}));
                ASSERT_EQ(indexed.indices[3 * t], indexed.indices[3 * t + 2]);
            }
        }
        // Face by face, through the index, the same again.
        std::vector<std::uint32_t> by_face(all.size(), 77);
        smooth_indices_by_face(w.mesh(), bare, bare_index, by_face);
        ASSERT_EQ(by_face, all) << "after step " << step;
        // A range from the middle reads the same as the whole.
        if (bare.face_of.size() > 10) {
            std::vector<std::uint32_t> some(3 * 7);
            smooth_indices(w.mesh(), bare, 3, some);
            ASSERT_TRUE(std::equal(some.begin(), some.end(), all.begin() + 9));
        }
        ASSERT_EQ(bare.clusters, indexed.clusters) << "after step " << step;
        ASSERT_EQ(bare.clusters, triangle_clusters(bare, &w.mesh())) << "after step " << step;
        ASSERT_EQ(bare.normals, indexed.normals) << "after step " << step;
    };
    expect_same(-1);
    EXPECT_THROW((void)triangle_clusters(bare), std::invalid_argument);
    std::mt19937_64 rng(31);
    for (int step = 0; step < 150; ++step) {
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        const World_delta delta = recorder.delta();
        const auto p = positions();
        const Buffer_dirt a =
            update_triangles(w.mesh(), p, delta.vertices, delta.faces, indexed, indexed_index);
        const Buffer_dirt b =
            update_triangles(w.mesh(), p, delta.vertices, delta.faces, bare, bare_index);
        ASSERT_EQ(a.vertices, b.vertices);
        ASSERT_EQ(a.triangles, b.triangles);
        ASSERT_TRUE(bare.indices.empty());
        expect_same(step);
    }
}

// Smooth triangles without indices on a mesh whose face slots keep regions together are the
// face slots themselves: no map is kept, triangle t draws face slot t (or, once that face is
// gone, a point that draws nothing), and through every kind of edit the triangles draw what
// indexed twins draw, the culling bounds are those made afresh, and every rewritten face's
// triangle is listed.
TEST(IncrementalUpdates, TrianglesInSlotOrderAreTheFaceSlots) {
    World w = sphere();
    const auto positions = [&w] { return vertex_positions(w); };
    Triangle_buffers indexed = triangles(w.mesh(), positions(), Shading::smooth);
    Triangle_index indexed_index = index_triangles(indexed, w.mesh());
    Triangle_buffers bare;
    bare.positions = positions();
    Triangle_index bare_index;
    bare_index.triangle_of_face.assign(5, 1); // emptied by the build
    smooth_triangles(w.mesh(), bare, true, &bare_index, false);
    ASSERT_TRUE(bare.in_slot_order);
    EXPECT_FALSE(indexed.in_slot_order) << "triangles with indices keep the curve's order";
    auto expect_same = [&](int step) {
        SCOPED_TRACE(step);
        const Mesh& m = w.mesh();
        ASSERT_TRUE(bare.face_of.empty());
        ASSERT_TRUE(bare_index.triangle_of_face.empty());
        ASSERT_TRUE(index_triangles(bare, m).triangle_of_face.empty());
        ASSERT_GE(bare.triangle_count(), m.face_slots());
        std::vector<std::uint32_t> all(3 * bare.triangle_count());
        smooth_indices(m, bare, 0, all);
        std::size_t drawn_faces = 0;
        for (std::size_t t = 0; t < bare.triangle_count(); ++t) {
            const std::array<std::uint32_t, 3> read = triangle_corners(m, bare, t);
            ASSERT_EQ(read, (std::array{all[3 * t], all[3 * t + 1], all[3 * t + 2]}));
            const Face f{static_cast<std::uint32_t>(t)};
            if (t < m.face_slots() && m.contains(f)) {
                ASSERT_EQ(bare.face_at(m, t), f);
                ASSERT_EQ(read, triangle_corners(m, indexed, indexed_index.triangle_of_face[t]));
                ++drawn_faces;
            } else {
                ASSERT_EQ(bare.face_at(m, t), no_face);
                ASSERT_EQ(read, (std::array<std::uint32_t, 3>{0, 0, 0}));
            }
        }
        ASSERT_EQ(drawn_faces, m.face_count());
        std::vector<std::uint32_t> by_face(all.size(), 77);
        smooth_indices_by_face(m, bare, bare_index, by_face);
        ASSERT_EQ(by_face, all);
        ASSERT_EQ(bare.clusters, triangle_clusters(bare, &m));
        ASSERT_EQ(bare.normals, indexed.normals);
    };
    expect_same(-1);
    std::mt19937_64 rng(37);
    for (int step = 0; step < 150; ++step) {
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        const World_delta delta = recorder.delta();
        const auto p = positions();
        const Buffer_dirt a =
            update_triangles(w.mesh(), p, delta.vertices, delta.faces, indexed, indexed_index);
        const Buffer_dirt b =
            update_triangles(w.mesh(), p, delta.vertices, delta.faces, bare, bare_index);
        ASSERT_EQ(a.vertices, b.vertices);
        // Every face the indexed twin rewrote is rewritten here too, at its slot.
        for (const std::uint32_t t : a.triangles)
            if (const Face f = indexed.face_of[t]; f.valid()) {
                ASSERT_TRUE(std::binary_search(b.triangles.begin(), b.triangles.end(), f.index()))
                    << "step " << step << ", face " << f.index();
            }
        for (const Face f : delta.faces)
            if (f.valid() && f.index() < bare.triangle_count()) {
                ASSERT_TRUE(std::binary_search(b.triangles.begin(), b.triangles.end(), f.index()))
                    << "step " << step << ", listed face " << f.index();
            }
        expect_same(step);
    }
}

// The view keeps its triangles in slot order where the slots keep regions together (a world
// numbered along the curve by the sphere module, wherever it lies) and along the curve where
// they do not (a large Fibonacci sphere, numbered along its spiral).
TEST(IncrementalUpdates, SlotOrderIsChosenOnlyWhereTheSlotsKeepRegionsTogether) {
    World curve;
    Dict params;
    params.set("count", std::int64_t{20'000});
    gen::run_module(curve, gen::Sphere_module{}, params);
    const World spiral = sphere(50'000);
    auto layout = [](World w, glm::vec3 offset) {
        {
            auto [p] = w.lock_layer(position_layer);
            for (const Vertex v : w.mesh().vertices())
                p[v] += offset;
        }
        Buffer_cache cache;
        const Triangle_buffers& b = cache.triangles(w, Shading::smooth, false);
        EXPECT_FALSE(b.with_indices);
        EXPECT_EQ(b.triangle_count() == w.mesh().face_slots() && b.face_of.empty(),
                  b.in_slot_order);
        return b.in_slot_order;
    };
    EXPECT_TRUE(layout(curve, glm::vec3(0.f)));
    EXPECT_TRUE(layout(curve, glm::vec3(3.f * 6371.f, 0.f, 0.f))) << "off the origin too";
    EXPECT_FALSE(layout(spiral, glm::vec3(0.f)));
    EXPECT_FALSE(layout(spiral, glm::vec3(0.f, 0.f, 3.f))) << "off the origin too";
}

class Incremental
    : public ::testing::TestWithParam<std::tuple<Shading, const char*, std::uint32_t>> {};

TEST_P(Incremental, UpdatesDrawWhatAFreshBuildDraws) {
    const auto [shading, layer, points] = GetParam();
    World w = sphere(points);
    Buffer_cache cache;
    (void)cache.triangle_colours(w, shading, layer);
    std::mt19937_64 rng(std::hash<std::string>{}(layer) + int(shading));
    int updated = 0;
    for (int step = 0; step < 120; ++step) {
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        updated += cache.apply(w, recorder.delta());
        const std::vector<Colour>& colours = cache.triangle_colours(w, shading, layer);
        const Triangle_buffers& b = cache.triangles(w, shading);
        Buffer_cache fresh;
        const std::vector<Colour>& fresh_colours = fresh.triangle_colours(w, shading, layer);
        ASSERT_EQ(drawn(w.mesh(), b, &colours),
                  drawn(w.mesh(), fresh.triangles(w, shading), &fresh_colours))
            << "after step " << step;
        // The culling bounds follow too: the same as bounds made afresh from these buffers.
        ASSERT_EQ(b.clusters, triangle_clusters(b, &w.mesh())) << "after step " << step;
        // Smooth normals grow with the outputs (one per vertex slot).
        if (shading == Shading::smooth && b.with_normals) {
            ASSERT_EQ(b.normals.size(), b.positions.size()) << "after step " << step;
        }
        // Flat triangles stay unindexed, one normal each, through appends.
        if (shading == Shading::flat) {
            ASSERT_TRUE(b.indices.empty());
            ASSERT_EQ(b.normals.size(), b.face_of.size());
            ASSERT_EQ(b.positions.size(), 3 * b.face_of.size());
        } else {
            // Smooth triangles stay in the layout their build chose.
            ASSERT_EQ(b.in_slot_order, points < 50'000) << "after step " << step;
        }
    }
    EXPECT_GT(updated, 60) << "most edits should have been applied in place";
}

INSTANTIATE_TEST_SUITE_P(ShadingsAndLayers, Incremental,
                         ::testing::Values(std::tuple{Shading::flat, "height", 600u},
                                           std::tuple{Shading::smooth, "height", 600u},
                                           std::tuple{Shading::smooth, "height", 50'000u},
                                           std::tuple{Shading::flat, "area", 600u}));

constexpr auto crease =
    Layer_info<float, Layer_type::edge_primal>("crease").interpolation(Interpolation::keep_src);
constexpr auto flux = Layer_info<float, Layer_type::edge_dual_directed>("flux");

// What segments draw: per edge drawn, its two ends and their colours.
using End = std::tuple<float, float, float, int, int, int>;
std::map<std::uint32_t, std::pair<End, End>> drawn_lines(const Line_buffers& b,
                                                         const std::vector<Colour>& colours) {
    std::map<std::uint32_t, std::pair<End, End>> out;
    for (std::size_t s = 0; s < b.edge_of.size(); ++s) {
        if (!b.edge_of[s].valid()) continue;
        auto end = [&](std::size_t i) {
            const glm::vec3 p = b.positions[i];
            const Colour c = colours[i];
            return End{p.x, p.y, p.z, c.r, c.g, c.b};
        };
        out[b.edge_of[s].mask()] = {end(2 * s), end(2 * s + 1)};
    }
    return out;
}

TEST(IncrementalUpdates, SegmentsFollowEditsAndUndosLikeFreshBuilds) {
    World w = sphere();
    {
        auto [c, f] = w.lock_layer(crease, flux);
        for (const Edge e : w.mesh().edges()) {
            c[e] = float(e.quad_index() % 7);
            f[e.rot()] = float(e.index() % 5);
            f[e.rot().sym()] = -float(e.index() % 3);
        }
    }
    Buffer_cache cache;
    (void)cache.primal_edge_colours(w, "crease");
    (void)cache.dual_edge_colours(w, "flux");
    std::mt19937_64 rng(21);
    int updated = 0;
    for (int step = 0; step < 80; ++step) {
        const World before = w;
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        const World_delta forth = recorder.delta();
        updated += cache.apply(w, forth);
        if (step % 5 == 4) {
            // Undo: back with the same elements listed.
            const World_delta back = delta_from(w, forth);
            (void)cache.primal_edge_colours(w, "crease");
            (void)cache.dual_edge_colours(w, "flux");
            w = before;
            ASSERT_TRUE(cache.apply(w, back));
        }
        Buffer_cache fresh;
        ASSERT_EQ(drawn_lines(cache.primal_edges(w), cache.primal_edge_colours(w, "crease")),
                  drawn_lines(fresh.primal_edges(w), fresh.primal_edge_colours(w, "crease")))
            << "primal, after step " << step;
        ASSERT_EQ(drawn_lines(cache.dual_edges(w), cache.dual_edge_colours(w, "flux")),
                  drawn_lines(fresh.dual_edges(w), fresh.dual_edge_colours(w, "flux")))
            << "dual, after step " << step;
    }
    EXPECT_GT(updated, 40);
    EXPECT_EQ(cache.total_rebuilds().primal_edges, 1) << "segments were rebuilt, not patched";
}

// Smooth triangles hold the cache's surface positions (their outputs are the vertex slots):
// every other part built from that surface, patched through edits and undos beside them, still
// draws what a fresh build draws, and so do they.
TEST(IncrementalUpdates, PartsSharingTheSurfaceFollowEditsAndUndos) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.primal_edges(w);               // built before the smooth triangles take the surface
    (void)cache.triangles(w, Shading::smooth); // with normals, as drawn() reads them
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    (void)cache.triangles(w, Shading::flat);
    std::mt19937_64 rng(29);
    int updated = 0;
    for (int step = 0; step < 80; ++step) {
        const World before = w;
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        const World_delta forth = recorder.delta();
        updated += cache.apply(w, forth);
        if (step % 5 == 4) {
            const World_delta back = delta_from(w, forth);
            w = before;
            ASSERT_TRUE(cache.apply(w, back));
        }
        const std::vector<Colour>& colours = cache.triangle_colours(w, Shading::smooth, "height");
        const auto smooth = drawn(w.mesh(), cache.triangles(w, Shading::smooth), &colours);
        ASSERT_EQ(cache.triangles(w, Shading::smooth).normals.size(),
                  cache.triangles(w, Shading::smooth).positions.size())
            << "smooth normals, after step " << step;
        const auto flat = drawn(w.mesh(), cache.triangles(w, Shading::flat), nullptr);
        const std::vector<Colour> no_colours(cache.primal_edges(w).positions.size());
        const auto lines = drawn_lines(cache.primal_edges(w), no_colours);
        Buffer_cache fresh;
        const std::vector<Colour>& fresh_colours =
            fresh.triangle_colours(w, Shading::smooth, "height");
        ASSERT_EQ(smooth, drawn(w.mesh(), fresh.triangles(w, Shading::smooth), &fresh_colours))
            << "smooth, after step " << step;
        ASSERT_EQ(flat, drawn(w.mesh(), fresh.triangles(w, Shading::flat), nullptr))
            << "flat, after step " << step;
        const std::vector<Colour> fresh_no_colours(fresh.primal_edges(w).positions.size());
        ASSERT_EQ(lines, drawn_lines(fresh.primal_edges(w), fresh_no_colours))
            << "lines, after step " << step;
    }
    EXPECT_GT(updated, 60);
    // Patched, not built again.
    EXPECT_EQ(cache.total_rebuilds().positions, 1);
    EXPECT_EQ(cache.total_rebuilds().triangles, 2);
    EXPECT_EQ(cache.total_rebuilds().primal_edges, 1);
}

// The surface is rewritten for other parts while smooth triangles that hold it are not shown;
// a state brought back without a delta (an undo the view took whole) draws that state's
// positions, not the surface of the state in between.
TEST(IncrementalUpdates, SmoothTrianglesHoldingTheSurfaceFollowAStateBroughtBack) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangles(w, Shading::smooth);
    const World before = w;
    {
        auto [p] = w.lock_layer(position_layer);
        for (const Vertex v : w.mesh().vertices())
            p[v] *= 1.0f + 0.01f * float(v.index() % 3);
    }
    (void)cache.triangles(w, Shading::flat); // reads the moved surface
    (void)cache.primal_edges(w);
    w = before;
    Buffer_cache fresh;
    EXPECT_EQ(drawn(w.mesh(), cache.triangles(w, Shading::smooth), nullptr),
              drawn(w.mesh(), fresh.triangles(w, Shading::smooth), nullptr));
}

TEST(IncrementalUpdates, ApplyRebuildsNothingAndDirtNamesTheChangedOutputs) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::flat, "height");
    Edge e;
    for (const Edge x : w.mesh().edges())
        if (!w.mesh().check_flip(x)) {
            e = x;
            break;
        }
    Delta_recorder recorder(w);
    w.lock_mesh().flip(e);
    ASSERT_TRUE(cache.apply(w, recorder.delta()));
    EXPECT_EQ(cache.last_rebuilds().updates, 1);
    (void)cache.triangle_colours(w, Shading::flat, "height");
    EXPECT_EQ(cache.last_rebuilds().total(), 0) << "the update left something stale";
    ASSERT_NE(cache.dirt(Shading::flat), nullptr);
    EXPECT_TRUE(cache.colours_updated(Shading::flat));
    // The two flipped faces and the faces around their four corners: a few dozen outputs.
    const Buffer_dirt& dirt = *cache.dirt(Shading::flat);
    EXPECT_GE(dirt.vertices.size(), 6u);
    EXPECT_LE(dirt.vertices.size(), 3u * 40u);
    EXPECT_TRUE(dirt.triangles.empty()) << "a flip appends no triangle";
}

TEST(IncrementalUpdates, UndoingEditsWithTheSameDeltaDrawsTheEarlierWorld) {
    // Undo hands the cache the earlier snapshot with the edit's delta: slot counts shrink.
    for (const Shading shading : {Shading::flat, Shading::smooth}) {
        World w = sphere();
        Buffer_cache cache;
        (void)cache.triangle_colours(w, shading, "height");
        std::mt19937_64 rng(int(shading) + 3);
        for (int step = 0; step < 40; ++step) {
            const World before = w;
            World_delta forth;
            {
                Delta_recorder recorder(w);
                std::vector<Edge> edges;
                for (const Edge e : w.mesh().edges())
                    edges.push_back(e);
                const Edge e = edges[rng() % edges.size()];
                if (step % 2)
                    (void)w.lock_mesh().try_split(e, 0.4f);
                else
                    (void)w.lock_mesh().try_collapse(e, 0.5f);
                forth = recorder.delta();
            }
            ASSERT_TRUE(cache.apply(w, forth));
            (void)cache.triangle_colours(w, shading, "height");
            // Undo every other step: back to `before` with the same elements listed.
            if (step % 4 < 2) {
                const World_delta back = delta_from(w, forth);
                w = before;
                ASSERT_TRUE(cache.apply(w, back));
            }
            const std::vector<Colour>& colours = cache.triangle_colours(w, shading, "height");
            Buffer_cache fresh;
            const std::vector<Colour>& fresh_colours = fresh.triangle_colours(w, shading, "height");
            ASSERT_EQ(drawn(w.mesh(), cache.triangles(w, shading), &colours),
                      drawn(w.mesh(), fresh.triangles(w, shading), &fresh_colours))
                << "after step " << step;
            // Nothing left drawn that the world does not have, and no triangle, not even one
            // collapsed to a point, names an output the buffers lost (the slots the undo took
            // back are outputs still).
            const Triangle_buffers& b = cache.triangles(w, shading);
            for (std::size_t t = 0; t < b.triangle_count(); ++t)
                if (const Face f = b.face_at(w.mesh(), t); f.valid()) {
                    ASSERT_TRUE(w.mesh().contains(f));
                }
            for (std::size_t t = 0; t < b.triangle_count(); ++t)
                for (int k = 0; k < 3; ++k)
                    ASSERT_LT(triangle_corners(w.mesh(), b, t)[k], b.positions.size())
                        << "after step " << step;
        }
    }
}

TEST(IncrementalUpdates, AutomaticRangesFollowValuesBothWays) {
    World w = sphere();
    Buffer_cache cache;
    Colour_options viridis;
    viridis.map = Colour_map_kind::viridis;
    (void)cache.triangle_colours(w, Shading::flat, "height", viridis);
    const World before = w;
    Delta_recorder recorder(w);
    {
        auto [h] = w.lock_layer(height);
        h[Vertex(3)] = 1000.f;
    }
    recorder.touch(Vertex(3));
    World_delta forth = recorder.delta();
    ASSERT_TRUE(cache.apply(w, forth));
    (void)cache.triangle_colours(w, Shading::flat, "height", viridis);
    const World_delta back = delta_from(w, forth);
    w = before; // the maximum goes back from 1000 to 96: every colour moves back
    ASSERT_TRUE(cache.apply(w, back));
    const std::vector<Colour>& colours =
        cache.triangle_colours(w, Shading::flat, "height", viridis);
    Buffer_cache fresh;
    EXPECT_EQ(drawn(w.mesh(), cache.triangles(w, Shading::flat), &colours),
              drawn(w.mesh(), fresh.triangles(w, Shading::flat),
                    &fresh.triangle_colours(w, Shading::flat, "height", viridis)));
}

TEST(IncrementalUpdates, StaleDeltasAreRefused) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangles(w, Shading::flat);
    Delta_recorder first(w);
    w.lock_mesh().split(Edge(0), 0.5f);
    const World_delta one = first.delta();
    Delta_recorder second(w);
    w.lock_mesh().split(Edge(4), 0.5f);
    // The cache is at the state before `one`; `second` starts later.
    EXPECT_FALSE(cache.apply(w, second.delta()));
    (void)cache.triangles(w, Shading::flat);
    EXPECT_EQ(cache.last_rebuilds().triangles, 1);
    (void)one;
}

TEST(IncrementalUpdates, ValuesBeyondTheAutomaticRangeRecolourEverything) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    Delta_recorder recorder(w);
    {
        auto [h] = w.lock_layer(height);
        h[Vertex(3)] = 1000.f; // far above the old maximum (96): every colour moves
    }
    recorder.touch(Vertex(3));
    EXPECT_TRUE(cache.apply(w, recorder.delta())); // the geometry is current
    EXPECT_FALSE(cache.colours_updated(Shading::smooth));
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    EXPECT_EQ(cache.last_rebuilds().layer_colours, 1);
}

TEST(IncrementalUpdates, TrianglesPatchedWhileHiddenUploadWholeWhenShownAgain) {
    World w = sphere();
    Scene_builder builder;
    View_options o;
    o.layer = "height";
    const Scene shown = builder.build(w, o);
    o.triangles = false;
    o.voronoi_cells = true;
    (void)builder.build(w, o);
    Delta_recorder recorder(w);
    w.lock_mesh().split(Edge(2), 0.5f);
    const World_delta delta = recorder.delta();
    (void)builder.build(w, o, &delta);
    o.triangles = true;
    const Scene again = builder.build(w, o);
    EXPECT_NE(again.triangles.geometry_stamp, shown.triangles.geometry_stamp);
    EXPECT_EQ(again.triangles.base_geometry_stamp, 0u) << "no base the GPU could patch";
    EXPECT_EQ(again.triangles.dirt, nullptr);
}

TEST(IncrementalUpdates, ScenesMarkPatchesAgainstTheirBase) {
    World w = sphere();
    Scene_builder builder;
    View_options o;
    o.layer = "height";
    const Scene before = builder.build(w, o);
    const std::size_t triangles_before = before.triangles.geometry->triangle_count();
    Delta_recorder recorder(w);
    w.lock_mesh().split(Edge(2), 0.5f);
    const World_delta delta = recorder.delta();
    const Scene after = builder.build(w, o, &delta);
    EXPECT_EQ(after.triangles.base_geometry_stamp, before.triangles.geometry_stamp);
    EXPECT_EQ(after.triangles.base_colour_stamp, before.triangles.colour_stamp);
    EXPECT_NE(after.triangles.geometry_stamp, before.triangles.geometry_stamp);
    ASSERT_NE(after.triangles.dirt, nullptr);
    EXPECT_EQ(after.triangles.geometry->triangle_count(), triangles_before + 2)
        << "a split appends two triangles";
    EXPECT_LT(after.triangles.dirt->triangles.size(), 30u) << "and rewrites those around it";
    EXPECT_EQ(builder.last_rebuilds().triangles, 0);
}

// Shared vertices kept without normals (flat shading lights faces while drawing) follow edits
// without growing normals, and draw the positions and colours a fresh build draws.
TEST(IncrementalUpdates, SharedVerticesWithoutNormalsFollowEdits) {
    World w = sphere();
    Buffer_cache cache;
    (void)cache.triangle_colours(w, Shading::smooth, "height");
    std::mt19937_64 rng(23);
    auto corners_of = [&w](const Triangle_buffers& b, const std::vector<Colour>& colours) {
        std::map<std::uint32_t, std::vector<std::tuple<std::uint32_t, float, float, float, int>>>
            out;
        for (std::size_t t = 0; t < b.triangle_count(); ++t) {
            const Face f = b.face_at(w.mesh(), t);
            if (!f.valid()) continue;
            auto& corners = out[f.index()];
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t o = triangle_corners(w.mesh(), b, t)[k];
                corners.emplace_back(b.vertex_at(o).index(), b.positions[o].x, b.positions[o].y,
                                     b.positions[o].z, colours[o].r);
            }
            std::rotate(corners.begin(), std::min_element(corners.begin(), corners.end()),
                        corners.end());
        }
        return out;
    };
    for (int step = 0; step < 80; ++step) {
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        (void)cache.apply(w, recorder.delta());
        const std::vector<Colour>& colours = cache.triangle_colours(w, Shading::smooth, "height");
        const Triangle_buffers& b = cache.triangles(w, Shading::smooth, false);
        ASSERT_FALSE(b.with_normals);
        ASSERT_TRUE(b.normals.empty()) << "after step " << step;
        Buffer_cache fresh;
        const std::vector<Colour>& fresh_colours =
            fresh.triangle_colours(w, Shading::smooth, "height");
        ASSERT_EQ(corners_of(b, colours),
                  corners_of(fresh.triangles(w, Shading::smooth, false), fresh_colours))
            << "after step " << step;
    }
}

// Value edits (a brush dab) change colours only: the triangles' geometry stays byte for byte,
// only the outputs of the edited elements are listed, and the colours match a fresh build.
TEST(IncrementalUpdates, ValueEditsRecolourInPlaceAndLeaveGeometryAlone) {
    for (const auto& [shading, layer] :
         {std::pair{Shading::flat, "height"}, std::pair{Shading::smooth, "height"},
          std::pair{Shading::flat, "area"}}) {
        World w = sphere();
        Buffer_cache cache;
        (void)cache.triangle_colours(w, shading, layer);
        std::mt19937_64 rng(17);
        for (int step = 0; step < 30; ++step) {
            const std::vector<glm::vec3> positions = cache.triangles(w, shading).positions;
            const std::vector<glm::vec3> normals = cache.triangles(w, shading).normals;
            Delta_recorder recorder(w);
            const Vertex v{std::uint32_t(rng() % w.mesh().vertex_slots())};
            {
                auto [h, a] = w.lock_layer(height, area);
                h[v] = float(rng() % 97);
                recorder.touch(v);
                for (const Face f : v.faces(w.mesh())) {
                    a[f] = float(rng() % 13);
                    recorder.touch(f);
                }
            }
            ASSERT_TRUE(cache.apply(w, recorder.delta()));
            EXPECT_FALSE(cache.geometry_patched(shading));
            ASSERT_NE(cache.dirt(shading), nullptr);
            EXPECT_TRUE(cache.colours_updated(shading)) << layer << " step " << step;
            const Buffer_dirt& dirt = *cache.dirt(shading);
            EXPECT_TRUE(dirt.triangles.empty());
            EXPECT_LE(dirt.vertices.size(), shading == Shading::flat ? 3u * 12u : 1u);
            const std::vector<Colour>& colours = cache.triangle_colours(w, shading, layer);
            EXPECT_EQ(cache.last_rebuilds().total(), 0) << "recoloured in place";
            const Triangle_buffers& b = cache.triangles(w, shading);
            EXPECT_EQ(b.positions, positions);
            EXPECT_EQ(b.normals, normals);
            Buffer_cache fresh;
            const std::vector<Colour>& fresh_colours = fresh.triangle_colours(w, shading, layer);
            ASSERT_EQ(drawn(w.mesh(), b, &colours),
                      drawn(w.mesh(), fresh.triangles(w, shading), &fresh_colours))
                << layer << " after step " << step;
        }
    }
}

TEST(IncrementalUpdates, ScenesOfValueEditsSendColoursAlone) {
    World w = sphere();
    Scene_builder builder;
    View_options o;
    o.layer = "height";
    const Scene before = builder.build(w, o);
    Delta_recorder recorder(w);
    {
        auto [h] = w.lock_layer(height);
        h[Vertex(5)] = 96.f;
        recorder.touch(Vertex(5));
    }
    const World_delta delta = recorder.delta();
    const Scene after = builder.build(w, o, &delta);
    EXPECT_EQ(after.triangles.geometry_stamp, before.triangles.geometry_stamp)
        << "no geometry to upload";
    EXPECT_NE(after.triangles.colour_stamp, before.triangles.colour_stamp);
    EXPECT_EQ(after.triangles.base_colour_stamp, before.triangles.colour_stamp);
    ASSERT_NE(after.triangles.dirt, nullptr);
    EXPECT_FALSE(after.triangles.dirt->vertices.empty());
    EXPECT_EQ(builder.last_rebuilds().triangles, 0);
}

} // namespace
} // namespace orbis::render
