// SPDX-License-Identifier: MIT
// File > New: the generation pipeline's parameters as a form.
#include "ui/dialogs/new_world_dialog.hpp"

#include "orbis/gen/module_registry.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

namespace orbis::ui {

New_world_dialog::New_world_dialog(const gen::Pipeline& pipeline,
                                   const gen::Module_registry& registry, QWidget* parent)
    : QDialog(parent)
    , pipeline_(pipeline) {
    setWindowTitle(tr("New World"));
    setObjectName("new_world_dialog");
    auto* layout = new QVBoxLayout(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* body = new QWidget(scroll);
    auto* steps = new QVBoxLayout(body);
    for (std::size_t i = 0; i < pipeline_.steps.size(); ++i) {
        const gen::Pipeline_step& step = pipeline_.steps[i];
        const gen::Module* module = registry.find(step.module);
        auto* group = new QGroupBox(QString::fromStdString(step.module), body);
        if (module)
            group->setToolTip(
                QString::fromUtf8(module->description().data(), int(module->description().size())));
        auto* form = new QFormLayout(group);
        if (module) {
            for (const gen::Parameter& p : module->parameters()) {
                const Dict_value* value = step.params.find(p.name);
                const QString tip = QString::fromStdString(p.description);
                QWidget* field = nullptr;
                const std::string key = p.name;
                switch (p.kind) {
                case gen::Parameter_kind::boolean: {
                    auto* box = new QCheckBox(group);
                    box->setChecked(value && value->is<bool>() && value->as<bool>());
                    readers_.push_back([i, key, box](gen::Pipeline& out) {
                        out.steps[i].params.set(key, box->isChecked());
                    });
                    field = box;
                    break;
                }
                case gen::Parameter_kind::integer: {
                    // Spin boxes hold int; larger ranges (seeds) go through a double box.
                    if (p.min >= INT_MIN && p.max <= INT_MAX) {
                        auto* box = new QSpinBox(group);
                        box->setRange(int(p.min), int(p.max));
                        box->setGroupSeparatorShown(true);
                        if (value && value->is<std::int64_t>())
                            box->setValue(int(value->as<std::int64_t>()));
                        readers_.push_back([i, key, box](gen::Pipeline& out) {
                            out.steps[i].params.set(key, std::int64_t{box->value()});
                        });
                        field = box;
                    } else {
                        auto* box = new QDoubleSpinBox(group);
                        box->setDecimals(0);
                        box->setRange(p.min, std::min(p.max, 9.0e15));
                        if (value && value->is<std::int64_t>())
                            box->setValue(double(value->as<std::int64_t>()));
                        readers_.push_back([i, key, box](gen::Pipeline& out) {
                            out.steps[i].params.set(key, std::int64_t(std::llround(box->value())));
                        });
                        field = box;
                    }
                    break;
                }
                case gen::Parameter_kind::real: {
                    auto* box = new QDoubleSpinBox(group);
                    // Enough decimals for the declared bounds and the default: the box rounds
                    // its range and value to them, and a minimum of 1e-6 shown as 0 would let
                    // the form ask for a value the module refuses (erosion's K is 1e-6).
                    int decimals = 4;
                    const double fallback =
                        p.default_value.is<double>() ? p.default_value.as<double>() : 0.0;
                    for (const double bound : {p.min, p.max, fallback})
                        if (bound != 0 && std::abs(bound) < 1e-4)
                            decimals = std::max(
                                decimals,
                                std::min(12, 2 + int(std::ceil(-std::log10(std::abs(bound))))));
                    box->setDecimals(decimals);
                    box->setRange(p.min, p.max);
                    box->setSingleStep(std::max((p.max - p.min) / 100.0, 1e-4));
                    if (value && value->is<double>()) box->setValue(value->as<double>());
                    readers_.push_back([i, key, box](gen::Pipeline& out) {
                        out.steps[i].params.set(key, box->value());
                    });
                    field = box;
                    break;
                }
                case gen::Parameter_kind::string: {
                    auto* edit = new QLineEdit(group);
                    if (value && value->is<std::string>())
                        edit->setText(QString::fromStdString(value->as<std::string>()));
                    readers_.push_back([i, key, edit](gen::Pipeline& out) {
                        out.steps[i].params.set(key, edit->text().toStdString());
                    });
                    field = edit;
                    break;
                }
                }
                field->setObjectName(QString::fromStdString(step.module + "." + p.name));
                field->setToolTip(tip);
                const QString unit =
                    p.unit.empty() ? QString() : " (" + QString::fromStdString(p.unit) + ")";
                form->addRow(QString::fromStdString(p.name) + unit, field);
            }
        }
        steps->addWidget(group);
    }
    steps->addStretch(1);
    scroll->setWidget(body);
    layout->addWidget(scroll, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Generate"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(460, 560);
}

gen::Pipeline New_world_dialog::pipeline() const {
    gen::Pipeline out = pipeline_;
    for (const auto& read : readers_)
        read(out);
    return out;
}

} // namespace orbis::ui
