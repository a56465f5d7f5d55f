// SPDX-License-Identifier: MIT
// A module run on part of a world (the editor's selection): the module runs on all of it, and
// what it wrote is kept only inside the part.
#pragma once

#include "orbis/gen/module.hpp"

#include <optional>
#include <span>
#include <string>

namespace orbis::gen {

/// Why `module` cannot run on part of a world with `params`: it edits the mesh (ids outside
/// the part would change too); nothing when it can.
std::optional<std::string> check_run_on_part(const Module& module, const Dict& params);

/// `after`, the World `module` made by running with `params` on all of `before`, with every
/// typed layer the module declares writing put back to `before`'s values outside `part`:
/// vertices not in `part`, faces and edges not wholly inside it (a layer `before` lacked gets
/// its initial value there). Dict layers it wrote keep `before`'s contents when `before` had
/// them. The provenance stays `before`'s: the written values are now partly the step's and
/// partly older, so to staleness the run is an edit of those values, like a brush, and layers
/// computed from them turn stale. Preconditions: check_run_on_part passed, and `after` has
/// `before`'s mesh. Cost: O(elements of the written layers).
World keep_inside_part(const World& before, World after, std::span<const Vertex> part,
                       const Module& module, const Dict& params);

} // namespace orbis::gen
