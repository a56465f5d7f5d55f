// SPDX-License-Identifier: MIT
// The `hydrology` module: the world ocean, lakes at their level, rivers and drainage basins.
#pragma once

#include "orbis/core/layer_info.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/run_memory.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace orbis::gen {

/// True on the world ocean: below sea level and connected to the largest such body or to one
/// holding at least the parameter ocean_min_fraction of the vertices (world_ocean.hpp).
inline constexpr auto ocean_layer =
    Layer_info<bool, Layer_type::vertex>("ocean").interpolation(Interpolation::max_weight);
/// The lake a vertex lies under (ids from 0, largest lake first), -1 for none.
inline constexpr auto lake_layer =
    Layer_info<std::int32_t, Layer_type::vertex>("lake").initial(-1).interpolation(
        Interpolation::max_weight);
/// The surface in metres: 0 on the ocean, the lake's level on a lake, the ground elsewhere.
inline constexpr auto water_level_layer =
    Layer_info<float, Layer_type::vertex>("water_level").interpolation(Interpolation::lerp);
/// Water flowing along a directed primal edge in m³/s; non-zero only on the one edge leaving
/// each draining vertex towards its receiver.
inline constexpr auto discharge_layer =
    Layer_info<float, Layer_type::edge_primal_directed>("discharge")
        .interpolation(Interpolation::reset_affected)
        .on_mesh_change(On_mesh_change::reset_affected);
/// The drainage basin of each vertex: one id per river mouth or endorheic sink (ids from 0,
/// largest basin first), -1 on the ocean.
inline constexpr auto basin_layer =
    Layer_info<std::int32_t, Layer_type::vertex>("basin").initial(-1).interpolation(
        Interpolation::max_weight);
/// Local runoff of each vertex's cell in m³/s: the rain that neither evaporates nor soaks
/// away, before lakes evaporate any of it (0 on the ocean).
inline constexpr auto runoff_layer =
    Layer_info<float, Layer_type::vertex>("runoff").interpolation(Interpolation::lerp);

/// Name of the Dict layer describing the lakes: {"count", "level": [m...], "area": [km²...],
/// "inflow": [m³/s...], "evaporation": [m³/s...], "outlet": [vertex slot or -1...],
/// "endorheic": [bool...]}, indexed by lake id, and {"ocean_inflow": m³/s,
/// "endorheic_evaporation": m³/s, "runoff": m³/s} for the whole world.
inline constexpr std::string_view hydrology_dict_name = "hydrology";

/// Parameters of `hydrology`; their ranges are declared with the module.
struct Hydrology_params {
    double rainfall = 1000.0;  ///< precipitation (mm/yr) where the World has no precipitation
    double evaporation = 1.0;  ///< scale of evaporation from land and open water
    double temperature = 15.0; ///< temperature (°C) where the World has no temperature layer
    double ocean_min_fraction = 0.002; ///< a body below sea level this large is sea, not a basin

    /// Field by field.
    bool operator==(const Hydrology_params&) const = default;
};

/// `hydrology`: fills depressions with a priority-flood (Barnes, Lehman & Mulla 2014) from the
/// ocean, routes water along one edge per vertex (through lakes to their outlet) and
/// accumulates discharge. A depression becomes a lake at its spill level when its inflow
/// exceeds what the lake would evaporate; otherwise it holds a smaller endorheic lake whose
/// evaporation matches the inflow, or a dry salt flat. Reads position, elevation and, when
/// present, precipitation and temperature; writes ocean, lake, water_level, discharge, basin,
/// runoff and the "hydrology" Dict. Cost: O(n log n), about 0.2 s per million vertices.
class Hydrology_module final : public Module_of<Hydrology_params> {
public:
    /// What a run keeps for the next (defined with the module).
    struct Memory;

    /// A module with nothing kept.
    Hydrology_module();
    ~Hydrology_module() override;
    /// "hydrology".
    std::string_view name() const override { return "hydrology"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// rainfall, evaporation, temperature.
    const Parameter_list<Hydrology_params>& parameter_list() const override;
    /// Reads position, elevation, optionally precipitation and temperature; writes the water.
    Layer_uses layers_for(const Hydrology_params&) const override;
    /// Routes the water; report {"lakes", "endorheic_lakes", "basins", "ocean_fraction",
    /// "ocean_inflow", "max_discharge"}.
    /// With run memory (run_memory_limit()), the run keeps the mesh's numbering, graph and cell
    /// areas and its inputs, and the next run on the same mesh, positions and parameters reads
    /// only the inputs that changed (the ocean again only when one crossed sea level); the
    /// flood and the routing are whole. The same bytes as without it.
    Dict run_with(World& world, const Hydrology_params& params,
                  const Progress& progress) const override;

private:
    Kept_state<Memory> memory_;
};

} // namespace orbis::gen
