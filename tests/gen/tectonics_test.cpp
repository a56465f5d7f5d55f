// SPDX-License-Identifier: MIT
// The `tectonics` module: the mesh stays a valid Delaunay triangulation of the moving points at
// every step, resolution is kept, runs are deterministic, rifts and collisions do what they say,
// and the relief after a long run looks like a planet's.
#include <orbis/gen/cell_area.hpp>
#include <orbis/gen/delaunay_module.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/geodesic.hpp>
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/refine_module.hpp>
#include <orbis/gen/sphere_module.hpp>
#include <orbis/gen/tectonics_module.hpp>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace orbis::gen {
namespace {

constexpr double radius = 6371.0;

World planet(std::int64_t seed, std::int64_t count, bool refine = false) {
    World world;
    Dict sphere;
    sphere.set("count", count);
    sphere.set("seed", seed);
    run_module(world, Sphere_module{}, sphere);
    Dict plates;
    plates.set("count", std::int64_t(14));
    run_module(world, Plates_module{}, plates);
    run_module(world, Elevation_module{}, {});
    if (refine) run_module(world, Refine_module{}, {});
    return world;
}

std::vector<glm::vec3> positions(const World& world) {
    const auto& p = *world.layer(position_layer);
    return {p.begin(), p.end()};
}

double longest_edge(const World& world) {
    const Mesh& m = world.mesh();
    const auto& p = *world.layer(position_layer);
    double most = 0;
    for (const Edge e : m.edges())
        most = std::max(most, double(glm::distance(p[e.origin(m)], p[e.dest(m)])));
    return most;
}

double state_number(const World& world, std::string_view key) {
    return world.layer(tectonics_dict_name)->at(key).as<double>();
}

Dict steps(std::int64_t n) {
    Dict d;
    d.set("steps", n);
    return d;
}

// The invariants every step must keep. An edge may not grow past 3 times the target spacing; a
// generated sphere may start with a few longer ones (around the Fibonacci sphere's poles), which
// rigid motion keeps as they are.
void expect_valid(const World& world, std::size_t start_vertices, double start_longest, int step) {
    const Mesh& m = world.mesh();
    const auto p = positions(world);
    const auto problem = m.validate();
    ASSERT_FALSE(problem.has_value()) << "step " << step << ": " << *problem;
    EXPECT_EQ(count_folded_faces(m, p), 0u) << "step " << step;
    EXPECT_EQ(count_non_delaunay_edges(m, p), 0u) << "step " << step;
    const double ratio = double(m.vertex_count()) / double(start_vertices);
    EXPECT_GT(ratio, 0.9) << "step " << step;
    EXPECT_LT(ratio, 1.1) << "step " << step;
    EXPECT_LE(longest_edge(world),
              std::max(3 * state_number(world, "spacing"), start_longest * 1.0001))
        << "step " << step;
}

void run_and_check(World world, int count) {
    const std::size_t start = world.mesh().vertex_count();
    const double start_longest = longest_edge(world);
    std::int64_t splits = 0, collapses = 0, flips = 0;
    for (int step = 0; step < count; ++step) {
        const Dict r = run_module(world, Tectonics_module{}, steps(1));
        splits += r.at("splits").as<std::int64_t>();
        collapses += r.at("collapses").as<std::int64_t>();
        flips += r.at("flips").as<std::int64_t>();
        EXPECT_EQ(r.at("folded").as<std::int64_t>(), 0);
        expect_valid(world, start, start_longest, step);
        if (::testing::Test::HasFailure()) return;
    }
    // Ridges made crust, trenches consumed it, and the boundaries were repaired all along.
    EXPECT_GT(splits, 10 * count);
    EXPECT_GT(collapses, 10 * count);
    EXPECT_GT(flips, 10 * count);
}

TEST(Tectonics, KeepsADelaunayMeshAtEveryStep) { run_and_check(planet(1, 20000), 100); }

TEST(Tectonics, KeepsARefinedMeshDelaunayAtEveryStep) { run_and_check(planet(2, 8000, true), 100); }

// 200,000 vertices over 100 steps: its own ctest entry, labelled slow.
TEST(SlowTectonics, KeepsADelaunayMeshAtEveryStepAt200k) { run_and_check(planet(3, 200000), 100); }

// What `orbis-cli generate -n COUNT -s SEED --modules sphere,plates,elevation` makes, then
// `steps` steps with every invariant checked after each. Returns how many steps ended with a
// fold or an unflippable edge and rebuilt the mesh.
std::int64_t replay_checked(std::int64_t count, std::int64_t seed, int steps) {
    const std::vector<std::string> terrain{"sphere", "plates", "elevation"};
    Pipeline pipeline = default_pipeline();
    override_parameter(pipeline, builtin_modules(), "count", count, "sphere");
    override_parameter(pipeline, builtin_modules(), "seed", seed);
    pipeline = select_steps(pipeline, terrain);
    World world;
    run_pipeline(world, pipeline, builtin_modules());
    const std::size_t start = world.mesh().vertex_count();
    const double start_longest = longest_edge(world);
    std::int64_t rebuilt = 0;
    for (int step = 1; step <= steps; ++step) {
        const Tectonic_step_stats s = tectonic_step(world, Tectonics_params{});
        rebuilt += s.rebuilt;
        EXPECT_EQ(s.folded, 0) << "step " << step;
        expect_valid(world, start, start_longest, step);
        if (::testing::Test::HasFailure()) break;
    }
    return rebuilt;
}

// Seed 10 at 20k, 300 steps. Before late untangling rounds could move a corner or take the
// corner with fewest neighbours first, step 291 ended with a fold inside one plate, left by
// collapses at a trench. Its own ctest entry, labelled slow.
TEST(SlowTectonics, NoFoldOutlivesAStepOfALongRun) { replay_checked(20000, 10, 300); }

// Seed 7 at 50k, 55 steps. At step 50 a flip had turned the vertex a ridge split made into a
// sliver corner beside the edge between the same two vertices, and splitting that edge again in
// the same sub-step put a second vertex exactly on the first: two points in one place, a fold
// no repair clears (before rebuilds, one that survived step 42 of this world multiplied until
// it had grown to 129,000 vertices by step 74). A split that would fold a face is refused now,
// and no step of this world needs the rebuild of last resort. Since ridges are told from
// transforms (later the same day) this world takes another path, which may not reach that
// coincidence again: the test still checks every invariant of a long run and that no step
// needed a rebuild, but no longer proves the split check by itself. Its own ctest entry.
TEST(SlowTectonics, ASplitNeverPutsAVertexOnAnother) {
    EXPECT_EQ(replay_checked(50000, 7, 55), 0) << "a step ended with a fold and was rebuilt";
}

// The repair of last resort, reached from a step: a world whose points were scattered by up to
// an edge length each (hundreds of folded faces inside plates, where the step's own repairs do
// not look) ends the step rebuilt as the Delaunay triangulation of its points, keeps its
// vertices and their crust, and steps on from there without another rebuild.
TEST(Tectonics, AStepThatCannotUnfoldTheMeshRebuildsIt) {
    World world = planet(9, 20000);
    const Mesh& m0 = world.mesh();
    {
        const float step = std::sqrt(4.f * 3.14159f / float(m0.vertex_count()));
        std::uint64_t state = 88172645463325252ull; // xorshift64, fixed
        const auto u = [&] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return float(state >> 11) / float(1ull << 53) * 2.f - 1.f;
        };
        auto [position] = world.lock_layer(position_layer);
        for (const Vertex v : m0.vertices()) {
            const glm::vec3 p = position[v];
            const float r = glm::length(p);
            position[v] = r * glm::normalize(p / r + step * glm::vec3(u(), u(), u()));
        }
    }
    ASSERT_GT(count_folded_faces(world.mesh(), positions(world)), 100u);
    const std::size_t start = world.mesh().vertex_count();
    const std::vector<std::uint32_t> slots = [&] {
        std::vector<std::uint32_t> s;
        for (const Vertex v : world.mesh().vertices())
            s.push_back(v.index());
        return s;
    }();
    const Dict report = run_module(world, Tectonics_module{}, steps(1));
    EXPECT_EQ(report.at("rebuilt").as<std::int64_t>(), 1);
    EXPECT_EQ(report.at("folded").as<std::int64_t>(), 0);
    const Mesh& m = world.mesh();
    ASSERT_EQ(m.validate(), std::nullopt);
    EXPECT_EQ(count_folded_faces(m, positions(world)), 0u);
    EXPECT_EQ(count_non_delaunay_edges(m, positions(world)), 0u);
    // The step's own edits came before the rebuild; most vertices are still where they were.
    std::size_t kept = 0;
    for (const std::uint32_t s : slots)
        kept += m.contains(Vertex(s));
    EXPECT_GT(kept, start * 9 / 10);
    for (const Vertex v : m.vertices()) {
        const float age = (*world.layer(crust_age_layer))[v];
        ASSERT_TRUE(std::isfinite(age) && age >= 0.f) << "vertex " << v.index();
    }
    // The boundaries are found again on the new edges, and the next steps need no rebuild.
    std::size_t boundary = 0;
    for (const Edge e : m.edges())
        boundary += (*world.layer(plate_boundary_layer))[e] != 0;
    EXPECT_GT(boundary, 100u);
    const double start_longest = longest_edge(world);
    for (int step = 0; step < 5; ++step) {
        const Dict r = run_module(world, Tectonics_module{}, steps(1));
        EXPECT_EQ(r.at("rebuilt").as<std::int64_t>(), 0) << "step " << step;
        expect_valid(world, start, start_longest, step);
    }
}

