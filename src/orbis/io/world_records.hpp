// SPDX-License-Identifier: MIT
// A World's display hints and provenance as Dicts: how the world file stores them (in its
// "hints" and "provenance" sections) and how tools print them. Readers check every field.
#pragma once

#include "orbis/core/world.hpp"

#include <map>
#include <stdexcept>
#include <string>

namespace orbis::io {

/// Hints or provenance in a Dict were refused; the message names the field.
class Record_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Every layer's hints as {layer: {label, unit, colour_map, min, max, categories: [{value,
/// name, colour}]}}, with unset fields left out.
Dict hints_to_dict(const World& world);

/// The hints in `dict` (as hints_to_dict writes them). \throws Record_error naming the layer
/// and field for a value of another kind, a colour component outside [0, 255] or a non-finite
/// range.
std::map<std::string, Layer_hints, std::less<>> hints_from_dict(const Dict& dict);

/// The provenance as {steps: [{module, params, seed, edits_mesh, run, writes: [names], reads:
/// [{layer, fresh}]}]}: versions are stamps of this process, so an input is saved as whether
/// it is unchanged ("fresh") since its step ran.
Dict provenance_to_dict(const World& world);

/// The provenance in `dict` (as provenance_to_dict writes it), with every fresh input stamped
/// with its version in `world` (whose layers must be loaded already) and every other with 0,
/// so that stale layers stay stale. \throws Record_error naming the step and field.
Provenance provenance_from_dict(const Dict& dict, const World& world);

} // namespace orbis::io
