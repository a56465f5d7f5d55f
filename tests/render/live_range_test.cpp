// SPDX-License-Identifier: MIT
// Tests of Live_range_cache: through random flips, splits, collapses, value writes (NaN and
// infinities included) and undos, the cached range of vertex, face and edge layers of int,
// float and vector values equals a range found from scratch over the live elements, and an
// edit reads only the chunks it touched.
#include "orbis/render/live_range.hpp"

#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/world.hpp"
#include "orbis/core/world_delta.hpp"
#include "orbis/gen/sphere.hpp"
#include "orbis/render/buffer_cache.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace orbis::render {
namespace {

constexpr auto height =
    Layer_info<float, Layer_type::vertex>("height").interpolation(Interpolation::lerp);
constexpr auto plate = Layer_info<std::int32_t, Layer_type::vertex>("plate");
constexpr auto wind = Layer_info<glm::vec3, Layer_type::vertex>("wind");
constexpr auto area = Layer_info<double, Layer_type::face>("area");
constexpr auto crease = Layer_info<float, Layer_type::edge_primal>("crease");
constexpr auto flux = Layer_info<float, Layer_type::edge_dual_directed>("flux");

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr float nan = std::numeric_limits<float>::quiet_NaN();

// The range by its definition: finite components of the values of live elements, walked
// through the mesh (not through storage chunks).
template <class T, Layer_type Type>
std::pair<double, double> reference(const World& w, const Layer_info<T, Type>& info) {
    const auto& layer = *w.layer(info);
    const Mesh& m = w.mesh();
    double lo = inf, hi = -inf;
    auto add = [&](const T& v) {
        for (int i = 0; i < layer_value_length<T>; ++i) {
            double x;
            if constexpr (Layer_scalar<T>)
                x = double(v);
            else
                x = double(v[i]);
            if (std::isfinite(x)) {
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
        }
    };
    if constexpr (Type == Layer_type::vertex) {
        for (const Vertex v : m.vertices())
            add(layer[v]);
    } else if constexpr (Type == Layer_type::face) {
        for (const Face f : m.faces())
            add(layer[f]);
    } else if constexpr (Type == Layer_type::edge_primal) {
        for (const Edge e : m.edges())
            add(layer[e]);
    } else {
        for (const Edge e : m.edges()) {
            add(layer[e.rot()]);
            add(layer[e.rot().sym()]);
        }
    }
    return lo <= hi ? std::pair{lo, hi} : std::pair{0.0, 1.0};
}

// A sphere big enough for several chunks per layer, with values everywhere.
World sphere(std::uint32_t count) {
    World w =
        gen::make_sphere_world({.count = count, .radius = 1.f, .perturbation = 0.5f, .seed = 4});
    auto [h, p, wi, a, c, f] = w.lock_layer(height, plate, wind, area, crease, flux);
    const Mesh& m = w.mesh();
    for (const Vertex v : m.vertices()) {
        h[v] = float(v.index() % 101) - 50.f;
        p[v] = std::int32_t(v.index() % 7);
        wi[v] = glm::vec3(float(v.index() % 5), -float(v.index() % 3), 0.5f);
    }
    for (const Face x : m.faces())
        a[x] = double(x.index() % 13) * 0.25;
    for (const Edge e : m.edges()) {
        c[e] = float(e.quad_index() % 17);
        f[e.rot()] = float(e.quad_index() % 11);
        f[e.rot().sym()] = -float(e.quad_index() % 11);
    }
    return w;
}

// One cache per layer, each asked after every step.
struct Caches {
    Live_range_cache h, p, wi, a, c, f;

    void expect_current(const World& w, const World_delta* delta, int step) {
        EXPECT_EQ(h.range(w, "height", delta), reference(w, height)) << "step " << step;
        EXPECT_EQ(p.range(w, "plate", delta), reference(w, plate)) << "step " << step;
        EXPECT_EQ(wi.range(w, "wind", delta), reference(w, wind)) << "step " << step;
        EXPECT_EQ(a.range(w, "area", delta), reference(w, area)) << "step " << step;
        EXPECT_EQ(c.range(w, "crease", delta), reference(w, crease)) << "step " << step;
        EXPECT_EQ(f.range(w, "flux", delta), reference(w, flux)) << "step " << step;
        EXPECT_EQ(live_range(w, "flux"), reference(w, flux)) << "step " << step;
    }
};

// A value that often becomes a new extreme: huge, tiny, or not finite at all.
float odd_value(std::mt19937_64& rng) {
    switch (rng() % 6) {
    case 0:
        return nan;
    case 1:
        return float(inf);
    case 2:
        return -float(inf);
    case 3:
        return 1e6f + float(rng() % 1000);
    case 4:
        return -1e6f - float(rng() % 1000);
    default:
        return float(rng() % 100);
    }
}

// The live vertex with the largest height, for collapses that delete the maximum.
Vertex highest(const World& w) {
    const auto& h = *w.layer(height);
    Vertex best;
    for (const Vertex v : w.mesh().vertices())
        if (!best.valid() || h[v] > h[best]) best = v;
    return best;
}

// One random edit, recorded: a mesh edit, a collapse at the highest vertex (so that a dead slot
// keeps the old maximum), or values written into every kind of layer.
void random_edit(World& w, std::mt19937_64& rng, Delta_recorder& recorder) {
    const Mesh& m = w.mesh();
    const Edge e = Edge(2 * std::uint32_t(rng() % (m.edge_slots() / 2)));
    switch (rng() % 5) {
    case 0:
        if (m.contains(e)) (void)w.lock_mesh().try_flip(e);
        break;
    case 1:
        if (m.contains(e)) (void)w.lock_mesh().try_split(e, 0.4f);
        break;
    case 2:
        if (m.contains(e)) (void)w.lock_mesh().try_collapse(e, 0.5f);
        break;
    case 3: {
        const Vertex top = highest(w);
        // A collapse keeps the origin and deletes the dest: the top's slot dies.
        for (const Edge out : top.edges(m))
            if (!w.lock_mesh().try_collapse(out.sym(), 1.0f)) break;
        break;
    }
    default: {
        auto [h, p, wi, a, c, f] = w.lock_layer(height, plate, wind, area, crease, flux);
        for (int k = 0; k < 3; ++k) {
            const Vertex v(std::uint32_t(rng() % m.vertex_slots()));
            const Face x(std::uint32_t(rng() % m.face_slots()));
            const Edge d = Edge(2 * std::uint32_t(rng() % (m.edge_slots() / 2)));
            if (m.contains(v)) {
                h[v] = odd_value(rng);
                p[v] = std::int32_t(rng() % 2000) - 1000;
                wi[v] = glm::vec3(odd_value(rng), 0.f, odd_value(rng));
                recorder.touch(v);
            }
            if (m.contains(x)) {
                a[x] = double(odd_value(rng));
                recorder.touch(x);
            }
            if (m.contains(d)) {
                c[d] = odd_value(rng);
                f[d.rot()] = odd_value(rng);
            }
        }
        break;
    }
    }
}

TEST(LiveRangeCache, EqualsTheRangeFromScratchThroughEditsAndUndos) {
    World w = sphere(12'000);
    std::mt19937_64 rng(11);
    Caches caches;
    caches.expect_current(w, nullptr, -1);
    // The states reached and the delta of the edit that left each one.
    std::vector<World> states;
    std::vector<World_delta> edits;
    int undos = 0;
    for (int step = 0; step < 150; ++step) {
        if (!states.empty() && rng() % 5 == 0) {
            // Undo a few steps at once: back to an earlier state, with every step's elements.
            const std::size_t back = std::min<std::size_t>(states.size(), 1 + rng() % 3);
            World_delta merged = delta_from(w);
            for (std::size_t k = 0; k < back; ++k) {
                const World_delta& d = edits[edits.size() - 1 - k];
                merged.vertices.insert(merged.vertices.end(), d.vertices.begin(), d.vertices.end());
                merged.faces.insert(merged.faces.end(), d.faces.begin(), d.faces.end());
                merged.edges.insert(merged.edges.end(), d.edges.begin(), d.edges.end());
            }
            w = states[states.size() - back];
            states.resize(states.size() - back);
            edits.resize(edits.size() - back);
            caches.expect_current(w, &merged, step);
            ++undos;
            continue;
        }
        states.push_back(w);
        Delta_recorder recorder(w);
        random_edit(w, rng, recorder);
        edits.push_back(recorder.delta());
        caches.expect_current(w, &edits.back(), step);
        if (HasFailure()) return;
    }
    EXPECT_GT(undos, 10);
}

TEST(LiveRangeCache, DeadElementsAndNonFiniteValuesAreLeftOut) {
    World w = sphere(20'000); // five vertex chunks, fifteen primal edge chunks
    Live_range_cache heights, creases;
    const Mesh& m = w.mesh();
    const std::size_t chunks = w.layer(height)->chunk_count();
    // A vertex of the second chunk that a collapse into a neighbour of the first one deletes:
    // no layer writes its slot then, so only the delta tells that its chunk changed.
    Edge into;
    for (std::uint32_t i = 4096; i < 4400 && !into.valid(); ++i)
        for (const Edge e : Vertex(i).edges(m))
            if (e.dest(m).index() < 4096 && !m.check_collapse(e.sym(), 0.0f)) {
                into = e.sym();
                break;
            }
    ASSERT_TRUE(into.valid());
    const Vertex top = into.dest(m);
    {
        auto [h, c] = w.lock_layer(height, crease);
        h[top] = 1e9f;
        h[Vertex(18)] = nan;
        h[Vertex(19)] = -float(inf);
        c[into] = 1e9f; // the collapsed edge: deleted with its quad
    }
    EXPECT_EQ(heights.range(w, "height"), std::pair(-50.0, 1e9));
    EXPECT_EQ(creases.range(w, "crease"), std::pair(0.0, 1e9));
    const World before = w;
    Delta_recorder recorder(w);
    w.lock_mesh().collapse(into, 0.0f); // the survivor keeps its value
    ASSERT_FALSE(w.mesh().contains(top));
    // Their slots still hold 1e9, but they are dead.
    EXPECT_EQ(w.layer(height)->at_slot(top.index()), 1e9f);
    EXPECT_EQ(w.layer(crease)->at_slot(into.quad_index()), 1e9f);
    const World_delta forth = recorder.delta();
    EXPECT_EQ(heights.range(w, "height", &forth), std::pair(-50.0, 50.0));
    EXPECT_LT(heights.last_chunks_read(), chunks);
    EXPECT_EQ(creases.range(w, "crease", &forth), std::pair(0.0, 16.0));
    EXPECT_LT(creases.last_chunks_read(), w.layer(crease)->chunk_count());
    EXPECT_EQ(heights.range(w, "height", &forth).second, 50.0);
    EXPECT_EQ(heights.last_chunks_read(), 0u); // nothing changed since the call before
    // Undo brings them back, reading only the chunks the collapse touched.
    const World_delta back = delta_from(w, forth);
    w = before;
    EXPECT_EQ(heights.range(w, "height", &back), std::pair(-50.0, 1e9));
    EXPECT_LT(heights.last_chunks_read(), chunks);
    EXPECT_EQ(creases.range(w, "crease", &back), std::pair(0.0, 1e9));
}

TEST(LiveRangeCache, ValueEditsReadOnlyTheChunksTheyWrote) {
    World w = sphere(20'000); // five vertex chunks, thirty dual directed edge chunks
    Live_range_cache heights, fluxes;
    (void)heights.range(w, "height");
    (void)fluxes.range(w, "flux");
    EXPECT_EQ(heights.last_chunks_read(), w.layer(height)->chunk_count());
    // Unchanged: nothing read.
    (void)heights.range(w, "height");
    EXPECT_EQ(heights.last_chunks_read(), 0u);
    {
        auto [h, f] = w.lock_layer(height, flux);
        h[Vertex(5)] = -7e4f;
        f[Edge(2 * 9'000).rot()] = 3e3f;
    }
    EXPECT_EQ(heights.range(w, "height"), std::pair(-7e4, 50.0));
    EXPECT_EQ(heights.last_chunks_read(), 1u);
    EXPECT_EQ(fluxes.range(w, "flux"), std::pair(-10.0, 3e3));
    EXPECT_EQ(fluxes.last_chunks_read(), 1u);
    // A split without a delta that says so: every chunk is read again.
    w.lock_mesh().split(Edge(0), 0.5f);
    EXPECT_EQ(heights.range(w, "height"), reference(w, height));
    EXPECT_EQ(heights.last_chunks_read(), w.layer(height)->chunk_count());
    // Another layer under the same cache: read whole.
    EXPECT_EQ(heights.range(w, "area"), reference(w, area));
    EXPECT_EQ(heights.last_chunks_read(), w.layer(area)->chunk_count());
}

TEST(LiveRangeCache, RefusesMissingLayersAndKeepsItsState) {
    World w = sphere(2'000);
    Live_range_cache cache;
    const auto range = cache.range(w, "height");
    EXPECT_THROW((void)cache.range(w, "nothing"), std::invalid_argument);
    EXPECT_THROW((void)live_range(w, "nothing"), std::invalid_argument);
    EXPECT_EQ(cache.range(w, "height"), range);
    EXPECT_EQ(cache.last_chunks_read(), 0u);
}

TEST(LiveRangeCache, WorldsWithALockOpenAreMeasuredButNotKept) {
    World w = sphere(2'000);
    Live_range_cache cache;
    auto [h] = w.lock_layer(height);
    h[Vertex(3)] = 500.f;
    EXPECT_EQ(cache.range(w, "height"), reference(w, height));
    EXPECT_EQ(cache.range(w, "height"), reference(w, height));
    EXPECT_EQ(cache.last_chunks_read(), w.layer(height)->chunk_count());
}

} // namespace
} // namespace orbis::render
