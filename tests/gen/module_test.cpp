// SPDX-License-Identifier: MIT
// Modules: parameter checking and completion, the parameter Dict, run_module restoring the
// World on failure and cancellation, the sphere module against CGAL's triangulation.
#include <orbis/core/sphere_curve.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/module_registry.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/gen/sphere_delaunay.hpp>
#include <orbis/gen/sphere_module.hpp>

#include "triangulation_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <tuple>

namespace {

using namespace orbis;
using namespace orbis::gen;

struct Writer_params {
    double value = 1.5;
    std::int64_t steps = 3;
    bool fail = false;
    std::string label = "x";
};

constexpr auto written_layer = Layer_info<float, Layer_type::vertex>("written");

// A module that writes a layer, reports progress, then fails or is cancelled on request.
class Writing_module final : public Module_of<Writer_params> {
public:
    std::string_view name() const override { return "writer"; }
    std::string_view description() const override { return "test module"; }
    const Parameter_list<Writer_params>& parameter_list() const override {
        static const auto list =
            Parameter_list<Writer_params>()
                .add("value", &Writer_params::value, -10.0, 10.0, "m", "value written")
                .add("steps", &Writer_params::steps, 1, 100, "", "progress steps")
                .add("fail", &Writer_params::fail, "throw at the end")
                .add("label", &Writer_params::label, "unused");
        return list;
    }
    Layer_uses layers_for(const Writer_params&) const override {
        return {.reads = {Layer_use::mesh()},
                .writes = {Layer_use::of(written_layer).with_hints(make_hints("Written", "m"))}};
    }
    Dict run_with(World& world, const Writer_params& params,
                  const Progress& progress) const override {
        for (std::int64_t i = 0; i < params.steps; ++i) {
            {
                auto [layer] = world.lock_layer(written_layer);
                layer.fill(float(params.value) + float(i));
            }
            world.lock_random()->discard(1);
            progress.report(name(), double(i + 1) / double(params.steps));
        }
        if (params.fail) throw std::runtime_error("failed on purpose");
        Dict report;
        report.set("steps", params.steps);
        return report;
    }
};

World small_world() {
    World world(5);
    world.lock_mesh().assign(make_sphere({.count = 50, .seed = 2}).mesh);
    return world;
}

TEST(Module, CompleteParametersFillsDefaultsAndWidensIntegers) {
    Dict given;
    given.set("value", std::int64_t(2));
    const Dict p = complete_parameters(Writing_module{}, given);
    EXPECT_EQ(p.size(), 4u);
    EXPECT_EQ(p.at("value"), Dict_value(2.0));
    EXPECT_EQ(p.at("steps"), Dict_value(std::int64_t(3)));
    EXPECT_EQ(p.at("fail"), Dict_value(false));
    EXPECT_EQ(p.at("label"), Dict_value("x"));
}

TEST(Module, RefusesUnknownWrongTypedAndOutOfRangeParameters) {
    const auto message = [](const char* key, Dict_value v) {
        Dict given;
        given.set(key, std::move(v));
        try {
            complete_parameters(Writing_module{}, given);
        } catch (const Pipeline_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message("colour", 1.0),
              "module 'writer': unknown parameter 'colour' (known: value, steps, fail, label)");
    EXPECT_EQ(message("value", 11.0),
              "module 'writer', parameter 'value': 11 is outside the allowed range [-10, 10]");
    EXPECT_EQ(message("steps", std::int64_t(0)),
              "module 'writer', parameter 'steps': 0 is outside the allowed range [1, 100]");
    EXPECT_EQ(message("steps", 2.5),
              "module 'writer', parameter 'steps': expected int, got double");
    EXPECT_EQ(message("fail", std::int64_t(1)),
              "module 'writer', parameter 'fail': expected bool, got int");
    EXPECT_EQ(message("value", std::numeric_limits<double>::quiet_NaN()),
              "module 'writer', parameter 'value': nan is outside the allowed range [-10, 10]");
}

TEST(Module, ParametersDictDescribesEveryParameter) {
    const Dict d = parameters_dict(Writing_module{});
    ASSERT_EQ(d.size(), 4u);
    const Dict& value = d.at("value").as<Dict>();
    EXPECT_EQ(value.at("type"), Dict_value("double"));
    EXPECT_EQ(value.at("default"), Dict_value(1.5));
    EXPECT_EQ(value.at("min"), Dict_value(-10.0));
    EXPECT_EQ(value.at("max"), Dict_value(10.0));
    EXPECT_FALSE(d.at("fail").as<Dict>().contains("min"));
}

TEST(Module, RunReportsProgressAndResult) {
    World world = small_world();
    std::vector<double> fractions;
    const Progress progress([&](double f) { fractions.push_back(f); }, nullptr);
    const Dict report = run_module(world, Writing_module{}, {}, progress);
    EXPECT_EQ(report.at("steps"), Dict_value(std::int64_t(3)));
    EXPECT_EQ(fractions, (std::vector<double>{1.0 / 3, 2.0 / 3, 1.0}));
    ASSERT_NE(world.find_layer("written"), nullptr);
}

TEST(Module, FailureLeavesTheWorldAsItWas) {
    World world = small_world();
    const World before = world.deep_copy();
    Dict params;
    params.set("fail", true);
    EXPECT_THROW(run_module(world, Writing_module{}, params), std::runtime_error);
    EXPECT_TRUE(world == before);
    EXPECT_EQ(world.find_layer("written"), nullptr);
}

TEST(Module, CancellationLeavesTheWorldAsItWas) {
    World world = small_world();
    run_module(world, Writing_module{}, {});
    const World before = world.deep_copy();
    std::atomic<bool> cancel{false};
    int calls = 0;
    const Progress progress(
        [&](double) {
            if (++calls == 2) cancel = true;
        },
        &cancel);
    Dict params;
    params.set("value", 7.0);
    EXPECT_THROW(run_module(world, Writing_module{}, params, progress), Cancelled);
    EXPECT_EQ(calls, 2);
    EXPECT_TRUE(world == before);
}

TEST(Module, RegistryRefusesDuplicatesAndFindsByName) {
    Module_registry r;
    r.add(std::make_unique<Writing_module>());
    EXPECT_THROW(r.add(std::make_unique<Writing_module>()), std::invalid_argument);
    EXPECT_NE(r.find("writer"), nullptr);
    EXPECT_EQ(r.find("nothing"), nullptr);
    EXPECT_NE(builtin_modules().find("sphere"), nullptr);
    EXPECT_NE(builtin_modules().find("delaunay"), nullptr);
}

class SphereModule : public ::testing::TestWithParam<double> {};

TEST_P(SphereModule, GivesCgalsTriangulationAndPositions) {
    Dict params;
    params.set("count", std::int64_t(3000));
    params.set("perturbation", GetParam());
    params.set("seed", std::int64_t(11));
    params.set("radius", 2.0);
    World world;
    const Dict report = run_module(world, Sphere_module{}, params);
    EXPECT_EQ(report.at("vertices"), Dict_value(std::int64_t(3000)));
    const Mesh& m = world.mesh();
    ASSERT_EQ(m.validate(), std::nullopt);

    // The Fibonacci points, renamed along the sphere's curve (curve_numbering.hpp).
    auto points = fibonacci_points(
        {.count = 3000, .radius = 2.f, .perturbation = float(GetParam()), .seed = 11});
    const auto* position = world.layer(position_layer);
    ASSERT_NE(position, nullptr);
    std::vector<glm::vec3> held(3000);
    for (std::uint32_t i = 0; i < 3000; ++i)
        held[i] = (*position)[Vertex{i}];
    const int level = sphere_curve_level(3000, 16);
    for (std::uint32_t i = 1; i < 3000; ++i)
        ASSERT_LE(sphere_curve_key(held[i - 1], level), sphere_curve_key(held[i], level)) << i;
    auto sorted = held;
    const auto less = [](const glm::vec3& a, const glm::vec3& b) {
        return std::tie(a.x, a.y, a.z) < std::tie(b.x, b.y, b.z);
    };
    std::sort(sorted.begin(), sorted.end(), less);
    std::sort(points.begin(), points.end(), less);
    ASSERT_EQ(sorted, points);

    EXPECT_EQ(gen::testing::canonical_triangles(gen::testing::mesh_triangles(m)),
              gen::testing::canonical_triangles(delaunay_on_sphere_cgal(held)));
}

INSTANTIATE_TEST_SUITE_P(Perturbation, SphereModule, ::testing::Values(0.0, 0.5, 0.9));

TEST(Module, SphereReseedsTheGeneratorAndResetsOtherLayers) {
    World a(1), b(2);
    {
        auto [layer] = b.lock_layer(Layer_info<float, Layer_type::vertex>("old"));
        (void)layer;
    }
    Dict params;
    params.set("count", std::int64_t(100));
    run_module(a, Sphere_module{}, params);
    run_module(b, Sphere_module{}, params);
    EXPECT_EQ(a.random(), b.random());
    EXPECT_EQ(b.layer(Layer_info<float, Layer_type::vertex>("old"))->size(), 100u);
}

} // namespace
