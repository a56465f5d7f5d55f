// SPDX-License-Identifier: MIT
// File > New: the generation pipeline's parameters as a form.
#pragma once

#include "orbis/gen/pipeline.hpp"

#include <QDialog>

#include <functional>
#include <vector>

namespace orbis::ui {

/// A form with one group per pipeline step and one field per module parameter (spin boxes
/// bounded by the parameter's range, check boxes, text), each with the parameter's
/// description as its tooltip. pipeline() gives the edited pipeline.
class New_world_dialog : public QDialog {
    Q_OBJECT
public:
    /// A form for `pipeline`, whose steps must be modules of `registry`.
    New_world_dialog(const gen::Pipeline& pipeline, const gen::Module_registry& registry,
                     QWidget* parent = nullptr);

    /// The pipeline with the values in the form.
    gen::Pipeline pipeline() const;

private:
    gen::Pipeline pipeline_;
    // Per field: writes its value into the pipeline.
    std::vector<std::function<void(gen::Pipeline&)>> readers_;
};

} // namespace orbis::ui
