// SPDX-License-Identifier: MIT
// Keeping derived layers in step with edits: re-running the steps that went stale, as the
// editor's live water does after a brush stroke or a mesh edit.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/gen/module.hpp"
#include "orbis/gen/module_registry.hpp"

#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace orbis::gen {

/// The modules whose layers follow the terrain and are cheap enough to re-run after every
/// edit: the water and the climate (issue 17's live water), in pipeline order.
inline constexpr std::array<std::string_view, 3> live_water_modules = {"climate", "hydrology",
                                                                       "biome"};

/// The first step of `world`'s provenance that is stale (stale_layers) and whose module is
/// one of `modules`, or nothing. O(steps × inputs).
std::optional<std::size_t> first_stale_step(const World& world,
                                            std::span<const std::string_view> modules);

/// Re-runs stale steps of `modules` with their recorded parameters, first stale first, until
/// none is stale: a re-run may make a later step stale (new temperatures for the biomes), and
/// that step runs next. Each re-run is a new step in the provenance, as Job_runner's "Re-run"
/// is. Returns how many ran. \throws what run_module throws (Cancelled through `progress`, a
/// missing module as Pipeline_error); the World keeps the steps that completed.
std::size_t refresh_stale_steps(World& world, const Module_registry& registry,
                                std::span<const std::string_view> modules,
                                const Progress& progress = {});

} // namespace orbis::gen
