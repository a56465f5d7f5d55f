// SPDX-License-Identifier: MIT
// A plugin that registers one module, then throws from its registration.
#include "test_module.hpp"

#include <orbis/gen/plugin_api.hpp>

#include <memory>
#include <stdexcept>

ORBIS_MODULE_PLUGIN(registry) {
    registry.add(std::make_shared<orbis::test::Named_module>("half_registered"));
    throw std::runtime_error("registration failed on purpose");
}