TEST(Tectonics, PlatesMoveWithTheirVelocity) {
    World world = planet(4, 20000);
    const auto before = positions(world);
    // Each vertex's own slot, which splits and collapses reset: slots that end the step with
    // their own number hold the vertex they held before.
    constexpr auto marker =
        Layer_info<std::int32_t, Layer_type::vertex>("marker").initial(-1).interpolation(
            Interpolation::reset_affected);
    {
        auto [mark] = world.lock_layer(marker);
        for (const Vertex v : world.mesh().vertices())
            mark[v] = std::int32_t(v.index());
    }
    run_module(world, Tectonics_module{}, steps(1));
    const auto& velocity = *world.layer(velocity_layer);
    const auto& position = *world.layer(position_layer);
    const auto& plate_id = *world.layer(plate_id_layer);
    const std::vector<Plate> plates = read_plates(world);
    int checked = 0;
    for (const Vertex v : world.mesh().vertices()) {
        if ((*world.layer(marker))[v] != std::int32_t(v.index())) continue;
        const glm::dvec3 p(position[v]), q(before[v.index()]);
        // Tangent, and the plate's rotation (at the module's default speed) at this point.
        EXPECT_NEAR(glm::dot(glm::dvec3(velocity[v]), p) / glm::length(p), 0.0, 1e-3);
        const glm::dvec3 expected = glm::cross(plates[std::size_t(plate_id[v])].axis, p) *
                                    plates[std::size_t(plate_id[v])].angular_speed *
                                    Tectonics_params{}.speed;
        EXPECT_NEAR(glm::distance(glm::dvec3(velocity[v]), expected), 0.0, 1e-3);
        // It moved by its velocity times 1 My, to first order.
        if (glm::length(expected) > 10) {
            EXPECT_NEAR(glm::distance(p, q), glm::length(expected), 0.02 * glm::length(expected));
            ++checked;
        }
    }
    EXPECT_GT(checked, 1000);
}

