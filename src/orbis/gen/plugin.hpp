// SPDX-License-Identifier: MIT
// Loading module plugins: shared libraries outside Orbis whose modules join the built-in ones
// (the plugin side is plugin_api.hpp). A plugin leaves Orbis's symbols undefined and takes them
// from the host, so a host that loads plugins must export them: CMake's
// orbis_plugin_host(target) (cmake/OrbisPluginHost.cmake) does it for Orbis's own programs.
#pragma once

#include "orbis/gen/module_registry.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace orbis::gen {

/// Loads the module plugin `library` and adds its modules to `into`; returns why it was refused,
/// or nothing when it was loaded. A refusal starts with the path and changes nothing in `into`:
/// a file that cannot be loaded (the loader's message), one without the plugin entry points, one
/// built against another Orbis version (the message names both), a registration that throws
/// (its message), or a module whose name `into` already has. Never throws for a bad plugin.
/// The library stays loaded while any of its modules exists, and its code stays mapped after
/// that, because a World may hold objects the plugin made (layers, callbacks). Loading runs the
/// library's static initialisers before the version can be checked. Not thread-safe with other
/// loads into the same registry.
std::optional<std::string> load_plugin(const std::filesystem::path& library, Module_registry& into);

/// Where Orbis looks for plugins: the folders of the environment variable ORBIS_MODULE_PATH
/// (colon-separated, empty entries skipped), then the per-user folder
/// `$XDG_DATA_HOME/orbis/modules`, or `$HOME/.local/share/orbis/modules` when XDG_DATA_HOME is
/// unset or empty (left out when HOME is unset too). Folders need not exist.
std::vector<std::filesystem::path> plugin_folders();

/// What load_plugins did.
struct Plugin_report {
    std::vector<std::filesystem::path> loaded; ///< plugins whose modules were added, in order
    std::vector<std::string> refused;          ///< one load_plugin refusal per refused file
};

/// load_plugin for every regular file named `*.so` directly in each folder (not in subfolders),
/// folder by folder, in file-name order within a folder so that the outcome does not depend on
/// the file system. Missing or unreadable folders are skipped silently, and a folder listed
/// twice is read once. Refusals are collected in the report, never thrown.
Plugin_report load_plugins(std::span<const std::filesystem::path> folders, Module_registry& into);

/// The modules a host offers: builtin_modules() plus the plugins of `extra_folders` (e.g.
/// `orbis-cli --plugins DIR`), then those of plugin_folders(). Where two plugins name the same
/// module the first one loaded wins and the other is refused. What was loaded and refused goes
/// to `report` when it is not null. Cost: about a millisecond per plugin (dlopen).
Module_registry available_modules(std::span<const std::filesystem::path> extra_folders,
                                  Plugin_report* report = nullptr);

} // namespace orbis::gen
