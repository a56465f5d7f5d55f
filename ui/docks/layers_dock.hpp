// SPDX-License-Identifier: MIT
// The Layers dock: every layer of the World with its statistics, and how the shown one looks.
#pragma once

#include "orbis/core/layer_hints.hpp"
#include "orbis/core/provenance.hpp"
#include "orbis/render/layer_stats.hpp"
#include "orbis/render/mesh_buffers.hpp"

#include <QDockWidget>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QThreadPool;
class QTreeWidget;
template <class T>
class QFutureWatcher;

namespace orbis {
class World;
} // namespace orbis

namespace orbis::ui {

class Histogram_widget;

/// Lists every typed and Dict layer (label and unit from its module's hints, kind, value type,
/// live count, min / mean / max, and whether it is stale) and lets the user choose the layer
/// that colours the view, its colour map and its range; shows the chosen layer's histogram.
/// For a stale layer it says why and offers Re-run of the step that wrote it.
class Layers_dock : public QDockWidget {
    Q_OBJECT
public:
    /// An empty dock.
    explicit Layers_dock(QWidget* parent = nullptr);
    /// Waits for a background refresh still running (it reads a snapshot, not the document).
    ~Layers_dock() override;

    /// Lists the layers of `world` and recomputes their statistics. Keeps the shown layer when
    /// the world still has it, else shows none and emits view_changed. O(elements of every
    /// layer). With `view_layers_first` on a world whose layers hold at least
    /// figures_first_from() values, only the figures the view needs are computed now (the shown
    /// layer's and elevation's, for colours, relief and legend); the other rows say "…" until
    /// the next refresh (refresh_in_background or set_world), or until one is shown. A new
    /// document's picture then waits for two layers, not for all of them (half a second at
    /// 10M). Drops the result of any background refresh asked for before.
    void set_world(const World& world, bool view_layers_first = false);
    /// set_world(world) with the figures computed on a worker thread of the dock's own from a
    /// copy-on-write snapshot of `world`: the GUI thread only lists them once they are ready (a
    /// full pass at ten million vertices takes most of a second), then emits stats_refreshed.
    /// Until then the rows keep their figures. A call while one runs waits for it: that one's
    /// figures are listed, then only the newest world asked for meanwhile is computed. A
    /// set_world meanwhile drops the result of every earlier call. A pass that fails (out of
    /// memory) lists nothing and leaves the rows as they were.
    void refresh_in_background(const World& world);
    /// True from refresh_in_background until figures that will be listed are (not counting a
    /// pass whose result a set_world has made obsolete).
    bool refreshing() const;
    /// True while some layers' figures wait for the next refresh.
    bool stats_pending() const { return pending_world_ != nullptr; }
    /// Values (over all typed layers) from which set_world(world, true) leaves figures for
    /// later; 2^26 by default (about 2.8M vertices of the default pipeline's world). For tests.
    void set_figures_first_from(std::size_t values) { figures_first_from_ = values; }
    /// See set_figures_first_from.
    std::size_t figures_first_from() const { return figures_first_from_; }
    /// The layer chosen to colour the view, empty for none.
    const std::string& shown_layer() const { return shown_; }
    /// Chooses the layer that colours the view (empty: none); unknown names choose none.
    void set_shown_layer(const std::string& name);
    /// The colour options of the shown layer, with the map always explicit (the automatic
    /// choice resolved by default_colour_map from the layer's hints).
    render::Colour_options colour_options() const;
    /// The display hints of layer `name`, or nullptr.
    const Layer_hints* hints(const std::string& name) const;
    /// Why layer `name` is stale, or nothing when it is fresh (or was not made by a module).
    std::optional<Stale_layer> stale(const std::string& name) const;
    /// The statistics of the shown layer, if one is shown.
    const render::Layer_stats* shown_stats() const;
    /// The statistics of every layer, in the order listed.
    const std::vector<render::Layer_stats>& stats() const { return stats_; }

Q_SIGNALS:
    /// The shown layer, its map or its range changed.
    void view_changed();
    /// A background refresh listed its figures (see refresh_in_background).
    void stats_refreshed();
    /// The user asked to run step `step` of the world's provenance again.
    void rerun_requested(std::size_t step);

private:
    // What a refresh lists: the figures of a world, with what the rows say besides.
    struct Listing {
        std::shared_ptr<const World> world;
        std::vector<render::Layer_stats> stats;
        std::map<std::string, Layer_hints, std::less<>> hints;
        std::vector<Stale_layer> stale;
        std::uint64_t generation = 0; // generation_ when it was asked for
        bool failed = false;          // the pass threw: nothing to list
    };
    void list(const World& world, std::vector<render::Layer_stats> stats,
              std::map<std::string, Layer_hints, std::less<>> layer_hints,
              std::vector<Stale_layer> stale_ones, std::shared_ptr<const World> snapshot);
    void start_refresh(std::shared_ptr<const World> world,
                       std::vector<render::Layer_stats> previous);
    void refresh_done();
    void select_row_of_shown();
    void refresh_controls();
    void refresh_stale();
    void compute_shown_if_pending();

    QTreeWidget* table_ = nullptr;
    QComboBox* map_ = nullptr;
    QCheckBox* auto_range_ = nullptr;
    QDoubleSpinBox* min_ = nullptr;
    QDoubleSpinBox* max_ = nullptr;
    Histogram_widget* histogram_ = nullptr;
    QLabel* stale_reason_ = nullptr;
    QPushButton* rerun_ = nullptr;
    std::vector<render::Layer_stats> stats_;
    std::map<std::string, Layer_hints, std::less<>> hints_;
    std::vector<Stale_layer> stale_;
    std::string shown_;
    bool updating_ = false;
    std::size_t figures_first_from_ = std::size_t{1} << 26;
    // The world whose pending figures are still to be computed (a copy-on-write snapshot), so
    // that a pending layer shown meanwhile gets its figures at once.
    std::shared_ptr<const World> pending_world_;
    // The background refresh: a thread of its own (the shared pool builds the view's scenes,
    // which must not queue behind a pass), its watcher, the newest world asked for while a
    // pass runs, and the generation: set_world starts a new one, and only a result of the
    // current generation is listed.
    std::unique_ptr<QThreadPool> refresh_pool_;
    QFutureWatcher<std::shared_ptr<Listing>>* refresh_watcher_ = nullptr;
    bool refresh_running_ = false; // from start_refresh until refresh_done takes its result
    std::uint64_t running_generation_ = 0;
    std::shared_ptr<const World> queued_world_;
    std::uint64_t generation_ = 0;
};

} // namespace orbis::ui
