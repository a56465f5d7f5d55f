// SPDX-License-Identifier: MIT
// A plugin that registers a new module and one that Orbis already has.
#include "test_module.hpp"

#include <orbis/gen/plugin_api.hpp>

#include <memory>

ORBIS_MODULE_PLUGIN(registry) {
    registry.add(std::make_shared<orbis::test::Named_module>("before_the_duplicate"));
    registry.add(std::make_shared<orbis::test::Named_module>("sphere"));
}
