// SPDX-License-Identifier: MIT
// The world file: save -> load gives an equal World (every layer type and kind, Dicts, the
// generator, free lists), compressed or not; saves are atomic; newer versions are refused.
#include <orbis/core.hpp>
#include <orbis/io/file_error.hpp>
#include <orbis/io/world_file.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

namespace orbis::io {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("orbis_world_file_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir / name;
}

// Writes a value derived from `i` into a layer of T on every slot.
template <class T>
T value_for(std::size_t i) {
    if constexpr (std::is_same_v<T, bool>)
        return i % 3 == 0;
    else if constexpr (Layer_scalar<T>)
        return static_cast<T>(i * 7 % 1000) - static_cast<T>(i % 2);
    else
        return T(static_cast<Layer_component_t<T>>(i) * Layer_component_t<T>(0.5));
}

template <class T, Layer_type Type>
void add_layer(World& w, const char* name, Interpolation mode) {
    auto [x] = w.lock_layer(Layer_info<T, Type>(name).interpolation(mode).on_mesh_change(
        On_mesh_change::reset_affected));
    for (std::size_t c = 0; c < x->chunk_count(); ++c) {
        auto values = x.chunk(c);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = value_for<T>(c * 4096 + i);
    }
}

// A world after random edits (so it has deleted elements and free lists), with a layer of
// every value type, every layer kind, Dicts and a used generator.
World rich_world() {
    World w(77);
    w.lock_mesh().assign(test::build(test::icosphere(3)));
    add_layer<bool, Layer_type::vertex>(w, "b", Interpolation::keep_src);
    add_layer<std::int32_t, Layer_type::face>(w, "i32", Interpolation::lerp);
    add_layer<std::uint32_t, Layer_type::edge_primal>(w, "u32", Interpolation::max_value);
    add_layer<std::int64_t, Layer_type::edge_primal_directed>(w, "i64", Interpolation::lerp);
    add_layer<float, Layer_type::edge_dual>(w, "f", Interpolation::lerp);
    add_layer<double, Layer_type::edge_dual_directed>(w, "d", Interpolation::min_weight);
    add_layer<glm::vec2, Layer_type::vertex>(w, "v2", Interpolation::lerp);
    add_layer<glm::vec3, Layer_type::vertex>(w, "position", Interpolation::slerp);
    add_layer<glm::vec4, Layer_type::face>(w, "v4", Interpolation::keep_dest);
    add_layer<glm::dvec2, Layer_type::edge_primal>(w, "dv2", Interpolation::lerp);
    add_layer<glm::dvec3, Layer_type::edge_dual>(w, "dv3", Interpolation::slerp);
    add_layer<glm::dvec4, Layer_type::vertex>(w, "dv4", Interpolation::max_weight);
    {
        auto [r] = w.lock_layer(Layer_info<float, Layer_type::vertex>("ranged")
                                    .min(-1.f)
                                    .max(1.f)
                                    .validate(Validation::range)
                                    .initial(0.5f));
    }
    {
        auto d = w.lock_layer("generator");
        d->set("points", 642);
        d->set("name", "test world");
        d->set("axis", glm::dvec3(0, 0, 1));
        d->set("nan", std::numeric_limits<double>::quiet_NaN());
        Dict inner;
        inner.set("list", Dict_array{1, 2.5, "three", Dict_array{}, Dict{}});
        d->set("inner", inner);
        d->set("nothing", Dict_value{});
    }
    std::mt19937_64 rng(5);
    auto m = w.lock_mesh();
    for (int i = 0; i < 200; ++i) {
        const Edge e{static_cast<std::uint32_t>(rng() % m->edge_slots())};
        if (!m->contains(e)) continue;
        switch (i % 3) {
        case 0:
            (void)m.try_flip(e);
            break;
        case 1:
            (void)m.try_collapse(e, 0.3f);
            break;
        default:
            m.split(e, 0.6f);
        }
    }
    m.release();
    (void)w.lock_random()();
    return w;
}

TEST(WorldFile, RoundTripGivesAnEqualWorld) {
    const World w = rich_world();
    ASSERT_GT(w.mesh().vertex_slots(), w.mesh().vertex_count()); // deleted elements exist
    for (const bool compress : {false, true}) {
        SCOPED_TRACE(compress ? "compressed" : "uncompressed");
        const fs::path p = scratch(compress ? "rich_z.orbis" : "rich.orbis");
        save_world(w, p, {.compress = compress});
        const World loaded = load_world(p);
        EXPECT_TRUE(loaded == w);
        EXPECT_TRUE(test::valid(loaded.mesh()));
        EXPECT_EQ(loaded.layer_names(), w.layer_names());
        // The settings came back too: the same layer keeps interpolating the same way.
        const auto* b = loaded.find_layer("i64");
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(b->type(), Layer_type::edge_primal_directed);
        EXPECT_EQ(b->value_tag(), Value_type::int64);
        // Ids survive: the next vertex added reuses the same freed id on both sides.
        World a = w, c = loaded;
        EXPECT_EQ(a.lock_mesh().add_vertex(), c.lock_mesh().add_vertex());
        EXPECT_TRUE(a == c);
    }
}

// A mesh of many chunks, with deleted elements, comes back equal from a file: load_world reads
// such a mesh straight into its chunks on two threads.
TEST(WorldFile, ALargeMeshRoundTripsThroughAFile) {
    World w(9);
    {
        auto m = w.lock_mesh();
        m.assign(test::build(test::icosphere(6)));
        std::mt19937_64 rng(11);
        for (int i = 0; i < 2000; ++i)
            (void)m.try_collapse(Edge{static_cast<std::uint32_t>(rng() % m->edge_slots())}, 0.5f);
    }
    add_layer<float, Layer_type::vertex>(w, "height", Interpolation::lerp);
    ASSERT_GT(w.mesh().edge_slots() / 2, std::size_t{4 * 4096}); // quad-edges in many chunks
    for (const bool compress : {false, true}) {
        SCOPED_TRACE(compress ? "compressed" : "uncompressed");
        const fs::path p = scratch("large.orbis");
        save_world(w, p, {.compress = compress});
        const World loaded = load_world(p);
        EXPECT_TRUE(loaded == w);
        EXPECT_EQ(loaded.mesh().vertex_count(), w.mesh().vertex_count());
        EXPECT_EQ(loaded.mesh().edge_count(), w.mesh().edge_count());
        World a = w, c = loaded;
        EXPECT_EQ(a.lock_mesh().add_vertex(), c.lock_mesh().add_vertex());
    }
}

TEST(WorldFile, CompressionMakesTheFileSmaller) {
    const World w = rich_world();
    const auto plain = write_world(w);
    const auto packed = write_world(w, {.compress = true});
    EXPECT_LT(packed.size(), plain.size());
    EXPECT_TRUE(read_world(packed) == read_world(plain));
}

TEST(WorldFile, EmptyWorldRoundTrips) {
    const World w(3);
    EXPECT_TRUE(read_world(write_world(w)) == w);
}

TEST(WorldFile, InspectListsTheSections) {
    const World w = rich_world();
    const fs::path p = scratch("inspect.orbis");
    save_world(w, p);
    const World_file_info info = inspect_world(p);
    EXPECT_EQ(info.version, world_format_version);
    EXPECT_EQ(info.file_bytes, fs::file_size(p));
    ASSERT_EQ(info.sections.size(), 1 + w.layer_names().size() + 1);
    EXPECT_EQ(info.sections.front().kind, "mesh");
    EXPECT_EQ(info.sections.back().kind, "random");
    EXPECT_EQ(info.sections[1].name, w.layer_names().front());
}

TEST(WorldFile, ANewerVersionIsRefusedNamingTheVersion) {
    auto bytes = write_world(rich_world());
    const std::uint32_t future = world_format_version + 1;
    std::memcpy(bytes.data() + 8, &future, 4);
    try {
        (void)read_world(bytes, "future.orbis");
        ADD_FAILURE();
    } catch (const File_error& x) {
        const std::string m = x.what();
        EXPECT_NE(m.find("future.orbis"), std::string::npos) << m;
        EXPECT_NE(m.find("version " + std::to_string(future)), std::string::npos) << m;
    }
}

TEST(WorldFile, AFailedSaveLeavesTheOldFileLoadable) {
    const fs::path p = scratch("keep.orbis");
    const World old = rich_world();
    save_world(old, p);
    World bigger = old;
    {
        auto [x] =
            bigger.lock_layer(Layer_info<glm::dvec4, Layer_type::edge_primal_directed>("big"));
    }
    // No space left: a file size limit below the new file's size.
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, SIG_IGN);
    rlimit small = saved;
    small.rlim_cur = fs::file_size(p) + 1000;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    EXPECT_THROW(save_world(bigger, p), File_error);
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
    EXPECT_TRUE(load_world(p) == old);
}

