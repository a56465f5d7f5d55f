// SPDX-License-Identifier: MIT
#include "replay_command.hpp"

#include <orbis/gen/pipeline.hpp>
#include <orbis/io/formats.hpp>
#include <orbis/io/world_file.hpp>

#include <cstdio>
#include <stdexcept>

namespace orbis::cli {

CLI::App* add_replay_command(CLI::App& app, Replay_options& o) {
    auto* cmd = app.add_subcommand(
        "replay", "Regenerate a world from the steps its .orbis file records (module, "
                  "parameters, order), and optionally check that the result is the same");
    cmd->add_option("file", o.input, "World file (.orbis) with recorded steps")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--output", o.output, "World file to write (.orbis, .ply, .obj)");
    cmd->add_flag("--check", o.check,
                  "Say whether the regenerated world is byte-identical to the file's (exit 1 "
                  "when it is not)");
    return cmd;
}

int run_replay(const Replay_options& o, const gen::Module_registry& registry) {
    if (o.output.empty() && !o.check)
        throw std::invalid_argument("replay: give --output (-o), --check or both");
    if (!o.output.empty()) io::format_of(o.output); // refuse a bad extension before running
    const World original = io::load_any(o.input);
    const auto& steps = original.provenance().steps;
    if (steps.empty())
        throw std::runtime_error(o.input +
                                 ": records no generation steps (not made by Orbis modules, or "
                                 "saved before format version 2)");
    std::vector<std::size_t> mismatched;
    const World replayed = gen::replay(original.provenance(), registry, &mismatched);
    if (!o.output.empty()) {
        io::save_any(replayed, o.output, {});
        std::printf("%s: %zu steps replayed, %zu vertices\n", o.output.c_str(), steps.size(),
                    replayed.mesh().vertex_count());
    }
    if (!o.check) return 0;
    if (io::write_world(replayed) == io::write_world(original)) {
        std::printf("%s: identical to its replay (%zu steps)\n", o.input.c_str(), steps.size());
        return 0;
    }
    std::printf("%s: differs from its replay\n", o.input.c_str());
    if (!(replayed.mesh() == original.mesh())) std::printf("  the mesh differs\n");
    for (const auto& name : original.layer_names()) {
        const Layer_base* a = original.find_layer(name);
        const Layer_base* b = replayed.find_layer(name);
        if (a && !b) std::printf("  layer '%s' is not made by the steps\n", name.c_str());
        if (a && b && !a->equals(*b)) std::printf("  layer '%s' differs\n", name.c_str());
        const Dict* da = a ? nullptr : original.layer(name);
        const Dict* db = da && !replayed.find_layer(name) ? replayed.layer(name) : nullptr;
        if (da && (!db || !(*da == *db))) std::printf("  Dict layer '%s' differs\n", name.c_str());
    }
    for (const auto& name : replayed.layer_names())
        if (!original.version_of(name))
            std::printf("  layer '%s' is made by the steps but not in the file\n", name.c_str());
    for (const std::size_t s : mismatched)
        std::printf("  step %zu (%s) drew from another random state than recorded\n", s + 1,
                    steps[s].module.c_str());
    return 1;
}

} // namespace orbis::cli
