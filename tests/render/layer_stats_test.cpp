// SPDX-License-Identifier: MIT
// Tests of layer statistics: live elements only, range and mean, histograms, vectors, bools,
// Dict layers and refusals.
#include "orbis/render/layer_stats.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace orbis::render {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

World sphere(std::uint32_t count) {
    return gen::make_sphere_world(
        {.count = count, .radius = 1.f, .perturbation = 0.5f, .seed = 11});
}

std::size_t histogram_sum(const Layer_stats& s) {
    return std::accumulate(s.histogram.begin(), s.histogram.end(), std::size_t{0});
}

// Whether slot `s` of a layer of kind `type` belongs to a live element of `m`, decided from
// Mesh::contains rather than from iteration.
bool live_slot(const Mesh& m, Layer_type type, std::uint32_t s) {
    switch (type) {
    case Layer_type::vertex:
        return m.contains(Vertex{s});
    case Layer_type::face:
        return m.contains(Face{s});
    case Layer_type::edge_primal:
    case Layer_type::edge_dual:
        return m.contains(Edge{2 * s});
    default:
        return m.contains(Edge{s & ~1u});
    }
}

// Sets every slot of the layer: `alive` for live elements, `dead` for deleted ones.
template <class T, Layer_type Type>
void fill_slots(World& w, const Layer_info<T, Type>& info, T alive, T dead) {
    auto [lock] = w.lock_layer(info);
    constexpr std::size_t chunk = Chunked_array<T>::chunk_size;
    for (std::size_t c = 0; c * chunk < lock.size(); ++c) {
        const auto values = lock.chunk(c);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] =
                live_slot(w.mesh(), Type, static_cast<std::uint32_t>(c * chunk + i)) ? alive : dead;
    }
}

template <class T, Layer_type Type>
void expect_only_live_slots(World& w, const Layer_info<T, Type>& info, std::size_t live) {
    fill_slots(w, info, T{2}, T{1000});
    const Layer_stats s = layer_stats(w, info.name(), 4);
    EXPECT_EQ(s.count, live) << info.name();
    EXPECT_EQ(s.finite, live) << info.name();
    EXPECT_EQ(s.type, Type) << info.name();
    EXPECT_EQ(s.min, 2.0) << info.name();
    EXPECT_EQ(s.max, 2.0) << info.name();
    EXPECT_EQ(s.mean, 2.0) << info.name();
    ASSERT_EQ(s.histogram.size(), 4u) << info.name();
    EXPECT_EQ(s.histogram[0], live) << info.name(); // min == max: all in the first bin
}

TEST(LayerStats, CountsOnlyLiveElementsAfterCollapse) {
    World w = sphere(300);
    {
        Mesh_lock mesh = w.lock_mesh();
        bool collapsed = false;
        for (const Edge e : mesh->edges())
            if (!mesh.try_collapse(e)) {
                collapsed = true;
                break;
            }
        ASSERT_TRUE(collapsed);
    }
    const Mesh& m = w.mesh();
    ASSERT_LT(m.vertex_count(), m.vertex_slots());
    ASSERT_LT(m.face_count(), m.face_slots());
    ASSERT_LT(m.edge_count(), m.edge_slots() / 2);

    expect_only_live_slots(w, Layer_info<float, Layer_type::vertex>("v"), m.vertex_count());
    expect_only_live_slots(w, Layer_info<double, Layer_type::face>("f"), m.face_count());
    expect_only_live_slots(w, Layer_info<std::int32_t, Layer_type::edge_primal>("ep"),
                           m.edge_count());
    expect_only_live_slots(w, Layer_info<float, Layer_type::edge_primal_directed>("epd"),
                           2 * m.edge_count());
    expect_only_live_slots(w, Layer_info<std::uint32_t, Layer_type::edge_dual>("ed"),
                           m.edge_count());
    expect_only_live_slots(w, Layer_info<std::int64_t, Layer_type::edge_dual_directed>("edd"),
                           2 * m.edge_count());
}

