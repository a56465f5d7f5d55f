// SPDX-License-Identifier: MIT
// Module plugins: the example plugin (examples/module_plugin, built against the installed
// package by the plugin.build_example fixture) found through ORBIS_MODULE_PATH, declared and run
// like a built-in module; the refusals of plugins built against another version, plugins that
// throw, that are no plugins or that reuse a name; where Orbis looks for plugins.
#include <orbis/core/world.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/pipeline.hpp>
#include <orbis/gen/plugin.hpp>
#include <orbis/version.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <glm/geometric.hpp>

namespace {

using namespace orbis;
using namespace orbis::gen;
namespace fs = std::filesystem;

// The folder the fixture copies the example plugin (slope.so) to, and that of the test plugins.
const fs::path example_folder = ORBIS_TEST_EXAMPLE_FOLDER;
const fs::path test_plugins = ORBIS_TEST_PLUGIN_FOLDER;

constexpr auto slope_layer = Layer_info<float, Layer_type::vertex>("slope");

// Sets (or with nullptr unsets) an environment variable until the end of the scope.
class Scoped_env {
public:
    Scoped_env(const char* name, const char* value)
        : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~Scoped_env() {
        if (old_)
            ::setenv(name_.c_str(), old_->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }
    Scoped_env(const Scoped_env&) = delete;
    Scoped_env& operator=(const Scoped_env&) = delete;

private:
    std::string name_;
    std::optional<std::string> old_;
};

// The scratch folders' parent, of this test process's own; removed when the tests end.
fs::path scratch_root() {
    return fs::temp_directory_path() / ("orbis_plugin_test_" + std::to_string(::getpid()));
}

class Remove_scratch : public ::testing::Environment {
public:
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(scratch_root(), ec); // loaded libraries stay mapped
    }
};
const auto* const remove_scratch = ::testing::AddGlobalTestEnvironment(new Remove_scratch);

// An empty folder under scratch_root().
fs::path scratch_folder(const std::string& name) {
    const fs::path folder = scratch_root() / name;
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder;
}

// ORBIS_MODULE_PATH naming the example's folder (between a missing and an empty entry), and a
// per-user folder that is empty, so that plugins installed on the machine stay out.
struct Example_environment {
    Scoped_env path{"ORBIS_MODULE_PATH",
                    ("/nonexistent/orbis/modules:" + example_folder.string() + "::").c_str()};
    Scoped_env data{"XDG_DATA_HOME", scratch_folder("data").c_str()};
};

World terrain(const Module_registry& modules) {
    const Pipeline pipeline = pipeline_from_json(R"({
        "format": "orbis-pipeline", "version": 1,
        "steps": [{"module": "sphere", "params": {"count": 2000, "seed": 3}},
                  {"module": "plates", "params": {"count": 6}},
                  {"module": "elevation"}]})",
                                                 modules);
    World world;
    run_pipeline(world, pipeline, modules);
    return world;
}

// The example's slope before smoothing, computed here independently.
float expected_slope(const World& world, Vertex v) {
    const Mesh& m = world.mesh();
    const auto& position = *world.layer(position_layer);
    const auto& elevation = *world.layer(elevation_layer);
    float steepest = 0;
    for (const Vertex n : v.neighbors(m))
        steepest = std::max(steepest, std::abs(elevation[v] - elevation[n]) /
                                          glm::distance(position[v], position[n]));
    return steepest;
}

