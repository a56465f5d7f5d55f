// SPDX-License-Identifier: MIT
#include "orbis/core/provenance.hpp"

#include "orbis/core/world.hpp"

#include <algorithm>

namespace orbis {

namespace {

std::string input_text(std::string_view name) {
    return name == mesh_input ? "the mesh" : std::string(name);
}

} // namespace

std::optional<std::uint64_t> input_version(const World& world, std::string_view name) {
    if (name == mesh_input) return world.mesh_version();
    return world.version_of(name);
}

bool same_provenance(const World& a, const World& b) {
    const auto& x = a.provenance().steps;
    const auto& y = b.provenance().steps;
    if (x.size() != y.size()) return false;
    for (std::size_t s = 0; s < x.size(); ++s) {
        if (x[s].module != y[s].module || !(x[s].params == y[s].params) || x[s].seed != y[s].seed ||
            x[s].writes != y[s].writes || x[s].edits_mesh != y[s].edits_mesh ||
            x[s].run != y[s].run || x[s].reads.size() != y[s].reads.size())
            return false;
        for (std::size_t i = 0; i < x[s].reads.size(); ++i) {
            const auto& p = x[s].reads[i];
            const auto& q = y[s].reads[i];
            if (p.layer != q.layer || (input_version(a, p.layer) == p.version) !=
                                          (input_version(b, q.layer) == q.version))
                return false;
        }
    }
    return true;
}

std::optional<std::size_t> writer_of(const Provenance& provenance, std::string_view layer) {
    for (std::size_t i = provenance.steps.size(); i-- > 0;) {
        const auto& w = provenance.steps[i].writes;
        if (std::find(w.begin(), w.end(), layer) != w.end()) return i;
    }
    return std::nullopt;
}

std::vector<Stale_layer> stale_layers(const World& world) {
    const auto& steps = world.provenance().steps;
    std::vector<Stale_layer> out;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const auto& step = steps[s];
        if (step.writes.empty()) continue;
        for (const auto& input : step.reads) {
            const auto now = input_version(world, input.layer);
            if (now && *now == input.version) continue;
            const std::string reason = input_text(input.layer) +
                                       (now ? " changed after `" : " was removed after `") +
                                       step.module + "` ran";
            for (const auto& layer : step.writes)
                if (layer != mesh_input) out.push_back({layer, s, input.layer, reason});
            break;
        }
    }
    return out;
}

} // namespace orbis