TEST(LayerStats, EvenlySpreadValuesFillEqualBins) {
    World w = sphere(100);
    constexpr auto info = Layer_info<std::int32_t, Layer_type::vertex>("index");
    {
        auto [l] = w.lock_layer(info);
        for (const Vertex v : w.mesh().vertices())
            l[v] = static_cast<std::int32_t>(v.index());
    }
    const Layer_stats s = layer_stats(w, "index", 10);
    EXPECT_EQ(s.name, "index");
    EXPECT_FALSE(s.is_dict);
    EXPECT_EQ(s.value_type, "int32");
    EXPECT_EQ(s.count, 100u);
    EXPECT_EQ(s.finite, 100u);
    EXPECT_EQ(s.min, 0.0);
    EXPECT_EQ(s.max, 99.0);
    EXPECT_DOUBLE_EQ(s.mean, 49.5);
    // 0..99 over ten bins of width 9.9: ten values each, 99 itself in the last.
    ASSERT_EQ(s.histogram.size(), 10u);
    for (const std::size_t n : s.histogram)
        EXPECT_EQ(n, 10u);
}

TEST(LayerStats, NonFiniteValuesAreCountedButLeftOut) {
    World w = sphere(2000);
    constexpr auto info = Layer_info<double, Layer_type::vertex>("noisy");
    std::mt19937_64 rng(5);
    std::normal_distribution<double> normal(10.0, 3.0);
    double lo = inf, hi = -inf, sum = 0.0;
    std::size_t finite = 0;
    {
        auto [l] = w.lock_layer(info);
        for (const Vertex v : w.mesh().vertices()) {
            const std::uint32_t i = v.index();
            const double x = i % 17 == 0 ? nan : i % 29 == 0 ? (i % 2 ? inf : -inf) : normal(rng);
            l[v] = x;
            if (std::isfinite(x)) {
                ++finite;
                lo = std::min(lo, x);
                hi = std::max(hi, x);
                sum += x;
            }
        }
    }
    const Layer_stats s = layer_stats(w, "noisy", 7);
    EXPECT_EQ(s.count, w.mesh().vertex_count());
    EXPECT_EQ(s.finite, finite);
    EXPECT_LT(s.finite, s.count);
    EXPECT_EQ(s.min, lo);
    EXPECT_EQ(s.max, hi);
    EXPECT_NEAR(s.mean, sum / static_cast<double>(finite), 1e-9);
    ASSERT_EQ(s.histogram.size(), 7u);
    EXPECT_EQ(histogram_sum(s), finite);
    // A bell curve: the middle bin holds more than either end.
    EXPECT_GT(s.histogram[3], s.histogram[0]);
    EXPECT_GT(s.histogram[3], s.histogram[6]);
}

TEST(LayerStats, ExtremesLandInTheFirstAndLastBins) {
    World w = sphere(200);
    constexpr auto info = Layer_info<float, Layer_type::face>("split");
    std::size_t high = 0;
    {
        auto [l] = w.lock_layer(info);
        for (const Face f : w.mesh().faces()) {
            l[f] = f.index() % 3 == 0 ? 5.f : -1.f;
            high += f.index() % 3 == 0;
        }
    }
    const Layer_stats s = layer_stats(w, "split", 6);
    ASSERT_EQ(s.histogram.size(), 6u);
    EXPECT_EQ(s.histogram.back(), high);
    EXPECT_EQ(s.histogram.front(), w.mesh().face_count() - high);
    EXPECT_EQ(histogram_sum(s), s.finite);
}

TEST(LayerStats, NoFiniteValueGivesNanAndNoHistogram) {
    World w = sphere(50);
    constexpr auto info = Layer_info<float, Layer_type::vertex>("empty");
    fill_slots(w, info, std::numeric_limits<float>::quiet_NaN(), 0.f);
    const Layer_stats s = layer_stats(w, "empty");
    EXPECT_EQ(s.count, 50u);
    EXPECT_EQ(s.finite, 0u);
    EXPECT_TRUE(std::isnan(s.min));
    EXPECT_TRUE(std::isnan(s.mean));
    EXPECT_TRUE(std::isnan(s.max));
    EXPECT_TRUE(s.histogram.empty());

    // A world without a mesh: a layer with no element at all.
    World bare;
    (void)bare.lock_layer(info);
    const Layer_stats none = layer_stats(bare, "empty");
    EXPECT_EQ(none.count, 0u);
    EXPECT_EQ(none.finite, 0u);
    EXPECT_TRUE(none.histogram.empty());
}

