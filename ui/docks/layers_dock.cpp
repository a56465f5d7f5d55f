// SPDX-License-Identifier: MIT
// The Layers dock: every layer of the World with its statistics, and how the shown one looks.
#include "ui/docks/layers_dock.hpp"

#include "ui/docks/histogram_widget.hpp"

#include "orbis/core/world.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace orbis::ui {

namespace {

QString kind_name(const render::Layer_stats& s) {
    if (s.is_dict) return QObject::tr("dict");
    switch (s.type) {
    case Layer_type::vertex:
        return QObject::tr("vertex");
    case Layer_type::face:
        return QObject::tr("face");
    case Layer_type::edge_primal:
        return QObject::tr("edge");
    case Layer_type::edge_primal_directed:
        return QObject::tr("directed edge");
    case Layer_type::edge_dual:
        return QObject::tr("dual edge");
    case Layer_type::edge_dual_directed:
        return QObject::tr("directed dual edge");
    }
    return {};
}

QString number(double v) { return std::isnan(v) ? QString("–") : QString::number(v, 'g', 6); }

bool is_integer_type(const std::string& t) {
    return t == "bool" || t == "int32" || t == "uint32" || t == "int64";
}

} // namespace

Layers_dock::Layers_dock(QWidget* parent)
    : QDockWidget(tr("Layers"), parent) {
    setObjectName("layers_dock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);

    table_ = new QTreeWidget(body);
    table_->setObjectName("layers_table");
    table_->setRootIsDecorated(false);
    table_->setAlternatingRowColors(true);
    table_->setHeaderLabels(
        {tr("Layer"), tr("Kind"), tr("Type"), tr("Count"), tr("Min"), tr("Mean"), tr("Max")});
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table_, 1);

    auto* form = new QFormLayout();
    map_ = new QComboBox(body);
    map_->setObjectName("colour_map");
    map_->addItem(tr("automatic"), QString());
    for (const std::string_view name : colour_map_names())
        map_->addItem(QString::fromUtf8(name.data(), int(name.size())),
                      QString::fromUtf8(name.data(), int(name.size())));
    form->addRow(tr("Colour map"), map_);
    auto_range_ = new QCheckBox(tr("automatic (min to max)"), body);
    auto_range_->setObjectName("auto_range");
    auto_range_->setChecked(true);
    form->addRow(tr("Range"), auto_range_);
    auto* range = new QHBoxLayout();
    min_ = new QDoubleSpinBox(body);
    max_ = new QDoubleSpinBox(body);
    for (QDoubleSpinBox* box : {min_, max_}) {
        box->setRange(-1e12, 1e12);
        box->setDecimals(4);
        box->setEnabled(false);
        range->addWidget(box);
    }
    min_->setObjectName("range_min");
    max_->setObjectName("range_max");
    form->addRow(QString(), range);
    layout->addLayout(form);
    histogram_ = new Histogram_widget(body);
    histogram_->setObjectName("histogram");
    layout->addWidget(histogram_);
    setWidget(body);

    connect(table_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (updating_) return;
        const std::string name =
            item ? item->data(0, Qt::UserRole).toString().toStdString() : std::string();
        if (name == shown_) return;
        shown_ = name;
        refresh_controls();
        Q_EMIT view_changed();
    });
    auto changed = [this] {
        if (updating_) return;
        min_->setEnabled(!auto_range_->isChecked());
        max_->setEnabled(!auto_range_->isChecked());
        refresh_controls();
        Q_EMIT view_changed();
    };
    connect(map_, qOverload<int>(&QComboBox::currentIndexChanged), this, changed);
    connect(auto_range_, &QCheckBox::toggled, this, changed);
    connect(min_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, changed);
    connect(max_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, changed);
    histogram_->clear(tr("Choose a layer to colour the view"));
}

void Layers_dock::set_world(const World& world) {
    stats_ = render::all_layer_stats(world);
    updating_ = true;
    table_->clear();
    auto* none = new QTreeWidgetItem(table_, {tr("(none)")});
    none->setData(0, Qt::UserRole, QString());
    bool still_there = shown_.empty();
    for (const render::Layer_stats& s : stats_) {
        QStringList columns{QString::fromStdString(s.name), kind_name(s),
                            QString::fromStdString(s.value_type), QString::number(s.count)};
        if (!s.is_dict) columns << number(s.min) << number(s.mean) << number(s.max);
        auto* item = new QTreeWidgetItem(table_, columns);
        item->setData(0, Qt::UserRole, QString::fromStdString(s.name));
        if (s.is_dict) item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
        for (int c = 3; c < 7; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        if (s.name == shown_ && !s.is_dict) still_there = true;
    }
    const bool lost = !still_there;
    if (lost) shown_.clear();
    select_row_of_shown();
    updating_ = false;
    refresh_controls();
    // The view still shows the layer that went (an undo removed it): tell it.
    if (lost) Q_EMIT view_changed();
}

void Layers_dock::set_shown_layer(const std::string& name) {
    bool known = name.empty();
    for (const render::Layer_stats& s : stats_)
        known = known || (s.name == name && !s.is_dict);
    const std::string chosen = known ? name : std::string();
    if (chosen == shown_) return;
    shown_ = chosen;
    updating_ = true;
    select_row_of_shown();
    updating_ = false;
    refresh_controls();
    Q_EMIT view_changed();
}

void Layers_dock::select_row_of_shown() {
    for (int i = 0; i < table_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = table_->topLevelItem(i);
        if (item->data(0, Qt::UserRole).toString().toStdString() == shown_) {
            table_->setCurrentItem(item);
            return;
        }
    }
}

const render::Layer_stats* Layers_dock::shown_stats() const {
    for (const render::Layer_stats& s : stats_)
        if (s.name == shown_ && !s.is_dict) return &s;
    return nullptr;
}

render::Colour_options Layers_dock::colour_options() const {
    render::Colour_options o;
    const QString chosen = map_->currentData().toString();
    if (!chosen.isEmpty()) {
        o.map = colour_map_from_name(chosen.toStdString());
    } else if (const render::Layer_stats* s = shown_stats()) {
        o.map = default_colour_map(s->name, is_integer_type(s->value_type));
    }
    if (!auto_range_->isChecked()) o.range = std::pair{min_->value(), max_->value()};
    return o;
}

void Layers_dock::refresh_controls() {
    const render::Layer_stats* s = shown_stats();
    if (!s) {
        histogram_->clear(tr("Choose a layer to colour the view"));
        return;
    }
    if (auto_range_->isChecked() && std::isfinite(s->min) && std::isfinite(s->max)) {
        updating_ = true;
        min_->setValue(s->min);
        max_->setValue(s->max);
        updating_ = false;
    }
    if (s->histogram.empty()) {
        histogram_->clear(tr("No finite values"));
        return;
    }
    const render::Colour_options o = colour_options();
    const bool vector = s->value_type.find("vec") != std::string::npos;
    histogram_->set_histogram(s->histogram, s->min, s->max, vector ? std::nullopt : o.map,
                              o.sea_level);
}

} // namespace orbis::ui
