// SPDX-License-Identifier: MIT
#include "orbis/gen/pipeline.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace orbis::gen {

extern const char* const default_pipeline_json; // generated from resources/

namespace {

using nlohmann::json;

constexpr int pipeline_version = 1;

Dict_value parameter_from_json(const std::string& module, const std::string& name, const json& v) {
    switch (v.type()) {
    case json::value_t::boolean:
        return Dict_value(v.get<bool>());
    case json::value_t::number_integer:
        return Dict_value(v.get<std::int64_t>());
    case json::value_t::number_unsigned: {
        const auto u = v.get<std::uint64_t>();
        if (u > std::uint64_t(INT64_MAX))
            throw Pipeline_error("module '" + module + "', parameter '" + name +
                                 "': " + std::to_string(u) + " is too large");
        return Dict_value(std::int64_t(u));
    }
    case json::value_t::number_float:
        return Dict_value(v.get<double>());
    case json::value_t::string:
        return Dict_value(v.get<std::string>());
    default:
        throw Pipeline_error("module '" + module + "', parameter '" + name +
                             "': a value must be a number, bool or string, not " +
                             std::string(v.type_name()));
    }
}

json parameter_to_json(const Dict_value& v) {
    if (v.is<bool>()) return v.as<bool>();
    if (v.is<std::int64_t>()) return v.as<std::int64_t>();
    if (v.is<double>()) return v.as<double>();
    if (v.is<std::string>()) return v.as<std::string>();
    return nullptr;
}

const json& member(const json& object, const char* key, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) throw Pipeline_error(where + ": missing \"" + key + "\"");
    return *it;
}

} // namespace

Pipeline pipeline_from_json(std::string_view text, const Module_registry& registry) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        throw Pipeline_error(std::string("pipeline is not valid JSON: ") + e.what());
    }
    if (!doc.is_object()) throw Pipeline_error("pipeline: expected a JSON object");
    const json& format = member(doc, "format", "pipeline");
    if (format != "orbis-pipeline")
        throw Pipeline_error("pipeline: \"format\" must be \"orbis-pipeline\"");
    const json& version = member(doc, "version", "pipeline");
    if (!version.is_number_integer() || version.get<std::int64_t>() < 1)
        throw Pipeline_error("pipeline: \"version\" must be a positive integer");
    if (version.get<std::int64_t>() > pipeline_version)
        throw Pipeline_error("pipeline: version " + version.dump() +
                             " needs a newer Orbis (this one reads version " +
                             std::to_string(pipeline_version) + ")");
    const json& steps = member(doc, "steps", "pipeline");
    if (!steps.is_array()) throw Pipeline_error("pipeline: \"steps\" must be an array");

    Pipeline pipeline;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string where = "pipeline step " + std::to_string(i + 1);
        const json& step = steps[i];
        if (!step.is_object()) throw Pipeline_error(where + ": expected an object");
        for (const auto& [key, value] : step.items())
            if (key != "module" && key != "params")
                throw Pipeline_error(where + ": unknown key \"" + key +
                                     "\" (allowed: module, params)");
        const json& name = member(step, "module", where);
        if (!name.is_string()) throw Pipeline_error(where + ": \"module\" must be a string");
        const Module* module = registry.find(name.get<std::string>());
        if (!module) {
            std::vector<std::string> names;
            for (const Module* m : registry.modules())
                names.emplace_back(m->name());
            const std::string nearest = nearest_name(name.get<std::string>(), names);
            throw Pipeline_error(where + ": unknown module '" + name.get<std::string>() + "'" +
                                 (nearest.empty() ? "" : "; did you mean '" + nearest + "'?") +
                                 " (known: " + registry.names() + ")");
        }
        Dict given;
        if (const auto it = step.find("params"); it != step.end()) {
            if (!it->is_object())
                throw Pipeline_error(where + ": \"params\" of module '" +
                                     std::string(module->name()) + "' must be an object");
            for (const auto& [key, value] : it->items())
                given.set(key, parameter_from_json(std::string(module->name()), key, value));
        }
        pipeline.steps.push_back(
            {std::string(module->name()), complete_parameters(*module, given)});
    }
    return pipeline;
}

