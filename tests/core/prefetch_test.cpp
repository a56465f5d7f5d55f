// SPDX-License-Identifier: MIT
//
// Mesh::prefetch_slot and prefetch_ring are hints: any vertex id may be passed, including
// dead, isolated and out-of-range ones, and nothing changes. Under the sanitizers a read past
// the arrays (a missing guard) fails here.
#include <orbis/core.hpp>

#include "support/fixtures.hpp"

#include <gtest/gtest.h>

namespace orbis {
namespace {

TEST(Prefetch, AnyVertexIdIsAcceptedAndNothingChanges) {
    Mesh m = test::build(test::icosphere(2));
    const Vertex isolated = m.add_vertex();
    const Edge e = *m.edges().begin();
    ASSERT_FALSE(m.check_collapse(e).has_value());
    const Vertex kept = m.collapse(e);
    std::uint32_t dead = UINT32_MAX;
    for (std::uint32_t i = 0; i < m.vertex_slots(); ++i)
        if (!m.contains(Vertex(i)) && i != isolated.index()) dead = i;
    ASSERT_NE(dead, UINT32_MAX) << "the collapse must leave a dead slot";
    ASSERT_TRUE(m.contains(kept));
    const Mesh before = m;
    for (std::uint32_t i = 0; i < m.vertex_slots() + 5000; ++i) {
        m.prefetch_slot(Vertex(i));
        m.prefetch_ring(Vertex(i));
    }
    m.prefetch_slot(Vertex(UINT32_MAX - 1));
    m.prefetch_ring(Vertex(UINT32_MAX - 1));
    EXPECT_EQ(m, before);
    EXPECT_EQ(m.validate(), std::nullopt);
}

} // namespace
} // namespace orbis
