// SPDX-License-Identifier: MIT
// A coarse World drawn in place of a large world file while the file loads.
#pragma once

#include "orbis/core/world.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

namespace orbis::ui {

/// A small World standing in for the world file at `path` while it loads: about `max_points`
/// of its vertices (every k-th live one) triangulated afresh on the sphere, with their
/// positions, their values in vertex layer `layer` when it holds float, double or int32 values
/// (as a float or int32 layer of that name), and the file's display hints.
///
/// For looking only: nothing in it is checked as a load checks (see io::read_world_preview).
/// nullopt when the file has no cheap preview, when the sample does not lie near one sphere
/// (an imported mesh of another shape would be drawn wrongly) or cannot be triangulated.
/// Never throws. Cost: the file's read (about 20 bytes a vertex slot) and a triangulation of
/// the sample (~0.3 us a point).
std::optional<World> preview_world(const std::filesystem::path& path, std::size_t max_points,
                                   std::string_view layer);

} // namespace orbis::ui