TEST(LayerStats, VectorsAreSummarisedByLength) {
    World w = sphere(500);
    // Positions on the unit sphere: every length 1.
    const Layer_stats p = layer_stats(w, "position", 3);
    EXPECT_EQ(p.value_type, "vec3");
    EXPECT_EQ(p.finite, 500u);
    EXPECT_NEAR(p.min, 1.0, 1e-6);
    EXPECT_NEAR(p.max, 1.0, 1e-6);
    EXPECT_NEAR(p.mean, 1.0, 1e-6);
    EXPECT_EQ(histogram_sum(p), 500u);

    constexpr auto info = Layer_info<glm::dvec3, Layer_type::vertex>("wind");
    {
        auto [l] = w.lock_layer(info);
        for (const Vertex v : w.mesh().vertices())
            l[v] = v.index() == 0   ? glm::dvec3(nan, 0.0, 0.0)
                   : v.index() == 1 ? glm::dvec3(1e200, -1e200, 0.0) // squares overflow
                   : v.index() % 2  ? glm::dvec3(3.0, 4.0, 12.0)
                                    : glm::dvec3(0.0, -2.0, 0.0);
    }
    const Layer_stats s = layer_stats(w, "wind", 2);
    EXPECT_EQ(s.count, 500u);
    EXPECT_EQ(s.finite, 499u);
    EXPECT_EQ(s.min, 2.0);
    EXPECT_NEAR(s.max, std::sqrt(2.0) * 1e200, 1e186);
    EXPECT_GE(s.mean, s.min);
    EXPECT_LE(s.mean, s.max);
    EXPECT_EQ(histogram_sum(s), 499u);
    EXPECT_EQ(s.histogram.back(), 1u); // only the huge vector lies above the middle

    // Without the huge vector: lengths 13 and 2 only.
    {
        auto [l] = w.lock_layer(info);
        l[Vertex{1}] = glm::dvec3(0.0, 0.0, 2.0);
    }
    const Layer_stats t = layer_stats(w, "wind", 2);
    EXPECT_EQ(t.min, 2.0);
    EXPECT_EQ(t.max, 13.0);
    EXPECT_EQ(t.histogram[1], 249u); // odd indices but vertex 1
    EXPECT_EQ(t.histogram[0], 250u);
}

TEST(LayerStats, BoolsCountAsZeroAndOne) {
    World w = sphere(101);
    constexpr auto info = Layer_info<bool, Layer_type::vertex>("land");
    {
        auto [l] = w.lock_layer(info);
        for (const Vertex v : w.mesh().vertices())
            l[v] = v.index() < 25;
    }
    const Layer_stats s = layer_stats(w, "land", 2);
    EXPECT_EQ(s.value_type, "bool");
    EXPECT_EQ(s.min, 0.0);
    EXPECT_EQ(s.max, 1.0);
    EXPECT_DOUBLE_EQ(s.mean, 25.0 / 101.0);
    ASSERT_EQ(s.histogram.size(), 2u);
    EXPECT_EQ(s.histogram[0], 76u);
    EXPECT_EQ(s.histogram[1], 25u);
}

TEST(LayerStats, HugeValuesDoNotOverflow) {
    World w = sphere(64);
    constexpr auto info = Layer_info<double, Layer_type::vertex>("huge");
    {
        auto [l] = w.lock_layer(info);
        for (const Vertex v : w.mesh().vertices())
            l[v] = v.index() % 2 ? 1.5e308 : -1.5e308;
    }
    const Layer_stats s = layer_stats(w, "huge", 4);
    EXPECT_EQ(s.finite, 64u);
    EXPECT_TRUE(std::isfinite(s.mean));
    EXPECT_NEAR(s.mean, 0.0, 1e295);
    EXPECT_EQ(s.histogram.front(), 32u);
    EXPECT_EQ(s.histogram.back(), 32u);

    {
        auto [l] = w.lock_layer(info);
        for (const Vertex v : w.mesh().vertices())
            l[v] = v.index() % 2 ? 1.7e308 : 1.6e308;
    }
    const Layer_stats t = layer_stats(w, "huge", 4);
    EXPECT_TRUE(std::isfinite(t.mean)); // the plain sum overflows
    EXPECT_GE(t.mean, 1.6e308);
    EXPECT_LE(t.mean, 1.7e308);
}

