// SPDX-License-Identifier: MIT
// The World (SPEC "World"): snapshots and copy-on-write, locks and their misuse, versions,
// range validation, Dict layers, the random generator and mesh callbacks.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace orbis {
namespace {

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr auto plate = Layer_info<std::int32_t, Layer_type::face>("plate").initial(-1);
constexpr auto flow = Layer_info<double, Layer_type::edge_primal>("flow");
constexpr auto wind = Layer_info<glm::vec2, Layer_type::edge_primal_directed>("wind");
constexpr auto ridge = Layer_info<bool, Layer_type::edge_dual>("ridge");
constexpr auto current = Layer_info<glm::dvec3, Layer_type::edge_dual_directed>("current");

// A world on icosphere(level) with one layer of every kind, written with distinct values.
World make_world(int level = 3) {
    World w(42);
    w.lock_mesh().assign(test::build(test::icosphere(level)));
    auto [h, p, f, wd, r, c] = w.lock_layer(height, plate, flow, wind, ridge, current);
    const Mesh& m = w.mesh();
    for (const Vertex v : m.vertices())
        h[v] = static_cast<float>(v.index()) * 0.5f;
    for (const Face x : m.faces())
        p[x] = static_cast<std::int32_t>(x.index() % 7);
    for (const Edge e : m.edges()) {
        f[e] = e.index() * 0.25;
        wd[e] = glm::vec2(static_cast<float>(e.index()), 1.f);
        wd[e.sym()] = glm::vec2(static_cast<float>(e.index()), -1.f);
        r[e.rot()] = e.index() % 3 == 0;
        c[e.rot()] = glm::dvec3(e.index(), 0, 1);
        c[e.inv_rot()] = glm::dvec3(e.index(), 0, -1);
    }
    w.lock_layer("settings")->set("seed", 42);
    return w;
}

// Every layer of `w` with chunk c shared with the same layer of `o`.
bool all_chunks_shared(const World& w, const World& o) {
    for (const auto& name : w.layer_names()) {
        const Layer_base* a = w.find_layer(name);
        const Layer_base* b = o.find_layer(name);
        if (!a) continue;
        if (!b) return false;
        const std::size_t chunks = (a->size() + 4095) / 4096;
        for (std::size_t c = 0; c < chunks; ++c)
            if (!a->shares_chunk(*b, c)) return false;
    }
    return true;
}

TEST(World, LockLayerCreatesLayersWithTheirInitialValue) {
    World w;
    w.lock_mesh().assign(test::build(test::octahedron()));
    EXPECT_EQ(w.layer(plate), nullptr);
    { auto [p] = w.lock_layer(plate); }
    const auto* p = w.layer(plate);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->size(), w.mesh().face_slots());
    EXPECT_TRUE(std::all_of(p->begin(), p->end(), [](std::int32_t v) { return v == -1; }));
    EXPECT_EQ(p->info().initial_value(), -1);
    EXPECT_EQ(p->name(), "plate");
}

TEST(World, EveryLayerKindHasOneSlotPerElement) {
    const World w = make_world(1);
    const Mesh& m = w.mesh();
    EXPECT_EQ(w.layer(height)->size(), m.vertex_slots());
    EXPECT_EQ(w.layer(plate)->size(), m.face_slots());
    EXPECT_EQ(w.layer(flow)->size(), m.edge_slots() / 2);
    EXPECT_EQ(w.layer(wind)->size(), m.edge_slots());
    EXPECT_EQ(w.layer(ridge)->size(), m.edge_slots() / 2);
    EXPECT_EQ(w.layer(current)->size(), m.edge_slots());
    // Undirected layers: both directions read one value; directed ones keep two.
    const Edge e = *m.edges().begin();
    EXPECT_EQ((*w.layer(flow))[e], (*w.layer(flow))[e.sym()]);
    EXPECT_NE((*w.layer(wind))[e], (*w.layer(wind))[e.sym()]);
    EXPECT_EQ((*w.layer(ridge))[e.rot()], (*w.layer(ridge))[e.inv_rot()]);
    EXPECT_NE((*w.layer(current))[e.rot()], (*w.layer(current))[e.inv_rot()]);
}

