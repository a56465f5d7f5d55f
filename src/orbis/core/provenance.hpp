// SPDX-License-Identifier: MIT
// Which step wrote each derived layer, from which inputs: the World's record of its own making,
// and what it says about layers whose inputs changed afterwards (stale layers).
#pragma once

#include "orbis/core/dict.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace orbis {

class World;

/// The name a Step_input uses for the World's mesh (its connectivity and vertex set).
inline constexpr std::string_view mesh_input = "mesh";

/// One input a step read, and its version when the step's run ended.
struct Step_input {
    std::string layer;         ///< a layer's name, or mesh_input
    std::uint64_t version = 0; ///< World::version_of then; 0 never matches (known changed)
    /// Same layer and version.
    friend bool operator==(const Step_input&, const Step_input&) = default;
};

/// One module run that wrote layers of the World.
struct Step_record {
    std::string module;              ///< the module's name
    Dict params;                     ///< its complete parameters
    std::uint64_t seed = 0;          ///< a fingerprint of the random generator as the step began
    std::vector<std::string> writes; ///< layers it wrote that no later step wrote again
    std::vector<Step_input> reads;   ///< inputs it read that exist (declared and present)
    bool edits_mesh = false;         ///< whether it wrote the mesh (mesh_input among writes)
    std::uint32_t run = 0;           ///< steps of one run (a pipeline, a module run) share a number
    /// Same fields.
    friend bool operator==(const Step_record&, const Step_record&) = default;
};

/// The steps that made a World, oldest first. Steps whose layers were all written again by
/// later steps stay in the list (replay needs them), with empty `writes`.
struct Provenance {
    std::vector<Step_record> steps; ///< in running order
    /// Same steps.
    friend bool operator==(const Provenance&, const Provenance&) = default;
};

/// A layer whose writer's inputs changed after it ran.
struct Stale_layer {
    std::string layer;  ///< the stale layer
    std::size_t step;   ///< index of the step that wrote it, in World::provenance().steps
    std::string input;  ///< the input that changed (a layer or mesh_input)
    std::string reason; ///< for people: "elevation changed after `slope` ran"
    /// Same fields.
    friend bool operator==(const Stale_layer&, const Stale_layer&) = default;
};

/// The current version of input `name` in `world` (World::version_of for layers, mesh_version
/// for mesh_input), or nothing when there is no such layer.
std::optional<std::uint64_t> input_version(const World& world, std::string_view name);

/// Every stale layer of `world`, in step order. A step is stale when one of its inputs has
/// another values version than the one it recorded (a brush, another module; a mesh edit for
/// steps that read the mesh) or has gone; every layer the step still owns is stale then.
/// Staleness does not spread: a layer read from a stale one turns stale when that one is
/// computed again (and its values change). O(steps × inputs).
std::vector<Stale_layer> stale_layers(const World& world);

/// True when `a` and `b` record the same steps with the same fresh and stale inputs: versions
/// are stamps of one process, so they are compared only as "unchanged since the step".
bool same_provenance(const World& a, const World& b);

/// The index of the step that owns `layer` (lists it in `writes`), or nothing.
std::optional<std::size_t> writer_of(const Provenance& provenance, std::string_view layer);

} // namespace orbis
