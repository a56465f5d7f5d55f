// SPDX-License-Identifier: MIT
// Run Module: asks which generation module to run on the document, and with what parameters.
#pragma once

#include "orbis/gen/pipeline.hpp"

#include <QStringList>

#include <optional>

class QWidget;

namespace orbis::ui {

/// The modules Run Module offers: editor_modules(), built-in ones first, then plugins.
QStringList module_choices();

/// Asks for one of module_choices() and its parameters (the New dialog's form); nothing when
/// cancelled.
std::optional<gen::Pipeline> ask_module_run(QWidget* parent);

} // namespace orbis::ui