TEST(World, SnapshotSharesEveryChunk) {
    const World w = make_world();
    const World snapshot = w;
    EXPECT_TRUE(snapshot == w);
    EXPECT_TRUE(all_chunks_shared(snapshot, w));
    EXPECT_EQ(w.memory().private_bytes, 0u);
    EXPECT_EQ(snapshot.memory().private_bytes, 0u);
    EXPECT_EQ(w.memory().bytes, snapshot.memory().bytes);
}

TEST(World, LayerEditsAfterASnapshotStayOnTheirSide) {
    World w = make_world();
    const World original = w;
    World snapshot = w;
    {
        auto [h] = w.lock_layer(height);
        h[Vertex{5}] = -3.f;
    }
    {
        auto [p] = snapshot.lock_layer(plate);
        p[Face{2}] = 99;
    }
    EXPECT_EQ((*w.layer(height))[Vertex{5}], -3.f);
    EXPECT_EQ((*snapshot.layer(height))[Vertex{5}], 2.5f);
    EXPECT_EQ((*w.layer(plate))[Face{2}], 2);
    EXPECT_EQ((*snapshot.layer(plate))[Face{2}], 99);
    EXPECT_FALSE(w == original);
    EXPECT_FALSE(snapshot == original);
    // Only the written chunk was copied: the height layer's other chunks and every other
    // layer stay shared. (icosphere(3) fits one chunk per layer, so look at the others.)
    EXPECT_FALSE(w.find_layer("height")->shares_chunk(*original.find_layer("height"), 0));
    EXPECT_TRUE(w.find_layer("plate")->shares_chunk(*original.find_layer("plate"), 0));
    EXPECT_TRUE(w.find_layer("flow")->shares_chunk(*original.find_layer("flow"), 0));
}

// Writes `value` to element 0 of the layer `info` in `w`.
template <class Info>
void write_first(World& w, const Info& info, const typename Info::value_type& value) {
    auto [x] = w.lock_layer(info);
    if constexpr (Info::type == Layer_type::vertex)
        x[Vertex{0}] = value;
    else if constexpr (Info::type == Layer_type::face)
        x[Face{0}] = value;
    else if constexpr (Info::type == Layer_type::edge_dual ||
                       Info::type == Layer_type::edge_dual_directed)
        x[Edge{0}.rot()] = value;
    else
        x[Edge{0}] = value;
}

TEST(World, EveryLayerKindIsCopiedOnWriteInBothDirections) {
    const World original = make_world(2);
    auto check = [&](const auto& info, const auto& value) {
        SCOPED_TRACE(std::string(info.name()));
        World a = original;
        World b = a;
        write_first(a, info, value); // the copy's source writes
        EXPECT_TRUE(b == original);
        EXPECT_FALSE(a == original);
        World c = original;
        World d = c;
        write_first(d, info, value); // the copy writes
        EXPECT_TRUE(c == original);
        EXPECT_FALSE(d == original);
        EXPECT_TRUE(a.find_layer(info.name())->equals(*d.find_layer(info.name())));
        EXPECT_FALSE(a.find_layer(info.name())->shares_chunk(*d.find_layer(info.name()), 0));
    };
    check(height, -1.f);
    check(plate, 1000);
    check(flow, -2.0);
    check(wind, glm::vec2(-3.f));
    check(ridge, false); // make_world sets edge 0 to true
    check(current, glm::dvec3(-4.0));
}