std::string pipeline_to_json(const Pipeline& pipeline) {
    json steps = json::array();
    for (const auto& step : pipeline.steps) {
        json params = json::object();
        for (const auto& entry : step.params.entries())
            params[entry.key] = parameter_to_json(entry.value);
        steps.push_back({{"module", step.module}, {"params", std::move(params)}});
    }
    const json doc = {
        {"format", "orbis-pipeline"}, {"version", pipeline_version}, {"steps", std::move(steps)}};
    return doc.dump(2) + "\n";
}

Pipeline load_pipeline(const std::filesystem::path& path, const Module_registry& registry) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Pipeline_error(path.string() + ": cannot open the pipeline file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw Pipeline_error(path.string() + ": cannot read the pipeline file");
    try {
        return pipeline_from_json(text.str(), registry);
    } catch (const Pipeline_error& e) {
        throw Pipeline_error(path.string() + ": " + e.what());
    }
}

Pipeline default_pipeline() { return pipeline_from_json(default_pipeline_json, builtin_modules()); }

Pipeline select_steps(const Pipeline& pipeline, std::span<const std::string> modules) {
    for (const auto& name : modules) {
        bool found = false;
        for (const auto& step : pipeline.steps)
            found = found || step.module == name;
        if (!found) {
            std::string steps;
            for (const auto& step : pipeline.steps)
                steps += (steps.empty() ? "" : ", ") + step.module;
            throw Pipeline_error("module '" + name +
                                 "' is not a step of the pipeline (steps: " + steps + ")");
        }
    }
    Pipeline out;
    for (const auto& step : pipeline.steps)
        for (const auto& name : modules)
            if (step.module == name) {
                out.steps.push_back(step);
                break;
            }
    return out;
}

int override_parameter(Pipeline& pipeline, const Module_registry& registry, std::string_view name,
                       const Dict_value& value, std::string_view only_module) {
    Pipeline changed = pipeline;
    int count = 0;
    for (auto& step : changed.steps) {
        if (!step.params.contains(name)) continue;
        if (!only_module.empty() && step.module != only_module) continue;
        const Module* module = registry.find(step.module);
        if (!module) throw Pipeline_error("unknown module '" + step.module + "'");
        Dict given = step.params;
        given.set(name, value);
        step.params = complete_parameters(*module, given);
        ++count;
    }
    pipeline = std::move(changed);
    return count;
}

std::optional<std::string> check_pipeline(const Pipeline& pipeline, const Module_registry& registry,
                                          const World& start) {
    std::vector<Layer_use> written; // by earlier steps
    for (std::size_t i = 0; i < pipeline.steps.size(); ++i) {
        const auto& step = pipeline.steps[i];
        const std::string where =
            "pipeline step " + std::to_string(i + 1) + " '" + step.module + "'";
        const Module* module = registry.find(step.module);
        if (!module) return where + ": unknown module (known: " + registry.names() + ")";
        const Dict params = complete_parameters(*module, step.params);
        const Layer_uses uses = module->layers(params);
        for (const auto& read : uses.reads) {
            if (!read.required) continue;
            const bool earlier = std::any_of(written.begin(), written.end(),
                                             [&](const auto& w) { return w.same_layer(read); });
            if (earlier) continue;
            if (read.kind == Layer_use_kind::mesh) {
                if (start.mesh().face_count() > 0) continue;
            } else if (read.kind == Layer_use_kind::dict) {
                if (start.version_of(read.name) && !start.find_layer(read.name)) continue;
            } else if (const Layer_base* layer = start.find_layer(read.name);
                       layer && layer->value_tag() == read.value && layer->type() == read.type) {
                continue;
            }
            std::string providers;
            std::size_t provider_count = 0;
            for (const Module* m : registry.modules()) {
                // A module that needs the layer to change it (tectonics moves plate_id) is no
                // way to get it.
                const auto other = m->layers(complete_parameters(*m, {}));
                const auto same = [&](const auto& u) { return u.same_layer(read); };
                const bool needs =
                    std::any_of(other.reads.begin(), other.reads.end(),
                                [&](const auto& u) { return u.required && same(u); });
                if (!needs && std::any_of(other.writes.begin(), other.writes.end(), same)) {
                    providers += (providers.empty() ? "'" : ", '") + std::string(m->name()) + "'";
                    ++provider_count;
                }
            }
            return where + " reads " + read.describe() +
                   ", which no earlier step writes and the World does not have" +
                   (providers.empty()     ? std::string("; no known module writes it")
                    : provider_count == 1 ? "; module " + providers + " writes it"
                                          : "; modules " + providers + " write it");
        }
        for (const auto& w : uses.writes)
            written.push_back(w);
    }
    return std::nullopt;
}

