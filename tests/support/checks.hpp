// SPDX-License-Identifier: MIT
// GoogleTest predicates for meshes: `EXPECT_TRUE(valid(m))` prints validate()'s message.
#pragma once

#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

namespace orbis::test {

/// Success when `m.validate()` finds no violation; otherwise a failure with its message.
inline testing::AssertionResult valid(const Mesh& m) {
    if (const std::optional<std::string> problem = m.validate())
        return testing::AssertionFailure() << "validate(): " << *problem;
    return testing::AssertionSuccess();
}

/// Success when both meshes have the same live elements and the same connectivity: for every
/// primal and dual edge the same origin, origin_next and left side. Unlike `==`, this ignores
/// which edge a vertex or face stores as its representative and the order of the free lists.
inline testing::AssertionResult same_connectivity(const Mesh& a, const Mesh& b) {
    if (a.vertex_count() != b.vertex_count() || a.face_count() != b.face_count() ||
        a.edge_count() != b.edge_count())
        return testing::AssertionFailure() << "different element counts";
    for (std::uint32_t i = 0; i < std::max(a.vertex_slots(), b.vertex_slots()); ++i)
        if (a.contains(Vertex{i}) != b.contains(Vertex{i}))
            return testing::AssertionFailure() << Vertex{i} << " is live in one mesh only";
    for (std::uint32_t i = 0; i < std::max(a.face_slots(), b.face_slots()); ++i)
        if (a.contains(Face{i}) != b.contains(Face{i}))
            return testing::AssertionFailure() << Face{i} << " is live in one mesh only";
    for (std::uint32_t i = 0; i < std::max(a.edge_slots(), b.edge_slots()); ++i) {
        const Edge e{i};
        if (a.contains(e) != b.contains(e))
            return testing::AssertionFailure() << e << " is live in one mesh only";
        if (!a.contains(e)) continue;
        for (const Edge x : {e, e.rot()}) {
            if (x.origin_next(a) != x.origin_next(b))
                return testing::AssertionFailure() << "origin_next(" << x << ") differs";
        }
        if (e.origin(a) != e.origin(b))
            return testing::AssertionFailure() << "origin(" << e << ") differs";
        if (e.left(a) != e.left(b))
            return testing::AssertionFailure() << "left(" << e << ") differs";
    }
    return testing::AssertionSuccess();
}

} // namespace orbis::test
