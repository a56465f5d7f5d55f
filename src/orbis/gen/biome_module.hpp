// SPDX-License-Identifier: MIT
// The `biome` module: what grows where, from temperature and precipitation (Whittaker).
#pragma once

#include "orbis/core/layer_hints.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/run_memory.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace orbis::gen {

/// The biomes; the layer stores the enumerator's value.
enum class Biome : std::int32_t {
    ocean,
    lake,
    ice,
    tundra,
    boreal_forest,
    temperate_forest,
    temperate_rainforest,
    grassland,
    shrubland,
    desert,
    savanna,
    tropical_forest,
    tropical_rainforest,
    wetland,
};

/// Number of Biome values.
inline constexpr std::int32_t biome_count = 14;

/// The biome of each vertex (a Biome value); max_weight, so a split vertex takes the nearer end's
/// biome.
inline constexpr auto biome_layer =
    Layer_info<std::int32_t, Layer_type::vertex>("biome").interpolation(Interpolation::max_weight);

/// The lower-case name of `b` ("boreal forest").
std::string_view biome_name(Biome b);

/// Hints of the biome layer: label, categorical colour map, every biome named and coloured.
Layer_hints biome_hints();

/// Parameters of `biome`; their ranges are declared with the module.
struct Biome_params {
    double ice_temperature = -18.0;    ///< annual mean below which land is ice (°C)
    double tundra_temperature = -6.0;  ///< annual mean below which no forest grows (°C)
    double wetland_rainfall = 1000.0;  ///< precipitation (mm/yr) above which lowland is wet
    double wetland_discharge = 3000.0; ///< discharge (m³/s) of a river that floods its lowland

    /// Field by field.
    bool operator==(const Biome_params&) const = default;
};

/// The Whittaker biome of land with annual mean `celsius` and `mm_per_year` of precipitation
/// (never ocean, lake or wetland, which depend on more than climate): ice below
/// params.ice_temperature, tundra below params.tundra_temperature; elsewhere desert below a
/// dryness limit rising with temperature (Koppen's 10 T + 70 mm, clamped to 50..250 mm), then
/// by warmth: boreal forest (or grassland when semi-arid) below 4 °C; grassland, shrubland,
/// temperate forest and temperate rainforest (from 1,800 mm) below 21 °C; shrubland, savanna,
/// tropical forest (from 1,200 mm) and tropical rainforest (from 2,000 mm) above. Semi-arid
/// means below Koppen's steppe limit 20 T + 140 mm. NaN inputs give desert.
Biome classify_biome(double celsius, double mm_per_year, const Biome_params& params = {});

/// `biome`: a Whittaker-diagram biome for every vertex. Reads temperature, precipitation
/// (run `climate`) and, when present, ocean and lake (run `hydrology`), elevation, discharge;
/// writes biome. Ocean comes from `ocean` when present, else from world_ocean() of elevation
/// (no ocean when neither exists); lake where `lake` >= 0. Wetland is land that
/// classify_biome() would not make ice or tundra and that either lies below 50 m under more
/// than `wetland_rainfall` (coastal plains, deltas, wet basins) or below 300 m with
/// a river carrying `wetland_discharge` leaving it (a floodplain; needs discharge). Both need
/// elevation. The rest is classify_biome(). Cost: O(vertices + edges).
class Biome_module final : public Module_of<Biome_params> {
public:
    /// What a run keeps for the next (defined with the module).
    struct Memory;

    /// A module with nothing kept.
    Biome_module();
    ~Biome_module() override;
    /// "biome".
    std::string_view name() const override { return "biome"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// The parameters of Biome_params.
    const Parameter_list<Biome_params>& parameter_list() const override;
    /// Reads temperature, precipitation, optionally ocean, lake, elevation, discharge; writes
    /// biome.
    Layer_uses layers_for(const Biome_params&) const override;
    /// Classifies every vertex; report {"<biome name>": vertex count, ...}. With run memory
    /// (run_memory_limit()) and an ocean layer, the next run on the same mesh classifies only
    /// the vertices whose inputs changed: the same bytes as a whole run.
    Dict run_with(World& world, const Biome_params& params,
                  const Progress& progress) const override;

private:
    Kept_state<Memory> memory_;
};

} // namespace orbis::gen