TEST(World, OnlyTheWrittenChunkIsCopied) {
    World w;
    w.lock_mesh().assign(test::build(test::icosphere(5))); // 10,242 vertices: 3 chunks
    { auto [h] = w.lock_layer(height); }
    const World snapshot = w;
    {
        auto [h] = w.lock_layer(height);
        h[Vertex{5000}] = 1.f;
    }
    const Layer_base& now = *w.find_layer("height");
    const Layer_base& then = *snapshot.find_layer("height");
    EXPECT_TRUE(now.shares_chunk(then, 0));
    EXPECT_FALSE(now.shares_chunk(then, 1));
    EXPECT_TRUE(now.shares_chunk(then, 2));
    EXPECT_EQ(w.memory().private_bytes, 4096 * sizeof(float));
}

TEST(World, MeshEditsAfterASnapshotStayOnTheirSide) {
    World w = make_world();
    const World snapshot = w;
    const Mesh before = w.mesh().deep_copy();
    const Edge e = *w.mesh().edges().begin();
    w.lock_mesh().flip(e);
    EXPECT_TRUE(snapshot.mesh() == before);
    EXPECT_FALSE(w.mesh() == before);
    EXPECT_TRUE(test::valid(w.mesh()));
    EXPECT_TRUE(test::valid(snapshot.mesh()));
    World other = snapshot;
    other.lock_mesh().split(e, 0.5f);
    EXPECT_TRUE(snapshot.mesh() == before);
    EXPECT_EQ(other.mesh().vertex_count(), before.vertex_count() + 1);
    // Vertex layers do not react to a flip, so they are still shared with the snapshot.
    EXPECT_TRUE(w.find_layer("height")->shares_chunk(*snapshot.find_layer("height"), 0));
}

TEST(World, StructuredBindingsLockSeveralLayersAtOnce) {
    World w = make_world(1);
    {
        auto [h, f] = w.lock_layer(height, flow);
        h[Vertex{0}] = 10.f;
        f[Edge{0}] = 20.0;
        EXPECT_EQ(h.get(Vertex{0}), 10.f);
        EXPECT_EQ(h.size(), w.mesh().vertex_slots());
    }
    EXPECT_EQ((*w.layer(height))[Vertex{0}], 10.f);
    EXPECT_EQ((*w.layer(flow))[Edge{1}], 20.0);
}

// Expects `f` to throw Layer_error whose message contains every one of `words`.
template <class F>
void expect_layer_error(F f, std::initializer_list<std::string> words) {
    try {
        f();
        ADD_FAILURE() << "no Layer_error";
    } catch (const Layer_error& x) {
        const std::string message = x.what();
        for (const auto& w : words)
            EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' not in: " << message;
    }
}

TEST(World, MisuseIsRefusedWithAMessageAndChangesNothing) {
    World w = make_world(1);
    const World before = w;
    {
        auto [h] = w.lock_layer(height);
        expect_layer_error([&] { (void)w.lock_layer(height); }, {"height", "already locked"});
        expect_layer_error([&] { World copy = w; }, {"height", "locked"});
    }
    expect_layer_error([&] { (void)w.lock_layer(height, flow, height); }, {"height", "twice"});
    constexpr auto wrong_type = Layer_info<double, Layer_type::vertex>("height");
    expect_layer_error([&] { (void)w.layer(wrong_type); }, {"height", "float", "double"});
    constexpr auto wrong_kind = Layer_info<float, Layer_type::face>("height");
    expect_layer_error([&] { (void)w.lock_layer(wrong_kind); }, {"height", "vertex", "face"});
    expect_layer_error([&] { (void)w.layer("height"); }, {"height", "not a Dict"});
    expect_layer_error(
        [&] { (void)w.lock_layer(Layer_info<float, Layer_type::vertex>("settings")); },
        {"settings", "Dict"});
    // All or nothing: the valid new layer named first is not created either.
    constexpr auto fresh = Layer_info<float, Layer_type::vertex>("fresh");
    constexpr auto bad =
        Layer_info<bool, Layer_type::vertex>("flag").interpolation(Interpolation::lerp);
    expect_layer_error([&] { (void)w.lock_layer(fresh, bad); }, {"flag", "lerp", "bool"});
    constexpr auto bad_initial =
        Layer_info<float, Layer_type::vertex>("unit").min(0.f).max(1.f).initial(2.f).validate(
            Validation::range);
    expect_layer_error([&] { (void)w.lock_layer(bad_initial); }, {"unit", "initial"});
    EXPECT_EQ(w.layer(fresh), nullptr);
    EXPECT_EQ(w.find_layer("flag"), nullptr);
    {
        auto m = w.lock_mesh();
        expect_layer_error([&] { (void)w.lock_mesh(); }, {"mesh", "already locked"});
    }
    {
        auto r = w.lock_random();
        expect_layer_error([&] { (void)w.lock_random(); }, {"random", "already locked"});
    }
    EXPECT_TRUE(w == before);
}

