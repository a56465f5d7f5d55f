// SPDX-License-Identifier: MIT
// Equirectangular maps: orientation and handedness, coverage at poles and seam, categorical
// ids, hillshade, value types, deleted elements and refusals.
#include <algorithm>
#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/io/equirectangular.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace orbis::io {
namespace {

constexpr auto value_layer =
    Layer_info<float, Layer_type::vertex>("value").interpolation(Interpolation::lerp);
constexpr Srgb8 magenta(255, 0, 255);

// A Fibonacci sphere world with layer `info` set to f(position) on every live vertex.
template <class T>
World sphere_with(std::uint32_t count, const Layer_info<T, Layer_type::vertex>& info,
                  const std::function<T(glm::vec3)>& f, std::uint64_t seed = 7) {
    World world = gen::make_sphere_world({count, 1.f, 0.5f, seed});
    std::vector<glm::vec3> positions;
    for (const Vertex v : world.mesh().vertices())
        positions.push_back((*world.layer(position_layer))[v]);
    auto [lock] = world.lock_layer(info);
    std::size_t i = 0;
    for (const Vertex v : world.mesh().vertices())
        lock[v] = f(positions[i++]);
    return world;
}

// The unit direction of pixel (x, y) by the documented convention.
glm::dvec3 direction(std::uint32_t x, std::uint32_t y, std::uint32_t width, std::uint32_t height) {
    constexpr double pi = std::numbers::pi;
    const double lon = -pi + 2 * pi * (x + 0.5) / width;
    const double lat = pi / 2 - pi * (y + 0.5) / height;
    return {std::cos(lat) * std::cos(lon), std::sin(lat), -std::cos(lat) * std::sin(lon)};
}

int channel_distance(Srgb8 a, Srgb8 b) {
    return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

double luminance(Srgb8 c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; }

// Every pixel has the colour viridis gives the expected value of its direction (a linear
// function of the position is interpolated almost exactly on a fine mesh).
void expect_viridis_of(const Image& image, const std::function<double(glm::dvec3)>& expected,
                       Value_range range) {
    int worst = 0;
    for (std::uint32_t y = 0; y < image.height; ++y)
        for (std::uint32_t x = 0; x < image.width; ++x) {
            const double v = expected(direction(x, y, image.width, image.height));
            const Srgb8 want = viridis(normalise(v, range.min, range.max));
            worst = std::max(worst, channel_distance(image.at(x, y), want));
        }
    EXPECT_LE(worst, 4);
}

TEST(Equirectangular, HeightIsHalfTheWidthByDefault) {
    const World w = sphere_with<float>(500, value_layer, [](glm::vec3 p) { return p.y; });
    const Image image = render_equirectangular(w, "value", {.width = 64});
    EXPECT_EQ(image.width, 64u);
    EXPECT_EQ(image.height, 32u);
    EXPECT_EQ(image.pixels.size(), 64u * 32u * 3u);
    const Image tall = render_equirectangular(w, "value", {.width = 10, .height = 30});
    EXPECT_EQ(tall.height, 30u);
    EXPECT_EQ(render_equirectangular(w, "value", {.width = 1}).height, 1u);
}

TEST(Equirectangular, NorthIsAtTheTop) {
    const World w = sphere_with<float>(5000, value_layer, [](glm::vec3 p) { return p.y; });
    const Image image = render_equirectangular(w, "value", {.width = 360});
    // The poles are vertices, so the default range is exactly [-1, 1].
    expect_viridis_of(image, [](glm::dvec3 d) { return d.y; }, {-1.0, 1.0});
    for (const std::uint32_t x : {0u, 90u, 179u, 180u, 300u, 359u}) {
        EXPECT_GT(luminance(image.at(x, 0)), 190) << x;
        EXPECT_LT(luminance(image.at(x, image.height - 1)), 40) << x;
        for (std::uint32_t y = 1; y < image.height; ++y)
            EXPECT_LE(luminance(image.at(x, y)), luminance(image.at(x, y - 1)) + 1.0)
                << x << ", " << y;
    }
}

TEST(Equirectangular, LongitudeRunsEastFromMinus180ToPlus180) {
    // x = cos(lat) cos(lon): largest in the middle column, smallest at the seam.
    const World wx = sphere_with<float>(5000, value_layer, [](glm::vec3 p) { return p.x; });
    const Map_options options{.width = 360, .range = Value_range{-1.0, 1.0}};
    const Image ix = render_equirectangular(wx, "value", options);
    expect_viridis_of(ix, [](glm::dvec3 d) { return d.x; }, {-1.0, 1.0});
    const std::uint32_t equator = ix.height / 2;
    EXPECT_GT(luminance(ix.at(180, equator)), luminance(ix.at(90, equator)));
    EXPECT_GT(luminance(ix.at(90, equator)), luminance(ix.at(0, equator)));
    // z = -cos(lat) sin(lon): east (+90 degrees) is -z, so the left half is bright.
    const World wz = sphere_with<float>(5000, value_layer, [](glm::vec3 p) { return p.z; });
    const Image iz = render_equirectangular(wz, "value", options);
    expect_viridis_of(iz, [](glm::dvec3 d) { return d.z; }, {-1.0, 1.0});
    EXPECT_GT(luminance(iz.at(90, equator)), luminance(iz.at(270, equator)) + 100);
}

TEST(Equirectangular, EveryPixelIsCoveredAtPolesAndSeam) {
    for (const std::uint32_t count : {4u, 12u, 100u, 3000u}) {
        const World w = sphere_with<float>(count, value_layer, [](glm::vec3 p) { return p.x; });
        for (const std::uint32_t width : {2u, 37u, 512u}) {
            const Image image =
                render_equirectangular(w, "value", {.width = width, .no_data = magenta});
            for (std::uint32_t y = 0; y < image.height; ++y)
                for (std::uint32_t x = 0; x < image.width; ++x)
                    ASSERT_NE(image.at(x, y), magenta)
                        << count << " points, " << width << " wide: hole at " << x << ", " << y;
        }
    }
}

TEST(Equirectangular, TheSeamIsContinuous) {
    const World w = sphere_with<float>(3000, value_layer, [](glm::vec3 p) { return p.z; });
    const Image image = render_equirectangular(w, "value", {.width = 720});
    for (std::uint32_t y = 0; y < image.height; ++y)
        EXPECT_LE(channel_distance(image.at(0, y), image.at(image.width - 1, y)), 6) << y;
}

TEST(Equirectangular, TheImageDoesNotDependOnTheThreadCount) {
    const World w = sphere_with<float>(3000, value_layer, [](glm::vec3 p) { return p.x * p.z; });
    Map_options options{.width = 301, .colour_map = Colour_map_kind::terrain, .hillshade = true};
    options.threads = 1;
    const Image one = render_equirectangular(w, "value", options);
    for (const unsigned threads : {2u, 3u, 7u, 500u}) {
        options.threads = threads;
        EXPECT_TRUE(render_equirectangular(w, "value", options) == one) << threads;
    }
}

TEST(Equirectangular, CategoricalPixelsShowExactlyOneVertexValue) {
    constexpr auto ids = Layer_info<std::int32_t, Layer_type::vertex>("plate");
    std::mt19937 rng(5);
    std::set<std::int32_t> used;
    const World w = sphere_with<std::int32_t>(400, ids, [&](glm::vec3) {
        const auto id = static_cast<std::int32_t>(rng() % 1000) - 500;
        used.insert(id);
        return id;
    });
    std::set<std::tuple<int, int, int>> allowed;
    for (const std::int32_t id : used) {
        const Srgb8 c = categorical(id);
        allowed.insert({c.r, c.g, c.b});
    }
    const Image image = render_equirectangular(
        w, "plate", {.width = 400, .colour_map = Colour_map_kind::categorical});
    std::set<std::tuple<int, int, int>> seen;
    for (std::uint32_t y = 0; y < image.height; ++y)
        for (std::uint32_t x = 0; x < image.width; ++x) {
            const Srgb8 c = image.at(x, y);
            ASSERT_TRUE(allowed.count({c.r, c.g, c.b})) << "pixel " << x << ", " << y;
            seen.insert({c.r, c.g, c.b});
        }
    // Each vertex owns a patch of about 400 pixels, so (almost) every id shows.
    EXPECT_GE(seen.size(), allowed.size() * 9 / 10);
}

TEST(Equirectangular, EveryScalarValueTypeIsDrawn) {
    const Map_options options{.width = 90, .no_data = magenta};
    const auto check = [&](const World& w, const char* name) {
        const Image image = render_equirectangular(w, name, options);
        // Exact for the step functions, within rounding for the smooth double layer.
        EXPECT_LE(channel_distance(image.at(10, 0), viridis(1.0)), 1) << name;
        EXPECT_LE(channel_distance(image.at(10, image.height - 1), viridis(0.0)), 1) << name;
    };
    const auto up = [](glm::vec3 p) { return p.y > 0.0f; };
    check(sphere_with<bool>(800, Layer_info<bool, Layer_type::vertex>("b"), up), "b");
    check(sphere_with<std::int32_t>(800, Layer_info<std::int32_t, Layer_type::vertex>("i"),
                                    [&](glm::vec3 p) { return up(p) ? -3 : -9; }),
          "i");
    check(sphere_with<std::uint32_t>(800, Layer_info<std::uint32_t, Layer_type::vertex>("u"),
                                     [&](glm::vec3 p) { return up(p) ? 4000000000u : 7u; }),
          "u");
    check(sphere_with<std::int64_t>(800, Layer_info<std::int64_t, Layer_type::vertex>("l"),
                                    [&](glm::vec3 p) { return up(p) ? 1ll << 40 : -(1ll << 40); }),
          "l");
    check(sphere_with<double>(800, Layer_info<double, Layer_type::vertex>("d"),
                              [](glm::vec3 p) { return 1e6 * p.y; }),
          "d");
}

TEST(Equirectangular, DeletedElementsAreSkipped) {
    World w = sphere_with<float>(2000, value_layer, [](glm::vec3 p) { return p.y; });
    {
        // Split edges, then merge each new vertex back into the edge's origin (t = 0 keeps the
        // origin's position and value): the same surface, with holes in the vertex and face
        // slots. (Random collapses would fold the mesh over itself instead.) The edges split
        // share no vertex, and none is a corner of another's faces, so that no split moves
        // another's new vertex off the surface.
        auto lock = w.lock_mesh();
        std::mt19937_64 rng(3);
        std::vector<Edge> split;
        std::vector<std::uint8_t> touched(lock->vertex_slots(), 0);
        for (int i = 0; i < 120; ++i) {
            const Edge e{static_cast<std::uint32_t>(rng() % lock->edge_slots()) & ~1u};
            if (!lock->contains(e)) continue;
            const Vertex corners[] = {e.origin(*lock), e.dest(*lock), e.left_vertex(*lock),
                                      e.right_vertex(*lock)};
            if (std::any_of(std::begin(corners), std::end(corners), [&](Vertex v) {
                    // Vertices made by the splits are past the end: touched too.
                    return v.index() >= touched.size() || touched[v.index()] != 0;
                }))
                continue;
            for (const Vertex v : corners)
                touched[v.index()] = 1;
            if (!lock.try_split(e, 0.5f)) split.push_back(e);
        }
        int collapsed = 0;
        for (const Edge e : split)
            collapsed += lock->contains(e) && !lock.try_collapse(e, 0.0f);
        ASSERT_GE(collapsed, 80);
    }
    const Mesh& m = w.mesh();
    ASSERT_LT(m.vertex_count(), m.vertex_slots());
    ASSERT_LT(m.face_count(), m.face_slots());
    {
        // Deleted slots keep stale values; make them absurd so that reading one shows.
        auto [lock] = w.lock_layer(value_layer);
        for (std::uint32_t i = 0; i < m.vertex_slots(); ++i)
            if (!m.contains(Vertex{i})) lock[Vertex{i}] = 1e9f;
    }
    const Image image = render_equirectangular(w, "value", {.width = 360, .no_data = magenta});
    expect_viridis_of(image, [](glm::dvec3 d) { return d.y; }, {-1.0, 1.0});
}

TEST(Equirectangular, FoldedMeshesStillRender) {
    // Random collapses fold some faces over their neighbours: the walk may then cycle, which
    // the renderer must survive (falling back to testing every face).
    World w = sphere_with<float>(2000, value_layer, [](glm::vec3 p) { return p.y; });
    {
        auto lock = w.lock_mesh();
        std::mt19937_64 rng(3);
        int done = 0;
        for (int tries = 0; done < 300 && tries < 10000; ++tries) {
            const Edge e{static_cast<std::uint32_t>(rng() % lock->edge_slots()) & ~1u};
            if (lock->contains(e) && !lock.try_collapse(e)) ++done;
        }
    }
    const Image image = render_equirectangular(w, "value", {.width = 360, .no_data = magenta});
    std::size_t holes = 0;
    for (std::uint32_t y = 0; y < image.height; ++y)
        for (std::uint32_t x = 0; x < image.width; ++x)
            holes += image.at(x, y) == magenta;
    EXPECT_LT(holes, image.pixels.size() / 3 / 100);
}

TEST(Equirectangular, HillshadeLightsSlopesFacingNorthWest) {
    // Land everywhere, rising eastwards around longitude 0 and falling eastwards around 180.
    const World w =
        sphere_with<float>(5000, value_layer, [](glm::vec3 p) { return 2000.0f - 1500.0f * p.z; });
    Map_options flat{.width = 360, .colour_map = Colour_map_kind::terrain};
    Map_options shaded = flat;
    shaded.hillshade = true;
    const Image a = render_equirectangular(w, "value", flat);
    const Image b = render_equirectangular(w, "value", shaded);
    const std::uint32_t equator = a.height / 2;
    EXPECT_GT(luminance(b.at(180, equator)), luminance(a.at(180, equator)) + 5);
    EXPECT_LT(luminance(b.at(2, equator)), luminance(a.at(2, equator)) - 5);
    // An explicit exaggeration of 0 turns the shading off.
    shaded.vertical_exaggeration = 0.0;
    EXPECT_TRUE(render_equirectangular(w, "value", shaded) == a);
}

TEST(Equirectangular, TerrainShadesLandOnly) {
    const World w =
        sphere_with<float>(3000, value_layer, [](glm::vec3 p) { return -3000.0f * p.z; });
    Map_options flat{.width = 180, .colour_map = Colour_map_kind::terrain};
    Map_options shaded = flat;
    shaded.hillshade = true;
    const Image a = render_equirectangular(w, "value", flat);
    const Image b = render_equirectangular(w, "value", shaded);
    int sea = 0, shaded_land = 0;
    for (std::uint32_t y = 0; y < a.height; ++y)
        for (std::uint32_t x = 0; x < a.width; ++x) {
            const double value = -3000.0 * direction(x, y, a.width, a.height).z;
            if (value < -100.0) {
                ++sea;
                EXPECT_EQ(a.at(x, y), b.at(x, y)) << x << ", " << y;
                EXPECT_GT(a.at(x, y).b, a.at(x, y).r + 30) << x << ", " << y;
            } else if (value > 100.0) {
                shaded_land += a.at(x, y) != b.at(x, y);
                EXPECT_LE(a.at(x, y).b, a.at(x, y).r + 30) << x << ", " << y;
            }
        }
    EXPECT_GT(sea, 1000);
    EXPECT_GT(shaded_land, 1000);
}

TEST(Equirectangular, NanValuesGetTheNoDataColour) {
    const World w = sphere_with<float>(500, value_layer, [](glm::vec3 p) {
        return p.y > 0.5f ? std::numeric_limits<float>::quiet_NaN() : p.y;
    });
    const Image image = render_equirectangular(w, "value", {.width = 100, .no_data = magenta});
    EXPECT_EQ(image.at(50, 0), magenta);
    EXPECT_NE(image.at(50, image.height - 1), magenta);
}

std::string refusal(const World& w, std::string_view layer, const Map_options& options = {}) {
    try {
        (void)render_equirectangular(w, layer, options);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    ADD_FAILURE() << "rendered " << layer;
    return "";
}

bool mentions(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

TEST(Equirectangular, RefusesWhatItCannotDraw) {
    World w = sphere_with<float>(100, value_layer, [](glm::vec3 p) { return p.x; });
    w.lock_layer("notes");
    (void)w.lock_layer(Layer_info<float, Layer_type::face>("area"));
    (void)w.lock_layer(Layer_info<glm::dvec2, Layer_type::vertex>("wind"));

    std::string why = refusal(w, "missing");
    EXPECT_TRUE(mentions(why, "'missing'")) << why;
    why = refusal(w, "notes");
    EXPECT_TRUE(mentions(why, "'notes'") && mentions(why, "Dict")) << why;
    why = refusal(w, "area");
    EXPECT_TRUE(mentions(why, "'area'") && mentions(why, "face")) << why;
    why = refusal(w, "wind");
    EXPECT_TRUE(mentions(why, "'wind'") && mentions(why, "dvec2")) << why;
    why = refusal(w, "position");
    EXPECT_TRUE(mentions(why, "'position'") && mentions(why, "vec3")) << why;

    EXPECT_TRUE(mentions(refusal(w, "value", {.width = 0}), "width"));
    EXPECT_TRUE(mentions(refusal(w, "value", {.width = 1u << 16, .height = 1u << 13}), "2^28"));
    EXPECT_TRUE(mentions(refusal(w, "value", {.range = Value_range{2.0, 1.0}}), "range"));
    EXPECT_TRUE(mentions(
        refusal(w, "value", {.colour_map = Colour_map_kind::categorical, .hillshade = true}),
        "hillshade"));
    EXPECT_TRUE(mentions(refusal(w, "value", {.hillshade = true, .vertical_exaggeration = -1.0}),
                         "exaggeration"));
}

TEST(Equirectangular, RefusesWorldsWithoutPositionsOrFaces) {
    World no_positions;
    no_positions.lock_mesh().assign(gen::make_sphere({.count = 50}).mesh);
    (void)no_positions.lock_layer(value_layer);
    const std::string why = refusal(no_positions, "value");
    EXPECT_TRUE(mentions(why, "position")) << why;

    World no_faces;
    {
        auto lock = no_faces.lock_mesh();
        lock.add_vertices(3);
    }
    (void)no_faces.lock_layer(value_layer, position_layer);
    EXPECT_TRUE(mentions(refusal(no_faces, "value"), "no faces"));

    World zero = sphere_with<float>(50, value_layer, [](glm::vec3 p) { return p.x; });
    {
        auto [lock] = zero.lock_layer(position_layer);
        lock[Vertex{7}] = glm::vec3(0.0f);
    }
    EXPECT_TRUE(mentions(refusal(zero, "value"), "v7"));
}

} // namespace
} // namespace orbis::io
