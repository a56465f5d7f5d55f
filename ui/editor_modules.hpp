// SPDX-License-Identifier: MIT
// The modules the editor offers: the built-in ones and the plugins it finds.
#pragma once

#include "orbis/gen/module_registry.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace orbis::ui {

/// Loads the plugins of `extra_folders` (the editor's --plugins), then those on
/// ORBIS_MODULE_PATH and in the per-user folder, once per process; returns the refusals (one
/// line each, naming the file). Later calls return nothing and load nothing. Call it before the
/// first editor_modules() for the folders to count.
std::vector<std::string>
load_editor_modules(const std::vector<std::filesystem::path>& extra_folders);

/// The built-in modules and the plugins load_editor_modules found (it runs with no extra
/// folders when nobody called it before). The New and Run Module dialogs and the job runner
/// use it, so plugin modules appear everywhere the built-in ones do.
const gen::Module_registry& editor_modules();

} // namespace orbis::ui