TEST(World, LocksAreReleasedWhenTheyEnd) {
    World w = make_world(1);
    { auto [h] = w.lock_layer(height); }
    { auto [h] = w.lock_layer(height); }
    { auto m = w.lock_mesh(); }
    auto m = w.lock_mesh();
    m.release();
    { auto again = w.lock_mesh(); }
    World copy = w; // no lock open
    EXPECT_TRUE(copy == w);
}

TEST(World, VersionsChangeOnEveryWriteAndOnlyThere) {
    World w = make_world(2);
    const auto mesh_v = w.mesh_version();
    const auto height_v = w.find_layer("height")->version();
    const auto plate_v = w.find_layer("plate")->version();
    {
        auto [h] = w.lock_layer(height);
        h[Vertex{1}] = 3.f;
    }
    EXPECT_NE(w.find_layer("height")->version(), height_v);
    EXPECT_EQ(w.find_layer("plate")->version(), plate_v);
    EXPECT_EQ(w.mesh_version(), mesh_v);

    const auto h1 = w.find_layer("height")->version();
    w.lock_mesh().flip(*w.mesh().edges().begin());
    EXPECT_NE(w.mesh_version(), mesh_v);
    EXPECT_EQ(w.find_layer("height")->version(), h1); // flips do not touch vertex layers

    const auto m1 = w.mesh_version();
    w.lock_mesh().split(*w.mesh().edges().begin(), 0.5f);
    EXPECT_NE(w.mesh_version(), m1);
    EXPECT_NE(w.find_layer("height")->version(), h1); // the new vertex got a value

    // A restored snapshot carries its own versions, different from the state it replaces.
    const World snapshot = w;
    { auto [h] = w.lock_layer(height); }
    const auto changed = w.find_layer("height")->version();
    w = snapshot;
    EXPECT_NE(w.find_layer("height")->version(), changed);
}

constexpr auto unit =
    Layer_info<float, Layer_type::vertex>("unit").min(0.f).max(1.f).validate(Validation::range);

TEST(World, RangeValidationRestoresTheLayerAndNamesTheValue) {
    World w = make_world(1);
    {
        auto [u] = w.lock_layer(unit);
        u[Vertex{2}] = 0.75f;
    }
    const World before = w;
    auto locks = w.lock_layer(unit);
    auto& u = std::get<0>(locks);
    u[Vertex{3}] = 0.5f;
    u[Vertex{4}] = 1.5f;
    expect_layer_error([&] { u.release(); }, {"unit", "v4", "1.5", "[0, 1]", "restored"});
    EXPECT_TRUE(w == before);
    EXPECT_EQ((*w.layer(unit))[Vertex{3}], 0.f);
    // NaN is never in range.
    expect_layer_error(
        [&] {
            auto [x] = w.lock_layer(unit);
            x[Vertex{0}] = std::numeric_limits<float>::quiet_NaN();
        },
        {"unit", "v0", "nan"});
    EXPECT_TRUE(w == before);
    // Valid writes pass.
    {
        auto [x] = w.lock_layer(unit);
        x[Vertex{0}] = 1.f;
    }
    EXPECT_EQ((*w.layer(unit))[Vertex{0}], 1.f);
}

