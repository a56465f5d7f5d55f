// SPDX-License-Identifier: MIT
// The optional `erosion` step: rivers cut valleys (the stream-power law, solved implicitly as
// Braun & Willett 2013) and hillslopes creep (linear diffusion).
#pragma once

#include "orbis/gen/module.hpp"

#include <cstdint>
#include <string_view>

namespace orbis::gen {

/// Parameters of `erosion`; their ranges are declared with the module.
struct Erosion_params {
    std::int64_t iterations = 5; ///< time steps, each routing the flow again
    double time_step = 100000.0; ///< years per step
    double erodibility = 1.0e-6; ///< K of the stream-power law (m^(1-2m)/yr; 1/yr for m = 0.5)
    double area_exponent = 0.5;  ///< m of the stream-power law (n is 1)
    double diffusion = 100.0;    ///< hillslope diffusivity (m²/yr), effective at the mesh scale
    double uplift = 0.0;         ///< uniform uplift of land (m/yr)
};

/// `erosion`: per step, lifts land by `uplift`, routes flow over the depression-filled surface
/// to the world ocean at sea level 0 (flow_routing.hpp, world_ocean.hpp), lowers every land
/// vertex outside a depression by the stream-power law E = K A^m S, implicitly along the flow
/// tree (Braun & Willett 2013: any time step is stable and no vertex drops below its
/// receiver), then lets hillslopes creep by linear diffusion towards sea level at the coast;
/// what creep brings down to a valley floor counts as carried off by its river, so diffusion
/// only lowers.
/// A is the drainage area in m², each cell weighted by precipitation / 1,000 mm/yr when the
/// World has a precipitation layer. Without uplift, land only goes down and never below sea
/// level; the world ocean and the beds of depressions (lakes) keep their heights, so the
/// coastline stays where it was. Reads position (km), elevation and, optionally,
/// precipitation; writes elevation and the "terrain" Dict's min, max and land_fraction.
/// Cost per step: one route_flow (O(n log n)) and a few O(n) sweeps; about 0.6 s per step on
/// the 1.8 million vertices of the default world, plus about 1 s to set up.
class Erosion_module final : public Module_of<Erosion_params> {
public:
    /// "erosion".
    std::string_view name() const override { return "erosion"; }
    /// What it does, reads and writes.
    std::string_view description() const override;
    /// iterations, time_step, erodibility, area_exponent, diffusion, uplift.
    const Parameter_list<Erosion_params>& parameter_list() const override;
    /// Reads position, elevation and (optional) precipitation; writes elevation (with the
    /// hints `elevation` gives it) and the "terrain" Dict.
    Layer_uses layers_for(const Erosion_params&) const override;
    /// Erodes; report {"eroded_volume" (km³ taken off land, uplift aside), "max_incision" (m,
    /// the deepest cut at one vertex)}. \throws std::runtime_error without vertices.
    Dict run_with(World& world, const Erosion_params& params,
                  const Progress& progress) const override;
};

} // namespace orbis::gen
