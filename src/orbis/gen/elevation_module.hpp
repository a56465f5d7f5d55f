// SPDX-License-Identifier: MIT
// The `elevation` module: terrain heights from plate types, plate boundaries and fractal noise.
#pragma once

#include "orbis/core/layer_info.hpp"
#include "orbis/gen/module.hpp"

#include <string_view>

namespace orbis::gen {

/// Elevation of each vertex in metres above the sea level of the "terrain" Dict (0 after the
/// module ran); lerp, so split vertices get the mean of their ends.
inline constexpr auto elevation_layer =
    Layer_info<float, Layer_type::vertex>("elevation").interpolation(Interpolation::lerp);

/// Name of the Dict layer with {"sea_level": metres, "land_fraction", "min", "max"}.
inline constexpr std::string_view terrain_dict_name = "terrain";

/// Parameters of `elevation`; their ranges are declared with the module.
struct Elevation_params {
    double mountain_height = 4500.0; ///< uplift (m) where continents collide
    double trench_depth = 4500.0;    ///< depth (m) of trenches below the ocean floor
    double roughness = 700.0;        ///< amplitude (m) of fractal hills
    double coast_blur = 250.0;       ///< width (km) of the continental slope
    double land_fraction = 0.29;     ///< fraction of vertices above sea level
};

/// `elevation`: heights in metres for every vertex, in Earth's ranges. Reads position,
/// plate_id, plate_boundary and the "plates" Dict (run `plates` first); writes elevation_layer
/// and the "terrain" Dict.
///
/// The model, with distances measured along the mesh inside one plate (hops times the mean edge
/// length, so features keep their size in km at every resolution):
/// - crust: continental plates stand at about +600 m, oceanic ones at the -4,200 m of abyssal
///   plains; the change happens over `coast_blur` km (the continental slope) around a coast
///   that noise moves up to ~1,000 km off the border between the crust types, so coasts do not
///   follow plate borders and oceanic plates can carry land and continents inland seas;
/// - collision of continents raises `mountain_height` within ~300 km of the boundary on both
///   sides (the Himalaya); an oceanic plate subducting under a continent raises a range ~150 km
///   inland on the overriding plate (the Andes) and under another oceanic plate an island arc,
///   and cuts a trench `trench_depth` deep on the subducting side within ~80 km (the Mariana
///   trench reaches -10,900 m); ridges lift the ocean floor by up to 2,000 m over ~250 km;
/// - fractal noise adds hills and sea-floor roughness (`roughness` m) and breaks mountain
///   ranges into peaks and passes;
/// - finally all heights shift so that `land_fraction` of the vertices lie above sea level 0
///   (Earth: 0.29), and are clamped to [-11,000, 9,000] m.
/// Noise seeds are drawn from the World's generator. Cost: O(vertices + edges), about 1 s per
/// million vertices.
class Elevation_module final : public Module_of<Elevation_params> {
public:
    /// "elevation".
    std::string_view name() const override { return "elevation"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// mountain_height, trench_depth, roughness, coast_blur, land_fraction.
    const Parameter_list<Elevation_params>& parameter_list() const override;
    /// Reads position, plate_id, plate_boundary and "plates"; writes elevation and "terrain".
    Layer_uses layers_for(const Elevation_params&) const override;
    /// Computes the heights; report {"min", "max", "land_fraction"}.
    /// \throws std::runtime_error naming the missing input.
    Dict run_with(World& world, const Elevation_params& params,
                  const Progress& progress) const override;
};

} // namespace orbis::gen
