// SPDX-License-Identifier: MIT
#include "orbis/gen/module_registry.hpp"

#include "orbis/gen/biome_module.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/delaunay_module.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/erosion_module.hpp"
#include "orbis/gen/hydrology_module.hpp"
#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/refine_module.hpp"
#include "orbis/gen/sphere_module.hpp"
#include "orbis/gen/tectonics_module.hpp"

#include <stdexcept>

namespace orbis::gen {

void Module_registry::add_all(const Module_registry& other) {
    for (const auto& m : other.modules_)
        if (find(m->name()))
            throw std::invalid_argument("module '" + std::string(m->name()) +
                                        "' is registered twice");
    modules_.insert(modules_.end(), other.modules_.begin(), other.modules_.end());
}

void Module_registry::add(std::shared_ptr<const Module> module) {
    if (!module || module->name().empty()) throw std::invalid_argument("a module needs a name");
    if (find(module->name()))
        throw std::invalid_argument("module '" + std::string(module->name()) +
                                    "' is registered twice");
    modules_.push_back(std::move(module));
}

const Module* Module_registry::find(std::string_view name) const {
    for (const auto& m : modules_)
        if (m->name() == name) return m.get();
    return nullptr;
}

std::vector<const Module*> Module_registry::modules() const {
    std::vector<const Module*> out;
    for (const auto& m : modules_)
        out.push_back(m.get());
    return out;
}

std::string Module_registry::names() const {
    std::string out;
    for (const auto& m : modules_)
        out += (out.empty() ? "" : ", ") + std::string(m->name());
    return out;
}

const Module_registry& builtin_modules() {
    static const Module_registry registry = [] {
        Module_registry r;
        r.add(std::make_unique<Sphere_module>());
        r.add(std::make_unique<Delaunay_module>());
        r.add(std::make_unique<Plates_module>());
        r.add(std::make_unique<Elevation_module>());
        r.add(std::make_unique<Refine_module>());
        r.add(std::make_unique<Plate_boundaries_module>());
        r.add(std::make_unique<Erosion_module>());
        r.add(std::make_unique<Climate_module>());
        r.add(std::make_unique<Hydrology_module>());
        r.add(std::make_unique<Biome_module>());
        r.add(std::make_unique<Tectonics_module>());
        return r;
    }();
    return registry;
}

} // namespace orbis::gen
