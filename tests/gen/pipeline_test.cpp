// SPDX-License-Identifier: MIT
// Pipelines: JSON in and out, every refusal with its message before anything runs, selecting
// steps, overriding parameters, and all-or-nothing runs.
#include <orbis/gen/pipeline.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

using namespace orbis;
using namespace orbis::gen;

std::string refusal(std::string_view json) {
    try {
        pipeline_from_json(json, builtin_modules());
    } catch (const Pipeline_error& e) {
        return e.what();
    }
    return "accepted";
}

constexpr std::string_view small = R"({"format": "orbis-pipeline", "version": 1, "steps": [
    {"module": "sphere", "params": {"count": 500, "seed": 3}},
    {"module": "delaunay"}]})";

TEST(Pipeline, ReadsStepsWithCompleteParameters) {
    const Pipeline p = pipeline_from_json(small, builtin_modules());
    ASSERT_EQ(p.steps.size(), 2u);
    EXPECT_EQ(p.steps[0].module, "sphere");
    EXPECT_EQ(p.steps[0].params.at("count"), Dict_value(std::int64_t(500)));
    EXPECT_EQ(p.steps[0].params.at("perturbation"), Dict_value(0.5));
    EXPECT_EQ(p.steps[1].module, "delaunay");
    EXPECT_TRUE(p.steps[1].params.empty());
}

TEST(Pipeline, JsonRoundTripGivesAnEqualPipeline) {
    const Pipeline p = pipeline_from_json(small, builtin_modules());
    EXPECT_EQ(pipeline_from_json(pipeline_to_json(p), builtin_modules()), p);
    EXPECT_EQ(pipeline_from_json(pipeline_to_json(default_pipeline()), builtin_modules()),
              default_pipeline());
}

TEST(Pipeline, RefusesBadPipelinesWithMessages) {
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [)").substr(0, 31),
              "pipeline is not valid JSON: [js");
    EXPECT_NE(refusal("{\"format\": \"orbis-pipeline\",\n \"version\": 1,\n \"steps\": [}")
                  .find("line 3"),
              std::string::npos);
    EXPECT_EQ(refusal("[]"), "pipeline: expected a JSON object");
    EXPECT_EQ(refusal(R"({"version": 1, "steps": []})"), "pipeline: missing \"format\"");
    EXPECT_EQ(refusal(R"({"format": "x", "version": 1, "steps": []})"),
              "pipeline: \"format\" must be \"orbis-pipeline\"");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 2, "steps": []})"),
              "pipeline: version 2 needs a newer Orbis (this one reads version 1)");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": {}})"),
              "pipeline: \"steps\" must be an array");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [{"module": "x"}]})"),
              "pipeline step 1: unknown module 'x' (known: " + builtin_modules().names() + ")");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [{"modul": "x"}]})"),
              "pipeline step 1: unknown key \"modul\" (allowed: module, params)");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [
                  {"module": "sphere", "params": {"count": 3}}]})"),
              "module 'sphere', parameter 'count': 3 is outside the allowed range [4, 50000000]");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [
                  {"module": "sphere", "params": {"count": [1]}}]})"),
              "module 'sphere', parameter 'count': a value must be a number, bool or string, not "
              "array");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [
                  {"module": "sphere", "params": {"radius": "big"}}]})"),
              "module 'sphere', parameter 'radius': expected double, got string");
    EXPECT_EQ(refusal(R"({"format": "orbis-pipeline", "version": 1, "steps": [
                  {"module": "delaunay", "params": {"tolerance": 1}}]})"),
              "module 'delaunay': unknown parameter 'tolerance' (known: none)");
}

TEST(Pipeline, LoadNamesTheFile) {
    const auto path = std::filesystem::temp_directory_path() / "orbis_pipeline_test.json";
    std::ofstream(path) << "{";
    try {
        load_pipeline(path, builtin_modules());
        FAIL() << "accepted";
    } catch (const Pipeline_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": pipeline is not valid JSON", 0),
                  0u)
            << e.what();
    }
    std::filesystem::remove(path);
    EXPECT_THROW(load_pipeline(path, builtin_modules()), Pipeline_error);
}

TEST(Pipeline, SelectStepsKeepsPipelineOrder) {
    const Pipeline p = pipeline_from_json(small, builtin_modules());
    const std::vector<std::string> names{"delaunay", "sphere"};
    EXPECT_EQ(select_steps(p, names), p);
    const std::vector<std::string> one{"delaunay"};
    ASSERT_EQ(select_steps(p, one).steps.size(), 1u);
    const std::vector<std::string> bad{"plates", "mars"};
    EXPECT_THROW(select_steps(p, bad), Pipeline_error);
}

TEST(Pipeline, OverrideParameterChecksAllOrNothing) {
    Pipeline p = pipeline_from_json(small, builtin_modules());
    EXPECT_EQ(override_parameter(p, builtin_modules(), "count", std::int64_t(1000)), 1);
    EXPECT_EQ(p.steps[0].params.at("count"), Dict_value(std::int64_t(1000)));
    const Pipeline before = p;
    EXPECT_THROW(override_parameter(p, builtin_modules(), "count", std::int64_t(1)),
                 Pipeline_error);
    EXPECT_EQ(p, before);
    EXPECT_EQ(override_parameter(p, builtin_modules(), "no_such", std::int64_t(1)), 0);
}

TEST(Pipeline, RunsStepsInOrderAndIsDeterministic) {
    const Pipeline p = pipeline_from_json(small, builtin_modules());
    std::vector<std::size_t> done;
    Pipeline_run_options options;
    options.step_done = [&](std::size_t step, double seconds, const Dict&) {
        EXPECT_GE(seconds, 0.0);
        done.push_back(step);
    };
    World a, b;
    run_pipeline(a, p, builtin_modules(), options);
    run_pipeline(b, p, builtin_modules());
    EXPECT_EQ(done, (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(a.mesh().vertex_count(), 500u);
    EXPECT_TRUE(a == b);
}

TEST(Pipeline, CancelledRunLeavesTheWorldAsItWas) {
    const Pipeline p = pipeline_from_json(small, builtin_modules());
    World world(9);
    const World before = world.deep_copy();
    std::atomic<bool> cancel{false};
    Pipeline_run_options options;
    options.cancel = &cancel;
    options.step_done = [&](std::size_t, double, const Dict&) { cancel = true; };
    EXPECT_THROW(run_pipeline(world, p, builtin_modules(), options), Cancelled);
    EXPECT_TRUE(world == before);
}

TEST(Pipeline, DefaultPipelineIsShippedAndValid) {
    const Pipeline p = default_pipeline();
    ASSERT_FALSE(p.steps.empty());
    EXPECT_EQ(p.steps.front().module, "sphere");
}

} // namespace
