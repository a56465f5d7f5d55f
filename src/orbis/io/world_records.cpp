// SPDX-License-Identifier: MIT
#include "orbis/io/world_records.hpp"

#include <cmath>
#include <cstdint>

namespace orbis::io {

namespace {

template <class X>
const X& field(const Dict& d, std::string_view key, const std::string& where) {
    const Dict_value* v = d.find(key);
    if (!v) throw Record_error(where + ": missing \"" + std::string(key) + "\"");
    if (!v->is<X>())
        throw Record_error(where + ": \"" + std::string(key) + "\" is " +
                           std::string(v->kind_name()));
    return v->as<X>();
}

template <class X>
const X* optional_field(const Dict& d, std::string_view key, const std::string& where) {
    if (!d.contains(key)) return nullptr;
    return &field<X>(d, key, where);
}

double finite(double v, const std::string& where) {
    if (!std::isfinite(v)) throw Record_error(where + " is not finite");
    return v;
}

} // namespace

Dict hints_to_dict(const World& world) {
    Dict out;
    for (const auto& [name, h] : world.all_hints()) {
        Dict d;
        if (!h.label.empty()) d.set("label", h.label);
        if (!h.unit.empty()) d.set("unit", h.unit);
        if (!h.colour_map.empty()) d.set("colour_map", h.colour_map);
        if (h.min) d.set("min", *h.min);
        if (h.max) d.set("max", *h.max);
        if (!h.categories.empty()) {
            Dict_array categories;
            for (const auto& c : h.categories) {
                Dict cd;
                cd.set("value", c.value);
                cd.set("name", c.name);
                cd.set("colour", glm::dvec3(c.colour));
                categories.emplace_back(std::move(cd));
            }
            d.set("categories", std::move(categories));
        }
        out.set(name, std::move(d));
    }
    return out;
}

std::map<std::string, Layer_hints, std::less<>> hints_from_dict(const Dict& dict) {
    std::map<std::string, Layer_hints, std::less<>> out;
    for (const auto& entry : dict.entries()) {
        const std::string where = "hints of layer '" + entry.key + "'";
        if (!entry.value.is<Dict>()) throw Record_error(where + ": not a dict");
        const Dict& d = entry.value.as<Dict>();
        Layer_hints h;
        if (const auto* s = optional_field<std::string>(d, "label", where)) h.label = *s;
        if (const auto* s = optional_field<std::string>(d, "unit", where)) h.unit = *s;
        if (const auto* s = optional_field<std::string>(d, "colour_map", where)) h.colour_map = *s;
        if (const auto* v = optional_field<double>(d, "min", where))
            h.min = finite(*v, where + " min");
        if (const auto* v = optional_field<double>(d, "max", where))
            h.max = finite(*v, where + " max");
        if (const auto* items = optional_field<Dict_array>(d, "categories", where)) {
            for (std::size_t i = 0; i < items->size(); ++i) {
                const std::string at = where + ", category " + std::to_string(i);
                if (!(*items)[i].is<Dict>()) throw Record_error(at + ": not a dict");
                const Dict& c = (*items)[i].as<Dict>();
                Layer_category category;
                category.value = field<std::int64_t>(c, "value", at);
                category.name = field<std::string>(c, "name", at);
                const glm::dvec3 colour = field<glm::dvec3>(c, "colour", at);
                for (int k = 0; k < 3; ++k) {
                    if (!(colour[k] >= 0 && colour[k] <= 255))
                        throw Record_error(at + ": colour component outside [0, 255]");
                    category.colour[k] = static_cast<std::uint8_t>(colour[k]);
                }
                h.categories.push_back(std::move(category));
            }
        }
        out.emplace(entry.key, std::move(h));
    }
    return out;
}

Dict provenance_to_dict(const World& world) {
    Dict_array steps;
    for (const auto& step : world.provenance().steps) {
        Dict d;
        d.set("module", step.module);
        d.set("params", step.params);
        // Stored as int64 bits: Dicts have no unsigned integers.
        d.set("seed", static_cast<std::int64_t>(step.seed));
        d.set("edits_mesh", step.edits_mesh);
        d.set("run", static_cast<std::int64_t>(step.run));
        Dict_array writes;
        for (const auto& w : step.writes)
            writes.emplace_back(w);
        d.set("writes", std::move(writes));
        Dict_array reads;
        for (const auto& r : step.reads) {
            Dict rd;
            rd.set("layer", r.layer);
            rd.set("fresh", input_version(world, r.layer) == r.version);
            reads.emplace_back(std::move(rd));
        }
        d.set("reads", std::move(reads));
        steps.emplace_back(std::move(d));
    }
    Dict out;
    out.set("steps", std::move(steps));
    return out;
}

Provenance provenance_from_dict(const Dict& dict, const World& world) {
    Provenance out;
    const auto& steps = field<Dict_array>(dict, "steps", "provenance");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string where = "provenance step " + std::to_string(i + 1);
        if (!steps[i].is<Dict>()) throw Record_error(where + ": not a dict");
        const Dict& d = steps[i].as<Dict>();
        Step_record step;
        step.module = field<std::string>(d, "module", where);
        step.params = field<Dict>(d, "params", where);
        step.seed = static_cast<std::uint64_t>(field<std::int64_t>(d, "seed", where));
        step.edits_mesh = field<bool>(d, "edits_mesh", where);
        const auto run = field<std::int64_t>(d, "run", where);
        if (run < 0 || run > std::int64_t(UINT32_MAX))
            throw Record_error(where + ": run " + std::to_string(run) + " is out of range");
        step.run = static_cast<std::uint32_t>(run);
        for (const auto& w : field<Dict_array>(d, "writes", where)) {
            if (!w.is<std::string>())
                throw Record_error(where + ": a written layer is not a string");
            step.writes.push_back(w.as<std::string>());
        }
        for (const auto& r : field<Dict_array>(d, "reads", where)) {
            if (!r.is<Dict>()) throw Record_error(where + ": an input is not a dict");
            const Dict& rd = r.as<Dict>();
            Step_input input;
            input.layer = field<std::string>(rd, "layer", where + " input");
            const auto now = input_version(world, input.layer);
            input.version = field<bool>(rd, "fresh", where + " input") && now ? *now : 0;
            step.reads.push_back(std::move(input));
        }
        out.steps.push_back(std::move(step));
    }
    return out;
}

} // namespace orbis::io
