// SPDX-License-Identifier: MIT
// The `climate` module: prevailing winds, annual mean temperature and precipitation.
#pragma once

#include "orbis/core/layer_info.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/run_memory.hpp"

#include <glm/vec3.hpp>

#include <atomic>
#include <memory>

#include <string_view>

namespace orbis::gen {

/// Prevailing surface wind at each vertex in m/s: a world-space vector tangent to the sphere at
/// the vertex; lerp, so split vertices get the mean of their ends.
inline constexpr auto wind_layer =
    Layer_info<glm::vec3, Layer_type::vertex>("wind").interpolation(Interpolation::lerp);
/// Annual mean surface temperature in °C.
inline constexpr auto temperature_layer =
    Layer_info<float, Layer_type::vertex>("temperature").interpolation(Interpolation::lerp);
/// Annual precipitation in mm/yr.
inline constexpr auto precipitation_layer =
    Layer_info<float, Layer_type::vertex>("precipitation").interpolation(Interpolation::lerp);

/// Parameters of `climate`; their ranges are declared with the module.
struct Climate_params {
    double equator_temperature = 27.0; ///< sea-level annual mean at the equator (°C)
    double pole_temperature = -25.0;   ///< sea-level annual mean at the poles (°C)
    double lapse_rate = 6.5;           ///< cooling with height on land (K/km)
    /// How far land under marine air moves from a continental interior's temperature towards
    /// the ocean's at its latitude (0: not at all, 1: fully).
    double ocean_moderation = 0.7;
    double rainfall = 1.0;   ///< scale of all precipitation (1: Earth-like)
    double wind_speed = 7.0; ///< peak speed of the prevailing winds (m/s)

    /// Field by field.
    bool operator==(const Climate_params&) const = default;
};

/// `climate`: winds by latitude band, temperature and precipitation. Reads position and
/// elevation (metres above sea level 0; the world ocean is world_ocean() of it, so an inland
/// basin below 0 m is land); writes wind, temperature and precipitation.
///
/// The model:
/// - wind: Earth's three cells by latitude (easterly trades blowing towards the equator up to
///   30°, westerlies blowing poleward to 60°, weak polar easterlies), `wind_speed` at the peaks,
///   calm at 30°, along the polar front at 55-65°; 20% slower over land; where it runs up
///   high, steep ground (from ~300 m, fully at 2,500 m) up to 80% of its uphill part turns
///   along the slope;
/// - temperature: a sea-level profile from `equator_temperature` to `pole_temperature`, flat in
///   the tropics and falling nearly linearly beyond 40° (1 - cos(latitude)); continental
///   interiors are 2 K warmer on the equator and up to 8 K colder at the poles than the ocean,
///   and land under marine air (carried inland along the wind, fading over ~700 km; coasts at
///   least half) moves `ocean_moderation` of the way back; land cools by `lapse_rate` per km
///   of elevation (basins below -500 m count as -500 m);
/// - precipitation: a moisture flux carried along the wind on the mesh. The ocean moistens air
///   towards 80% of saturation (capacity +4.5% per K, Clausius-Clapeyron); air rains in
///   proportion to its moisture, the square root of its humidity and a rain efficiency by
///   latitude (high at the equator and the storm tracks, low under the subtropical highs and
///   at the poles) raised where the wind is forced up a slope; air holding more than its
///   capacity (lifted uphill, carried poleward) rains the excess; land returns up to 95% of
///   its rain to the air when warm and wet, little when cold or dry; sinking air under the
///   subtropical highs dries it. So: wet equator, dry subtropics, wet windward coasts and
///   slopes, rain shadows behind ranges, drying inland.
/// Transport: vertices are sorted (a counting sort) into latitude bands taken from the
/// diverging highs (30°, poles) towards the converging equator and polar front, each band
/// ordered along its zonal wind; three sweeps in that order, each vertex taking the flux of its
/// (up to three) upwind neighbours, come within ~2% (mean) of the converged rain. Cost: O(n)
/// time, about 0.5 s per million vertices and 170 bytes of scratch per vertex.
class Climate_module final : public Module_of<Climate_params> {
public:
    /// What a run computes by sweep rank (defined with the module).
    struct Memory;

    /// A module with nothing kept.
    Climate_module();
    ~Climate_module() override;
    /// "climate".
    std::string_view name() const override { return "climate"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// The parameters of Climate_params.
    const Parameter_list<Climate_params>& parameter_list() const override;
    /// Reads position and elevation; writes wind, temperature, precipitation.
    Layer_uses layers_for(const Climate_params&) const override;
    /// Computes the climate; report {"min_temperature", "max_temperature", "mean_precipitation",
    /// "land_mean_precipitation"} (means weighted by an estimate of each vertex's area, mm/yr).
    /// \throws std::runtime_error naming the missing input.
    /// With run memory (run_memory_limit()), the run keeps its state, and the next run on the
    /// same mesh, positions and parameters redoes only the vertices whose elevation changed
    /// (or whose ocean did), their neighbours and the air downwind as far as it comes out
    /// different, and writes only the values that changed: the same bytes as a whole run.
    Dict run_with(World& world, const Climate_params& params,
                  const Progress& progress) const override;

    /// How many vertices the last run swept: all of them for a whole run, the ones an edit
    /// reached for a run from kept state.
    std::size_t last_run_vertices() const { return last_run_vertices_; }

private:
    Dict run_whole(World& world, const Climate_params& params, std::unique_ptr<Memory>& kept,
                   bool keep, const Progress& progress) const;
    Dict run_again(World& world, Memory& kept, const Progress& progress) const;

    Kept_state<Memory> memory_;
    mutable std::atomic<std::size_t> last_run_vertices_{0};
};

} // namespace orbis::gen
