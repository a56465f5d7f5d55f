// SPDX-License-Identifier: MIT
#include "ui/editor_modules.hpp"

#include "orbis/gen/plugin.hpp"

#include <optional>

namespace orbis::ui {

namespace {

std::optional<gen::Module_registry>& registry() {
    static std::optional<gen::Module_registry> modules;
    return modules;
}

} // namespace

std::vector<std::string>
load_editor_modules(const std::vector<std::filesystem::path>& extra_folders) {
    if (registry()) return {};
    gen::Plugin_report report;
    registry() = gen::available_modules(extra_folders, &report);
    return report.refused;
}

const gen::Module_registry& editor_modules() {
    if (!registry()) load_editor_modules({});
    return *registry();
}

} // namespace orbis::ui
