// SPDX-License-Identifier: MIT
// The value-change step: one layer value of one element, typed in by the user.
#pragma once

#include <QString>

#include <cstddef>
#include <optional>

namespace orbis::ui {

class Document;

/// Sets the value of `layer` for `slot` from `text` as one undoable step of `document`. Returns
/// why it was refused (no world or busy, no such layer, not a finite number, not a scalar
/// layer, not a value of the layer's integer type, outside the layer's range), and then changes
/// nothing. Slots of undirected edge layers are quad-edge indices, of directed ones edge indices.
std::optional<QString> set_layer_value(Document& document, const QString& layer, std::size_t slot,
                                       const QString& text);

} // namespace orbis::ui
