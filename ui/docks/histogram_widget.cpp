// SPDX-License-Identifier: MIT
// A bar chart of a layer's value histogram, coloured by the colour map it is shown with.
#include "ui/docks/histogram_widget.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace orbis::ui {

Histogram_widget::Histogram_widget(QWidget* parent)
    : QWidget(parent) {
    setMinimumHeight(80);
}

void Histogram_widget::set_histogram(std::vector<std::size_t> bins, double min, double max,
                                     std::optional<Colour_map_kind> map, double sea_level) {
    bins_ = std::move(bins);
    min_ = min;
    max_ = max;
    map_ = map;
    sea_level_ = sea_level;
    reason_.clear();
    update();
}

void Histogram_widget::clear(const QString& reason) {
    bins_.clear();
    reason_ = reason;
    update();
}

void Histogram_widget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QFontMetrics metrics(font());
    if (bins_.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, reason_);
        return;
    }
    const QRect plot = rect().adjusted(4, 4, -4, -metrics.height() - 6);
    const std::size_t peak = *std::max_element(bins_.begin(), bins_.end());
    // A square-root scale keeps small bins visible next to a dominant one (e.g. the ocean
    // floor next to land heights).
    const double scale = peak > 0 ? plot.height() / std::sqrt(double(peak)) : 0.0;
    const double width = double(plot.width()) / bins_.size();
    for (std::size_t i = 0; i < bins_.size(); ++i) {
        const double t = (i + 0.5) / bins_.size();
        const double value = min_ + t * (max_ - min_);
        const Srgb8 c =
            map_ ? map_colour(*map_, value, min_, max_, sea_level_) : Srgb8{150, 150, 160};
        const int h = int(std::lround(std::sqrt(double(bins_[i])) * scale));
        const QRectF bar(plot.left() + i * width, plot.bottom() - h + 1, std::max(width - 1, 1.0),
                         h);
        painter.fillRect(bar, QColor(c.r, c.g, c.b));
    }
    painter.setPen(palette().color(QPalette::Text));
    const QRect labels(plot.left(), plot.bottom() + 3, plot.width(), metrics.height());
    painter.drawText(labels, Qt::AlignLeft, QString::number(min_, 'g', 5));
    painter.drawText(labels, Qt::AlignRight, QString::number(max_, 'g', 5));
    painter.drawText(labels, Qt::AlignHCenter, tr("√count"));
}

} // namespace orbis::ui
