// SPDX-License-Identifier: MIT
// Declared modules: parameters bound to structs, declared reads and writes, pipelines checked
// before they run, display hints, provenance, stale layers and replay.
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/plates_module.hpp>
#include <orbis/gen/run_on_part.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace orbis;
using namespace orbis::gen;

struct Slope_params {
    double scale = 1.0;
};

constexpr auto slope_layer = Layer_info<float, Layer_type::vertex>("slope");

// Derived from elevation: the largest height difference to a neighbour, times `scale`.
class Slope_module final : public Module_of<Slope_params> {
public:
    std::string_view name() const override { return "slope"; }
    std::string_view description() const override { return "test: steepness from elevation"; }
    const Parameter_list<Slope_params>& parameter_list() const override {
        static const auto list = Parameter_list<Slope_params>().add("scale", &Slope_params::scale,
                                                                    0.0, 10.0, "", "factor");
        return list;
    }
    Layer_uses layers_for(const Slope_params&) const override {
        return {.reads = {Layer_use::of(elevation_layer)},
                .writes = {Layer_use::of(slope_layer).with_hints(make_hints("Slope", "m"))}};
    }
    Dict run_with(World& world, const Slope_params& params, const Progress&) const override {
        const auto& elevation = *world.layer(elevation_layer);
        auto [slope] = world.lock_layer(slope_layer);
        for (const Vertex v : world.mesh().vertices()) {
            float most = 0;
            for (const Vertex n : v.neighbors(world.mesh()))
                most = std::max(most, std::abs(elevation[n] - elevation[v]));
            slope[v] = float(params.scale) * most;
        }
        return {};
    }
};

Module_registry with_slope() {
    Module_registry r = builtin_modules();
    r.add(std::make_shared<Slope_module>());
    return r;
}

Pipeline small_pipeline(bool slope) {
    Pipeline p;
    Dict sphere;
    sphere.set("count", std::int64_t(3000));
    Dict plates;
    plates.set("count", std::int64_t(6));
    p.steps = {{"sphere", complete_parameters(*builtin_modules().find("sphere"), sphere)},
               {"plates", complete_parameters(*builtin_modules().find("plates"), plates)},
               {"elevation", complete_parameters(*builtin_modules().find("elevation"), {})}};
    if (slope) p.steps.push_back({"slope", complete_parameters(Slope_module{}, {})});
    return p;
}

World generated(bool slope = true) {
    World world;
    run_pipeline(world, small_pipeline(slope), with_slope());
    return world;
}

std::vector<std::string> stale_names(const World& world) {
    std::vector<std::string> out;
    for (const auto& s : stale_layers(world))
        out.push_back(s.layer);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(Declarations, EveryBuiltinModuleDeclaresItsParametersOnceWithDefaultsInRange) {
    for (const Module* m : builtin_modules().modules()) {
        const Dict defaults = complete_parameters(*m, {});
        EXPECT_EQ(defaults.size(), m->parameters().size()) << m->name();
        for (const auto& p : m->parameters()) {
            EXPECT_FALSE(p.description.empty()) << m->name() << "." << p.name;
            EXPECT_EQ(defaults.at(p.name), p.default_value) << m->name() << "." << p.name;
        }
        // Writes name something, and every module writes or reads through declarations.
        const Layer_uses uses = m->layers(defaults);
        EXPECT_FALSE(uses.writes.empty()) << m->name();
    }
}

TEST(Declarations, BoundStructCarriesEachParameterToTheModule) {
    // Each parameter of plates reaches its field: changing one changes the struct field only.
    const auto& plates = dynamic_cast<const Plates_module&>(*builtin_modules().find("plates"));
    const Plates_params defaults;
    for (const auto& p : plates.parameters()) {
        Dict given;
        if (p.kind == Parameter_kind::integer)
            given.set(p.name, std::int64_t(p.min));
        else
            given.set(p.name, p.min);
        const Plates_params bound =
            plates.parameter_list().bind(complete_parameters(plates, given));
        const Dict back = plates.parameter_list().dict(bound);
        EXPECT_EQ(back.at(p.name), complete_parameters(plates, given).at(p.name)) << p.name;
        for (const auto& other : plates.parameters()) {
            if (other.name == p.name) continue;
            EXPECT_EQ(back.at(other.name), other.default_value) << p.name << " " << other.name;
        }
    }
    EXPECT_EQ(plates.parameter_list().dict(defaults), complete_parameters(plates, {}));
}

TEST(Declarations, ModulesJsonListsParametersAndLayers) {
    const auto doc = nlohmann::json::parse(modules_to_json(builtin_modules()));
    ASSERT_EQ(doc["modules"].size(), builtin_modules().modules().size());
    for (const auto& m : doc["modules"]) {
        const Module* module = builtin_modules().find(m["name"].get<std::string>());
        ASSERT_NE(module, nullptr);
        const auto parameters = module->parameters();
        ASSERT_EQ(m["parameters"].size(), parameters.size());
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            EXPECT_EQ(m["parameters"][i]["name"], parameters[i].name);
            EXPECT_EQ(m["parameters"][i]["unit"], parameters[i].unit);
            EXPECT_EQ(m["parameters"][i]["type"],
                      std::string(parameter_kind_name(parameters[i].kind)));
        }
        const auto uses = module->layers(complete_parameters(*module, {}));
        EXPECT_EQ(m["reads"].size(), uses.reads.size());
        EXPECT_EQ(m["writes"].size(), uses.writes.size());
    }
    const auto& elevation = doc["modules"][3];
    EXPECT_EQ(elevation["name"], "elevation");
    EXPECT_EQ(elevation["writes"][0]["name"], "elevation");
    EXPECT_EQ(elevation["writes"][0]["value"], "float");
    EXPECT_EQ(elevation["writes"][0]["element"], "vertex");
}

