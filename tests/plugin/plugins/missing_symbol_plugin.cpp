// SPDX-License-Identifier: MIT
// A plugin built against another Orbis version that had a function this one lacks: the loader
// refuses it before its version can be asked for.
#include "test_module.hpp"

#include <orbis/gen/plugin_api.hpp>

#include <memory>

namespace orbis::gen {
// Exists in no Orbis; the plugin leaves it undefined, as it does every Orbis function.
int function_gone_from_this_version();
} // namespace orbis::gen

ORBIS_MODULE_PLUGIN_FOR_VERSION("0.0.0-gone", registry) {
    if (orbis::gen::function_gone_from_this_version() == 0)
        registry.add(std::make_shared<orbis::test::Named_module>("from_a_gone_version"));
}
