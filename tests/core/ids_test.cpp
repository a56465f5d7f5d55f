// SPDX-License-Identifier: MIT
// Ids (SPEC "Ids"): bit layout, rotations, invalid ids, printing, hashing, type safety.
#include <orbis/core.hpp>

#include <gtest/gtest.h>

#include <concepts>
#include <cstdint>
#include <ranges>
#include <sstream>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace orbis {
namespace {

constexpr std::uint32_t bit31 = 1u << 31;

template <class A, class B>
concept can_compare = requires(A a, B b) {
    a == b;
};

template <class A, class B>
concept can_order = requires(A a, B b) {
    a < b;
};

// Distinct id types never compare with each other nor with raw integers.
static_assert(can_compare<Vertex, Vertex>);
static_assert(can_compare<Face, Face>);
static_assert(can_compare<Edge, Edge>);
static_assert(!can_compare<Vertex, Face>);
static_assert(!can_compare<Face, Vertex>);
static_assert(!can_compare<Vertex, Edge>);
static_assert(!can_compare<Edge, Vertex>);
static_assert(!can_compare<Face, Edge>);
static_assert(!can_compare<Edge, Face>);
static_assert(!can_compare<Vertex, std::uint32_t>);
static_assert(!can_compare<Face, int>);
static_assert(!can_compare<Edge, std::uint32_t>);
static_assert(!can_order<Vertex, Face>);
static_assert(can_order<Vertex, Vertex>);

// Ids are built from integers only explicitly.
static_assert(!std::is_convertible_v<std::uint32_t, Vertex>);
static_assert(!std::is_convertible_v<std::uint32_t, Face>);
static_assert(!std::is_convertible_v<std::uint32_t, Edge>);
static_assert(!std::is_convertible_v<Vertex, Face>);
static_assert(std::is_trivially_copyable_v<Vertex> && sizeof(Vertex) == 4);
static_assert(std::is_trivially_copyable_v<Face> && sizeof(Face) == 4);
static_assert(std::is_trivially_copyable_v<Edge> && sizeof(Edge) == 4);

// The encoding is usable at compile time.
static_assert(Edge{0}.rot() == Edge{bit31});
static_assert(Edge{0}.rot().rot() == Edge{1});
static_assert(Edge{7}.sym() == Edge{6});
static_assert(Edge{7 | bit31}.base() == Edge{6});
static_assert(!Vertex{}.valid() && !Face{}.valid() && !Edge{}.valid());

// Every traversal range is a std::ranges::forward_range, usable with <algorithm> and views.
static_assert(std::ranges::forward_range<Origin_ccw_range>);
static_assert(std::ranges::forward_range<Origin_cw_range>);
static_assert(std::ranges::forward_range<Neighbor_range>);
static_assert(std::ranges::forward_range<Vertex_face_range>);
static_assert(std::ranges::forward_range<Face_edge_range>);
static_assert(std::ranges::forward_range<Face_vertex_range>);
static_assert(std::ranges::forward_range<const Origin_ccw_range>);
static_assert(std::ranges::forward_range<decltype(std::declval<const Mesh&>().vertices())>);
static_assert(std::ranges::forward_range<decltype(std::declval<const Mesh&>().faces())>);
static_assert(std::ranges::forward_range<decltype(std::declval<const Mesh&>().edges())>);
static_assert(std::same_as<std::ranges::range_value_t<Neighbor_range>, Vertex>);
static_assert(std::same_as<std::ranges::range_value_t<Vertex_face_range>, Face>);
static_assert(std::same_as<std::ranges::range_value_t<Face_edge_range>, Edge>);
static_assert(std::same_as<std::ranges::range_value_t<Face_vertex_range>, Vertex>);

// A sample of masks: small, around the chunk and 2^30 limits, primal and dual.
std::vector<std::uint32_t> sample_masks() {
    std::vector<std::uint32_t> out;
    for (std::uint32_t base : {0u, 2u, 4094u, 4096u, 123456u, (1u << 30) - 2, (1u << 31) - 2})
        for (std::uint32_t low : {0u, 1u})
            for (std::uint32_t dual : {0u, bit31})
                out.push_back(base | low | dual);
    return out;
}

TEST(EdgeId, BitLayout) {
    const Edge primal{13};
    EXPECT_EQ(primal.mask(), 13u);
    EXPECT_EQ(primal.index(), 13u);
    EXPECT_EQ(primal.quad_index(), 6u);
    EXPECT_FALSE(primal.is_dual());
    EXPECT_TRUE(primal.is_primal());
    EXPECT_EQ(primal.base(), Edge{12});

    const Edge dual{13 | bit31};
    EXPECT_EQ(dual.mask(), 13u | bit31);
    EXPECT_EQ(dual.index(), 13u);
    EXPECT_EQ(dual.quad_index(), 6u);
    EXPECT_TRUE(dual.is_dual());
    EXPECT_FALSE(dual.is_primal());
    EXPECT_EQ(dual.base(), Edge{12});
    EXPECT_EQ(Edge::dual_bit, bit31);
}

TEST(EdgeId, OperationsFollowTheSpecFormulas) {
    // SPEC: sym = mask ^ 1, rot = (mask ^ bit31) ^ is_dual, inv_rot = (mask ^ bit31) ^ !is_dual,
    // base = mask & ~(bit31 | 1).
    for (const std::uint32_t mask : sample_masks()) {
        const Edge e{mask};
        const std::uint32_t dual = mask >> 31;
        EXPECT_EQ(e.sym().mask(), mask ^ 1u);
        EXPECT_EQ(e.rot().mask(), (mask ^ bit31) ^ dual);
        EXPECT_EQ(e.inv_rot().mask(), (mask ^ bit31) ^ (dual ^ 1u));
        EXPECT_EQ(e.base().mask(), mask & ~(bit31 | 1u));
        EXPECT_EQ(e.index(), mask & ~bit31);
    }
}

TEST(EdgeId, RotCyclesThroughTheFourEdgesOfAQuadEdge) {
    for (const std::uint32_t k : {0u, 1u, 2047u, 2048u, (1u << 29) + 5}) {
        const Edge primal0{2 * k}, dual0{2 * k | bit31}, primal1{2 * k + 1},
            dual1{(2 * k + 1) | bit31};
        EXPECT_EQ(primal0.rot(), dual0);
        EXPECT_EQ(dual0.rot(), primal1);
        EXPECT_EQ(primal1.rot(), dual1);
        EXPECT_EQ(dual1.rot(), primal0);
        for (const Edge e : {primal0, dual0, primal1, dual1}) {
            EXPECT_EQ(e.base(), primal0);
            EXPECT_EQ(e.quad_index(), k);
        }
    }
}

TEST(EdgeId, RotationAlgebra) {
    for (const std::uint32_t mask : sample_masks()) {
        const Edge e{mask};
        EXPECT_EQ(e.rot().inv_rot(), e);
        EXPECT_EQ(e.inv_rot().rot(), e);
        EXPECT_EQ(e.rot().rot(), e.sym());
        EXPECT_EQ(e.inv_rot().inv_rot(), e.sym());
        EXPECT_EQ(e.rot().rot().rot(), e.inv_rot());
        EXPECT_EQ(e.rot().rot().rot().rot(), e);
        EXPECT_EQ(e.sym().sym(), e);
        EXPECT_NE(e.sym(), e);
        EXPECT_NE(e.rot(), e);
        EXPECT_NE(e.rot().is_dual(), e.is_dual());
        EXPECT_EQ(e.sym().is_dual(), e.is_dual());
        EXPECT_EQ(e.sym().base(), e.base());
        EXPECT_EQ(e.rot().base(), e.base());
    }
}

TEST(Ids, DefaultsAreInvalidAndEqualToNoIds) {
    EXPECT_EQ(Vertex{}, no_vertex);
    EXPECT_EQ(Face{}, no_face);
    EXPECT_EQ(Edge{}, no_edge);
    EXPECT_FALSE(no_vertex.valid());
    EXPECT_FALSE(no_face.valid());
    EXPECT_FALSE(no_edge.valid());
    EXPECT_EQ(no_vertex.index(), UINT32_MAX);
    EXPECT_EQ(no_face.index(), UINT32_MAX);
    EXPECT_EQ(no_edge.mask(), UINT32_MAX);
    EXPECT_EQ(Vertex{UINT32_MAX}, no_vertex);
    EXPECT_EQ(Edge{UINT32_MAX}, no_edge);

    EXPECT_TRUE(Vertex{0}.valid());
    EXPECT_TRUE(Face{0}.valid());
    EXPECT_TRUE(Edge{0}.valid());
    EXPECT_TRUE(Edge{bit31}.valid());
    EXPECT_TRUE(Vertex{UINT32_MAX - 1}.valid());
}

TEST(Ids, CompareAndOrderByValue) {
    EXPECT_EQ(Vertex{3}, Vertex{3});
    EXPECT_NE(Vertex{3}, Vertex{4});
    EXPECT_LT(Vertex{3}, Vertex{4});
    EXPECT_LT(Face{0}, no_face);
    EXPECT_NE(Edge{5}, Edge{5 | bit31});
}

TEST(Ids, PrintReadably) {
    EXPECT_EQ(to_string(Vertex{12}), "v12");
    EXPECT_EQ(to_string(Face{3}), "f3");
    EXPECT_EQ(to_string(Edge{7}), "e7");
    EXPECT_EQ(to_string(Edge{7 | bit31}), "e7*");
    EXPECT_EQ(to_string(no_vertex), "no_vertex");
    EXPECT_EQ(to_string(no_face), "no_face");
    EXPECT_EQ(to_string(no_edge), "no_edge");

    std::ostringstream s;
    s << Vertex{12} << ' ' << Face{3} << ' ' << Edge{7} << ' ' << Edge{7 | bit31};
    EXPECT_EQ(s.str(), "v12 f3 e7 e7*");
    // GoogleTest picks up operator<<, so failing assertions name ids readably.
    EXPECT_EQ(testing::PrintToString(Edge{7 | bit31}), "e7*");
}

TEST(Ids, HashInUnorderedContainers) {
    std::unordered_set<Edge> edges;
    for (std::uint32_t k : {0u, 1u, 4096u})
        for (std::uint32_t m : {2 * k, 2 * k + 1, 2 * k | bit31, (2 * k + 1) | bit31})
            edges.insert(Edge{m});
    EXPECT_EQ(edges.size(), 12u); // all four edges of each quad-edge are distinct
    EXPECT_TRUE(edges.contains(Edge{8193 | bit31}));
    EXPECT_FALSE(edges.contains(Edge{4}));

    std::unordered_set<Vertex> vertices{Vertex{1}, Vertex{2}, Vertex{1}, no_vertex};
    EXPECT_EQ(vertices.size(), 3u);
    std::unordered_set<Face> faces{Face{0}, Face{0}, Face{9}};
    EXPECT_EQ(faces.size(), 2u);
    EXPECT_TRUE(faces.contains(Face{9}));
    EXPECT_NE(std::hash<Edge>{}(Edge{2}), std::hash<Edge>{}(Edge{2 | bit31}));
}

} // namespace
} // namespace orbis
