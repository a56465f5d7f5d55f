// SPDX-License-Identifier: MIT
// A plugin that claims to be built against another Orbis version, and would load otherwise.
#include "test_module.hpp"

#include <orbis/gen/plugin_api.hpp>

#include <memory>

ORBIS_MODULE_PLUGIN_FOR_VERSION("0.0.0-other", registry) {
    registry.add(std::make_shared<orbis::test::Named_module>("from_another_version"));
}
