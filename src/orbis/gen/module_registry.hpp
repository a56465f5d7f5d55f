// SPDX-License-Identifier: MIT
// The modules a pipeline can name.
#pragma once

#include "orbis/gen/module.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace orbis::gen {

/// A set of modules by name. Registries may share modules (a registry of the built-in modules
/// plus plugins shares the built-in ones); a plugin's module keeps its library loaded.
class Module_registry {
public:
    /// Adds `module`. \throws std::invalid_argument when its name is empty or taken.
    void add(std::shared_ptr<const Module> module);
    /// Adds every module of `other` (sharing them). \throws std::invalid_argument when a name
    /// is taken (nothing is added then).
    void add_all(const Module_registry& other);
    /// The module called `name`, or nullptr.
    const Module* find(std::string_view name) const;
    /// Every module, in the order added.
    std::vector<const Module*> modules() const;
    /// Names of every module, comma-separated, for messages.
    std::string names() const;

private:
    std::vector<std::shared_ptr<const Module>> modules_;
};

/// Orbis's own modules: sphere, delaunay, plates, elevation, refine, plate_boundaries.
const Module_registry& builtin_modules();

} // namespace orbis::gen