TEST(World, FillSetsEverySlot) {
    World w = make_world(1);
    {
        auto [h] = w.lock_layer(height);
        h.fill(4.f);
    }
    const auto* h = w.layer(height);
    EXPECT_TRUE(std::all_of(h->begin(), h->end(), [](float v) { return v == 4.f; }));
}

// lock_new_layer hands out a new layer for its caller to fill whole: what that caller wrote is
// what the layer holds, out-of-range values are refused as lock_layer refuses them (the layer
// then holds its initial values), an interrupted fill leaves initial values, and an existing
// name is refused with nothing changed.
TEST(World, ANewLayerFilledByItsCallerHoldsWhatWasWritten) {
    World w = make_world(2);
    const Mesh& m = w.mesh();
    constexpr auto fresh = Layer_info<float, Layer_type::vertex>("fresh").initial(7.f);
    {
        auto lock = w.lock_new_layer(fresh);
        for (std::size_t c = 0; c < lock->chunk_count(); ++c) {
            const std::span<float> values = lock.chunk(c);
            for (std::size_t i = 0; i < values.size(); ++i)
                values[i] = static_cast<float>(c * 4096 + i) + 0.5f;
        }
    }
    const auto* layer = w.layer(fresh);
    ASSERT_NE(layer, nullptr);
    ASSERT_EQ(layer->size(), m.vertex_slots());
    for (std::size_t s = 0; s < layer->size(); ++s)
        ASSERT_EQ(layer->at_slot(s), static_cast<float>(s) + 0.5f);
    EXPECT_EQ(layer->info().initial_value(), 7.f);

    const World before = w;
    expect_layer_error([&] { (void)w.lock_new_layer(fresh); }, {"fresh", "exists"});
    expect_layer_error([&] { (void)w.lock_new_layer(height); }, {"height", "exists"});
    EXPECT_TRUE(w == before);

    // A validated layer is checked whole on release; refused, it holds its initial values.
    constexpr auto ranged =
        Layer_info<float, Layer_type::vertex>("ranged").min(0.f).max(1.f).initial(0.25f).validate(
            Validation::range);
    expect_layer_error(
        [&] {
            auto lock = w.lock_new_layer(ranged);
            for (std::size_t c = 0; c < lock->chunk_count(); ++c)
                std::ranges::fill(lock.chunk(c), 0.5f);
            lock[Vertex{5}] = 2.f;
            lock.release();
        },
        {"ranged", "v5", "2", "restored"});
    const auto* r = w.layer(ranged);
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(std::all_of(r->begin(), r->end(), [](float v) { return v == 0.25f; }));

    // A fill interrupted by an exception leaves the initial values, not what was half written.
    constexpr auto half = Layer_info<std::int32_t, Layer_type::face>("half").initial(-3);
    try {
        auto lock = w.lock_new_layer(half);
        std::ranges::fill(lock.chunk(0), 9);
        throw std::runtime_error("the file ended");
    } catch (const std::runtime_error&) {
    }
    const auto* h = w.layer(half);
    ASSERT_NE(h, nullptr);
    EXPECT_TRUE(std::all_of(h->begin(), h->end(), [](std::int32_t v) { return v == -3; }));
}

