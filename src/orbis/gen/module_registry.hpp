// SPDX-License-Identifier: MIT
// The modules a pipeline can name.
#pragma once

#include "orbis/gen/module.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace orbis::gen {

/// A set of modules by name.
class Module_registry {
public:
    /// Adds `module`. \throws std::invalid_argument when its name is empty or taken.
    void add(std::unique_ptr<Module> module);
    /// The module called `name`, or nullptr.
    const Module* find(std::string_view name) const;
    /// Every module, in the order added.
    std::vector<const Module*> modules() const;
    /// Names of every module, comma-separated, for messages.
    std::string names() const;

private:
    std::vector<std::unique_ptr<Module>> modules_;
};

/// Orbis's own modules: sphere, delaunay, plates, elevation, refine, plate_boundaries.
const Module_registry& builtin_modules();

} // namespace orbis::gen