TEST(Tectonics, RunsAreDeterministic) {
    World a = planet(5, 10000), b = planet(5, 10000);
    ASSERT_TRUE(a == b);
    run_module(a, Tectonics_module{}, steps(20));
    run_module(b, Tectonics_module{}, steps(20));
    EXPECT_TRUE(a == b);
    // Twenty steps at once are twenty steps one by one.
    World c = planet(5, 10000);
    for (int i = 0; i < 20; ++i)
        run_module(c, Tectonics_module{}, steps(1));
    EXPECT_TRUE(a.mesh() == c.mesh());
    const auto &ea = *a.layer(elevation_layer), &ec = *c.layer(elevation_layer);
    EXPECT_TRUE(std::equal(ea.begin(), ea.end(), ec.begin(), ec.end()));
}

TEST(Tectonics, ARiftSplitsAPlateIntoTwoThatPart) {
    World world = planet(6, 20000);
    const std::size_t before = read_plates(world).size();
    // The biggest plate.
    std::vector<std::size_t> counts(before, 0);
    for (const Vertex v : world.mesh().vertices())
        ++counts[std::size_t((*world.layer(plate_id_layer))[v])];
    const auto big = std::int32_t(std::max_element(counts.begin(), counts.end()) - counts.begin());
    Dict params = steps(10);
    params.set("rift", std::to_string(big));
    params.set("rift_interval", 0.0);
    const Dict report = run_module(world, Tectonics_module{}, params);
    EXPECT_EQ(report.at("rifts").as<std::int64_t>(), 1);
    const std::vector<Plate> plates = read_plates(world);
    ASSERT_EQ(plates.size(), before + 1);
    const auto fresh = std::int32_t(before);
    std::size_t old_side = 0, new_side = 0;
    for (const Vertex v : world.mesh().vertices()) {
        old_side += (*world.layer(plate_id_layer))[v] == big;
        new_side += (*world.layer(plate_id_layer))[v] == fresh;
    }
    EXPECT_GT(old_side, counts[std::size_t(big)] / 10);
    EXPECT_GT(new_side, counts[std::size_t(big)] / 10);
    // The halves part: young crust between them, and ridge edges on their border.
    const Mesh& m = world.mesh();
    const auto& plate_id = *world.layer(plate_id_layer);
    const auto& boundary = *world.layer(plate_boundary_layer);
    const auto& age = *world.layer(crust_age_layer);
    std::size_t ridge = 0, young = 0;
    for (const Edge e : m.edges()) {
        const auto a = plate_id[e.origin(m)], b = plate_id[e.dest(m)];
        if (std::min(a, b) == std::min(big, fresh) && std::max(a, b) == std::max(big, fresh)) {
            ridge += boundary[e] == std::int32_t(Plate_boundary::ridge);
            young += age[e.origin(m)] < 10.f || age[e.dest(m)] < 10.f;
        }
    }
    EXPECT_GT(ridge, 10u);
    EXPECT_GT(young, 10u);
    // The rift is in the record.
    const Dict_array& events = world.layer(tectonics_dict_name)->at("events").as<Dict_array>();
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.front().as<Dict>().at("kind").as<std::string>(), "rift");
}