TEST(World, DictLayersHoldATreeAndAreCopiedOnWrite) {
    World w;
    {
        auto d = w.lock_layer("gen");
        d->set("points", 1000);
        d->set("radius", 6371.0);
        d->set("name", "earth");
        d->set("axis", glm::dvec3(0, 0, 1));
        d->set("wrap", true);
        Dict plates;
        plates.set("count", 12);
        d->set("plates", plates);
        d->set("speeds", Dict_array{1.5, 2, "slow"});
    }
    const Dict& d = *w.layer("gen");
    EXPECT_EQ(d.at("points").as<std::int64_t>(), 1000);
    EXPECT_EQ(d.at("radius").as<double>(), 6371.0);
    EXPECT_EQ(d.at("name").as<std::string>(), "earth");
    EXPECT_EQ(d.at("axis").as<glm::dvec3>(), glm::dvec3(0, 0, 1));
    EXPECT_TRUE(d.at("wrap").as<bool>());
    EXPECT_EQ(d.at("plates").as<Dict>().at("count").as<std::int64_t>(), 12);
    EXPECT_EQ(d.at("speeds").as<Dict_array>().size(), 3u);
    // Keys iterate in order.
    std::vector<std::string> keys;
    for (const auto& e : d.entries())
        keys.push_back(e.key);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    // Reading the wrong kind or a missing key says what happened.
    try {
        (void)d.at("name").as<double>();
        ADD_FAILURE();
    } catch (const Dict_error& x) {
        EXPECT_NE(std::string(x.what()).find("string"), std::string::npos);
    }
    EXPECT_THROW((void)d.at("missing"), Dict_error);

    const World snapshot = w;
    w.lock_layer("gen")->set("points", 5);
    EXPECT_EQ(snapshot.layer("gen")->at("points").as<std::int64_t>(), 1000);
    EXPECT_FALSE(snapshot == w);
    EXPECT_TRUE(w.remove_layer("gen"));
    EXPECT_EQ(w.layer("gen"), nullptr);
    EXPECT_NE(snapshot.layer("gen"), nullptr);
}

TEST(World, RandomGeneratorIsSeededAndPartOfTheState) {
    World a(7), b(7), c(8);
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a == c);
    const World snapshot = a;
    std::uint64_t first;
    {
        auto r = a.lock_random();
        first = r();
        std::uniform_int_distribution<int> d(0, 9);
        (void)d(r);
    }
    EXPECT_FALSE(a == snapshot);
    World replay = snapshot;
    EXPECT_EQ(replay.lock_random()(), first);
}

TEST(World, RemoveLayerAndLayerNames) {
    World w = make_world(1);
    const auto names = w.layer_names();
    EXPECT_EQ(names, (std::vector<std::string>{"current", "flow", "height", "plate", "ridge",
                                               "settings", "wind"}));
    EXPECT_TRUE(w.remove_layer("flow"));
    EXPECT_FALSE(w.remove_layer("flow"));
    EXPECT_EQ(w.layer(flow), nullptr);
    {
        auto [h] = w.lock_layer(height);
        expect_layer_error([&] { w.remove_layer("height"); }, {"height", "locked"});
    }
}

TEST(World, AssignResetsEveryLayerToTheNewMesh) {
    World w = make_world(1);
    w.lock_mesh().assign(test::build(test::icosphere(2)));
    const auto* h = w.layer(height);
    EXPECT_EQ(h->size(), w.mesh().vertex_slots());
    EXPECT_TRUE(std::all_of(h->begin(), h->end(), [](float v) { return v == 0.f; }));
    const auto* p = w.layer(plate);
    EXPECT_TRUE(std::all_of(p->begin(), p->end(), [](std::int32_t v) { return v == -1; }));
}

TEST(World, ReplaceConnectivityKeepsVertexLayersAndResetsTheOthers) {
    World w = make_world(2);
    const World before = w.deep_copy();
    // The same icosphere with one edge flipped: same vertices, other faces and edges.
    Mesh flipped = w.mesh().deep_copy();
    flipped.flip(*flipped.edges().begin());
    w.lock_mesh().replace_connectivity(flipped);
    EXPECT_TRUE(w.mesh() == flipped);
    EXPECT_TRUE(w.layer(height)->equals(*before.layer(height)));
    const auto* p = w.layer(plate);
    EXPECT_TRUE(std::all_of(p->begin(), p->end(), [](std::int32_t v) { return v == -1; }));
    const auto* f = w.layer(flow);
    EXPECT_TRUE(std::all_of(f->begin(), f->end(), [](double v) { return v == 0.0; }));

    // Other vertices are refused and change nothing.
    const World kept = w.deep_copy();
    EXPECT_THROW(w.lock_mesh().replace_connectivity(test::build(test::icosphere(1))),
                 std::invalid_argument);
    EXPECT_TRUE(w == kept);
}

