// SPDX-License-Identifier: MIT
// What a module plugin includes: the macro that defines its entry points. A plugin is a shared
// library outside Orbis (link orbis::plugin, not the Orbis libraries: their code and globals come
// from the host) that registers its modules when Orbis loads it (plugin.hpp, the host side).
//
//     ORBIS_MODULE_PLUGIN(registry) {
//         registry.add(std::make_shared<My_module>());
//     }
#pragma once

#include "orbis/gen/module_registry.hpp"
#include "orbis/version.hpp"

/// Gives a plugin's entry points default visibility, so that the host finds them even when the
/// plugin is compiled with -fvisibility=hidden.
#define ORBIS_PLUGIN_EXPORT __attribute__((visibility("default")))

/// Starts the text that ORBIS_MODULE_PLUGIN stores in the library ahead of the version it was
/// compiled with. The host reads the version from the file when the library cannot even be
/// loaded (a symbol it needs is gone from this Orbis), so that the refusal still names it.
#define ORBIS_PLUGIN_VERSION_TAG_PREFIX "orbis-module-plugin built against Orbis "

/// ORBIS_MODULE_PLUGIN for a plugin that claims `version_string` (a string literal) instead of
/// the version it is compiled with; for tests of the host's version check only.
#define ORBIS_MODULE_PLUGIN_FOR_VERSION(version_string, registry)                                  \
    extern "C" ORBIS_PLUGIN_EXPORT const char orbis_plugin_version_tag[] =                         \
        ORBIS_PLUGIN_VERSION_TAG_PREFIX version_string;                                            \
    extern "C" ORBIS_PLUGIN_EXPORT const char* orbis_plugin_version() {                            \
        return orbis_plugin_version_tag + sizeof(ORBIS_PLUGIN_VERSION_TAG_PREFIX) - 1;             \
    }                                                                                              \
    extern "C" ORBIS_PLUGIN_EXPORT void orbis_register_modules(                                    \
        ::orbis::gen::Module_registry& registry)

/// Defines the plugin's entry points; the body that follows adds its modules to `registry` (a
/// Module_registry&). The host calls it once per load, after checking that the plugin was
/// compiled against its own Orbis version. It may throw: the plugin is then refused with the
/// message and none of its modules is added. Use it once per plugin, at namespace scope.
#define ORBIS_MODULE_PLUGIN(registry)                                                              \
    ORBIS_MODULE_PLUGIN_FOR_VERSION(ORBIS_VERSION_STRING, registry)