TEST(Tectonics, RefusesAnUnknownPlateAndLeavesTheWorldAsItWas) {
    World world = planet(7, 5000);
    const World before = world;
    Dict params = steps(3);
    params.set("rift", "2, 999");
    EXPECT_THROW(run_module(world, Tectonics_module{}, params), std::runtime_error);
    EXPECT_TRUE(world == before);
    params.set("rift", "two");
    EXPECT_THROW(run_module(world, Tectonics_module{}, params), std::runtime_error);
    EXPECT_TRUE(world == before);
}

// Two continents, one on each hemisphere of x, driven into each other about the z axis.
World colliding_continents(std::int64_t count = 20000) {
    World world = planet(8, count);
    const auto& position = *world.layer(position_layer);
    {
        auto [plate_id, elevation] = world.lock_layer(plate_id_layer, elevation_layer);
        for (const Vertex v : world.mesh().vertices()) {
            plate_id[v] = position[v].x >= 0 ? 0 : 1;
            elevation[v] = 400.f;
        }
    }
    Plate west, east;
    west.continental = east.continental = true;
    west.axis = east.axis = glm::dvec3(0, 0, 1);
    // Plate 0 (x >= 0) turns counterclockwise, plate 1 clockwise: they meet along y > 0 and
    // part along y < 0.
    west.angular_speed = 0.006;
    east.angular_speed = -0.006;
    west.density = 2.7;
    east.density = 2.75;
    const std::vector<Plate> plates{west, east};
    write_plates(world, plates);
    world.set_provenance({});
    return world;
}

