// SPDX-License-Identifier: MIT
// What the water and climate say about one vertex, in one line for a status bar.
#pragma once

#include "orbis/core/world.hpp"

#include <string>

namespace orbis::gen {

/// The water and climate at `v` in words, for the editor's hover readout: the biome's name
/// (from the layer's hints), ocean or the lake with its level, the discharge leaving the vertex
/// in m³/s, the drainage basin, temperature and precipitation; each only when the World has its
/// layer. Empty when it has none of them. Precondition: `v` is a live vertex.
/// Cost: O(valence of v).
std::string water_readout(const World& world, Vertex v);

} // namespace orbis::gen