// A preview holds every k-th live vertex's position and value, in slot order, and the hints.
TEST(WorldFile, APreviewSamplesEveryKthLiveVertex) {
    World w = rich_world();
    ASSERT_GT(w.mesh().vertex_slots(), w.mesh().vertex_count()); // deleted vertices to skip
    add_layer<float, Layer_type::vertex>(w, "height", Interpolation::lerp);
    add_layer<std::int32_t, Layer_type::vertex>(w, "kind", Interpolation::keep_src);
    w.set_hints("height", make_hints("Height", "m", "terrain"));
    const fs::path p = scratch("preview.orbis");
    save_world(w, p);
    const auto* position = w.layer(Layer_info<glm::vec3, Layer_type::vertex>("position"));
    const auto* height = w.layer(Layer_info<float, Layer_type::vertex>("height"));
    const auto* kind = w.layer(Layer_info<std::int32_t, Layer_type::vertex>("kind"));
    const std::uint32_t slots = w.mesh().vertex_slots();
    for (const std::size_t max_points : {std::size_t{7}, std::size_t{100}, std::size_t{1} << 20}) {
        SCOPED_TRACE(max_points);
        const auto preview = read_world_preview(p, max_points, "height");
        ASSERT_TRUE(preview.has_value());
        const std::size_t k = (slots + max_points - 1) / max_points;
        std::vector<glm::vec3> positions;
        std::vector<double> heights;
        for (std::uint32_t s = 0; s < slots; s += static_cast<std::uint32_t>(k))
            if (w.mesh().contains(Vertex(s))) {
                positions.push_back((*position)[Vertex(s)]);
                heights.push_back((*height)[Vertex(s)]);
            }
        EXPECT_EQ(preview->vertex_slots, slots);
        EXPECT_EQ(preview->positions, positions);
        EXPECT_EQ(preview->values, heights);
        EXPECT_FALSE(preview->integer_values);
        EXPECT_LE(preview->positions.size(), max_points);
        EXPECT_TRUE(preview->hints == w.all_hints());
    }
    const auto by_kind = read_world_preview(p, 50, "kind");
    ASSERT_TRUE(by_kind.has_value());
    EXPECT_TRUE(by_kind->integer_values);
    ASSERT_EQ(by_kind->values.size(), by_kind->positions.size());
    std::size_t i = 0;
    for (std::uint32_t s = 0; s < slots; s += (slots + 49) / 50)
        if (w.mesh().contains(Vertex(s))) {
            ASSERT_LT(i, by_kind->values.size());
            EXPECT_EQ(by_kind->values[i++], (*kind)[Vertex(s)]);
        }
    // Values come only from scalar vertex layers; positions come without them.
    for (const char* other : {"v2", "i32", "no such layer"}) {
        const auto without = read_world_preview(p, 50, other);
        ASSERT_TRUE(without.has_value()) << other;
        EXPECT_TRUE(without->values.empty()) << other;
        EXPECT_FALSE(without->positions.empty()) << other;
    }
}