TEST(Plugin, ExampleIsFoundOnTheModulePath) {
    const Example_environment env;
    Plugin_report report;
    const Module_registry modules = available_modules({}, &report);
    EXPECT_EQ(report.refused, std::vector<std::string>{});
    EXPECT_EQ(report.loaded, std::vector<fs::path>{example_folder / "slope.so"});

    const Module* slope = modules.find("slope");
    ASSERT_NE(slope, nullptr);
    EXPECT_EQ(modules.modules().size(), builtin_modules().modules().size() + 1);
    for (const Module* m : builtin_modules().modules())
        EXPECT_EQ(modules.find(m->name()), m) << m->name(); // shared, not copied

    const auto parameters = slope->parameters();
    ASSERT_EQ(parameters.size(), 2u);
    EXPECT_EQ(parameters[0].name, "land_only");
    EXPECT_EQ(parameters[0].kind, Parameter_kind::boolean);
    EXPECT_EQ(parameters[0].default_value, Dict_value(false));
    EXPECT_EQ(parameters[1].name, "smoothing");
    EXPECT_EQ(parameters[1].kind, Parameter_kind::integer);
    EXPECT_EQ(parameters[1].default_value, Dict_value(std::int64_t(0)));
    EXPECT_EQ(parameters[1].min, 0);
    EXPECT_EQ(parameters[1].max, 20);

    const Layer_uses uses = slope->layers(complete_parameters(*slope, {}));
    ASSERT_EQ(uses.reads.size(), 2u);
    EXPECT_TRUE(uses.reads[0].same_layer(Layer_use::of(position_layer)));
    EXPECT_TRUE(uses.reads[1].same_layer(Layer_use::of(elevation_layer)));
    EXPECT_TRUE(uses.reads[0].required && uses.reads[1].required);
    ASSERT_EQ(uses.writes.size(), 1u);
    EXPECT_TRUE(uses.writes[0].same_layer(Layer_use::of(slope_layer)));
    EXPECT_EQ(uses.writes[0].hints, make_hints("Slope", "m/km", "magma"));
}

TEST(Plugin, ExampleRunsOnAGeneratedWorld) {
    const Example_environment env;
    const Module_registry modules = available_modules({});
    const Module* slope = modules.find("slope");
    ASSERT_NE(slope, nullptr);
    World world = terrain(modules);

    const Dict report = run_module(world, *slope, {});
    const auto* layer = world.layer(slope_layer);
    ASSERT_NE(layer, nullptr);
    double largest = 0;
    for (const Vertex v : world.mesh().vertices()) {
        const float s = (*layer)[v];
        ASSERT_TRUE(std::isfinite(s) && s >= 0) << "v" << v.index() << ": " << s;
        EXPECT_NEAR(s, expected_slope(world, v), 1e-3f * (1 + s)) << "v" << v.index();
        largest = std::max(largest, double(s));
    }
    // 2,000 points on the Earth are ~500 km apart, so the ~15 km of relief give tens of m/km.
    EXPECT_GT(largest, 1.0);
    EXPECT_LT(largest, 200.0);
    EXPECT_EQ(report.at("max").as<double>(), largest);
    ASSERT_NE(world.hints("slope"), nullptr);
    EXPECT_EQ(world.hints("slope")->unit, "m/km");
    ASSERT_FALSE(world.provenance().steps.empty());
    EXPECT_EQ(world.provenance().steps.back().module, "slope");
}

TEST(Plugin, ExampleRunsInAPipelineWithItsParameters) {
    const Example_environment env;
    const Module_registry modules = available_modules({});
    const Pipeline pipeline = pipeline_from_json(R"({
        "format": "orbis-pipeline", "version": 1,
        "steps": [{"module": "sphere", "params": {"count": 2000, "seed": 3}},
                  {"module": "plates", "params": {"count": 6}},
                  {"module": "elevation"},
                  {"module": "slope", "params": {"land_only": true, "smoothing": 2}}]})",
                                                 modules);
    EXPECT_EQ(check_pipeline(pipeline, modules, World{}), std::nullopt);
    World world;
    run_pipeline(world, pipeline, modules);
    const auto& slope = *world.layer(slope_layer);
    const auto& elevation = *world.layer(elevation_layer);
    std::size_t land = 0, steep_land = 0;
    for (const Vertex v : world.mesh().vertices()) {
        if (elevation[v] < 0) {
            EXPECT_EQ(slope[v], 0.0f) << "v" << v.index() << " is below sea level";
        } else {
            ++land;
            if (slope[v] > 0) ++steep_land;
        }
    }
    EXPECT_GT(land, 0u);
    EXPECT_GT(steep_land, land / 2);

    // A parameter out of its declared range is refused before anything runs.
    EXPECT_THROW(pipeline_from_json(R"({"format": "orbis-pipeline", "version": 1,
        "steps": [{"module": "slope", "params": {"smoothing": 21}}]})",
                                    modules),
                 Pipeline_error);
}

