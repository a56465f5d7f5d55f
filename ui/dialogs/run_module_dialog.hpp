// SPDX-License-Identifier: MIT
// Run Module: asks which generation module to run on the document, and with what parameters.
#pragma once

#include "orbis/gen/pipeline.hpp"

#include <optional>

class QWidget;

namespace orbis::ui {

/// Asks for a module of the built-in registry and its parameters (the New dialog's form);
/// nothing when cancelled.
std::optional<gen::Pipeline> ask_module_run(QWidget* parent);

} // namespace orbis::ui