TEST(Tectonics, ACollisionRaisesARangeBetweenTwoContinents) {
    World world = colliding_continents();
    Dict params = steps(15);
    params.set("rift_interval", 0.0);
    params.set("suture_area", 1e9);
    run_module(world, Tectonics_module{}, params);
    // Along the collision (x near 0, y > 0) the crust rose; far from it, it eroded.
    const auto& position = *world.layer(position_layer);
    const auto& elevation = *world.layer(elevation_layer);
    double near_max = -1e9, far_max = -1e9;
    for (const Vertex v : world.mesh().vertices()) {
        const glm::dvec3 p = glm::normalize(glm::dvec3(position[v]));
        const double e = elevation[v];
        if (p.y > 0.3 && std::abs(p.x) < 0.05) near_max = std::max(near_max, e);
        if (std::abs(p.x) > 0.5) far_max = std::max(far_max, e);
    }
    EXPECT_GT(near_max, 3000.0);
    EXPECT_LE(far_max, 400.0);
    const auto& boundary = *world.layer(plate_boundary_layer);
    std::size_t collision = 0;
    for (const Edge e : world.mesh().edges())
        collision += boundary[e] == std::int32_t(Plate_boundary::collision);
    EXPECT_GT(collision, 10u);
}

// Two ocean plates driven into each other as colliding_continents() drives its two: the old
// floor of plate 1 (100 My) goes under the young floor of plate 0 (9 My), whose edge rises as
// an island arc.
World converging_oceans() {
    World world = colliding_continents(80000);
    auto [elevation] = world.lock_layer(elevation_layer);
    const auto& plate_id = *world.layer(plate_id_layer);
    for (const Vertex v : world.mesh().vertices())
        elevation[v] = float(ocean_depth_for_age(plate_id[v] == 0 ? 9.0 : 100.0));
    return world;
}

// The highest point after `count` steps of `dt` My.
double highest_after(World world, std::int64_t count, double dt) {
    Dict params = steps(count);
    params.set("dt", dt);
    params.set("rift_interval", 0.0);
    run_module(world, Tectonics_module{}, params);
    const auto& elevation = *world.layer(elevation_layer);
    return *std::max_element(elevation.begin(), elevation.end());
}

// The relief's rates integrate over a long step as over many short ones: one step of 10 My
// raises an island arc as high as ten steps of 1 My (2.07 and 2.00 km above the floor). Updated
// once per step, the arc rose 3.32 km in one step of 10 My, and at 10 My arcs on the default
// world broke the surface and were left behind as specks of continent.
TEST(Tectonics, ALongStepRaisesAnArcAsShortStepsDo) {
    const World start = converging_oceans();
    const double floor = ocean_depth_for_age(19.0);
    const double short_steps = highest_after(start, 10, 1.0) - floor;
    const double long_step = highest_after(start, 1, 10.0) - floor;
    EXPECT_GT(short_steps, 500.0);
    EXPECT_NEAR(long_step, short_steps, 0.15 * short_steps);
}

// How far crust a ridge made within the last `young` My stands above the half-space-cooling depth
// of its age, on average, after `count` steps of `dt` My of converging_oceans(), whose plates
// part along y < 0.
double new_crust_offset(World world, std::int64_t count, double dt, float young) {
    Dict params = steps(count);
    params.set("dt", dt);
    params.set("rift_interval", 0.0);
    run_module(world, Tectonics_module{}, params);
    const auto& elevation = *world.layer(elevation_layer);
    const auto& age = *world.layer(crust_age_layer);
    double sum = 0;
    std::size_t n = 0;
    for (const Vertex v : world.mesh().vertices()) {
        if (age[v] >= young) continue;
        sum += elevation[v] - ocean_depth_for_age(age[v]);
        ++n;
    }
    EXPECT_GT(n, 200u) << count << " x " << dt << " My";
    return sum / double(std::max<std::size_t>(n, 1));
}

// Crust a ridge makes during a long step starts at the depth of the sub-step it was born in, so
// the floor along a ridge after one step of 10 My stands as crust of the same ages made in ten
// steps of 1 My does (on average 342 and 350 m above the depth of its age, as the relief lags
// the cooling). Started at its end-of-step depth, it relaxed back from below and stood only
// 116 m above it, 234 m deeper than short steps make it.
TEST(Tectonics, CrustMadeDuringALongStepStandsAsShortStepsMakeIt) {
    const World start = converging_oceans();
    const double short_steps = new_crust_offset(start, 10, 1.0, 10.f);
    const double long_step = new_crust_offset(start, 1, 10.0, 10.f);
    EXPECT_NEAR(long_step, short_steps, 40.0);
}

