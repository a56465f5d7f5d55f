// SPDX-License-Identifier: MIT
// Undo by snapshots (issue 3): 2,000 random edits, mesh edits and layer writes, on a
// 20,000-vertex world with a snapshot after each; the snapshots must stay exactly the states
// they were taken from while later edits share and copy their chunks.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace orbis {
namespace {

constexpr auto position =
    Layer_info<glm::vec3, Layer_type::vertex>("position").interpolation(Interpolation::slerp);
constexpr auto height =
    Layer_info<float, Layer_type::vertex>("height").interpolation(Interpolation::lerp);
constexpr auto rain = Layer_info<float, Layer_type::vertex>("rain")
                          .interpolation(Interpolation::max_value)
                          .on_mesh_change(On_mesh_change::reset_affected);
constexpr auto heat = Layer_info<float, Layer_type::vertex>("heat")
                          .interpolation(Interpolation::min_weight)
                          .initial(-1.f);
constexpr auto age =
    Layer_info<float, Layer_type::vertex>("age").interpolation(Interpolation::keep_dest);
constexpr auto plate = Layer_info<std::int32_t, Layer_type::face>("plate")
                           .interpolation(Interpolation::keep_src)
                           .on_mesh_change(On_mesh_change::reset_affected);
constexpr auto wind =
    Layer_info<float, Layer_type::edge_primal_directed>("wind").interpolation(Interpolation::lerp);

enum class Op_kind { flip, split, collapse, write_vertex, write_face, write_edge, draw };

struct Op {
    Op_kind kind;
    Edge edge;
    float t = 0.5f;
    std::uint32_t element = 0;
    float value = 0.f;
};

// Applies `op`; true when the World accepted it.
bool apply(World& w, const Op& op) {
    switch (op.kind) {
    case Op_kind::flip:
        return !w.lock_mesh().try_flip(op.edge);
    case Op_kind::split:
        return !w.lock_mesh().try_split(op.edge, op.t);
    case Op_kind::collapse:
        return !w.lock_mesh().try_collapse(op.edge, op.t);
    case Op_kind::write_vertex: {
        auto [h, p] = w.lock_layer(height, position);
        h[Vertex{op.element}] = op.value;
        p[Vertex{op.element}] *= 1.f + op.value * 1e-3f;
        return true;
    }
    case Op_kind::write_face: {
        auto [p] = w.lock_layer(plate);
        p[Face{op.element}] = static_cast<std::int32_t>(op.value);
        return true;
    }
    case Op_kind::write_edge: {
        auto [x] = w.lock_layer(wind);
        x[Edge{op.element}] = op.value;
        return true;
    }
    case Op_kind::draw:
        (void)w.lock_random()();
        return true;
    }
    return false;
}

// A world of exactly 20,000 vertices: an icosphere of 10,242 split up, layers all written.
World make_world(std::mt19937_64& rng) {
    World w(3);
    w.lock_mesh().assign(test::build(test::icosphere(5)));
    {
        auto [p, h, r, t, a] = w.lock_layer(position, height, rain, heat, age);
        std::normal_distribution<float> d;
        for (const Vertex v : w.mesh().vertices()) {
            p[v] = glm::normalize(glm::vec3(d(rng), d(rng), d(rng)));
            h[v] = d(rng);
            r[v] = d(rng);
            t[v] = d(rng);
            a[v] = static_cast<float>(v.index());
        }
    }
    { auto [p, x] = w.lock_layer(plate, wind); }
    auto m = w.lock_mesh();
    while (m->vertex_count() < 20000) {
        const Edge e{static_cast<std::uint32_t>(rng() % m->edge_slots())};
        if (m->contains(e)) m.split(e, 0.5f);
    }
    return w;
}

Op random_op(const World& w, std::mt19937_64& rng) {
    const Mesh& m = w.mesh();
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    auto live_edge = [&] {
        for (;;) {
            const Edge e{static_cast<std::uint32_t>(rng() % m.edge_slots())};
            if (m.contains(e)) return e;
        }
    };
    auto live_vertex = [&] {
        for (;;) {
            const Vertex v{static_cast<std::uint32_t>(rng() % m.vertex_slots())};
            if (m.contains(v)) return v.index();
        }
    };
    auto live_face = [&] {
        for (;;) {
            const Face f{static_cast<std::uint32_t>(rng() % m.face_slots())};
            if (m.contains(f)) return f.index();
        }
    };
    switch (rng() % 7) {
    case 0:
    case 1:
        return {Op_kind::flip, live_edge()};
    case 2:
        return {Op_kind::split, live_edge(), unit(rng)};
    case 3:
        return {Op_kind::collapse, live_edge(), unit(rng)};
    case 4:
        return {Op_kind::write_vertex, no_edge, 0.f, live_vertex(), unit(rng)};
    case 5:
        return rng() % 2 ? Op{Op_kind::write_face, no_edge, 0.f, live_face(), unit(rng) * 100}
                         : Op{Op_kind::write_edge, no_edge, 0.f, live_edge().index(), unit(rng)};
    default:
        return {Op_kind::draw, no_edge};
    }
}

TEST(WorldUndo, TwoThousandSnapshotsStayTheStatesTheyWereTakenFrom) {
    std::mt19937_64 rng(2026);
    World w = make_world(rng);
    ASSERT_EQ(w.mesh().vertex_count(), 20000u);
    const World start = w;

    std::vector<World> history{w};
    std::vector<Op> log;
    while (log.size() < 2000) {
        const Op op = random_op(w, rng);
        if (!apply(w, op)) continue; // refused edits are not part of the history
        log.push_back(op);
        history.push_back(w);
    }
    ASSERT_TRUE(test::valid(w.mesh()));
    const World final_state = w;

    // Replay the log in a world that shares nothing with the history: every snapshot must
    // equal the state the replay passes through (compared in full every 25 steps, by counts
    // in between).
    World replay = make_world(*std::make_unique<std::mt19937_64>(2026));
    ASSERT_TRUE(replay == start);
    for (std::size_t i = 0; i < log.size(); ++i) {
        ASSERT_TRUE(apply(replay, log[i])) << "step " << i;
        const World& h = history[i + 1];
        ASSERT_EQ(replay.mesh().vertex_count(), h.mesh().vertex_count()) << "step " << i;
        ASSERT_EQ(replay.mesh().face_count(), h.mesh().face_count()) << "step " << i;
        if (i % 25 == 24 || i + 1 == log.size()) {
            ASSERT_TRUE(replay == h) << "step " << i;
        }
    }

    // Undo: restore the snapshots in reverse order.
    for (std::size_t i = history.size(); i-- > 0;) {
        w = history[i];
        ASSERT_TRUE(w == history[i]);
        if (i % 250 == 0) {
            ASSERT_TRUE(test::valid(w.mesh())) << "step " << i;
        }
    }
    EXPECT_TRUE(w == start);

    // Branch off the start, then redo forward: the history is untouched by the branch.
    w.lock_mesh().flip(*w.mesh().edges().begin());
    {
        auto [h] = w.lock_layer(height);
        h.fill(0.f);
    }
    for (const World& h : history)
        w = h;
    EXPECT_TRUE(w == final_state);
    EXPECT_TRUE(w == replay);
    EXPECT_TRUE(history.front() == start);
}

} // namespace
} // namespace orbis