TEST(LayerStats, AllLayerStatsListsTypedAndDictLayersInNameOrder) {
    World w = sphere(40);
    {
        auto [h] = w.lock_layer(Layer_info<float, Layer_type::vertex>("height"));
        Dict_lock terrain = w.lock_layer(std::string_view("terrain"));
        terrain->set("sea_level", Dict_value(0.0));
        terrain->set("name", Dict_value(std::string("Orbis")));
    }
    (void)w.lock_layer(Layer_info<std::int32_t, Layer_type::face>("age"));
    const std::vector<Layer_stats> all = all_layer_stats(w, 8);
    const std::vector<std::string> names = w.layer_names();
    ASSERT_EQ(all.size(), names.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        EXPECT_EQ(all[i].name, names[i]);

    const auto dict = std::find_if(all.begin(), all.end(),
                                   [](const Layer_stats& s) { return s.name == "terrain"; });
    ASSERT_NE(dict, all.end());
    EXPECT_TRUE(dict->is_dict);
    EXPECT_EQ(dict->value_type, "dict");
    EXPECT_EQ(dict->count, 2u);
    EXPECT_EQ(dict->finite, 0u);
    EXPECT_TRUE(std::isnan(dict->mean));
    EXPECT_TRUE(dict->histogram.empty());

    for (const Layer_stats& s : all)
        EXPECT_EQ(s.histogram.size(), s.is_dict ? 0u : 8u) << s.name;
    const auto age =
        std::find_if(all.begin(), all.end(), [](const Layer_stats& s) { return s.name == "age"; });
    ASSERT_NE(age, all.end());
    EXPECT_EQ(age->type, Layer_type::face);
    EXPECT_EQ(age->count, w.mesh().face_count());
}

// A world large enough that all_layer_stats shares its layers between two threads, with
// deleted elements and layers of every kind: each layer's figures are exactly those of a
// plain loop over Mesh::contains, the slowest honest way to find the live slots.
TEST(LayerStats, EveryLayerOfALargeWorldMatchesAPlainLoopOverItsLiveSlots) {
    World w = sphere(60'000);
    {
        Mesh_lock mesh = w.lock_mesh();
        std::mt19937_64 rng(4);
        for (int i = 0; i < 3000; ++i)
            (void)mesh.try_collapse(Edge{static_cast<std::uint32_t>(rng() % mesh->edge_slots())});
    }
    const auto fill = [&]<class T, Layer_type Type>(const Layer_info<T, Type>& info) {
        auto [lock] = w.lock_layer(info);
        std::mt19937_64 rng(info.name().size());
        std::normal_distribution<double> value(5.0, 3.0);
        constexpr std::size_t chunk = Chunked_array<T>::chunk_size;
        for (std::size_t c = 0; c * chunk < lock.size(); ++c)
            for (T& x : lock.chunk(c))
                x = static_cast<T>(value(rng));
    };
    fill(Layer_info<float, Layer_type::vertex>("v"));
    fill(Layer_info<double, Layer_type::face>("f"));
    fill(Layer_info<std::int32_t, Layer_type::edge_primal>("ep"));
    fill(Layer_info<float, Layer_type::edge_primal_directed>("epd"));
    fill(Layer_info<double, Layer_type::edge_dual_directed>("edd"));
    const Mesh& m = w.mesh();
    ASSERT_LT(m.edge_count(), m.edge_slots() / 2);
    const std::vector<Layer_stats> all = all_layer_stats(w, 16);
    ASSERT_EQ(all.size(), w.layer_names().size());
    for (const Layer_stats& s : all) {
        SCOPED_TRACE(s.name);
        EXPECT_EQ(s.name, w.layer_names()[static_cast<std::size_t>(&s - all.data())]);
        if (s.name == "position") continue; // vectors: checked by VectorsAreSummarisedByLength
        const Layer_base& base = *w.find_layer(s.name);
        std::size_t count = 0;
        double lo = inf, hi = -inf, sum = 0.0;
        std::vector<double> values;
        with_value_type(base.value_tag(), [&]<class T>() {
            if constexpr (Layer_scalar<T>) {
                with_layer_type(base.type(), [&]<Layer_type Type>() {
                    const auto& layer = dynamic_cast<const Layer<T, Type>&>(base);
                    for (std::size_t slot = 0; slot < layer.size(); ++slot) {
                        if (!live_slot(m, Type, static_cast<std::uint32_t>(slot))) continue;
                        const double x = static_cast<double>(layer.at_slot(slot));
                        ++count;
                        lo = std::min(lo, x);
                        hi = std::max(hi, x);
                        sum += x;
                        values.push_back(x);
                    }
                });
            }
        });
        EXPECT_EQ(s.count, count);
        EXPECT_EQ(s.finite, count);
        EXPECT_EQ(s.min, lo);
        EXPECT_EQ(s.max, hi);
        EXPECT_EQ(s.mean, sum / static_cast<double>(count)); // same order, same sum
        std::vector<std::size_t> histogram(16, 0);
        for (const double x : values)
            ++histogram[std::min<std::size_t>(static_cast<std::size_t>((x - lo) / (hi - lo) * 16),
                                              15)];
        EXPECT_EQ(s.histogram, histogram);
        EXPECT_EQ(layer_stats(w, s.name, 16).histogram, s.histogram);
    }
}

// Figures from an earlier call are reused exactly when the layer's and the mesh's stamps are
// the ones they were computed from: after a value edit, a mesh edit, going back to an older
// snapshot (an undo) or a change of bins, the result equals a fresh call.
TEST(LayerStats, EarlierFiguresAreReusedOnlyForTheSameVersionsOfLayerAndMesh) {
    World w = sphere(500);
    (void)w.lock_layer(Layer_info<float, Layer_type::vertex>("height").initial(1.f));
    (void)w.lock_layer(Layer_info<std::int32_t, Layer_type::face>("age").initial(3));
    const auto equal = [](const std::vector<Layer_stats>& a, const std::vector<Layer_stats>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].name != b[i].name || a[i].count != b[i].count || a[i].min != b[i].min ||
                a[i].max != b[i].max || a[i].histogram != b[i].histogram ||
                a[i].version != b[i].version || a[i].mesh_version != b[i].mesh_version)
                return false;
        return true;
    };
    const std::vector<Layer_stats> first = all_layer_stats(w, 8);
    // Reuse is visible: doctored figures with the right stamps come back as they are.
    std::vector<Layer_stats> doctored = first;
    for (Layer_stats& s : doctored)
        if (s.name == "age") s.max = 1234.0;
    const auto age_max = [](const std::vector<Layer_stats>& all) {
        for (const Layer_stats& s : all)
            if (s.name == "age") return s.max;
        return nan;
    };
    EXPECT_EQ(age_max(all_layer_stats(w, 8, doctored)), 1234.0);
    EXPECT_EQ(age_max(all_layer_stats(w, 4, doctored)), 3.0) << "other bins: computed again";

    const World before = w;
    {
        auto [h] = w.lock_layer(Layer_info<float, Layer_type::vertex>("height"));
        h[Vertex{7}] = 9.f;
    }
    EXPECT_TRUE(equal(all_layer_stats(w, 8, first), all_layer_stats(w, 8)));
    EXPECT_EQ(age_max(all_layer_stats(w, 8, doctored)), 1234.0) << "age did not change";
    {
        Mesh_lock mesh = w.lock_mesh();
        for (const Edge e : mesh->edges())
            if (!mesh.try_collapse(e)) break;
    }
    const std::vector<Layer_stats> after_collapse = all_layer_stats(w, 8, first);
    EXPECT_TRUE(equal(after_collapse, all_layer_stats(w, 8)));
    EXPECT_EQ(age_max(all_layer_stats(w, 8, doctored)), 3.0) << "the mesh changed";
    // Back to the snapshot: its own stamps, its own figures.
    EXPECT_TRUE(equal(all_layer_stats(before, 8, after_collapse), first));
}

TEST(LayerStats, RefusesUnknownNamesAndTooFewBins) {
    World w = sphere(20);
    EXPECT_THROW((void)layer_stats(w, "missing"), std::invalid_argument);
    EXPECT_THROW((void)layer_stats(w, "position", 0), std::invalid_argument);
    EXPECT_THROW((void)layer_stats(w, "position", -3), std::invalid_argument);
    EXPECT_THROW((void)all_layer_stats(w, 0), std::invalid_argument);
    EXPECT_EQ(layer_stats(w, "position", 1).histogram, std::vector<std::size_t>{20});
}

} // namespace
} // namespace orbis::render
