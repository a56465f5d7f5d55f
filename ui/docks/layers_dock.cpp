// SPDX-License-Identifier: MIT
// The Layers dock: every layer of the World with its statistics, and how the shown one looks.
#include "ui/docks/layers_dock.hpp"

#include "ui/docks/histogram_widget.hpp"

#include "orbis/core/world.hpp"

#include <QBrush>
#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QThreadPool>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
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

// The count, min, mean and max columns of a layer's row.
QStringList figure_columns(const render::Layer_stats& s) {
    if (s.pending) return {"…", "…", "…", "…"};
    if (s.is_dict) return {QString::number(s.count), QString(), QString(), QString()};
    return {QString::number(s.count), number(s.min), number(s.mean), number(s.max)};
}

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
    table_->setHeaderLabels({tr("Layer"), tr("Kind"), tr("Type"), tr("Count"), tr("Min"),
                             tr("Mean"), tr("Max"), tr("State")});
    table_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table_, 1);

    // What a stale layer is missing, and the way to bring it up to date.
    auto* stale_row = new QHBoxLayout();
    stale_reason_ = new QLabel(body);
    stale_reason_->setObjectName("stale_reason");
    stale_reason_->setWordWrap(true);
    rerun_ = new QPushButton(tr("Re-run"), body);
    rerun_->setObjectName("rerun_step");
    rerun_->setToolTip(tr("Run the step that wrote this layer again, with its recorded "
                          "parameters (one undoable step)"));
    stale_row->addWidget(stale_reason_, 1);
    stale_row->addWidget(rerun_);
    layout->addLayout(stale_row);
    connect(rerun_, &QPushButton::clicked, this, [this] {
        QTreeWidgetItem* item = table_->currentItem();
        if (!item) return;
        if (const auto s = stale(item->data(0, Qt::UserRole).toString().toStdString()))
            Q_EMIT rerun_requested(s->step);
    });

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
        refresh_stale();
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
    refresh_pool_ = std::make_unique<QThreadPool>();
    refresh_pool_->setMaxThreadCount(1);
    refresh_watcher_ = new QFutureWatcher<std::shared_ptr<Listing>>(this);
    connect(refresh_watcher_, &QFutureWatcherBase::finished, this, &Layers_dock::refresh_done);
}

Layers_dock::~Layers_dock() { refresh_watcher_->waitForFinished(); }

void Layers_dock::set_world(const World& world, bool view_layers_first) {
    ++generation_; // a background refresh running now lists an older world
    queued_world_.reset();
    std::size_t values = 0;
    if (view_layers_first)
        for (const std::string& name : world.layer_names())
            if (const Layer_base* base = world.find_layer(name)) values += base->size();
    // Only changed layers are read again.
    std::vector<render::Layer_stats> stats;
    if (values >= figures_first_from_) {
        const std::string shown = shown_;
        stats = render::all_layer_stats(world, 32, stats_, [&](std::string_view name) {
            return name == shown || name == "elevation";
        });
    } else {
        stats = render::all_layer_stats(world, 32, stats_);
    }
    list(world, std::move(stats), world.all_hints(), stale_layers(world), nullptr);
}

bool Layers_dock::refreshing() const {
    return queued_world_ || (refresh_running_ && running_generation_ == generation_);
}

void Layers_dock::refresh_in_background(const World& world) {
    auto snapshot = std::make_shared<const World>(world);
    if (refresh_running_) {
        queued_world_ = std::move(snapshot);
        return;
    }
    start_refresh(std::move(snapshot), stats_);
}

void Layers_dock::start_refresh(std::shared_ptr<const World> world,
                                std::vector<render::Layer_stats> previous) {
    refresh_running_ = true;
    running_generation_ = generation_;
    refresh_watcher_->setFuture(QtConcurrent::run(
        refresh_pool_.get(),
        [world = std::move(world), previous = std::move(previous), generation = generation_] {
            auto done = std::make_shared<Listing>();
            done->generation = generation;
            try {
                done->stats = render::all_layer_stats(*world, 32, previous);
                done->hints = world->all_hints();
                done->stale = stale_layers(*world);
                done->world = world;
            } catch (...) {
                // Out of memory, or no thread to share the pass with: the rows stay as they
                // are, and the next pause in editing asks again.
                done->failed = true;
            }
            return done;
        }));
}

void Layers_dock::refresh_done() {
    // Setting the empty future below may report a finish of its own: only the pass counts.
    if (!refresh_running_ || !refresh_watcher_->isFinished()) return;
    refresh_running_ = false;
    std::shared_ptr<Listing> done = refresh_watcher_->future().resultCount() > 0
                                        ? refresh_watcher_->future().result()
                                        : nullptr;
    refresh_watcher_->setFuture(QFuture<std::shared_ptr<Listing>>());
    const bool listed = done && !done->failed && done->generation == generation_;
    if (listed) {
        const World& world = *done->world;
        list(world, std::move(done->stats), std::move(done->hints), std::move(done->stale),
             std::move(done->world));
    }
    if (queued_world_) {
        // Edits came meanwhile: their world is computed next, reusing the figures listed for
        // the layers they left alone.
        start_refresh(std::move(queued_world_), stats_);
        queued_world_.reset();
    }
    if (listed) Q_EMIT stats_refreshed();
}

