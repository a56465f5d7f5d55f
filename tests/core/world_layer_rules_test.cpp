// SPDX-License-Identifier: MIT
// How the World's layers follow mesh edits (SPEC "Layers" and "World", docs/decisions.md
// "World"): the Interpolation table through real splits and collapses, reset_all and
// remove_layer, every value type, the four edge layer kinds (directions and duals), what flip
// and collapse count as changed, face halves, fresh ids, and refused edits changing nothing.
//
// Naming in every test: e = a -> b with left face (a, b, c) and right face (b, a, d); split
// creates the vertex `mid`. Expected values are computed from the rules (interpolate() and
// the values read from a snapshot taken before the edit), never from golden numbers beyond
// SPEC's table.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace orbis {
namespace {

using I = Interpolation;
using C = On_mesh_change;
using LT = Layer_type;

// --- Worlds and edges -------------------------------------------------------------------------

World world_of(Mesh mesh) {
    World world;
    auto lock = world.lock_mesh();
    lock.assign(std::move(mesh));
    return world;
}

World sphere_world() { return world_of(test::build(test::icosphere(2))); }

// An edge of the icosphere between two valence-6 vertices that can be flipped and collapsed
// (so b has three "other" edges that move to a in a collapse).
Edge pick_edge(const Mesh& m) {
    for (const Edge x : m.edges())
        if (x.origin(m).valence(m) == 6 && x.dest(m).valence(m) == 6 && !m.check_flip(x) &&
            !m.check_collapse(x))
            return x;
    throw std::logic_error("pick_edge: no suitable edge");
}

// The neighbourhood of e = a -> b: left face (a, b, c), right face (b, a, d).
struct Site {
    Edge e;
    Vertex a, b, c, d;
    Face left, right;
    Site(const Mesh& m, Edge x)
        : e(x)
        , a(x.origin(m))
        , b(x.dest(m))
        , c(x.left_next(m).dest(m))
        , d(x.sym().left_next(m).dest(m))
        , left(x.left(m))
        , right(x.right(m)) {}
};

Edge split(World& world, Edge e, float t) {
    auto lock = world.lock_mesh();
    return lock.split(e, t);
}

Vertex collapse(World& world, Edge e, float t) {
    auto lock = world.lock_mesh();
    return lock.collapse(e, t);
}

void flip(World& world, Edge e) {
    auto lock = world.lock_mesh();
    lock.flip(e);
}

// --- Layers -----------------------------------------------------------------------------------

template <Layer_type Type>
constexpr bool is_dual_layer = Type == LT::edge_dual || Type == LT::edge_dual_directed;

// The id that indexes an edge layer of kind Type for the primal edge p: p itself, or its dual
// p.rot() (same index, so the same slot).
template <Layer_type Type>
Edge key_of(Edge primal) {
    return is_dual_layer<Type> ? primal.rot() : primal;
}

// A distinct number per slot of an edge layer: per direction for directed layers, per
// quad-edge otherwise (so that e and e.sym() agree on undirected layers).
template <Layer_type Type>
float edge_code(Edge primal) {
    return static_cast<float>(is_directed(Type) ? primal.index() + 1 : primal.quad_index() + 1);
}

template <class T, Layer_type Type>
const Layer<T, Type>& layer_of(const World& world, const Layer_info<T, Type>& info) {
    const Layer<T, Type>* layer = world.layer(info);
    if (!layer) throw std::runtime_error("layer '" + std::string(info.name()) + "' is missing");
    return *layer;
}

// The value of a vertex or face, or of the primal edge p (read through key_of).
template <class T, Layer_type Type, class Id>
T value(const World& world, const Layer_info<T, Type>& info, Id id) {
    if constexpr (is_edge_layer(Type))
        return layer_of(world, info)[key_of<Type>(id)];
    else
        return layer_of(world, info)[id];
}

// Writes value(id) for every live element (every live primal edge, both directions).
template <class T, Layer_type Type, class F>
void write_all(World& world, const Layer_info<T, Type>& info, F&& value_for) {
    const Mesh& m = world.mesh();
    auto [layer] = world.lock_layer(info);
    if constexpr (Type == LT::vertex) {
        for (const Vertex v : m.vertices())
            layer[v] = value_for(v);
    } else if constexpr (Type == LT::face) {
        for (const Face f : m.faces())
            layer[f] = value_for(f);
    } else {
        for (const Edge x : m.edges())
            for (const Edge p : {x, x.sym()})
                layer[key_of<Type>(p)] = value_for(p);
    }
}

// Writes one value: a vertex, a face or the primal edge p.
template <class T, Layer_type Type, class Id>
void write(World& world, const Layer_info<T, Type>& info, Id id, const T& v) {
    auto [layer] = world.lock_layer(info);
    if constexpr (is_edge_layer(Type))
        layer[key_of<Type>(id)] = v;
    else
        layer[id] = v;
}

template <class T, Layer_type Type>
bool all_initial(const World& world, const Layer_info<T, Type>& info) {
    const auto& layer = layer_of(world, info);
    if (layer.size() != Layer<T, Type>::slot_count(world.mesh())) return false;
    for (const T& v : layer)
        if (!(v == layer.info().initial_value())) return false;
    return true;
}

// --- Values of every type ---------------------------------------------------------------------

template <class T>
T sample(int k) {
    if constexpr (std::same_as<T, bool>) {
        return k % 2 == 1;
    } else if constexpr (std::integral<T>) {
        return static_cast<T>(37 * k + 5);
    } else if constexpr (Layer_scalar<T>) {
        return static_cast<T>(1.37 * k + 0.25);
    } else {
        T v(0);
        for (int i = 0; i < layer_value_length<T>; ++i)
            v[i] = static_cast<Layer_component_t<T>>(k + 0.5 * i + 0.25);
        return v;
    }
}

template <class T>
std::string show(const T& v) {
    std::ostringstream out;
    out.precision(std::same_as<Layer_component_t<T>, double> ? 17 : 9);
    if constexpr (std::same_as<T, bool>) {
        out << (v ? "true" : "false");
    } else if constexpr (Layer_scalar<T>) {
        out << +v;
    } else {
        out << '(';
        for (int i = 0; i < layer_value_length<T>; ++i)
            out << (i ? ", " : "") << v[i];
        out << ')';
    }
    return out.str();
}

// Exact for bool and integers; floating components within a relative 1e-5.
template <class T>
testing::AssertionResult same_value(const T& actual, const T& expected) {
    bool ok = true;
    if constexpr (std::floating_point<Layer_component_t<T>>) {
        for (int i = 0; i < layer_value_length<T>; ++i) {
            double x, y;
            if constexpr (Layer_scalar<T>) {
                x = actual;
                y = expected;
            } else {
                x = actual[i];
                y = expected[i];
            }
            ok = ok && std::abs(x - y) <= 1e-5 * std::max(1.0, std::abs(y));
        }
    } else {
        ok = actual == expected;
    }
    if (ok) return testing::AssertionSuccess();
    return testing::AssertionFailure()
           << "actual " << show(actual) << ", expected " << show(expected);
}

// Bit for bit, as a copy is.
template <class T>
testing::AssertionResult exactly(const T& actual, const T& expected) {
    if (std::memcmp(&actual, &expected, sizeof(T)) == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure()
           << "actual " << show(actual) << ", expected exactly " << show(expected);
}

template <class T, Layer_type Type>
T ip(const Layer_info<T, Type>& info, const T& src, const T& dest, float t) {
    return interpolate(info.interpolation_mode(), src, dest, t, info.initial_value());
}

// --- 1. SPEC's Interpolation table ------------------------------------------------------------

// One row of SPEC's table, with src = 0.1 and dest = 0.9, and the same row with the sides
// swapped (src = 0.9, dest = 0.1: the edge run the other way).
struct Table_row {
    Interpolation mode;
    float t;
    float expected;
    float expected_swapped;
};

constexpr float table_initial = 7.f;

const Table_row table_rows[] = {
    {I::keep_src, 0.3f, 0.1f, 0.9f},
    {I::keep_dest, 0.3f, 0.9f, 0.1f},
    {I::lerp, 0.5f, 0.5f, 0.5f},
    {I::min_value, 0.3f, 0.1f, 0.1f},
    {I::max_value, 0.3f, 0.9f, 0.9f},
    {I::min_weight, 0.6f, 0.1f, 0.9f}, // t >= 0.5 -> src
    {I::max_weight, 0.6f, 0.9f, 0.1f}, // t >= 0.5 -> dest
    {I::min_weight, 0.4f, 0.9f, 0.1f}, // t < 0.5 -> dest
    {I::max_weight, 0.4f, 0.1f, 0.9f}, // t < 0.5 -> src
    {I::reset_affected, 0.5f, table_initial, table_initial},
};

enum class Edit { split, collapse };

// The new vertex of split(e, t), or the survivor of collapse(e, t), after origin(e) was set to
// 0.1 and dest(e) to 0.9; `swapped` runs the edit on e.sym() instead.
float table_result(Interpolation mode, float t, Edit edit, bool swapped) {
    const auto info =
        Layer_info<float, LT::vertex>("table").interpolation(mode).initial(table_initial);
    World world = sphere_world();
    const Site s(world.mesh(), pick_edge(world.mesh()));
    write(world, info, s.a, 0.1f);
    write(world, info, s.b, 0.9f);
    const Edge e = swapped ? s.e.sym() : s.e;
    Vertex v;
    if (edit == Edit::split)
        v = split(world, e, t).origin(world.mesh());
    else
        v = collapse(world, e, t);
    EXPECT_TRUE(test::valid(world.mesh()));
    return value(world, info, v);
}

// SPEC's table, through a real split: src is origin(e), dest is dest(e), the new vertex gets
// interp(src, dest, t).
TEST(WorldLayerRules, InterpolationTableThroughSplit) {
    for (const Table_row& row : table_rows) {
        SCOPED_TRACE(std::string(interpolation_name(row.mode)) + " t=" + std::to_string(row.t));
        EXPECT_FLOAT_EQ(table_result(row.mode, row.t, Edit::split, false), row.expected);
        EXPECT_FLOAT_EQ(table_result(row.mode, row.t, Edit::split, true), row.expected_swapped);
    }
}

// SPEC's table, through a real collapse: the survivor origin(e) gets interp(src, dest, t).
TEST(WorldLayerRules, InterpolationTableThroughCollapse) {
    for (const Table_row& row : table_rows) {
        SCOPED_TRACE(std::string(interpolation_name(row.mode)) + " t=" + std::to_string(row.t));
        EXPECT_FLOAT_EQ(table_result(row.mode, row.t, Edit::collapse, false), row.expected);
        EXPECT_FLOAT_EQ(table_result(row.mode, row.t, Edit::collapse, true), row.expected_swapped);
    }
}

// SPEC's slerp row ((1,0,0), (0,1,0), 0.5 -> (0.707, 0.707, 0)) through split and collapse,
// and "length lerped": (2,0,0) and (0,1,0) give length 1.5 in the same direction.
TEST(WorldLayerRules, SlerpThroughSplitAndCollapse) {
    constexpr auto info = Layer_info<glm::vec3, LT::vertex>("direction").interpolation(I::slerp);
    const float h = std::sqrt(0.5f);
    struct Case {
        glm::vec3 src, dest, expected;
    };
    const Case cases[] = {
        {{1, 0, 0}, {0, 1, 0}, {h, h, 0}},
        {{2, 0, 0}, {0, 1, 0}, {1.5f * h, 1.5f * h, 0}},
    };
    for (const Case& k : cases) {
        for (const Edit edit : {Edit::split, Edit::collapse}) {
            SCOPED_TRACE(show(k.src) + " " + show(k.dest) +
                         (edit == Edit::split ? " split" : " collapse"));
            World world = sphere_world();
            const Site s(world.mesh(), pick_edge(world.mesh()));
            write(world, info, s.a, k.src);
            write(world, info, s.b, k.dest);
            const Vertex v = edit == Edit::split ? split(world, s.e, 0.5f).origin(world.mesh())
                                                 : collapse(world, s.e, 0.5f);
            EXPECT_TRUE(same_value(value(world, info, v), k.expected));
            EXPECT_TRUE(test::valid(world.mesh()));
        }
    }
}

// --- 2. reset_all and remove_layer ------------------------------------------------------------

// Interpolation::reset_all: a split resets every value of the layer (not just the new ones);
// a layer with another mode is untouched apart from the interpolated elements.
TEST(WorldLayerRules, InterpolationResetAllResetsTheWholeLayerOnSplit) {
    constexpr auto info =
        Layer_info<float, LT::vertex>("reset").interpolation(I::reset_all).initial(-2.f);
    constexpr auto other = Layer_info<float, LT::vertex>("other").interpolation(I::keep_src);
    World world = sphere_world();
    write_all(world, info, [](Vertex v) { return static_cast<float>(v.index()); });
    write_all(world, other, [](Vertex v) { return static_cast<float>(v.index()); });
    ASSERT_FALSE(all_initial(world, info));
    const Site s(world.mesh(), pick_edge(world.mesh()));
    split(world, s.e, 0.5f);
    EXPECT_TRUE(all_initial(world, info));
    EXPECT_EQ(value(world, other, Vertex{5}), 5.f);
    EXPECT_TRUE(test::valid(world.mesh()));
}

// Interpolation::remove_layer: a split removes the layer; other layers stay.
TEST(WorldLayerRules, InterpolationRemoveLayerRemovesTheLayerOnSplit) {
    constexpr auto info = Layer_info<float, LT::face>("doomed").interpolation(I::remove_layer);
    constexpr auto other = Layer_info<float, LT::face>("other").interpolation(I::keep_src);
    World world = sphere_world();
    write_all(world, info, [](Face f) { return static_cast<float>(f.index()); });
    write_all(world, other, [](Face f) { return static_cast<float>(f.index()); });
    const Site s(world.mesh(), pick_edge(world.mesh()));
    split(world, s.e, 0.5f);
    EXPECT_EQ(world.layer(info), nullptr);
    EXPECT_EQ(world.find_layer("doomed"), nullptr);
    ASSERT_NE(world.layer(other), nullptr);
    EXPECT_EQ(value(world, other, Face{3}), 3.f);
    EXPECT_TRUE(test::valid(world.mesh()));
}

// On_mesh_change::reset_all on a vertex layer: a collapse deletes b, so every value resets.
TEST(WorldLayerRules, OnMeshChangeResetAllResetsTheWholeLayerOnCollapse) {
    constexpr auto info = Layer_info<float, LT::vertex>("reset")
                              .interpolation(I::keep_src)
                              .on_mesh_change(C::reset_all)
                              .initial(-2.f);
    World world = sphere_world();
    write_all(world, info, [](Vertex v) { return static_cast<float>(v.index()); });
    ASSERT_FALSE(all_initial(world, info));
    const Site s(world.mesh(), pick_edge(world.mesh()));
    collapse(world, s.e, 0.5f);
    EXPECT_TRUE(all_initial(world, info));
    EXPECT_TRUE(test::valid(world.mesh()));
}

// On_mesh_change::remove_layer on a vertex layer: a collapse deletes b, so the layer goes.
TEST(WorldLayerRules, OnMeshChangeRemoveLayerRemovesTheLayerOnCollapse) {
    constexpr auto info = Layer_info<float, LT::vertex>("doomed")
                              .interpolation(I::keep_src)
                              .on_mesh_change(C::remove_layer);
    constexpr auto other = Layer_info<float, LT::vertex>("other").interpolation(I::keep_src);
    World world = sphere_world();
    write_all(world, info, [](Vertex) { return 1.f; });
    write_all(world, other, [](Vertex) { return 1.f; });
    const Site s(world.mesh(), pick_edge(world.mesh()));
    collapse(world, s.e, 0.5f);
    EXPECT_EQ(world.layer(info), nullptr);
    EXPECT_NE(world.layer(other), nullptr);
    EXPECT_TRUE(test::valid(world.mesh()));
}

// On_mesh_change::reset_all / remove_layer on a face layer: a flip changes two faces' corners,
// so the whole layer is reset / removed. Vertex layers never react to a flip, whatever mode.
TEST(WorldLayerRules, OnMeshChangeResetAllAndRemoveLayerOnFlip) {
    constexpr auto reset =
        Layer_info<std::int32_t, LT::face>("reset").on_mesh_change(C::reset_all).initial(-4);
    constexpr auto doomed =
        Layer_info<std::int32_t, LT::face>("doomed").on_mesh_change(C::remove_layer);
    constexpr auto vertex_doomed =
        Layer_info<std::int32_t, LT::vertex>("vertex_doomed").on_mesh_change(C::remove_layer);
    constexpr auto vertex_reset =
        Layer_info<std::int32_t, LT::vertex>("vertex_reset").on_mesh_change(C::reset_all);
    World world = sphere_world();
    const auto by_index = [](auto id) { return static_cast<std::int32_t>(id.index()) + 1; };
    write_all(world, reset, by_index);
    write_all(world, doomed, by_index);
    write_all(world, vertex_doomed, by_index);
    write_all(world, vertex_reset, by_index);
    const World before = world;
    flip(world, pick_edge(world.mesh()));
    EXPECT_TRUE(all_initial(world, reset));
    EXPECT_EQ(world.layer(doomed), nullptr);
    ASSERT_NE(world.layer(vertex_doomed), nullptr);
    EXPECT_TRUE(layer_of(world, vertex_doomed).equals(layer_of(before, vertex_doomed)));
    EXPECT_TRUE(layer_of(world, vertex_reset).equals(layer_of(before, vertex_reset)));
    EXPECT_TRUE(test::valid(world.mesh()));
}

// --- 3. Every value type ----------------------------------------------------------------------

// split and collapse with a vertex and a directed edge layer of T: the new vertex / survivor
// and the new / merged edges m-c, c-m, m-d, d-m equal interpolate<T>(mode, src, dest, t).
template <class T>
void check_typed(Interpolation mode) {
    SCOPED_TRACE(std::string(layer_value_name<T>()) + " " + std::string(interpolation_name(mode)));
    const auto vi =
        Layer_info<T, LT::vertex>("typed_vertex").interpolation(mode).initial(sample<T>(40));
    const auto ei = Layer_info<T, LT::edge_primal_directed>("typed_edge")
                        .interpolation(mode)
                        .initial(sample<T>(41));
    constexpr float t = 0.25f;
    for (const Edit edit : {Edit::split, Edit::collapse}) {
        SCOPED_TRACE(edit == Edit::split ? "split" : "collapse");
        World world = sphere_world();
        const Mesh& m0 = world.mesh();
        const Site s(m0, pick_edge(m0));
        write_all(world, vi, [](Vertex v) { return sample<T>(static_cast<int>(v.index()) + 50); });
        write_all(world, ei, [](Edge p) { return sample<T>(static_cast<int>(p.index()) + 90); });
        // src and dest differ for every pair (bool included), and c->m differs from m->c.
        write(world, vi, s.a, sample<T>(1));
        write(world, vi, s.b, sample<T>(2));
        write(world, ei, m0.find_edge(s.a, s.c), sample<T>(3));
        write(world, ei, m0.find_edge(s.b, s.c), sample<T>(4));
        write(world, ei, m0.find_edge(s.c, s.a), sample<T>(6));
        write(world, ei, m0.find_edge(s.c, s.b), sample<T>(5));
        write(world, ei, m0.find_edge(s.a, s.d), sample<T>(7));
        write(world, ei, m0.find_edge(s.b, s.d), sample<T>(8));
        write(world, ei, m0.find_edge(s.d, s.a), sample<T>(10));
        write(world, ei, m0.find_edge(s.d, s.b), sample<T>(9));
        Vertex v;
        if (edit == Edit::split)
            v = split(world, s.e, t).origin(world.mesh());
        else
            v = collapse(world, s.e, t);
        const Mesh& m = world.mesh();
        const auto expect = [&](Vertex x, Vertex y, int src, int dest) {
            const Edge xy = m.find_edge(x, y);
            ASSERT_TRUE(xy.valid());
            EXPECT_TRUE(
                same_value(value(world, ei, xy), interpolate(mode, sample<T>(src), sample<T>(dest),
                                                             t, ei.initial_value())))
                << to_string(x) << "->" << to_string(y);
        };
        EXPECT_TRUE(same_value(value(world, vi, v), interpolate(mode, sample<T>(1), sample<T>(2), t,
                                                                vi.initial_value())));
        expect(v, s.c, 3, 4);
        expect(s.c, v, 6, 5);
        expect(v, s.d, 7, 8);
        expect(s.d, v, 10, 9);
        EXPECT_TRUE(test::valid(m));
    }
}

template <class T>
class WorldLayerTyped : public testing::Test {};

using Value_types =
    testing::Types<bool, std::int32_t, std::uint32_t, std::int64_t, float, double, glm::vec2,
                   glm::vec3, glm::vec4, glm::dvec2, glm::dvec3, glm::dvec4>;

struct Value_type_names {
    template <class T>
    static std::string GetName(int) {
        return std::string(layer_value_name<T>());
    }
};

TYPED_TEST_SUITE(WorldLayerTyped, Value_types, Value_type_names);

// Every value type interpolates through split and collapse with a mode valid for it.
TYPED_TEST(WorldLayerTyped, SplitAndCollapseInterpolateEveryValueType) {
    using T = TypeParam;
    if constexpr (std::same_as<T, bool>) {
        check_typed<T>(I::keep_src);
        check_typed<T>(I::min_weight);
        check_typed<T>(I::max_value);
    } else {
        check_typed<T>(I::lerp);
        check_typed<T>(I::keep_dest);
    }
}

// --- 4. Edge layers through a split -----------------------------------------------------------

template <Layer_type Type>
void check_edge_split() {
    SCOPED_TRACE(std::string(layer_type_name(Type)));
    constexpr auto info =
        Layer_info<float, Type>("split_edges").interpolation(I::lerp).initial(-1.f);
    constexpr float t = 0.25f;
    World world = sphere_world();
    write_all(world, info, edge_code<Type>);
    const World before = world;
    const Mesh& m0 = before.mesh();
    const Site s(m0, pick_edge(m0));
    const Edge n = split(world, s.e, t);
    const Mesh& m = world.mesh();
    const Vertex mid = n.origin(m);
    const auto old = [&](Vertex x, Vertex y) { return value(before, info, m0.find_edge(x, y)); };
    const auto now = [&](Vertex x, Vertex y) {
        const Edge xy = m.find_edge(x, y);
        if (!xy.valid()) throw std::logic_error("no edge " + to_string(x) + "->" + to_string(y));
        return value(world, info, xy);
    };
    const auto lerp = [&](float src, float dest) { return ip(info, src, dest, t); };

    // Both halves of e carry e's old value, per direction.
    EXPECT_EQ(value(world, info, s.e), old(s.a, s.b)) << "a->mid";
    EXPECT_EQ(value(world, info, n), old(s.a, s.b)) << "mid->b";
    EXPECT_EQ(value(world, info, s.e.sym()), old(s.b, s.a)) << "mid->a";
    EXPECT_EQ(value(world, info, n.sym()), old(s.b, s.a)) << "b->mid";
    EXPECT_EQ(now(s.a, mid), old(s.a, s.b));
    EXPECT_EQ(now(mid, s.b), old(s.a, s.b));
    // The new edges to the opposite corners, each direction from the same direction.
    EXPECT_FLOAT_EQ(now(mid, s.c), lerp(old(s.a, s.c), old(s.b, s.c))) << "mid->c";
    EXPECT_FLOAT_EQ(now(s.c, mid), lerp(old(s.c, s.a), old(s.c, s.b))) << "c->mid";
    EXPECT_FLOAT_EQ(now(mid, s.d), lerp(old(s.a, s.d), old(s.b, s.d))) << "mid->d";
    EXPECT_FLOAT_EQ(now(s.d, mid), lerp(old(s.d, s.a), old(s.d, s.b))) << "d->mid";
    // Every other edge keeps its value.
    for (const Edge x : m0.edges()) {
        if (x.quad_index() == s.e.quad_index()) continue;
        for (const Edge p : {x, x.sym()})
            EXPECT_EQ(value(world, info, p), value(before, info, p)) << to_string(p);
    }
    EXPECT_EQ(layer_of(world, info).size(), (Layer<float, Type>::slot_count(m)));
    EXPECT_NE(layer_of(world, info).version(), layer_of(before, info).version());
    EXPECT_TRUE(test::valid(m));
}

// Split on every edge layer kind: e's halves copy e (per direction), mid-c and mid-d come from
// the a-side and b-side edges pointing the same way, duals follow their primals; others keep.
TEST(WorldLayerRules, SplitOnEdgeLayers) {
    check_edge_split<LT::edge_primal>();
    check_edge_split<LT::edge_primal_directed>();
    check_edge_split<LT::edge_dual>();
    check_edge_split<LT::edge_dual_directed>();
}

// --- 5. Edge layers through a collapse --------------------------------------------------------

template <Layer_type Type>
void check_edge_collapse(On_mesh_change mode) {
    SCOPED_TRACE(std::string(layer_type_name(Type)) +
                 (mode == C::keep ? " keep" : " reset_affected"));
    const auto info = Layer_info<float, Type>("collapse_edges")
                          .interpolation(I::lerp)
                          .on_mesh_change(mode)
                          .initial(-1.f);
    constexpr float t = 0.25f;
    World world = sphere_world();
    write_all(world, info, edge_code<Type>);
    const World before = world;
    const Mesh& m0 = before.mesh();
    const Site s(m0, pick_edge(m0));
    // b's other neighbours: their edges to b move to a.
    std::vector<Vertex> moved;
    for (const Vertex w : s.b.neighbors(m0))
        if (w != s.a && w != s.c && w != s.d) moved.push_back(w);
    ASSERT_EQ(moved.size(), 3u);
    const Edge bc = m0.find_edge(s.b, s.c), bd = m0.find_edge(s.b, s.d);
    const Edge ac = m0.find_edge(s.a, s.c), ad = m0.find_edge(s.a, s.d);

    EXPECT_EQ(collapse(world, s.e, t), s.a);
    const Mesh& m = world.mesh();
    const auto old = [&](Vertex x, Vertex y) { return value(before, info, m0.find_edge(x, y)); };
    const auto now = [&](Vertex x, Vertex y) {
        const Edge xy = m.find_edge(x, y);
        if (!xy.valid()) throw std::logic_error("no edge " + to_string(x) + "->" + to_string(y));
        return value(world, info, xy);
    };
    const auto lerp = [&](float src, float dest) { return ip(info, src, dest, t); };

    // The merged edges a-c (with b-c) and a-d (with b-d), per direction.
    EXPECT_EQ(m.find_edge(s.a, s.c).quad_index(), ac.quad_index());
    EXPECT_EQ(m.find_edge(s.a, s.d).quad_index(), ad.quad_index());
    EXPECT_FLOAT_EQ(now(s.a, s.c), lerp(old(s.a, s.c), old(s.b, s.c))) << "a->c";
    EXPECT_FLOAT_EQ(now(s.c, s.a), lerp(old(s.c, s.a), old(s.c, s.b))) << "c->a";
    EXPECT_FLOAT_EQ(now(s.a, s.d), lerp(old(s.a, s.d), old(s.b, s.d))) << "a->d";
    EXPECT_FLOAT_EQ(now(s.d, s.a), lerp(old(s.d, s.a), old(s.d, s.b))) << "d->a";
    // b's other edges now start at a (same ids): changed.
    std::set<std::uint32_t> moved_quads;
    for (const Vertex w : moved) {
        const Edge old_bw = m0.find_edge(s.b, w);
        const Edge aw = m.find_edge(s.a, w);
        ASSERT_TRUE(aw.valid());
        EXPECT_EQ(aw.quad_index(), old_bw.quad_index());
        moved_quads.insert(aw.quad_index());
        if (mode == C::reset_affected) {
            EXPECT_EQ(now(s.a, w), -1.f) << "a->" << to_string(w);
            EXPECT_EQ(now(w, s.a), -1.f) << to_string(w) << "->a";
        } else {
            EXPECT_EQ(now(s.a, w), old(s.b, w)) << "a->" << to_string(w);
            EXPECT_EQ(now(w, s.a), old(w, s.b)) << to_string(w) << "->a";
        }
    }
    // Deleted edges: reset under reset_affected, left alone under keep.
    for (const Edge gone : {s.e, bc, bd}) {
        ASSERT_FALSE(m.contains(gone));
        for (const Edge p : {gone, gone.sym()}) {
            const float expected = mode == C::reset_affected ? -1.f : value(before, info, p);
            EXPECT_EQ(value(world, info, p), expected) << "deleted " << to_string(p);
        }
    }
    // Every other edge keeps its value.
    for (const Edge x : m0.edges()) {
        const std::uint32_t q = x.quad_index();
        if (q == s.e.quad_index() || q == bc.quad_index() || q == bd.quad_index() ||
            q == ac.quad_index() || q == ad.quad_index() || moved_quads.count(q))
            continue;
        for (const Edge p : {x, x.sym()})
            EXPECT_EQ(value(world, info, p), value(before, info, p)) << to_string(p);
    }
    EXPECT_TRUE(test::valid(m));
}

// Collapse on every edge layer kind: a-c and a-d absorb b-c and b-d per direction; b's other
// edges reset under reset_affected and keep their values under keep; the rest keep.
TEST(WorldLayerRules, CollapseOnEdgeLayers) {
    for (const On_mesh_change mode : {C::keep, C::reset_affected}) {
        check_edge_collapse<LT::edge_primal>(mode);
        check_edge_collapse<LT::edge_primal_directed>(mode);
        check_edge_collapse<LT::edge_dual>(mode);
        check_edge_collapse<LT::edge_dual_directed>(mode);
    }
}

// Collapse on face and vertex layers: the faces of e are deleted and b's other faces now have
// corner a, so reset_affected resets them; keep leaves every slot. Face layers have no merge,
// so even Interpolation::remove_layer does not act on a collapse. The deleted b is reset under
// reset_affected, the survivor a is interpolated, not reset.
TEST(WorldLayerRules, CollapseOnFaceAndVertexLayers) {
    for (const On_mesh_change mode : {C::keep, C::reset_affected}) {
        SCOPED_TRACE(mode == C::keep ? "keep" : "reset_affected");
        const auto faces = Layer_info<float, LT::face>("faces")
                               .interpolation(I::remove_layer)
                               .on_mesh_change(mode)
                               .initial(-1.f);
        const auto vertices = Layer_info<float, LT::vertex>("vertices")
                                  .interpolation(I::keep_dest)
                                  .on_mesh_change(mode)
                                  .initial(-1.f);
        World world = sphere_world();
        write_all(world, faces, [](Face f) { return static_cast<float>(f.index() + 1); });
        write_all(world, vertices, [](Vertex v) { return static_cast<float>(v.index() + 1); });
        const World before = world;
        const Mesh& m0 = before.mesh();
        const Site s(m0, pick_edge(m0));
        std::set<Face> moved;
        for (const Face f : s.b.faces(m0))
            if (f != s.left && f != s.right) moved.insert(f);
        ASSERT_EQ(moved.size(), 4u);
        collapse(world, s.e, 0.5f);
        const Mesh& m = world.mesh();
        ASSERT_NE(world.layer(faces), nullptr);
        for (const Face f : m0.faces()) {
            const bool changed = f == s.left || f == s.right || moved.count(f);
            const float expected =
                changed && mode == C::reset_affected ? -1.f : value(before, faces, f);
            EXPECT_EQ(value(world, faces, f), expected) << to_string(f);
        }
        EXPECT_EQ(value(world, vertices, s.a), value(before, vertices, s.b)) << "survivor";
        EXPECT_EQ(value(world, vertices, s.b),
                  mode == C::reset_affected ? -1.f : value(before, vertices, s.b))
            << "deleted";
        for (const Vertex v : m.vertices()) {
            if (v != s.a) {
                EXPECT_EQ(value(world, vertices, v), value(before, vertices, v));
            }
        }
        EXPECT_TRUE(test::valid(m));
    }
}

// --- 6. Flip ----------------------------------------------------------------------------------

template <Layer_type Type>
void check_edge_flip(On_mesh_change mode) {
    SCOPED_TRACE(std::string(layer_type_name(Type)) +
                 (mode == C::keep ? " keep" : " reset_affected"));
    const auto info = Layer_info<float, Type>("flip_edges")
                          .interpolation(I::lerp)
                          .on_mesh_change(mode)
                          .initial(-1.f);
    World world = sphere_world();
    write_all(world, info, edge_code<Type>);
    const World before = world;
    const Mesh& m0 = before.mesh();
    const Site s(m0, pick_edge(m0));
    flip(world, s.e);
    const Mesh& m = world.mesh();
    ASSERT_EQ(s.e.origin(m), s.d) << "the flipped edge now runs d -> c";
    if (mode == C::keep) {
        EXPECT_TRUE(layer_of(world, info).equals(layer_of(before, info)));
    } else {
        EXPECT_EQ(value(world, info, s.e), -1.f) << "flipped edge";
        EXPECT_EQ(value(world, info, s.e.sym()), -1.f) << "flipped edge, other direction";
    }
    // The four edges around the flip and every other edge keep their values.
    for (const Edge x : m0.edges()) {
        if (x.quad_index() == s.e.quad_index()) continue;
        for (const Edge p : {x, x.sym()})
            EXPECT_EQ(value(world, info, p), value(before, info, p)) << to_string(p);
    }
    EXPECT_TRUE(test::valid(m));
}

// Flip on edge layers: reset_affected resets the flipped quad-edge (both directions, primal or
// dual alike); the surrounding quad keeps its values; keep changes nothing.
TEST(WorldLayerRules, FlipOnEdgeLayers) {
    for (const On_mesh_change mode : {C::keep, C::reset_affected}) {
        check_edge_flip<LT::edge_primal>(mode);
        check_edge_flip<LT::edge_primal_directed>(mode);
        check_edge_flip<LT::edge_dual>(mode);
        check_edge_flip<LT::edge_dual_directed>(mode);
    }
}

// Flip on face and vertex layers: reset_affected resets both faces of the flipped edge and no
// other face; vertex layers never react; keep changes nothing.
TEST(WorldLayerRules, FlipOnFaceAndVertexLayers) {
    for (const On_mesh_change mode : {C::keep, C::reset_affected}) {
        SCOPED_TRACE(mode == C::keep ? "keep" : "reset_affected");
        const auto faces = Layer_info<float, LT::face>("faces").on_mesh_change(mode).initial(-1.f);
        const auto vertices =
            Layer_info<float, LT::vertex>("vertices").on_mesh_change(mode).initial(-1.f);
        World world = sphere_world();
        write_all(world, faces, [](Face f) { return static_cast<float>(f.index() + 1); });
        write_all(world, vertices, [](Vertex v) { return static_cast<float>(v.index() + 1); });
        const World before = world;
        const Site s(before.mesh(), pick_edge(before.mesh()));
        flip(world, s.e);
        EXPECT_EQ(s.e.left(world.mesh()), s.left) << "faces keep their ids";
        for (const Face f : before.mesh().faces()) {
            const bool changed = f == s.left || f == s.right;
            const float expected =
                changed && mode == C::reset_affected ? -1.f : value(before, faces, f);
            EXPECT_EQ(value(world, faces, f), expected) << to_string(f);
        }
        EXPECT_TRUE(layer_of(world, vertices).equals(layer_of(before, vertices)));
        EXPECT_TRUE(test::valid(world.mesh()));
    }
}

// --- 7. Face layers through a split -----------------------------------------------------------

// Split of a face layer: each split face keeps its id on a's side (e.left, e.right), the new
// halves are n.left and n.right, and both halves carry the face's value; other faces keep.
TEST(WorldLayerRules, SplitFaceLayerHalvesCopyTheFace) {
    constexpr auto info = Layer_info<float, LT::face>("faces").interpolation(I::lerp).initial(-1.f);
    World world = sphere_world();
    write_all(world, info, [](Face f) { return static_cast<float>(f.index() + 1); });
    const World before = world;
    const Site s(before.mesh(), pick_edge(before.mesh()));
    const Edge n = split(world, s.e, 0.25f);
    const Mesh& m = world.mesh();
    const Vertex mid = n.origin(m);
    EXPECT_EQ(s.e.left(m), s.left);
    EXPECT_EQ(s.e.right(m), s.right);
    const Face new_left = n.left(m), new_right = n.right(m);
    EXPECT_TRUE(new_left.valid() && new_left != s.left && new_left != s.right);
    EXPECT_TRUE(new_right.valid() && new_right != s.left && new_right != s.right);
    EXPECT_EQ(test::canonical(test::corners(m, s.left)),
              test::canonical({s.a.index(), mid.index(), s.c.index()}));
    EXPECT_EQ(test::canonical(test::corners(m, new_left)),
              test::canonical({mid.index(), s.b.index(), s.c.index()}));
    EXPECT_EQ(test::canonical(test::corners(m, s.right)),
              test::canonical({mid.index(), s.a.index(), s.d.index()}));
    EXPECT_EQ(test::canonical(test::corners(m, new_right)),
              test::canonical({s.b.index(), mid.index(), s.d.index()}));
    EXPECT_EQ(value(world, info, s.left), value(before, info, s.left));
    EXPECT_EQ(value(world, info, new_left), value(before, info, s.left));
    EXPECT_EQ(value(world, info, s.right), value(before, info, s.right));
    EXPECT_EQ(value(world, info, new_right), value(before, info, s.right));
    for (const Face f : before.mesh().faces()) {
        if (f != s.left && f != s.right) {
            EXPECT_EQ(value(world, info, f), value(before, info, f)) << to_string(f);
        }
    }
    EXPECT_TRUE(test::valid(m));
}

// SPEC: "both halves of e copy e's value", "both halves of a split face copy the face's value".
// A copy is exact for any value, also under lerp (not only for values where v * (1 - t) + v * t
// happens to round back to v): otherwise every split drifts the values of the split elements.
TEST(WorldLayerRules, SplitHalvesCopyValuesExactly) {
    constexpr auto faces = Layer_info<float, LT::face>("faces").interpolation(I::lerp);
    constexpr auto edges =
        Layer_info<float, LT::edge_primal_directed>("edges").interpolation(I::lerp);
    constexpr auto normals = Layer_info<glm::dvec3, LT::face>("normals").interpolation(I::lerp);
    World world = sphere_world();
    const auto awkward = [](auto id) { return 0.0137f * static_cast<float>(id.index() + 31); };
    write_all(world, faces, awkward);
    write_all(world, edges, awkward);
    write_all(world, normals, [](Face f) { return glm::dvec3(0.1 * f.index() + 0.3, 0.7, 1.9); });
    for (const float t : {0.3f, 0.7f}) {
        for (int i = 0; i < 20; ++i) {
            const World before = world;
            const Mesh& m0 = before.mesh();
            const Edge e = Edge{static_cast<std::uint32_t>(7 * i) % m0.edge_slots()};
            if (!m0.contains(e)) continue;
            const Site s(m0, e);
            const Edge n = split(world, e, t);
            const Mesh& m = world.mesh();
            SCOPED_TRACE("split(" + to_string(e) + ", " + std::to_string(t) + ")");
            EXPECT_TRUE(exactly(value(world, faces, s.left), value(before, faces, s.left)))
                << "left face, a's half";
            EXPECT_TRUE(exactly(value(world, faces, n.left(m)), value(before, faces, s.left)))
                << "left face, b's half";
            EXPECT_TRUE(exactly(value(world, faces, s.right), value(before, faces, s.right)))
                << "right face, a's half";
            EXPECT_TRUE(exactly(value(world, faces, n.right(m)), value(before, faces, s.right)))
                << "right face, b's half";
            EXPECT_TRUE(exactly(value(world, normals, s.left), value(before, normals, s.left)))
                << "dvec3 left face, a's half";
            EXPECT_TRUE(exactly(value(world, normals, n.left(m)), value(before, normals, s.left)))
                << "dvec3 left face, b's half";
            EXPECT_TRUE(exactly(value(world, edges, e), value(before, edges, e))) << "a->mid";
            EXPECT_TRUE(exactly(value(world, edges, n), value(before, edges, e))) << "mid->b";
            EXPECT_TRUE(exactly(value(world, edges, e.sym()), value(before, edges, e.sym())))
                << "mid->a";
            EXPECT_TRUE(exactly(value(world, edges, n.sym()), value(before, edges, e.sym())))
                << "b->mid";
        }
    }
    EXPECT_TRUE(test::valid(world.mesh()));
}

// Interpolation::reset_affected on split: the new vertex, both halves of e, the new edges and
// both halves of each split face get the initial value (decisions: halves go through the mode
// as interp(v, v, t)); everything else keeps its value.
TEST(WorldLayerRules, SplitWithResetAffectedResetsCreatedAndHalvedElements) {
    constexpr auto vertices =
        Layer_info<float, LT::vertex>("vertices").interpolation(I::reset_affected).initial(-1.f);
    constexpr auto faces =
        Layer_info<float, LT::face>("faces").interpolation(I::reset_affected).initial(-1.f);
    constexpr auto edges = Layer_info<float, LT::edge_dual_directed>("edges")
                               .interpolation(I::reset_affected)
                               .initial(-1.f);
    World world = sphere_world();
    write_all(world, vertices, [](Vertex v) { return static_cast<float>(v.index() + 1); });
    write_all(world, faces, [](Face f) { return static_cast<float>(f.index() + 1); });
    write_all(world, edges, edge_code<LT::edge_dual_directed>);
    const World before = world;
    const Mesh& m0 = before.mesh();
    const Site s(m0, pick_edge(m0));
    const Edge n = split(world, s.e, 0.5f);
    const Mesh& m = world.mesh();
    const Vertex mid = n.origin(m);
    EXPECT_EQ(value(world, vertices, mid), -1.f);
    for (const Vertex v : m0.vertices())
        EXPECT_EQ(value(world, vertices, v), value(before, vertices, v)) << to_string(v);
    for (const Face f : {s.left, s.right, n.left(m), n.right(m)})
        EXPECT_EQ(value(world, faces, f), -1.f) << to_string(f);
    for (const Face f : m0.faces()) {
        if (f != s.left && f != s.right) {
            EXPECT_EQ(value(world, faces, f), value(before, faces, f)) << to_string(f);
        }
    }
    for (const Vertex w : mid.neighbors(m)) {
        EXPECT_EQ(value(world, edges, m.find_edge(mid, w)), -1.f) << "mid->" << to_string(w);
        EXPECT_EQ(value(world, edges, m.find_edge(w, mid)), -1.f) << to_string(w) << "->mid";
    }
    for (const Edge x : m0.edges()) {
        if (x.quad_index() == s.e.quad_index()) continue;
        for (const Edge p : {x, x.sym()})
            EXPECT_EQ(value(world, edges, p), value(before, edges, p)) << to_string(p);
    }
    EXPECT_TRUE(test::valid(m));
}

// --- 8. Fresh ids -----------------------------------------------------------------------------

constexpr float sentinel = -999.f;

// Collapse frees ids (their values stay under keep), split reuses them: the new vertex, faces
// and edges get interpolated / copied values, never the deleted elements' sentinels.
TEST(WorldLayerRules, ReusedIdsNeverShowDeletedValues) {
    constexpr auto v_src =
        Layer_info<float, LT::vertex>("v_src").interpolation(I::keep_src).initial(7.f);
    constexpr auto v_any = Layer_info<float, LT::vertex>("v_any").initial(7.f); // dont_care
    constexpr auto f_src =
        Layer_info<float, LT::face>("f_src").interpolation(I::keep_src).initial(7.f);
    constexpr auto f_any = Layer_info<float, LT::face>("f_any").initial(7.f);
    constexpr auto e_src = Layer_info<float, LT::edge_primal_directed>("e_src")
                               .interpolation(I::keep_src)
                               .initial(7.f);
    constexpr auto e_any = Layer_info<float, LT::edge_dual>("e_any").initial(7.f);
    World world = sphere_world();
    const Site s(world.mesh(), pick_edge(world.mesh()));
    const Edge bc = world.mesh().find_edge(s.b, s.c), bd = world.mesh().find_edge(s.b, s.d);
    const auto baseline = [](float base) { return [base](auto) { return base; }; };
    write_all(world, v_src, baseline(1.f));
    write_all(world, v_any, baseline(1.f));
    write_all(world, f_src, baseline(2.f));
    write_all(world, f_any, baseline(2.f));
    write_all(world, e_src, baseline(3.f));
    write_all(world, e_any, baseline(3.f));
    write(world, v_src, s.b, sentinel);
    write(world, v_any, s.b, sentinel);
    for (const Face f : {s.left, s.right}) {
        write(world, f_src, f, sentinel);
        write(world, f_any, f, sentinel);
    }
    for (const Edge x : {s.e, bc, bd})
        for (const Edge p : {x, x.sym()}) {
            write(world, e_src, p, sentinel);
            write(world, e_any, p, sentinel);
        }

    collapse(world, s.e, 0.5f);
    // Under keep, the deleted elements' slots still hold the sentinels.
    EXPECT_EQ(value(world, v_src, s.b), sentinel);
    EXPECT_EQ(value(world, f_src, s.left), sentinel);
    EXPECT_EQ(value(world, e_src, bc), sentinel);

    // Split an edge away from the collapse: it takes the freed ids.
    Edge x = no_edge;
    for (const Edge y : world.mesh().edges())
        if (y.origin(world.mesh()) != s.a && y.dest(world.mesh()) != s.a) {
            x = y;
            break;
        }
    ASSERT_TRUE(x.valid());
    const Site split_site(world.mesh(), x);
    const Edge n = split(world, x, 0.5f);
    const Mesh& m = world.mesh();
    const Vertex mid = n.origin(m);
    const Edge mc = m.find_edge(mid, split_site.c), md = m.find_edge(mid, split_site.d);
    ASSERT_EQ(mid, s.b) << "split reuses the deleted vertex id";
    ASSERT_EQ((std::set<Face>{n.left(m), n.right(m)}), (std::set<Face>{s.left, s.right}));
    ASSERT_EQ((std::set<std::uint32_t>{n.quad_index(), mc.quad_index(), md.quad_index()}),
              (std::set<std::uint32_t>{s.e.quad_index(), bc.quad_index(), bd.quad_index()}));

    EXPECT_EQ(value(world, v_src, mid), 1.f);
    EXPECT_EQ(value(world, v_any, mid), 1.f);
    for (const Face f : {n.left(m), n.right(m)}) {
        EXPECT_EQ(value(world, f_src, f), 2.f) << to_string(f);
        EXPECT_EQ(value(world, f_any, f), 2.f) << to_string(f);
    }
    for (const Edge y : {n, mc, md})
        for (const Edge p : {y, y.sym()}) {
            EXPECT_EQ(value(world, e_src, p), 3.f) << to_string(p);
            EXPECT_EQ(value(world, e_any, p), 3.f) << to_string(p);
        }
    // No live element anywhere shows a sentinel.
    for (const Vertex v : m.vertices()) {
        EXPECT_NE(value(world, v_src, v), sentinel) << to_string(v);
        EXPECT_NE(value(world, v_any, v), sentinel) << to_string(v);
    }
    for (const Face f : m.faces()) {
        EXPECT_NE(value(world, f_src, f), sentinel) << to_string(f);
        EXPECT_NE(value(world, f_any, f), sentinel) << to_string(f);
    }
    for (const Edge y : m.edges())
        for (const Edge p : {y, y.sym()}) {
            EXPECT_NE(value(world, e_src, p), sentinel) << to_string(p);
            EXPECT_NE(value(world, e_any, p), sentinel) << to_string(p);
        }
    EXPECT_TRUE(test::valid(m));
}

// add_vertex after a collapse reuses the deleted vertex's id and gives it the initial value.
TEST(WorldLayerRules, AddVertexAfterCollapseGetsTheInitialValue) {
    constexpr auto info =
        Layer_info<float, LT::vertex>("v").interpolation(I::keep_src).initial(7.f);
    World world = sphere_world();
    const Site s(world.mesh(), pick_edge(world.mesh()));
    write_all(world, info, [](Vertex) { return 1.f; });
    write(world, info, s.b, sentinel);
    collapse(world, s.e, 0.5f);
    Vertex v;
    {
        auto lock = world.lock_mesh();
        v = lock.add_vertex();
    }
    EXPECT_EQ(v, s.b);
    EXPECT_EQ(value(world, info, v), 7.f);
    EXPECT_TRUE(test::valid(world.mesh()));
}

// --- 9. Refused edits -------------------------------------------------------------------------

constexpr auto r_vertex = Layer_info<float, LT::vertex>("r_vertex")
                              .interpolation(I::reset_all)
                              .on_mesh_change(C::reset_all)
                              .initial(7.f);
constexpr auto r_face = Layer_info<std::int32_t, LT::face>("r_face")
                            .interpolation(I::remove_layer)
                            .on_mesh_change(C::remove_layer)
                            .initial(-3);
constexpr auto r_edge =
    Layer_info<glm::vec3, LT::edge_primal_directed>("r_edge").interpolation(I::lerp).on_mesh_change(
        C::reset_affected);
constexpr auto r_dual = Layer_info<double, LT::edge_dual>("r_dual")
                            .interpolation(I::reset_affected)
                            .on_mesh_change(C::reset_all)
                            .initial(-5.0);

World refusal_world(Mesh mesh) {
    World world = world_of(std::move(mesh));
    write_all(world, r_vertex, [](Vertex v) { return static_cast<float>(v.index()); });
    write_all(world, r_face, [](Face f) { return static_cast<std::int32_t>(f.index()); });
    write_all(world, r_edge, [](Edge p) { return glm::vec3(static_cast<float>(p.index())); });
    write_all(world, r_dual, [](Edge p) { return static_cast<double>(p.quad_index()); });
    return world;
}

struct Versions {
    std::uint64_t mesh, vertex, face, edge, dual;
    explicit Versions(const World& w)
        : mesh(w.mesh_version())
        , vertex(layer_of(w, r_vertex).version())
        , face(layer_of(w, r_face).version())
        , edge(layer_of(w, r_edge).version())
        , dual(layer_of(w, r_dual).version()) {}
    friend bool operator==(const Versions&, const Versions&) = default;
};

// `edit` is refused (both as try_* and as the throwing call): the World equals a copy taken
// before, and no version changed.
template <class Try, class Throwing>
void expect_refused(World& world, Refusal_kind kind, Try try_edit, Throwing edit) {
    const World before = world;
    const Versions versions(world);
    {
        auto lock = world.lock_mesh();
        const std::optional<Refusal> r = try_edit(lock);
        ASSERT_TRUE(r.has_value());
        EXPECT_EQ(r->kind, kind) << r->message();
        EXPECT_THROW(edit(lock), Edit_refused);
    }
    EXPECT_TRUE(world == before);
    EXPECT_TRUE(Versions(world) == versions);
    EXPECT_NE(world.layer(r_face), nullptr);
    EXPECT_TRUE(test::valid(world.mesh()));
}

// A refused flip (boundary edge of an open disc) changes nothing, not even versions.
TEST(WorldLayerRules, RefusedFlipChangesNothing) {
    World world = refusal_world(test::build(test::disc(2)));
    Edge boundary = no_edge;
    for (const Edge x : world.mesh().edges())
        if (world.mesh().is_boundary(x)) boundary = x;
    ASSERT_TRUE(boundary.valid());
    expect_refused(
        world, Refusal_kind::boundary_edge, [&](Mesh_lock& l) { return l.try_flip(boundary); },
        [&](Mesh_lock& l) { l.flip(boundary); });
}

// A collapse refused by the link condition changes nothing: an octahedron whose face (0, 2, 4)
// is split into three around vertex 6, so 0 and 2 share neighbour 4 besides 6 and 5.
TEST(WorldLayerRules, RefusedCollapseChangesNothing) {
    test::Shape shape = test::octahedron();
    shape.triangles.erase(shape.triangles.begin());
    for (const Triangle t : {Triangle{0, 2, 6}, Triangle{2, 4, 6}, Triangle{4, 0, 6}})
        shape.triangles.push_back(t);
    shape.vertex_count = 7;
    World world = refusal_world(test::build(shape));
    const Edge e = world.mesh().find_edge(Vertex{0}, Vertex{2});
    ASSERT_TRUE(e.valid());
    expect_refused(
        world, Refusal_kind::link_condition, [&](Mesh_lock& l) { return l.try_collapse(e, 0.5f); },
        [&](Mesh_lock& l) { l.collapse(e, 0.5f); });
}

// A split with t = 2 is refused and changes nothing; a valid edit afterwards does change the
// versions (so the comparison above can fail).
TEST(WorldLayerRules, RefusedSplitChangesNothing) {
    World world = refusal_world(test::build(test::icosphere(1)));
    const Edge e = pick_edge(world.mesh());
    expect_refused(
        world, Refusal_kind::bad_parameter, [&](Mesh_lock& l) { return l.try_split(e, 2.f); },
        [&](Mesh_lock& l) { l.split(e, 2.f); });
    const World before = world;
    const std::uint64_t mesh_version = world.mesh_version();
    const std::uint64_t edge_version = layer_of(world, r_edge).version();
    split(world, e, 0.5f);
    EXPECT_FALSE(world == before);
    EXPECT_NE(world.mesh_version(), mesh_version);
    EXPECT_NE(layer_of(world, r_edge).version(), edge_version);
    EXPECT_EQ(world.layer(r_face), nullptr) << "Interpolation::remove_layer acted on the split";
    EXPECT_TRUE(all_initial(world, r_vertex)) << "Interpolation::reset_all acted on the split";
    EXPECT_TRUE(test::valid(world.mesh()));
}

} // namespace
} // namespace orbis