void run_pipeline(World& world, const Pipeline& pipeline, const Module_registry& registry,
                  const Pipeline_run_options& options) {
    if (const auto why = check_pipeline(pipeline, registry, world)) throw Pipeline_error(*why);
    std::vector<const Module*> modules;
    for (const auto& step : pipeline.steps)
        modules.push_back(registry.find(step.module));
    World before = world;
    const std::uint32_t run = next_run(world);
    try {
        for (std::size_t i = 0; i < modules.size(); ++i) {
            Progress::Callback callback;
            if (options.progress)
                callback = [&options, i](double fraction) { options.progress(i, fraction); };
            const Progress progress(std::move(callback), options.cancel);
            progress.report(modules[i]->name(), 0.0);
            const auto start = std::chrono::steady_clock::now();
            const Dict params = complete_parameters(*modules[i], pipeline.steps[i].params);
            const std::uint64_t seed = random_fingerprint(world);
            apply_hints(world, *modules[i], params);
            const Dict report = modules[i]->run(world, params, progress);
            record_step(world, *modules[i], params, seed, run);
            const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
            progress.report(modules[i]->name(), 1.0);
            if (options.step_done) options.step_done(i, seconds.count(), report);
        }
        end_run(world, modules.size());
    } catch (const std::exception&) {
        world = std::move(before);
        throw;
    } catch (...) {
        world = std::move(before);
        throw std::runtime_error("a pipeline step failed with an exception that is not a "
                                 "std::exception");
    }
}

World replay(const Provenance& provenance, const Module_registry& registry,
             std::vector<std::size_t>* mismatched_seeds) {
    World world;
    const auto& steps = provenance.steps;
    for (std::size_t first = 0; first < steps.size();) {
        std::size_t end = first;
        Pipeline run;
        while (end < steps.size() && steps[end].run == steps[first].run)
            run.steps.push_back({steps[end].module, steps[end].params}), ++end;
        Pipeline_run_options options;
        if (mismatched_seeds)
            options.progress = [&, first](std::size_t step, double fraction) {
                // Called with 0 before each step draws anything.
                if (fraction == 0.0 && random_fingerprint(world) != steps[first + step].seed)
                    mismatched_seeds->push_back(first + step);
            };
        run_pipeline(world, run, registry, options);
        first = end;
    }
    return world;
}

namespace {

json use_to_json(const Layer_use& use) {
    json j = {{"name", use.name}, {"required", use.required}};
    switch (use.kind) {
    case Layer_use_kind::mesh:
        j["kind"] = "mesh";
        break;
    case Layer_use_kind::dict:
        j["kind"] = "dict";
        break;
    case Layer_use_kind::typed:
        j["kind"] = "typed";
        j["value"] = std::string(
            with_value_type(use.value, []<class T>() { return layer_value_name<T>(); }));
        j["element"] = std::string(layer_type_name(use.type));
        break;
    }
    return j;
}

} // namespace

std::string modules_to_json(const Module_registry& registry) {
    json modules = json::array();
    for (const Module* m : registry.modules()) {
        json parameters = json::array();
        for (const auto& p : m->parameters()) {
            json jp = {{"name", p.name},
                       {"type", std::string(parameter_kind_name(p.kind))},
                       {"default", parameter_to_json(p.default_value)},
                       {"unit", p.unit},
                       {"description", p.description}};
            if (p.kind == Parameter_kind::integer || p.kind == Parameter_kind::real) {
                jp["min"] = p.min;
                jp["max"] = p.max;
            }
            parameters.push_back(std::move(jp));
        }
        const Layer_uses uses = m->layers(complete_parameters(*m, {}));
        json reads = json::array(), writes = json::array();
        for (const auto& u : uses.reads)
            reads.push_back(use_to_json(u));
        for (const auto& u : uses.writes)
            writes.push_back(use_to_json(u));
        modules.push_back({{"name", std::string(m->name())},
                           {"description", std::string(m->description())},
                           {"parameters", std::move(parameters)},
                           {"reads", std::move(reads)},
                           {"writes", std::move(writes)}});
    }
    const json doc = {{"format", "orbis-modules"}, {"version", 1}, {"modules", std::move(modules)}};
    return doc.dump(2) + "\n";
}

} // namespace orbis::gen