// Two ocean plates, the northern and southern hemispheres, turning about the pole at different
// speeds: they slide past each other along the equator, a transform from end to end. The edges
// across it stretch and are split, but no ocean floor is made there: every split interpolates
// the crust of its ends, as it does inside a plate. (When any lengthening edge counted as a
// ridge, the equator filled with crust of age 0.)
TEST(Tectonics, PlatesSlidingPastEachOtherMakeNoNewCrust) {
    World world = planet(8, 20000);
    const auto& position = *world.layer(position_layer);
    {
        auto [plate_id, elevation] = world.lock_layer(plate_id_layer, elevation_layer);
        for (const Vertex v : world.mesh().vertices()) {
            plate_id[v] = position[v].z >= 0 ? 0 : 1;
            elevation[v] = float(ocean_depth_for_age(plate_id[v] == 0 ? 100.0 : 60.0));
        }
    }
    Plate north, south;
    north.axis = south.axis = glm::dvec3(0, 0, 1);
    north.angular_speed = 0.006;
    south.angular_speed = -0.006;
    south.density = 3.1;
    write_plates(world, std::vector<Plate>{north, south});
    world.set_provenance({});
    Dict params = steps(10);
    params.set("rift_interval", 0.0);
    const Dict report = run_module(world, Tectonics_module{}, params);
    EXPECT_GT(report.at("splits").as<std::int64_t>(), 20);
    // Both floors aged 10 My; splits between them interpolate 70 to 110 My.
    const auto& age = *world.layer(crust_age_layer);
    float youngest = 1000.f;
    for (const Vertex v : world.mesh().vertices())
        youngest = std::min(youngest, age[v]);
    EXPECT_GT(youngest, 65.f);
}

TEST(Tectonics, CollidingPlatesWeldIntoOne) {
    World world = colliding_continents();
    Dict params = steps(30);
    params.set("rift_interval", 0.0);
    params.set("suture_area", 100000.0);
    const Dict report = run_module(world, Tectonics_module{}, params);
    EXPECT_EQ(report.at("sutures").as<std::int64_t>(), 1);
    std::set<std::int32_t> ids;
    for (const Vertex v : world.mesh().vertices())
        ids.insert((*world.layer(plate_id_layer))[v]);
    EXPECT_EQ(ids.size(), 1u);
}

TEST(Tectonics, OceanDepthFollowsHalfSpaceCooling) {
    EXPECT_DOUBLE_EQ(ocean_depth_for_age(0), -2600.0);
    EXPECT_DOUBLE_EQ(ocean_depth_for_age(100), -6100.0);
    for (double age = 0; age < 300; age += 5)
        EXPECT_LE(ocean_depth_for_age(age + 5), ocean_depth_for_age(age));
}

// Spearman's rank correlation of x and y.
double rank_correlation(const std::vector<double>& x, const std::vector<double>& y) {
    const auto ranks = [](const std::vector<double>& v) {
        std::vector<std::size_t> order(v.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](auto a, auto b) { return v[a] < v[b]; });
        std::vector<double> r(v.size());
        for (std::size_t i = 0; i < order.size();) {
            std::size_t j = i;
            while (j < order.size() && v[order[j]] == v[order[i]])
                ++j;
            for (std::size_t k = i; k < j; ++k)
                r[order[k]] = 0.5 * double(i + j - 1);
            i = j;
        }
        return r;
    };
    const auto rx = ranks(x), ry = ranks(y);
    const double n = double(x.size());
    const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
    const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

double continental_area(const World& world) {
    const auto area = vertex_cell_areas(world, radius);
    const auto& crust = *world.layer(crust_type_layer);
    double sum = 0;
    for (const Vertex v : world.mesh().vertices())
        sum += crust[v] == std::int32_t(Crust::continental) ? area[v.index()] : 0.0;
    return sum;
}