TEST(PipelineCheck, StepsOutOfOrderAreRefusedNamingStepLayerAndProvider) {
    Pipeline p = small_pipeline(true);
    std::swap(p.steps[1], p.steps[2]); // elevation before plates
    World world;
    const auto why = check_pipeline(p, with_slope(), world);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("pipeline step 2 'elevation'"), std::string::npos) << *why;
    EXPECT_NE(why->find("layer 'plate_id' (int32, vertex)"), std::string::npos) << *why;
    EXPECT_NE(why->find("module 'plates' writes it"), std::string::npos) << *why;
    // Refused before anything ran: the World is as it was.
    const World before = world;
    EXPECT_THROW(run_pipeline(world, p, with_slope()), Pipeline_error);
    EXPECT_TRUE(world == before);
    EXPECT_FALSE(check_pipeline(small_pipeline(true), with_slope(), World()));
}

TEST(PipelineCheck, StartingWorldProvidesInputs) {
    const World world = generated(false);
    Pipeline only_slope;
    only_slope.steps = {{"slope", complete_parameters(Slope_module{}, {})}};
    EXPECT_FALSE(check_pipeline(only_slope, with_slope(), world));
    const auto why = check_pipeline(only_slope, with_slope(), World());
    ASSERT_TRUE(why);
    // Only modules that can make the layer are named: erosion and tectonics change elevation but
    // need it first.
    EXPECT_NE(why->find("; module 'elevation' writes it"), std::string::npos) << *why;
}

TEST(PipelineCheck, MisspelledParameterNamesTheNearestOne) {
    Dict given;
    given.set("cuont", std::int64_t(5));
    try {
        complete_parameters(*builtin_modules().find("plates"), given);
        FAIL();
    } catch (const Pipeline_error& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean 'count'?"), std::string::npos)
            << e.what();
    }
    const std::string json = R"({"format": "orbis-pipeline", "version": 1, "steps": [
        {"module": "sphere", "params": {"perturbaton": 0.1}}]})";
    try {
        pipeline_from_json(json, builtin_modules());
        FAIL();
    } catch (const Pipeline_error& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean 'perturbation'?"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(nearest_name("zzzzzz", {"count", "seed"}), "");
}

TEST(Hints, ModulesSetTheHintsTheyDeclare) {
    const World world = generated();
    ASSERT_NE(world.hints("elevation"), nullptr);
    EXPECT_EQ(world.hints("elevation")->unit, "m");
    EXPECT_EQ(world.hints("elevation")->colour_map, "terrain");
    ASSERT_NE(world.hints("plate_id"), nullptr);
    EXPECT_EQ(world.hints("plate_id")->categories.size(), 7u); // "no plate" and 6 plates
    EXPECT_EQ(world.hints("plate_id")->category(2)->name, "Plate 3");
    ASSERT_NE(world.hints("plate_boundary"), nullptr);
    EXPECT_EQ(world.hints("plate_boundary")->category(1)->name, "ridge");
    EXPECT_EQ(world.hints("slope")->label, "Slope");
}

