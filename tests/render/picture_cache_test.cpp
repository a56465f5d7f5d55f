// SPDX-License-Identifier: MIT
// Tests of Picture_cache and World_stamp: a snapshot has its World's stamp and any write, mesh
// edit, new layer or hint gives another; pictures are found only for the same state, options
// and place, the least recently used go first beyond the budget, and a view that moved gives
// up the pictures from the old place.
#include "orbis/render/picture_cache.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/sphere.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace orbis::render {
namespace {

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");

World sphere() {
    World w = gen::make_sphere_world({.count = 200, .radius = 1.f, .seed = 4});
    auto [h] = w.lock_layer(height);
    h[Vertex{0}] = 1.f;
    return w;
}

std::shared_ptr<const Picture> picture(int w, int h, std::uint8_t fill) {
    auto p = std::make_shared<Picture>();
    p->width = w;
    p->height = h;
    p->pixels.assign(std::size_t(w) * std::size_t(h) * 4, fill);
    return p;
}

View_place place_of(int w, int h) {
    Camera c;
    c.set_viewport(w, h);
    c.set_radius(6371.0);
    return view_place(c, w, h);
}

TEST(World_stamp, SnapshotsShareItAndEveryChangeMakesAnother) {
    const World a = sphere();
    const World copy = a;
    EXPECT_EQ(world_stamp(a), world_stamp(copy));

    World written = a;
    {
        auto [h] = written.lock_layer(height);
        h[Vertex{1}] = 2.f;
    }
    EXPECT_NE(world_stamp(written), world_stamp(a));

    World flipped = a;
    {
        Mesh_lock m = flipped.lock_mesh();
        bool done = false;
        for (const Edge e : flipped.mesh().edges()) {
            done = !m.try_flip(e);
            if (done) break;
        }
        ASSERT_TRUE(done);
    }
    EXPECT_NE(world_stamp(flipped), world_stamp(a));

    World more = a;
    { auto [t] = more.lock_layer(Layer_info<float, Layer_type::face>("t")); }
    EXPECT_NE(world_stamp(more), world_stamp(a));

    World hinted = a;
    Layer_hints hints;
    hints.label = "Height";
    hinted.set_hints("height", hints);
    EXPECT_NE(world_stamp(hinted), world_stamp(a));
}

TEST(View_place, TheRadiusDoesNotMoveItAndATurnDoes) {
    Camera c;
    c.set_viewport(800, 600);
    c.set_radius(6371.0);
    const View_place before = view_place(c, 800, 600);
    c.set_radius(6480.5); // relief: the planet's radius differs between states
    EXPECT_TRUE(view_place(c, 800, 600).same_as(before));
    EXPECT_FALSE(view_place(c, 800, 601).same_as(before));
    c.rotate({400, 300}, {410, 300});
    EXPECT_FALSE(view_place(c, 800, 600).same_as(before));
}

TEST(Picture_cache, FindsOnlyTheSameStateOptionsAndPlace) {
    Picture_cache cache;
    const World a = sphere();
    World b = a;
    {
        auto [h] = b.lock_layer(height);
        h[Vertex{2}] = 3.f;
    }
    View_options options;
    options.layer = "height";
    const View_place place = place_of(64, 48);
    cache.put(world_stamp(a), options, place, picture(64, 48, 1));
    cache.put(world_stamp(b), options, place, picture(64, 48, 2));
    ASSERT_EQ(cache.count(), 2u);
    EXPECT_EQ(cache.bytes(), 2u * 64 * 48 * 4);
    EXPECT_TRUE(cache.has(world_stamp(a), options, place));
    EXPECT_EQ(cache.find(world_stamp(World(a)), options, place)->pixels[0], 1);
    EXPECT_EQ(cache.find(world_stamp(b), options, place)->pixels[0], 2);

    View_options other = options;
    other.wireframe = true;
    EXPECT_EQ(cache.find(world_stamp(a), other, place), nullptr);
    EXPECT_FALSE(cache.has(world_stamp(a), other, place));
    EXPECT_EQ(cache.find(world_stamp(a), options, place_of(64, 49)), nullptr);
    World c = a;
    {
        auto [h] = c.lock_layer(height);
        h[Vertex{3}] = 4.f;
    }
    EXPECT_EQ(cache.find(world_stamp(c), options, place), nullptr);

    // A picture from elsewhere: the old place's pictures cannot be shown again.
    cache.put(world_stamp(c), options, place_of(64, 49), picture(64, 49, 3));
    EXPECT_EQ(cache.count(), 1u);
    EXPECT_EQ(cache.find(world_stamp(a), options, place), nullptr);
    EXPECT_NE(cache.find(world_stamp(c), options, place_of(64, 49)), nullptr);
}

TEST(Picture_cache, GivesUpTheLeastRecentlyUsedBeyondItsBudget) {
    const std::size_t one = 16 * 16 * 4;
    Picture_cache cache(3 * one);
    const View_options options;
    const View_place place = place_of(16, 16);
    std::vector<World> states;
    World w = sphere();
    for (int i = 0; i < 4; ++i) {
        {
            auto [h] = w.lock_layer(height);
            h[Vertex{5}] = float(i);
        }
        states.push_back(w);
    }
    for (int i = 0; i < 3; ++i)
        cache.put(world_stamp(states[i]), options, place, picture(16, 16, std::uint8_t(i)));
    ASSERT_NE(cache.find(world_stamp(states[0]), options, place), nullptr); // used: kept
    cache.put(world_stamp(states[3]), options, place, picture(16, 16, 3));
    EXPECT_EQ(cache.count(), 3u);
    EXPECT_LE(cache.bytes(), cache.budget());
    EXPECT_EQ(cache.find(world_stamp(states[1]), options, place), nullptr) << "least recent";
    EXPECT_NE(cache.find(world_stamp(states[0]), options, place), nullptr);
    EXPECT_NE(cache.find(world_stamp(states[3]), options, place), nullptr);

    // The same state again replaces its picture; a picture over the budget is not kept.
    cache.put(world_stamp(states[3]), options, place, picture(16, 16, 9));
    EXPECT_EQ(cache.count(), 3u);
    EXPECT_EQ(cache.find(world_stamp(states[3]), options, place)->pixels[0], 9);
    cache.put(world_stamp(states[1]), options, place_of(64, 64), picture(64, 64, 1));
    EXPECT_EQ(cache.count(), 0u);
    EXPECT_EQ(cache.bytes(), 0u);
    cache.put(world_stamp(states[1]), options, place, picture(16, 16, 1));
    cache.set_budget(0);
    EXPECT_EQ(cache.count(), 0u);
}

} // namespace
} // namespace orbis::render