TEST(World, CallbacksRunAroundEditsAndCanSwapPrimalAndDualValues) {
    constexpr auto primal = Layer_info<float, Layer_type::edge_primal>("primal");
    constexpr auto dual = Layer_info<float, Layer_type::edge_dual>("dual");
    World w = make_world(2);
    {
        auto [p, d] = w.lock_layer(primal, dual);
        for (const Edge e : w.mesh().edges()) {
            p[e] = static_cast<float>(e.index());
            d[e.rot()] = -static_cast<float>(e.index());
        }
    }
    std::vector<std::string> calls;
    const auto id = w.add_mesh_callbacks(Mesh_callbacks{
        .before_flip =
            [&](World& world, Edge e) {
                calls.push_back("before_flip");
                EXPECT_EQ(world.mesh().check_flip(e), std::nullopt);
                EXPECT_THROW((void)world.lock_mesh(), Layer_error);
            },
        .after_flip =
            [&](World& world, Edge e) {
                calls.push_back("after_flip");
                auto [p, d] = world.lock_layer(primal, dual);
                const Edge b = e.base();
                const float x = p[b];
                p[b] = d[b.rot()];
                d[b.rot()] = x;
            },
        .before_split = [&](World&, Edge,
                            float t) { calls.push_back("before_split " + std::to_string(t)); },
        .after_split =
            [&](World& world, Edge e, Edge created, float) {
                calls.push_back("after_split");
                EXPECT_EQ(created.origin(world.mesh()), e.dest(world.mesh()));
            },
        .before_collapse = [&](World&, Edge, float) { calls.push_back("before_collapse"); },
        .after_collapse =
            [&](World& world, Vertex survivor, float) {
                calls.push_back("after_collapse");
                EXPECT_TRUE(world.mesh().contains(survivor));
            },
    });
    const Edge e = *w.mesh().edges().begin();
    w.lock_mesh().flip(e);
    EXPECT_EQ((*w.layer(primal))[e], -static_cast<float>(e.index()));
    EXPECT_EQ((*w.layer(dual))[e.rot()], static_cast<float>(e.index()));
    {
        auto m = w.lock_mesh();
        const Edge n = m.split(e, 0.25f);
        m.collapse(n, 0.5f);
    }
    EXPECT_EQ(calls,
              (std::vector<std::string>{"before_flip", "after_flip", "before_split 0.250000",
                                        "after_split", "before_collapse", "after_collapse"}));
    // A refused edit runs no callback; snapshots keep the callbacks.
    calls.clear();
    EXPECT_TRUE(w.lock_mesh().try_split(e, 2.f).has_value());
    EXPECT_TRUE(calls.empty());
    World copy = w;
    copy.lock_mesh().flip(e);
    EXPECT_EQ(calls.size(), 2u);
    EXPECT_TRUE(w.remove_mesh_callbacks(id));
    EXPECT_FALSE(w.remove_mesh_callbacks(id));
    calls.clear();
    w.lock_mesh().flip(e);
    EXPECT_TRUE(calls.empty());
}

TEST(World, EqualityComparesContentNotSharing) {
    const World a = make_world(2);
    const World b = make_world(2); // built separately: nothing shared
    EXPECT_TRUE(a == b);
    World c = b;
    {
        auto [h] = c.lock_layer(height);
        h[Vertex{0}] = 1234.f;
    }
    EXPECT_FALSE(a == c);
    World d = b;
    d.remove_layer("wind");
    EXPECT_FALSE(a == d);
    World e = b;
    e.lock_mesh().flip(*e.mesh().edges().begin());
    EXPECT_FALSE(a == e);
}