TEST(Plugin, ModulesKeepTheirLibraryLoaded) {
    const fs::path library = example_folder / "slope.so";
    Module_registry kept;
    {
        Module_registry modules;
        ASSERT_EQ(load_plugin(library, modules), std::nullopt);
        kept = modules;
    }
    void* still = dlopen(library.c_str(), RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(still, nullptr);
    if (still) dlclose(still);
    ASSERT_NE(kept.find("slope"), nullptr);
    EXPECT_FALSE(kept.find("slope")->description().empty());
}

TEST(Plugin, ASecondPluginWithTheSameModuleIsRefused) {
    const fs::path library = example_folder / "slope.so";
    const fs::path copy = scratch_folder("copy") / "slope_again.so";
    fs::copy_file(library, copy);
    Module_registry modules;
    ASSERT_EQ(load_plugin(library, modules), std::nullopt);
    EXPECT_EQ(load_plugin(copy, modules),
              copy.string() +
                  ": module 'slope' is already registered (by Orbis or a plugin loaded earlier)");
    EXPECT_EQ(modules.modules().size(), 1u);
}

TEST(Plugin, AnotherVersionIsRefusedNamingBothVersions) {
    const fs::path library = test_plugins / "other_version.so";
    Module_registry modules = builtin_modules();
    EXPECT_EQ(load_plugin(library, modules),
              library.string() + ": built against Orbis 0.0.0-other, this is Orbis " +
                  std::string(orbis::version) + "; rebuild the plugin");
    EXPECT_EQ(modules.modules().size(), builtin_modules().modules().size());
    EXPECT_EQ(modules.find("from_another_version"), nullptr);
}

TEST(Plugin, AnotherVersionThatCannotLoadIsRefusedNamingBothVersions) {
    const fs::path library = test_plugins / "missing_symbol.so";
    Module_registry modules;
    const auto why = load_plugin(library, modules);
    ASSERT_TRUE(why);
    const std::string start =
        library.string() + ": built against Orbis 0.0.0-gone, this is Orbis " +
        std::string(orbis::version) + "; rebuild the plugin (loading it failed: ";
    EXPECT_EQ(why->substr(0, start.size()), start) << *why;
    EXPECT_NE(why->find("function_gone_from_this_version"), std::string::npos) << *why;
    EXPECT_TRUE(modules.modules().empty());
}

TEST(Plugin, ARunThatThrowsLeavesTheWorldAsItWas) {
    Module_registry modules;
    ASSERT_EQ(load_plugin(test_plugins / "throwing.so", modules), std::nullopt);
    const Module* throwing = modules.find("throwing");
    ASSERT_NE(throwing, nullptr);
    World world = terrain(builtin_modules());
    const World before = world.deep_copy();

    try {
        run_module(world, *throwing, {});
        ADD_FAILURE() << "the run did not throw";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "the plugin failed on purpose");
    }
    EXPECT_TRUE(world == before);

    Dict foreign;
    foreign.set("foreign", true);
    try {
        run_module(world, *throwing, foreign);
        ADD_FAILURE() << "the run did not throw";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(),
                     "module 'throwing' failed with an exception that is not a std::exception");
    }
    EXPECT_TRUE(world == before);
    EXPECT_EQ(world.find_layer("scratch"), nullptr);
}

TEST(Plugin, ARegistrationThatThrowsIsRefusedAndAddsNothing) {
    const fs::path library = test_plugins / "registration_throws.so";
    Module_registry modules = builtin_modules();
    EXPECT_EQ(load_plugin(library, modules),
              library.string() +
                  ": registering its modules failed: registration failed on purpose");
    EXPECT_EQ(modules.find("half_registered"), nullptr);
    EXPECT_EQ(modules.modules().size(), builtin_modules().modules().size());
}

TEST(Plugin, ANameOrbisHasIsRefusedAndAddsNothing) {
    const fs::path library = test_plugins / "duplicate.so";
    Module_registry modules = builtin_modules();
    EXPECT_EQ(load_plugin(library, modules),
              library.string() +
                  ": module 'sphere' is already registered (by Orbis or a plugin loaded earlier)");
    EXPECT_EQ(modules.find("before_the_duplicate"), nullptr);
    EXPECT_EQ(modules.modules().size(), builtin_modules().modules().size());
}

TEST(Plugin, ALibraryThatIsNoPluginIsRefused) {
    const fs::path library = test_plugins / "not_a_plugin.so";
    Module_registry modules;
    EXPECT_EQ(load_plugin(library, modules),
              library.string() + ": not an Orbis module plugin: no orbis_plugin_version");
}