// Lists `stats` of `world` (with its hints and stale layers); `snapshot`, when given, is a
// copy of `world` that pending figures may be computed from later.
void Layers_dock::list(const World& world, std::vector<render::Layer_stats> stats,
                       std::map<std::string, Layer_hints, std::less<>> layer_hints,
                       std::vector<Stale_layer> stale_ones, std::shared_ptr<const World> snapshot) {
    stats_ = std::move(stats);
    const bool pending = std::any_of(stats_.begin(), stats_.end(),
                                     [](const render::Layer_stats& s) { return s.pending; });
    pending_world_ = !pending   ? nullptr
                     : snapshot ? std::move(snapshot)
                                : std::make_shared<const World>(world);
    hints_ = std::move(layer_hints);
    stale_ = std::move(stale_ones);
    updating_ = true;
    table_->clear();
    auto* none = new QTreeWidgetItem(table_, {tr("(none)")});
    none->setData(0, Qt::UserRole, QString());
    bool still_there = shown_.empty();
    for (const render::Layer_stats& s : stats_) {
        QString title = QString::fromStdString(s.name);
        if (const Layer_hints* h = hints(s.name)) {
            const QString label = QString::fromStdString(h->label);
            const QString unit = QString::fromStdString(h->unit);
            if (!label.isEmpty() && label.compare(title, Qt::CaseInsensitive) != 0)
                title += " – " + label;
            if (!unit.isEmpty()) title += " (" + unit + ")";
        }
        QStringList columns{title, kind_name(s), QString::fromStdString(s.value_type)};
        columns << figure_columns(s);
        const auto why = stale(s.name);
        columns << (why ? tr("stale") : QString());
        auto* item = new QTreeWidgetItem(table_, columns);
        item->setData(0, Qt::UserRole, QString::fromStdString(s.name));
        if (why) {
            item->setToolTip(7, QString::fromStdString(why->reason));
            item->setToolTip(0, QString::fromStdString(why->reason));
            // The State column may be scrolled away: the name shows it too.
            item->setForeground(7, QBrush(QColor(200, 90, 0)));
            item->setForeground(0, QBrush(QColor(200, 90, 0)));
            item->setIcon(0, table_->style()->standardIcon(QStyle::SP_MessageBoxWarning));
        }
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
    refresh_stale();
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
        o.map = default_colour_map(hints(s->name), is_integer_type(s->value_type));
    }
    if (const render::Layer_stats* s = shown_stats(); s && o.map == Colour_map_kind::categorical)
        if (const Layer_hints* h = hints(s->name)) o.categories = h->categories;
    if (!auto_range_->isChecked()) o.range = std::pair{min_->value(), max_->value()};
    return o;
}

const Layer_hints* Layers_dock::hints(const std::string& name) const {
    const auto it = hints_.find(name);
    return it == hints_.end() ? nullptr : &it->second;
}

std::optional<Stale_layer> Layers_dock::stale(const std::string& name) const {
    for (const Stale_layer& s : stale_)
        if (s.layer == name) return s;
    return std::nullopt;
}

void Layers_dock::refresh_stale() {
    QTreeWidgetItem* item = table_->currentItem();
    const auto why =
        item ? stale(item->data(0, Qt::UserRole).toString().toStdString()) : std::nullopt;
    const bool any = !stale_.empty();
    stale_reason_->setVisible(any);
    rerun_->setVisible(any);
    rerun_->setEnabled(bool(why));
    if (why)
        stale_reason_->setText(tr("Stale: %1.").arg(QString::fromStdString(why->reason)));
    else
        stale_reason_->setText(
            tr("%n stale layer(s); choose one to see why.", "", int(stale_.size())));
}

// A pending layer that is shown gets its figures at once: its histogram, its range and the
// view's colours need them.
void Layers_dock::compute_shown_if_pending() {
    if (!pending_world_) return;
    for (render::Layer_stats& s : stats_) {
        if (s.name != shown_ || !s.pending) continue;
        s = render::layer_stats(*pending_world_, s.name, 32);
        for (int i = 0; i < table_->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = table_->topLevelItem(i);
            if (item->data(0, Qt::UserRole).toString().toStdString() != s.name) continue;
            const QStringList figures = figure_columns(s);
            for (int c = 0; c < figures.size(); ++c)
                item->setText(3 + c, figures[c]);
        }
    }
    if (std::none_of(stats_.begin(), stats_.end(),
                     [](const render::Layer_stats& s) { return s.pending; }))
        pending_world_.reset();
}

void Layers_dock::refresh_controls() {
    compute_shown_if_pending();
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
