// SPDX-License-Identifier: MIT
// The Timeline of kept steps: snapshots come back equal, memory is counted per step beyond its
// neighbour, and over budget the old steps are thinned with doubling strides, never the first
// or the newest.
#include "orbis/edit/timeline.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <vector>

namespace {

using namespace orbis;
using edit::Timeline;

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr std::uint32_t vertex_count = 100000;

// A World of isolated vertices with a height layer: enough chunks that a step which changes
// one value shares almost everything with the step before.
World start_world() {
    World w;
    w.lock_mesh().add_vertices(vertex_count);
    auto [h] = w.lock_layer(height);
    for (std::uint32_t i = 0; i < vertex_count; ++i)
        h[Vertex(i)] = float(i % 97);
    return w;
}

// The step after `w`: one value of the first chunk changed, so that chunk is copied. Every
// step changes the same chunk, as a simulation rewrites the same layers: dropping a step then
// frees its copy.
World next_step(const World& w, std::int64_t step) {
    World next = w;
    auto [h] = next.lock_layer(height);
    h[Vertex(std::uint32_t(step % 1000))] = float(step) + 0.5f;
    return next;
}

// The bytes Timeline::bytes() should report for what `t` keeps.
std::size_t expected_bytes(const Timeline& t) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < t.count(); ++i)
        total += i == 0 ? t.world_at(0).memory().bytes
                        : t.world_at(i).bytes_not_shared_with(t.world_at(i - 1));
    return total;
}

TEST(Timeline, KeepsEveryStepWithinItsBudgetAndGivesBackEqualSnapshots) {
    Timeline t;
    EXPECT_TRUE(t.empty());
    std::vector<World> made{start_world()};
    t.add(0, made.back());
    for (std::int64_t s = 1; s < 20; ++s) {
        made.push_back(next_step(made.back(), s));
        t.add(s, made.back());
    }
    ASSERT_EQ(t.count(), 20u);
    EXPECT_EQ(t.thinning(), 1);
    for (std::size_t i = 0; i < t.count(); ++i) {
        EXPECT_EQ(t.step_at(i), std::int64_t(i));
        EXPECT_TRUE(t.world_at(i) == made[i]) << "step " << i;
    }
    EXPECT_FALSE(t.world_at(0) == t.world_at(1));
    EXPECT_EQ(t.index_at_or_before(7), 7u);
    EXPECT_EQ(t.index_at_or_before(-3), 0u);
    EXPECT_EQ(t.index_at_or_before(100), 19u);
}

TEST(Timeline, CountsWhatEachStepDoesNotShareWithTheOneBefore) {
    Timeline t;
    World w = start_world();
    t.add(0, w);
    const std::size_t base = w.memory().bytes;
    EXPECT_EQ(t.bytes(), base);
    for (std::int64_t s = 1; s <= 10; ++s) {
        w = next_step(w, s);
        t.add(s, w);
    }
    EXPECT_EQ(t.bytes(), expected_bytes(t));
    // Ten steps that changed one value each cost far less than ten worlds.
    EXPECT_GT(t.bytes(), base);
    EXPECT_LT(t.bytes() - base, base / 2);

    t.drop_after(4);
    ASSERT_EQ(t.count(), 5u);
    EXPECT_EQ(t.step_at(4), 4);
    EXPECT_EQ(t.bytes(), expected_bytes(t));
    t.clear();
    EXPECT_TRUE(t.empty());
    EXPECT_EQ(t.bytes(), 0u);
    EXPECT_EQ(t.thinning(), 1);
}

TEST(Timeline, OverBudgetOldStepsThinWithDoublingStridesKeepingFirstAndNewest) {
    World w = start_world();
    const std::size_t base = w.memory().bytes;
    const std::size_t step_cost = next_step(w, 1).bytes_not_shared_with(w);
    ASSERT_GT(step_cost, 0u);
    // Room for the first world and about twelve steps.
    Timeline t(base + 12 * step_cost + step_cost / 2);
    std::map<std::int64_t, World> made;
    made.emplace(0, w);
    t.add(0, w);
    std::int64_t stride = 1;
    std::vector<std::int64_t> strides{1};
    for (std::int64_t s = 1; s <= 300; ++s) {
        w = next_step(w, s);
        made.emplace(s, w);
        t.add(s, w);
        ASSERT_LE(t.bytes(), t.budget()) << "after step " << s;
        ASSERT_EQ(t.bytes(), expected_bytes(t));
        EXPECT_EQ(t.step_at(0), 0) << "the first step stays";
        EXPECT_EQ(t.step_at(t.count() - 1), s) << "the newest step stays";
        if (t.thinning() != stride) {
            EXPECT_EQ(t.thinning(), 2 * stride) << "strides double";
            stride = t.thinning();
            strides.push_back(stride);
            // Just thinned: every step between the first and the newest is on the stride.
            for (std::size_t i = 1; i + 1 < t.count(); ++i)
                EXPECT_EQ(t.step_at(i) % stride, 0) << "step " << t.step_at(i);
        }
    }
    EXPECT_GE(strides.size(), 4u) << "300 steps in room for 12 thin several times";
    for (std::size_t i = 0; i < t.count(); ++i) {
        if (i > 0) {
            EXPECT_LT(t.step_at(i - 1), t.step_at(i));
        }
        EXPECT_TRUE(t.world_at(i) == made.at(t.step_at(i))) << "step " << t.step_at(i);
    }
}

TEST(Timeline, ASmallerBudgetThinsAtOnceDownToFirstAndNewest) {
    Timeline t;
    World w = start_world();
    t.add(0, w);
    for (std::int64_t s = 1; s <= 40; ++s) {
        w = next_step(w, s);
        t.add(s, w);
    }
    ASSERT_EQ(t.count(), 41u);
    t.set_budget(t.bytes() - 1);
    EXPECT_EQ(t.thinning(), 2);
    EXPECT_EQ(t.count(), 21u) << "0, 2, …, 40 and nothing else";
    t.set_budget(0);
    ASSERT_EQ(t.count(), 2u) << "the first and the newest are never dropped";
    EXPECT_EQ(t.step_at(0), 0);
    EXPECT_EQ(t.step_at(1), 40);
    EXPECT_TRUE(t.world_at(1) == w);
    EXPECT_EQ(t.bytes(), expected_bytes(t));
}

} // namespace
