// SPDX-License-Identifier: MIT
// The value-change step: one layer value of one element, typed in by the user.
#include "ui/commands/set_value.hpp"

#include "ui/document.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/world_delta.hpp"

#include <QObject>

#include <cmath>
#include <limits>

namespace orbis::ui {

std::optional<QString> set_layer_value(Document& document, const QString& layer_name,
                                       std::size_t slot, const QString& text) {
    auto refuse = [](const QString& why) { return std::optional<QString>(why); };
    if (const auto why = document.check_edit()) return why;
    const World& world = *document.world();
    const std::string name = layer_name.toStdString();
    const Layer_base* layer = world.find_layer(name);
    if (!layer) return refuse(QObject::tr("there is no layer '%1'").arg(layer_name));
    bool ok = false;
    const QString trimmed = text.trimmed();
    double value = trimmed.toDouble(&ok);
    if (!ok && (trimmed == "true" || trimmed == "false")) {
        value = trimmed == "true";
        ok = true;
    }
    if (!ok || !std::isfinite(value))
        return refuse(QObject::tr("'%1' is not a finite number").arg(trimmed));
    World next = world;
    QString error;
    bool changed = false;
    try {
        with_value_type(layer->value_tag(), [&]<class T>() {
            with_layer_type(layer->type(), [&]<Layer_type Type>() {
                if constexpr (!Layer_scalar<T>) {
                    error = QObject::tr("only scalar values are edited here");
                } else {
                    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                        // 2^digits is one past the largest T and exact as a double (the
                        // largest int64 itself is not).
                        if (value != std::floor(value) ||
                            value < double(std::numeric_limits<T>::lowest()) ||
                            value >= std::ldexp(1.0, std::numeric_limits<T>::digits)) {
                            error = QObject::tr("'%1' is not a %2")
                                        .arg(trimmed)
                                        .arg(QString::fromUtf8(layer->value_name().data(),
                                                               int(layer->value_name().size())));
                            return;
                        }
                    }
                    const auto& typed = static_cast<const Layer<T, Type>&>(*layer);
                    if (slot >= typed.size()) {
                        error = QObject::tr("there is no slot %1 in layer '%2'")
                                    .arg(slot)
                                    .arg(layer_name);
                        return;
                    }
                    auto [values] = next.lock_layer(typed.info());
                    values[Layer<T, Type>::key(slot)] = static_cast<T>(value);
                    values.release(); // checks the layer's range; throws and restores if not
                    changed = true;
                }
            });
        });
    } catch (const std::exception& e) {
        return refuse(QString::fromStdString(e.what()));
    }
    if (!error.isEmpty()) return refuse(error);
    if (!changed) return QObject::tr("nothing changed");
    World_delta delta = delta_from(world);
    if (layer->type() == Layer_type::vertex)
        delta.vertices.push_back(Vertex(static_cast<std::uint32_t>(slot)));
    else if (layer->type() == Layer_type::face)
        delta.faces.push_back(Face(static_cast<std::uint32_t>(slot)));
    document.push(QObject::tr("Set %1[%2] = %3").arg(layer_name).arg(slot).arg(trimmed),
                  std::move(next), std::move(delta));
    return std::nullopt;
}

} // namespace orbis::ui