// ---- Plans through the lock (issue 19, "Checking twice") ----

TEST(World, EditsFromPlansMatchEditsByEdgeWithEveryLayerFollowing) {
    // Two worlds built separately take the same random edits, one by edge, the other from a plan
    // made on the lock's mesh; every layer follows both the same way.
    std::mt19937_64 rng(3);
    World by_edge = make_world(2), by_plan = make_world(2);
    int done = 0;
    for (int i = 0; i < 300; ++i) {
        const Mesh& m = by_edge.mesh();
        const Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots())};
        const float t = 0.25f;
        auto a = by_edge.lock_mesh();
        auto b = by_plan.lock_mesh();
        std::optional<Refusal> ra, rb;
        switch (rng() % 3) {
        case 0:
            ra = a.try_flip(e);
            rb = b.try_flip(b->plan_flip(e));
            break;
        case 1: {
            Edge na = no_edge, nb = no_edge;
            ra = a.try_split(e, t, &na);
            rb = b.try_split(b->plan_split(e, t), &nb);
            EXPECT_EQ(na, nb);
            break;
        }
        default:
            ra = a.try_collapse(e, t);
            rb = b.try_collapse(b->plan_collapse(e, t));
            break;
        }
        ASSERT_EQ(ra.has_value(), rb.has_value()) << i;
        if (ra) {
            EXPECT_EQ(ra->kind, rb->kind);
        }
        done += !ra;
    }
    EXPECT_GT(done, 100);
    EXPECT_TRUE(by_edge == by_plan);
    EXPECT_TRUE(test::valid(by_plan.mesh()));
}

TEST(World, AStalePlanIsRefusedWithNothingChangedAndNoCallback) {
    World w = make_world(2);
    int calls = 0;
    w.add_mesh_callbacks(Mesh_callbacks{
        .before_flip = [&](World&, Edge) { ++calls; },
        .after_flip = [&](World&, Edge) { ++calls; },
        .before_split = [&](World&, Edge, float) { ++calls; },
        .after_split = [&](World&, Edge, Edge, float) { ++calls; },
        .before_collapse = [&](World&, Edge, float) { ++calls; },
        .after_collapse = [&](World&, Vertex, float) { ++calls; },
    });
    const Edge e = *w.mesh().edges().begin();
    const Flip_plan flip = w.mesh().plan_flip(e);
    const Split_plan split = w.mesh().plan_split(e, 0.5f);
    const Collapse_plan collapse = w.mesh().plan_collapse(e, 0.5f);
    ASSERT_FALSE(flip.refusal() || split.refusal() || collapse.refusal());
    const World planned_on = w;
    w.lock_mesh().flip(e.left_next(w.mesh()));
    calls = 0;
    const World before = w;
    const auto version = w.mesh_version();
    {
        auto lock = w.lock_mesh();
        EXPECT_EQ(lock.try_flip(flip)->kind, Refusal_kind::stale_plan);
        EXPECT_EQ(lock.try_split(split)->kind, Refusal_kind::stale_plan);
        EXPECT_EQ(lock.try_collapse(collapse)->kind, Refusal_kind::stale_plan);
        EXPECT_THROW(lock.flip(flip), Edit_refused);
        EXPECT_THROW(lock.split(split), Edit_refused);
        EXPECT_THROW(lock.collapse(collapse), Edit_refused);
    }
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(w.mesh_version(), version);
    EXPECT_TRUE(w == before);

    // A snapshot of the content the plans were made on (as after an undo) accepts them.
    World restored = planned_on;
    World fresh = planned_on;
    const Vertex survivor = restored.lock_mesh().collapse(collapse);
    EXPECT_EQ(survivor, fresh.lock_mesh().collapse(e, 0.5f));
    EXPECT_TRUE(restored == fresh);
}

} // namespace
} // namespace orbis
