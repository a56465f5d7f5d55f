// SPDX-License-Identifier: MIT
// A bar chart of a layer's value histogram, coloured by the colour map it is shown with.
#pragma once

#include "orbis/core/colour_map.hpp"

#include <QWidget>

#include <cstddef>
#include <optional>
#include <vector>

namespace orbis::ui {

/// Draws bins as bars from `min` to `max`, each in the map's colour for the bin's centre, with
/// the range's ends written underneath.
class Histogram_widget : public QWidget {
    Q_OBJECT
public:
    /// An empty histogram.
    explicit Histogram_widget(QWidget* parent = nullptr);

    /// Shows `bins` over [min, max], coloured by `map` (categorical: grey bars).
    void set_histogram(std::vector<std::size_t> bins, double min, double max,
                       std::optional<Colour_map_kind> map, double sea_level);
    /// Shows nothing but `reason`.
    void clear(const QString& reason);

    QSize sizeHint() const override { return {240, 110}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::size_t> bins_;
    double min_ = 0.0;
    double max_ = 1.0;
    std::optional<Colour_map_kind> map_;
    double sea_level_ = 0.0;
    QString reason_;
};

} // namespace orbis::ui
