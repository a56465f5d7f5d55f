// SPDX-License-Identifier: MIT
// Generation on two threads gives the world one thread gives, byte for byte; and the helpers
// that split the work keep the order and the errors of one pass.
#include <orbis/gen/parallel_ranges.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/splitmix64.hpp>
#include <orbis/io/world_file.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

namespace {

using namespace orbis;
using namespace orbis::gen;

// Restores the process-wide settings when a test ends, whatever it set.
class Parallel_settings_guard {
public:
    Parallel_settings_guard()
        : saved_(parallel_settings()) {}
    ~Parallel_settings_guard() { set_parallel_settings(saved_); }
    Parallel_settings_guard(const Parallel_settings_guard&) = delete;
    Parallel_settings_guard& operator=(const Parallel_settings_guard&) = delete;

private:
    Parallel_settings saved_;
};

World generate(const Pipeline& pipeline) {
    World world;
    run_pipeline(world, pipeline, builtin_modules());
    return world;
}

// The default pipeline (terrain, climate, water, biomes) on a small sphere, once on one thread
// and once with every pass that can split split, however small.
TEST(Parallel_generation, OneAndTwoThreadsGiveByteIdenticalWorlds) {
    const Parallel_settings_guard guard;
    Pipeline pipeline = default_pipeline();
    ASSERT_EQ(override_parameter(pipeline, builtin_modules(), "count",
                                 Dict_value(std::int64_t(6000)), "sphere"),
              1);
    set_parallel_settings({.threads = 1, .min_items = parallel_ranges_threshold});
    const World one = generate(pipeline);
    set_parallel_settings({.threads = 2, .min_items = 2});
    const World two = generate(pipeline);
    EXPECT_TRUE(one == two);
    EXPECT_EQ(io::write_world(one), io::write_world(two));
    EXPECT_GT(one.mesh().vertex_count(), 6000u); // refine ran and split edges
}

TEST(Parallel_generation, SettingsAreClamped) {
    const Parallel_settings_guard guard;
    set_parallel_settings({.threads = 7, .min_items = 0});
    EXPECT_EQ(parallel_settings().threads, 2u);
    EXPECT_EQ(parallel_settings().min_items, 2u);
    set_parallel_settings({.threads = 0, .min_items = 100});
    EXPECT_EQ(parallel_settings().threads, 1u);
    EXPECT_EQ(parallel_settings().min_items, 100u);
}

TEST(Parallel_ranges, PartsCoverTheRangeInOrderAndTheLowestErrorWins) {
    const Parallel_settings_guard guard;
    set_parallel_settings({.threads = 2, .min_items = 2});
    std::vector<std::uint32_t> seen(101, 0);
    unsigned parts = 0;
    parallel_ranges(101, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        if (part == 1) parts = 2;
        for (std::uint32_t i = begin; i < end; ++i)
            seen[i] += i + 1;
    });
    std::vector<std::uint32_t> expected(101);
    std::iota(expected.begin(), expected.end(), 1u);
    EXPECT_EQ(seen, expected);
    EXPECT_EQ(parts, 2u);

    // Both parts throw; the first part's error (lower indices) is the one that comes out.
    try {
        parallel_ranges(100, [](std::uint32_t begin, std::uint32_t, unsigned) {
            throw std::runtime_error("from " + std::to_string(begin));
        });
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "from 0");
    }
}

TEST(Parallel_tasks, EveryTaskRunsOnceAndTheLowestFailingTaskIsRethrown) {
    const Parallel_settings_guard guard;
    for (const unsigned threads : {1u, 2u}) {
        set_parallel_settings({.threads = threads, .min_items = 2});
        std::vector<int> runs(9, 0);
        parallel_tasks(9, [&](std::uint32_t i) { ++runs[i]; });
        EXPECT_EQ(runs, std::vector<int>(9, 1)) << threads << " threads";

        std::vector<int> ran(9, 0);
        try {
            parallel_tasks(9, [&](std::uint32_t i) {
                ran[i] = 1;
                if (i == 3 || i == 6) throw std::runtime_error("task " + std::to_string(i));
            });
            FAIL() << "no exception";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "task 3") << threads << " threads";
        }
        EXPECT_EQ(ran, std::vector<int>(9, 1)) << threads << " threads";
    }
}

TEST(Splitmix64, AfterDrawsContinuesTheSequence) {
    gen::detail::Splitmix64 a(12345);
    for (int i = 0; i < 1000; ++i)
        a.next();
    gen::detail::Splitmix64 b = gen::detail::Splitmix64::after_draws(12345, 1000);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(a.next(), b.next());
}

} // namespace