TEST(Provenance, RecordsEveryStepWithParametersAndOwnership) {
    const World world = generated();
    const auto& steps = world.provenance().steps;
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[0].module, "sphere");
    EXPECT_TRUE(steps[0].edits_mesh);
    EXPECT_EQ(steps[1].params.at("count"), Dict_value(std::int64_t(6)));
    EXPECT_EQ(writer_of(world.provenance(), "elevation"), 2u);
    EXPECT_EQ(writer_of(world.provenance(), "slope"), 3u);
    EXPECT_EQ(writer_of(world.provenance(), "plate_id"), 1u);
    for (const auto& s : steps)
        EXPECT_EQ(s.run, steps[0].run); // one pipeline, one run
    EXPECT_TRUE(stale_layers(world).empty());
}

TEST(Stale, EditingElevationMarksExactlyTheLayersComputedFromIt) {
    World world = generated();
    const World before = world;
    {
        auto [elevation] = world.lock_layer(elevation_layer);
        elevation[*world.mesh().vertices().begin()] += 100.f;
    }
    EXPECT_EQ(stale_names(world), std::vector<std::string>{"slope"});
    const auto stale = stale_layers(world);
    EXPECT_EQ(stale[0].reason, "elevation changed after `slope` ran");
    EXPECT_EQ(stale[0].input, "elevation");
    // Undo: the snapshot from before has no stale layers.
    world = before;
    EXPECT_TRUE(stale_layers(world).empty());
}

TEST(Stale, AnotherModuleMarksTheLayersReadFromItsOutputs) {
    World world = generated();
    Dict plates;
    plates.set("count", std::int64_t(9));
    run_module(world, *builtin_modules().find("plates"), plates);
    // plate_id changed and elevation read it; slope read elevation, which has not changed yet.
    EXPECT_EQ(stale_names(world), (std::vector<std::string>{"elevation", "terrain"}));
    EXPECT_EQ(stale_layers(world)[0].reason, "plate_id changed after `elevation` ran");
    // Computing elevation again passes the change on.
    run_module(world, *builtin_modules().find("elevation"), {});
    EXPECT_EQ(stale_names(world), std::vector<std::string>{"slope"});
}

TEST(Stale, RerunningTheStepClearsTheMark) {
    World world = generated();
    {
        auto [elevation] = world.lock_layer(elevation_layer);
        elevation[*world.mesh().vertices().begin()] += 100.f;
    }
    const auto stale = stale_layers(world);
    ASSERT_EQ(stale.size(), 1u);
    const Step_record step = world.provenance().steps[stale[0].step];
    run_module(world, *with_slope().find(step.module), step.params);
    EXPECT_TRUE(stale_layers(world).empty());
    EXPECT_EQ(writer_of(world.provenance(), "slope"), world.provenance().steps.size() - 1);
}

TEST(Stale, MeshEditsMarkStepsThatReadTheMesh) {
    Pipeline p = small_pipeline(false);
    p.steps.push_back(
        {"plate_boundaries", complete_parameters(*builtin_modules().find("plate_boundaries"), {})});
    World world;
    run_pipeline(world, p, builtin_modules());
    ASSERT_TRUE(stale_layers(world).empty());
    {
        auto mesh = world.lock_mesh();
        for (const Edge e : mesh->edges())
            if (!mesh.try_flip(e)) break;
    }
    EXPECT_EQ(stale_names(world), std::vector<std::string>{"plate_boundary"});
}

TEST(Stale, LaterStepsOfOneRunDoNotMakeEarlierOnesStale) {
    // The default pipeline's refine changes the mesh and plate_boundaries classifies again.
    Pipeline p = default_pipeline();
    override_parameter(p, builtin_modules(), "count", std::int64_t(4000), "sphere");
    World world;
    run_pipeline(world, p, builtin_modules());
    EXPECT_TRUE(stale_layers(world).empty());
}

TEST(Replay, RegeneratesAnEqualWorld) {
    const World world = generated();
    std::vector<std::size_t> mismatched;
    const World again = replay(world.provenance(), with_slope(), &mismatched);
    EXPECT_TRUE(again == world);
    EXPECT_TRUE(mismatched.empty());

    // Two runs replay as two runs: the stale marks come back too.
    World twice = world;
    Dict plates;
    plates.set("count", std::int64_t(9));
    run_module(twice, *builtin_modules().find("plates"), plates);
    const World replayed = replay(twice.provenance(), with_slope());
    EXPECT_TRUE(replayed == twice);
    EXPECT_EQ(stale_names(replayed), stale_names(twice));
}

