// SPDX-License-Identifier: MIT
// How a layer wants to be shown, set by the module that writes it: label, unit, colour map and
// range, and the names and colours of a categorical layer's values. The editor's Layers dock,
// legend and Inspector and orbis-cli map / info read them instead of guessing from names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis {

/// One value of a categorical integer layer (a plate, a biome): its name and colour.
struct Layer_category {
    std::int64_t value = 0;      ///< the layer's value
    std::string name;            ///< shown in the legend and the Inspector ("Plate 3")
    glm::u8vec3 colour{0, 0, 0}; ///< sRGB colour in the legend and on the globe
    /// Same value, name and colour.
    friend bool operator==(const Layer_category&, const Layer_category&) = default;
};

/// Display hints of one layer. Every field is optional: empty strings and missing values mean
/// "no hint", and the viewer falls back to its defaults (default_colour_map in colour_map.hpp).
struct Layer_hints {
    std::string label;                      ///< human name ("Elevation"); empty: the layer's name
    std::string unit;                       ///< unit of the values ("m", "°C"); empty: none
    std::string colour_map;                 ///< a colour_map_name ("terrain"); empty: default
    std::optional<double> min;              ///< low end of the display range
    std::optional<double> max;              ///< high end of the display range
    std::vector<Layer_category> categories; ///< named values of a categorical layer

    /// True when no field is set.
    bool empty() const {
        return label.empty() && unit.empty() && colour_map.empty() && !min && !max &&
               categories.empty();
    }
    /// The category of `value`, or nullptr. O(categories).
    const Layer_category* category(std::int64_t value) const {
        for (const auto& c : categories)
            if (c.value == value) return &c;
        return nullptr;
    }
    /// Same fields.
    friend bool operator==(const Layer_hints&, const Layer_hints&) = default;
};

/// Hints with a label, a unit and a colour map (by colour_map_name), the rest unset.
inline Layer_hints make_hints(std::string label, std::string unit = {},
                              std::string colour_map = {}) {
    Layer_hints h;
    h.label = std::move(label);
    h.unit = std::move(unit);
    h.colour_map = std::move(colour_map);
    return h;
}

} // namespace orbis
