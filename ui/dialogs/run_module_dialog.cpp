// SPDX-License-Identifier: MIT
// Run Module: asks which generation module to run on the document, and with what parameters.
#include "ui/dialogs/run_module_dialog.hpp"

#include "ui/dialogs/new_world_dialog.hpp"

#include "orbis/gen/module.hpp"
#include "ui/editor_modules.hpp"

#include <QInputDialog>
#include <QStringList>

namespace orbis::ui {

QStringList module_choices() {
    QStringList names;
    for (const gen::Module* m : editor_modules().modules())
        names << QString::fromUtf8(m->name().data(), int(m->name().size()));
    return names;
}

std::optional<gen::Pipeline> ask_module_run(QWidget* parent) {
    const QStringList names = module_choices();
    bool ok = false;
    const QString name = QInputDialog::getItem(parent, QObject::tr("Run Module"),
                                               QObject::tr("Module:"), names, 0, false, &ok);
    if (!ok) return std::nullopt;
    gen::Pipeline one;
    one.steps.push_back(
        {name.toStdString(),
         gen::complete_parameters(*editor_modules().find(name.toStdString()), Dict())});
    New_world_dialog dialog(one, editor_modules(), parent);
    dialog.setWindowTitle(QObject::tr("Run %1").arg(name));
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.pipeline();
}

} // namespace orbis::ui
