// SPDX-License-Identifier: MIT
// The `sphere` module: a Fibonacci sphere and its exact Delaunay triangulation as the World's mesh.
#pragma once

#include "orbis/gen/module.hpp"

namespace orbis::gen {

/// Parameters of `sphere`; their ranges are declared with the module.
struct Sphere_params {
    std::int64_t count = 100'000; ///< number of points (vertices)
    double radius = 6371.0;       ///< sphere radius, km
    double perturbation = 0.5;    ///< random offset along the spiral, in [0, 1)
    std::int64_t seed = 1;        ///< seed of the offsets and of the World's generator
};

/// `sphere`: replaces the World's mesh with the Delaunay triangulation of Fibonacci points
/// and writes them to `position` (orbis::position_layer: vec3, vertex, slerp, so split vertices
/// stay on the sphere). Unlike make_sphere, vertices, quad-edges and faces are numbered along
/// the sphere's space-filling curve (number_along_curve), not the spiral. Every other layer is reset to its initial value, and the
/// World's random generator is reseeded with `seed`, so later modules draw from it
/// deterministically. Parameters: count, radius (km), perturbation, seed.
class Sphere_module final : public Module_of<Sphere_params> {
public:
    /// "sphere".
    std::string_view name() const override { return "sphere"; }
    /// What it does and writes.
    std::string_view description() const override;
    /// count, radius, perturbation, seed: declared once in sphere_module.cpp.
    const Parameter_list<Sphere_params>& parameter_list() const override;
    /// Writes the mesh and `position`; reads nothing.
    Layer_uses layers_for(const Sphere_params& params) const override;
    /// Builds the sphere; report {"vertices", "faces"}. Cost: ~0.3 s per million points.
    Dict run_with(World& world, const Sphere_params& params,
                  const Progress& progress) const override;
};

} // namespace orbis::gen