TEST(Plugin, AFileThatCannotBeLoadedIsRefusedWithTheLoadersMessage) {
    const fs::path folder = scratch_folder("garbage");
    const fs::path garbage = folder / "garbage.so";
    std::ofstream(garbage) << "not a shared library\n";
    Module_registry modules;
    const auto why = load_plugin(garbage, modules);
    ASSERT_TRUE(why);
    const std::string start = garbage.string() + ": cannot be loaded: ";
    EXPECT_EQ(why->substr(0, start.size()), start) << *why;
    EXPECT_GT(why->size(), start.size()) << *why;

    const fs::path missing = folder / "missing.so";
    const auto missing_why = load_plugin(missing, modules);
    ASSERT_TRUE(missing_why);
    EXPECT_EQ(missing_why->substr(0, missing.string().size() + 2), missing.string() + ": ");
    EXPECT_TRUE(modules.modules().empty());
}

TEST(Plugin, AMissingFolderGivesAnEmptyReport) {
    Module_registry modules;
    const std::vector<fs::path> folders{"/nonexistent/orbis/modules", ""};
    const Plugin_report report = load_plugins(folders, modules);
    EXPECT_TRUE(report.loaded.empty());
    EXPECT_TRUE(report.refused.empty());
    EXPECT_TRUE(modules.modules().empty());
}

TEST(Plugin, LoadPluginsReadsTheSoFilesOfAFolderInNameOrder) {
    const fs::path folder = scratch_folder("mixed");
    for (const char* name : {"throwing", "registration_throws", "other_version", "not_a_plugin"})
        fs::copy_file(test_plugins / (std::string(name) + ".so"),
                      folder / (std::string(name) + ".so"));
    std::ofstream(folder / "notes.txt") << "not a plugin either, but not named .so\n";
    fs::create_directories(folder / "nested");
    fs::copy_file(example_folder / "slope.so", folder / "nested" / "slope.so"); // not read

    Module_registry modules;
    const std::vector<fs::path> folders{folder, folder / ".." / folder.filename()}; // read once
    const Plugin_report report = load_plugins(folders, modules);
    EXPECT_EQ(report.loaded, std::vector<fs::path>{folder / "throwing.so"});
    ASSERT_EQ(report.refused.size(), 3u);
    EXPECT_EQ(report.refused[0].substr(0, (folder / "not_a_plugin.so").string().size()),
              (folder / "not_a_plugin.so").string());
    EXPECT_EQ(report.refused[1].substr(0, (folder / "other_version.so").string().size()),
              (folder / "other_version.so").string());
    EXPECT_EQ(report.refused[2].substr(0, (folder / "registration_throws.so").string().size()),
              (folder / "registration_throws.so").string());
    ASSERT_EQ(modules.modules().size(), 1u);
    EXPECT_EQ(modules.modules()[0]->name(), "throwing");
}

TEST(Plugin, FoldersComeFromTheModulePathThenThePerUserFolder) {
    const Scoped_env path("ORBIS_MODULE_PATH", "/a::/b/c:");
    {
        const Scoped_env data("XDG_DATA_HOME", "/data");
        EXPECT_EQ(plugin_folders(), (std::vector<fs::path>{"/a", "/b/c", "/data/orbis/modules"}));
    }
    const Scoped_env data("XDG_DATA_HOME", "");
    const Scoped_env home("HOME", "/home/someone");
    EXPECT_EQ(plugin_folders(),
              (std::vector<fs::path>{"/a", "/b/c", "/home/someone/.local/share/orbis/modules"}));
    {
        const Scoped_env no_path("ORBIS_MODULE_PATH", nullptr);
        const Scoped_env no_home("HOME", nullptr);
        EXPECT_EQ(plugin_folders(), std::vector<fs::path>{});
    }
}

TEST(Plugin, ExtraFoldersComeFirst) {
    const Scoped_env path("ORBIS_MODULE_PATH", test_plugins.c_str());
    const Scoped_env data("XDG_DATA_HOME", scratch_folder("data").c_str());
    const std::vector<fs::path> extra{example_folder};
    Plugin_report report;
    const Module_registry modules = available_modules(extra, &report);
    ASSERT_EQ(report.loaded.size(), 2u);
    EXPECT_EQ(report.loaded[0], example_folder / "slope.so");
    EXPECT_EQ(report.loaded[1], test_plugins / "throwing.so");
    EXPECT_EQ(report.refused.size(), 5u); // the other test plugins
    EXPECT_NE(modules.find("slope"), nullptr);
    EXPECT_NE(modules.find("throwing"), nullptr);
}

} // namespace
