// SPDX-License-Identifier: MIT
// Hints and provenance in the world file (format version 2): they round-trip, stale layers stay
// stale and fresh ones fresh across save and load, version 1 files still load, and forged
// records are refused naming the field.
#include <orbis/core.hpp>
#include <orbis/io/file_error.hpp>
#include <orbis/io/world_file.hpp>
#include <orbis/io/world_records.hpp>

#include <orbis/gen/sphere.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace orbis::io {
namespace {

constexpr auto height = Layer_info<float, Layer_type::vertex>("height");
constexpr auto steep = Layer_info<float, Layer_type::vertex>("steep");

// A world as two recorded steps would leave it: `height` from the mesh, `steep` from height.
World recorded_world() {
    World w(3);
    w.lock_mesh().assign(gen::make_sphere({.count = 200, .seed = 2}).mesh);
    w.lock_layer(height);
    w.lock_layer(steep);
    Layer_hints h = make_hints("Height", "m", "terrain");
    h.min = -100.0;
    h.max = 100.0;
    w.set_hints("height", h);
    Layer_hints c = make_hints("Kind", "", "categorical");
    c.categories = {{0, "low", {1, 2, 3}}, {1, "high", {250, 128, 0}}};
    w.set_hints("steep", c);
    Provenance p;
    Dict params;
    params.set("scale", 2.5);
    p.steps.push_back(
        {"heights", params, 42, {"height"}, {{"mesh", *input_version(w, "mesh")}}, false, 1});
    p.steps.push_back(
        {"steepness", {}, 43, {"steep"}, {{"height", *input_version(w, "height")}}, false, 1});
    w.set_provenance(p);
    return w;
}

TEST(WorldRecords, HintsAndProvenanceRoundTrip) {
    const World w = recorded_world();
    ASSERT_TRUE(stale_layers(w).empty());
    const World back = read_world(write_world(w));
    EXPECT_TRUE(back == w);
    EXPECT_EQ(*back.hints("height"), *w.hints("height"));
    EXPECT_EQ(back.hints("steep")->categories[1].name, "high");
    EXPECT_EQ(back.provenance().steps.size(), 2u);
    EXPECT_TRUE(stale_layers(back).empty());
}

TEST(WorldRecords, StaleLayersStayStaleAcrossSaveAndLoad) {
    World w = recorded_world();
    {
        auto [h] = w.lock_layer(height);
        h[*w.mesh().vertices().begin()] = 5.f;
    }
    const auto stale = stale_layers(w);
    ASSERT_EQ(stale.size(), 1u);
    EXPECT_EQ(stale[0].layer, "steep");
    EXPECT_EQ(stale[0].reason, "height changed after `steepness` ran");
    const World back = read_world(write_world(w));
    EXPECT_EQ(stale_layers(back), stale);
    EXPECT_TRUE(back == w);
}

TEST(WorldRecords, VersionOneFilesStillLoad) {
    const World w = load_world(ORBIS_TEST_DATA "/good/sphere40.orbis");
    EXPECT_TRUE(w.provenance().steps.empty());
    EXPECT_TRUE(w.all_hints().empty());
    EXPECT_EQ(inspect_world(ORBIS_TEST_DATA "/good/sphere40.orbis").version, 1u);
}

TEST(WorldRecords, AVersionOneFileWithRecordSectionsIsRefused) {
    auto bytes = write_world(recorded_world());
    const std::uint32_t one = 1;
    std::memcpy(bytes.data() + 8, &one, 4);
    try {
        (void)read_world(bytes, "old.orbis");
        ADD_FAILURE();
    } catch (const File_error& e) {
        EXPECT_NE(std::string(e.what()).find("which format version 1 does not have"),
                  std::string::npos)
            << e.what();
    }
}

TEST(WorldRecords, ForgedRecordsAreRefusedNamingTheField) {
    const World w = recorded_world();
    Dict hints = hints_to_dict(w);
    Dict steep_hints = hints.at("steep").as<Dict>();
    Dict_array categories = steep_hints.at("categories").as<Dict_array>();
    Dict first = categories[0].as<Dict>();
    first.set("colour", glm::dvec3(300, 0, 0));
    categories[0] = first;
    steep_hints.set("categories", categories);
    hints.set("steep", steep_hints);
    try {
        hints_from_dict(hints);
        ADD_FAILURE();
    } catch (const Record_error& e) {
        EXPECT_NE(std::string(e.what()).find("layer 'steep', category 0: colour"),
                  std::string::npos)
            << e.what();
    }

    Dict provenance = provenance_to_dict(w);
    Dict_array steps = provenance.at("steps").as<Dict_array>();
    Dict step = steps[1].as<Dict>();
    step.set("seed", "not a number");
    steps[1] = step;
    provenance.set("steps", steps);
    try {
        provenance_from_dict(provenance, w);
        ADD_FAILURE();
    } catch (const Record_error& e) {
        EXPECT_NE(std::string(e.what()).find("provenance step 2: \"seed\" is string"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace orbis::io