// The default pipeline's world (at 20,000 points, so the test stays quick) after 200 My.
// Elevation bins are 500 m wide, so modes "more than 3 km apart" are 7 bins or more.
TEST(Tectonics, TheDefaultWorldLooksLikeAPlanetAfter200Steps) {
    Pipeline pipeline = default_pipeline();
    pipeline.steps.front().params.set("count", std::int64_t(20000));
    pipeline.steps.resize(5); // sphere, plates, elevation, refine, plate_boundaries
    World world;
    run_pipeline(world, pipeline, builtin_modules());
    run_module(world, Tectonics_module{}, steps(1));
    const double start_continents = continental_area(world);
    run_module(world, Tectonics_module{}, steps(199));

    const Mesh& m = world.mesh();
    const auto area = vertex_cell_areas(world, radius);
    const auto& elevation = *world.layer(elevation_layer);
    const auto& crust = *world.layer(crust_type_layer);
    const auto& age = *world.layer(crust_age_layer);

    // Land covers 15-45%.
    double total = 0, land = 0;
    for (const Vertex v : m.vertices()) {
        total += area[v.index()];
        land += elevation[v] > 0 ? area[v.index()] : 0.0;
    }
    EXPECT_GT(land / total, 0.15);
    EXPECT_LT(land / total, 0.45);

    // Continental area kept within 15%.
    const double end_continents = continental_area(world);
    EXPECT_LT(std::abs(end_continents / start_continents - 1), 0.15)
        << start_continents << " km² -> " << end_continents << " km²";

    // The area-weighted hypsometry is bimodal: a continental and an ocean-floor mode more than
    // 3 km apart, with a trough between them.
    constexpr double bin = 500, lowest = -11000;
    std::vector<double> histogram(44, 0.0);
    for (const Vertex v : m.vertices()) {
        const auto b = std::size_t(std::clamp((elevation[v] - lowest) / bin, 0.0, 43.0));
        histogram[b] += area[v.index()];
    }
    const auto split = std::size_t((-1000 - lowest) / bin);
    const auto ocean_mode = std::size_t(
        std::max_element(histogram.begin(), histogram.begin() + long(split)) - histogram.begin());
    const auto land_mode = std::size_t(
        std::max_element(histogram.begin() + long(split), histogram.end()) - histogram.begin());
    std::string shape;
    for (const double h : histogram)
        shape += std::to_string(std::lround(h / total * 1000)) + " ";
    EXPECT_GT(double(land_mode - ocean_mode) * bin, 3000.0 + bin / 2)
        << "per mille by 500 m: " << shape;
    const double trough = *std::min_element(histogram.begin() + long(ocean_mode),
                                            histogram.begin() + long(land_mode));
    EXPECT_LT(trough, 0.5 * std::min(histogram[ocean_mode], histogram[land_mode]));

    // Ocean floor deepens with age.
    std::vector<double> ages, depths;
    for (const Vertex v : m.vertices()) {
        if (crust[v] != std::int32_t(Crust::oceanic)) continue;
        ages.push_back(age[v]);
        depths.push_back(-elevation[v]);
    }
    EXPECT_GT(rank_correlation(ages, depths), 0.7);

    // Most high mountains stand within about 600 km of a convergent boundary.
    const auto& boundary = *world.layer(plate_boundary_layer);
    std::vector<std::uint32_t> convergent;
    for (const Edge e : m.edges()) {
        const auto kind = Plate_boundary(boundary[e]);
        if (kind == Plate_boundary::subducting_origin || kind == Plate_boundary::subducting_dest ||
            kind == Plate_boundary::collision) {
            convergent.push_back(e.origin(m).index());
            convergent.push_back(e.dest(m).index());
        }
    }
    const auto distance = geodesic_distances_from(world, radius, convergent, 600.0);
    std::size_t high = 0, near = 0;
    for (const Vertex v : m.vertices()) {
        if (elevation[v] <= 3000) continue;
        ++high;
        near += distance[v.index()] <= 600.0;
    }
    ASSERT_GT(high, 0u);
    EXPECT_GT(double(near), 0.5 * double(high)) << near << " of " << high;
}

} // namespace
} // namespace orbis::gen
