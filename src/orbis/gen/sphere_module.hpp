// SPDX-License-Identifier: MIT
// The `sphere` module: a Fibonacci sphere and its exact Delaunay triangulation as the World's mesh.
#pragma once

#include "orbis/gen/module.hpp"

namespace orbis::gen {

/// `sphere`: replaces the World's mesh with the Delaunay triangulation of Fibonacci points
/// (make_sphere) and writes them to `position` (orbis::position_layer: vec3, vertex, slerp, so
/// split vertices stay on the sphere). Every other layer is reset to its initial value, and the
/// World's random generator is reseeded with `seed`, so later modules draw from it
/// deterministically. Parameters: count, radius (km), perturbation, seed.
class Sphere_module final : public Module {
public:
    /// "sphere".
    std::string_view name() const override { return "sphere"; }
    /// What it does and writes.
    std::string_view description() const override;
    /// count, radius, perturbation, seed.
    std::vector<Parameter> parameters() const override;
    /// Builds the sphere; report {"vertices", "faces"}. Cost: ~0.3 s per million points.
    Dict run(World& world, const Dict& params, const Progress& progress) const override;
};

} // namespace orbis::gen
