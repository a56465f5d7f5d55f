// SPDX-License-Identifier: MIT
#include "orbis/gen/refresh.hpp"

#include "orbis/core/provenance.hpp"
#include "orbis/gen/pipeline.hpp"

#include <algorithm>

namespace orbis::gen {

std::optional<std::size_t> first_stale_step(const World& world,
                                            std::span<const std::string_view> modules) {
    const auto& steps = world.provenance().steps;
    for (const Stale_layer& stale : stale_layers(world))
        if (std::find(modules.begin(), modules.end(), steps[stale.step].module) != modules.end())
            return stale.step;
    return std::nullopt;
}

std::size_t refresh_stale_steps(World& world, const Module_registry& registry,
                                std::span<const std::string_view> modules,
                                const Progress& progress) {
    std::size_t ran = 0;
    // Each run leaves its own step fresh and can only stale steps after it, so the loop ends
    // within one run per step; the bound guards against a module that stales its own inputs.
    const std::size_t limit = 2 * world.provenance().steps.size() + modules.size();
    while (ran < limit) {
        const auto step = first_stale_step(world, modules);
        if (!step) break;
        const Step_record record = world.provenance().steps[*step];
        const Module* module = registry.find(record.module);
        if (!module)
            throw Pipeline_error("module '" + record.module + "' is not available to re-run");
        run_module(world, *module, record.params, progress);
        ++ran;
    }
    return ran;
}

} // namespace orbis::gen