// Where a preview would cost a load or mean nothing, there is none, and nothing throws.
TEST(WorldFile, APreviewIsOnlyOfferedWhereItIsCheap) {
    const World w = rich_world();
    const fs::path plain = scratch("preview_plain.orbis");
    save_world(w, plain);
    EXPECT_FALSE(read_world_preview(plain, 0, "f").has_value());
    const fs::path packed = scratch("preview_packed.orbis");
    save_world(w, packed, {.compress = true});
    EXPECT_FALSE(read_world_preview(packed, 100, "f").has_value());
    EXPECT_FALSE(read_world_preview(scratch("no such file.orbis"), 100, "f").has_value());
    EXPECT_FALSE(read_world_preview(scratch(""), 100, "f").has_value()); // a folder
    World no_positions = w;
    no_positions.remove_layer("position");
    const fs::path bare = scratch("preview_bare.orbis");
    save_world(no_positions, bare);
    EXPECT_FALSE(read_world_preview(bare, 100, "f").has_value());
    // Truncated, or not a world file at all.
    const auto bytes = write_world(w);
    for (const std::size_t keep : {std::size_t{0}, std::size_t{20}, bytes.size() / 2}) {
        const fs::path cut = scratch("preview_cut.orbis");
        std::FILE* f = std::fopen(cut.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(bytes.data(), 1, keep, f);
        std::fclose(f);
        EXPECT_FALSE(read_world_preview(cut, 100, "f").has_value()) << keep;
    }
}

TEST(WorldFile, SavingWhileALockIsOpenIsRefused) {
    World w = rich_world();
    auto m = w.lock_mesh();
    EXPECT_THROW(save_world(w, scratch("locked.orbis")), Layer_error);
}

} // namespace
} // namespace orbis::io