TEST(RunModule, ForeignExceptionsAreRefusedAndTheWorldRestored) {
    struct Throwing final : Module_of<No_parameters> {
        std::string_view name() const override { return "throwing"; }
        std::string_view description() const override { return "test"; }
        const Parameter_list<No_parameters>& parameter_list() const override {
            static const Parameter_list<No_parameters> list;
            return list;
        }
        Layer_uses layers_for(const No_parameters&) const override {
            return {.reads = {}, .writes = {Layer_use::of(slope_layer)}};
        }
        Dict run_with(World& world, const No_parameters&, const Progress&) const override {
            world.lock_layer(slope_layer);
            throw 42;
        }
    };
    World world = generated(false);
    const World before = world;
    EXPECT_THROW(run_module(world, Throwing{}, {}), std::runtime_error);
    EXPECT_TRUE(world == before);
}

TEST(RunModule, MissingInputsAreRefusedBeforeRunning) {
    World world;
    const World before = world;
    try {
        run_module(world, Slope_module{}, {});
        FAIL();
    } catch (const Pipeline_error& e) {
        EXPECT_NE(std::string(e.what()).find("reads layer 'elevation' (float, vertex)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(world == before);
}

} // namespace

namespace {

TEST(RunOnPart, KeepsWhatTheModuleWroteOnlyInsideThePart) {
    const World before = generated();
    std::vector<Vertex> part;
    for (const Vertex v : before.mesh().vertices())
        if (v.index() % 3 == 0) part.push_back(v);
    const Module& elevation = *builtin_modules().find("elevation");
    Dict params;
    params.set("roughness", 2000.0);
    params = complete_parameters(elevation, params);
    ASSERT_FALSE(check_run_on_part(elevation, params));
    World whole = before;
    run_module(whole, elevation, params);
    const World mixed = keep_inside_part(before, whole, part, elevation, params);

    const auto& was = *before.layer(elevation_layer);
    const auto& full = *whole.layer(elevation_layer);
    const auto& now = *mixed.layer(elevation_layer);
    std::size_t changed = 0;
    for (const Vertex v : before.mesh().vertices()) {
        const bool inside = v.index() % 3 == 0;
        EXPECT_EQ(now[v], inside ? full[v] : was[v]) << v.index();
        changed += inside && full[v] != was[v];
    }
    EXPECT_GT(changed, part.size() / 2);
    // Dict layers keep their contents; the record is the old one, and what was computed from
    // elevation is stale, as after a brush.
    EXPECT_TRUE(*mixed.layer(std::string_view("terrain")) ==
                *before.layer(std::string_view("terrain")));
    EXPECT_EQ(mixed.provenance().steps.size(), before.provenance().steps.size());
    EXPECT_EQ(stale_names(mixed), std::vector<std::string>{"slope"});
}

TEST(RunOnPart, ModulesThatEditTheMeshAreRefused) {
    const Module& refine = *builtin_modules().find("refine");
    const auto why = check_run_on_part(refine, complete_parameters(refine, {}));
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "module 'refine' edits the mesh, so it runs on the whole world only");
}

} // namespace

namespace {

// Every parameter of every built-in module reaches the module: changing it alone (to another
// value in its range) changes what the module makes.
TEST(Declarations, EveryParameterChangesWhatItsModuleMakes) {
    // Other values, one per parameter; `refine` runs with lengths that matter at 2,500 points.
    const std::vector<std::tuple<std::string, std::string, Dict_value>> others = {
        {"sphere", "count", std::int64_t(2600)},
        {"sphere", "radius", 1000.0},
        {"sphere", "perturbation", 0.2},
        {"sphere", "seed", std::int64_t(9)},
        {"plates", "count", std::int64_t(5)},
        {"plates", "continental_fraction", 0.6},
        {"plates", "max_speed", 0.03},
        {"plates", "irregularity", 0.1},
        {"plates", "meander", std::int64_t(2)},
        {"plates", "transform_ratio", 0.1},
        {"elevation", "mountain_height", 8000.0},
        {"elevation", "trench_depth", 1000.0},
        {"elevation", "roughness", 100.0},
        {"elevation", "coast_blur", 900.0},
        {"elevation", "land_fraction", 0.5},
        {"refine", "layer", "ridge"},
        {"refine", "band_min", 0.0},
        {"refine", "band_max", 500.0},
        {"refine", "split_length", 250.0},
        {"refine", "collapse_length", 100.0},
        {"refine", "passes", std::int64_t(2)},
        {"refine", "max_vertices", std::int64_t(2600)},
        {"plate_boundaries", "transform_ratio", 0.1},
        {"erosion", "iterations", std::int64_t(2)},
        {"erosion", "time_step", 400000.0},
        {"erosion", "erodibility", 1e-5},
        {"erosion", "area_exponent", 0.4},
        {"erosion", "diffusion", 0.5},
        {"erosion", "uplift", 0.001},
        {"hydrology", "rainfall", 3000.0},
        {"hydrology", "evaporation", 3.0},
        {"hydrology", "temperature", 30.0},
        {"hydrology", "ocean_min_fraction", 0.0},
        {"climate", "equator_temperature", 35.0},
        {"climate", "pole_temperature", -5.0},
        {"climate", "lapse_rate", 9.0},
        {"climate", "ocean_moderation", 0.0},
        {"climate", "rainfall", 2.0},
        {"climate", "wind_speed", 15.0},
        {"biome", "ice_temperature", 0.0},
        {"biome", "tundra_temperature", 5.0},
        {"biome", "wetland_rainfall", 300.0},
        {"biome", "wetland_discharge", 10.0},
        {"tectonics", "steps", std::int64_t(3)},
        {"tectonics", "dt", 2.0},
        {"tectonics", "speed", 1.0},
        {"tectonics", "rift", "0"},
        {"tectonics", "rift_interval", 1e6},
        {"tectonics", "rift_min_area", 0.9},
        {"tectonics", "rift_speed", 0.03},
        {"tectonics", "arc_uplift", 0.0},
        {"tectonics", "collision_uplift", 0.0},
        {"tectonics", "erosion_time", 10.0},
        {"tectonics", "suture_area", 1000.0},
    };
    std::size_t declared = 0;
    for (const Module* m : builtin_modules().modules())
        declared += m->parameters().size();
    EXPECT_EQ(others.size(), declared) << "a parameter without a case here";

    const auto pipeline = [](const std::string& module, const std::string& name,
                             const Dict_value& value) {
        Pipeline p;
        const auto step = [&](const char* m, Dict given) {
            if (module == m) given.set(name, value);
            p.steps.push_back({m, complete_parameters(*builtin_modules().find(m), given)});
        };
        Dict sphere;
        sphere.set("count", std::int64_t(2500));
        step("sphere", sphere);
        step("plates", {});
        step("elevation", {});
        // A float layer the refine step can be pointed at instead of elevation.
        Dict refine;
        refine.set("split_length", 200.0);
        refine.set("collapse_length", 400.0);
        step("refine", refine);
        // Rifts often enough that their parameters matter in 20 steps; before plate_boundaries,
        // whose classification would otherwise be the tectonics step's.
        Dict tectonics;
        tectonics.set("steps", std::int64_t(20));
        tectonics.set("rift_interval", 30.0);
        tectonics.set("rift_min_area", 0.0);
        step("tectonics", tectonics);
        step("plate_boundaries", {});
        // Hydrology before climate, so that its own rainfall and temperature are used.
        step("erosion", {});
        step("hydrology", {});
        step("climate", {});
        step("biome", {});
        return p;
    };
    const auto make = [&](const Pipeline& p) {
        World w;
        run_pipeline(w, p, builtin_modules());
        return w;
    };
    // The "ridge" layer for refine's `layer`: elevation shifted, so the band selects otherwise.
    const auto with_ridge = [&](Pipeline p) {
        World w;
        Pipeline head;
        head.steps.assign(p.steps.begin(), p.steps.begin() + 3);
        run_pipeline(w, head, builtin_modules());
        {
            const auto& e = *w.layer(elevation_layer);
            auto [ridge] = w.lock_layer(Layer_info<float, Layer_type::vertex>("ridge"));
            for (const Vertex v : w.mesh().vertices())
                ridge[v] = -e[v];
        }
        Pipeline tail;
        tail.steps.assign(p.steps.begin() + 3, p.steps.end());
        run_pipeline(w, tail, builtin_modules());
        return w;
    };
    const World baseline = with_ridge(pipeline("", "", {}));
    {
        // The comparison can fail: the same pipeline gives an equal world.
        World again = with_ridge(pipeline("", "", {}));
        World base = baseline;
        again.set_provenance({});
        base.set_provenance({});
        EXPECT_TRUE(again == base);
    }
    for (const auto& [module, name, value] : others) {
        const World changed = module == "refine" ? with_ridge(pipeline(module, name, value))
                                                 : make(pipeline(module, name, value));
        World comparable = changed;
        comparable.set_provenance({}); // the recorded parameters differ, of course
        if (module != "refine") comparable.remove_layer("ridge");
        World base = baseline;
        if (module != "refine") base.remove_layer("ridge");
        base.set_provenance({});
        EXPECT_FALSE(comparable == base) << module << "." << name << " changed nothing";
    }
}

} // namespace
