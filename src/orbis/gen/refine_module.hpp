// SPDX-License-Identifier: MIT
// The `refine` module: adaptive resolution by edge splits and collapses, kept Delaunay.
#pragma once

#include "orbis/gen/module.hpp"

namespace orbis::gen {

/// Parameters of `refine`; their ranges are declared with the module.
struct Refine_params {
    std::string layer = "elevation";        ///< float vertex layer that decides where to refine
    double band_min = -500.0;               ///< refine where the layer is at least this
    double band_max = 9000.0;               ///< refine where the layer is at most this
    double split_length = 20.0;             ///< split edges longer than this (km) in the band
    double collapse_length = 30.0;          ///< collapse edges shorter than this (km) elsewhere
    std::int64_t passes = 1;                ///< split-collapse rounds
    std::int64_t max_vertices = 20'000'000; ///< stop splitting at this many vertices
};

/// `refine`: makes the mesh finer where a vertex layer's value lies in a band and coarser
/// elsewhere. With the defaults it reads `elevation` and refines land and the sea near coasts
/// (-500 m to 9,000 m) and coarsens the open ocean.
///
/// Each pass splits, at their midpoints, the edges longer than `split_length` km that have an
/// endpoint in the band, then collapses, into their midpoints, edges shorter than
/// `collapse_length` km whose endpoints and their neighbours are all outside it (so the fine
/// region keeps a margin). A vertex takes part in at most one collapse per pass, which spreads
/// the coarsening evenly. A collapse is skipped when the mesh refuses it (link condition,
/// tetrahedron...) or when it would fold a face on the sphere; each pass ends with Lawson flips
/// around every changed vertex, so the mesh stays Delaunay. Every layer follows the edits as its
/// info says (positions by slerp, so new vertices stay on the sphere). Stops early when
/// `max_vertices` is reached.
class Refine_module final : public Module_of<Refine_params> {
public:
    /// "refine".
    std::string_view name() const override { return "refine"; }
    /// What it does.
    std::string_view description() const override;
    /// layer, band_min, band_max, split_length, collapse_length, passes, max_vertices.
    const Parameter_list<Refine_params>& parameter_list() const override;
    /// Reads `position` and the chosen layer; writes the mesh (layers follow its edits).
    Layer_uses layers_for(const Refine_params& params) const override;
    /// Refines; report {"splits", "collapses", "refused", "folding", "flips", "vertices"}.
    /// \throws std::runtime_error when `position` or the named layer (float, vertex) is missing.
    /// Cost: O(edges + edits) per pass.
    Dict run_with(World& world, const Refine_params& params,
                  const Progress& progress) const override;
};

} // namespace orbis::gen
