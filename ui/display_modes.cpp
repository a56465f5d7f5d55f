// SPDX-License-Identifier: MIT
// The view's display modes, declared once.
#include "ui/display_modes.hpp"

#include "ui/docks/layers_dock.hpp"
#include "ui/viewport.hpp"

#include "orbis/core/world.hpp"
#include "orbis/render/tectonic_overlays.hpp"

#include <QAction>
#include <QSettings>
#include <QWidget>

#include <algorithm>
#include <array>
#include <cmath>

namespace orbis::ui {

namespace {

using O = render::View_options;

constexpr std::array<Display_mode, 16> modes{{
    {"show_triangles", "&Triangles", "1", true, true, "", [](O& o, bool on) { o.triangles = on; }},
    {"smooth_shading", "S&mooth Shading", "Shift+1", false, false, "",
     [](O& o, bool on) { o.shading = on ? render::Shading::smooth : render::Shading::flat; }},
    {"show_wireframe", "&Wireframe", "2", false, true, "", [](O& o, bool on) { o.wireframe = on; }},
    {"show_voronoi_cells", "&Voronoi Cells", "3", false, true, "",
     [](O& o, bool on) { o.voronoi_cells = on; }},
    {"show_voronoi_outlines", "Voronoi &Outlines", "4", false, true, "",
     [](O& o, bool on) { o.voronoi_outlines = on; }},
    {"show_dual_edges", "&Dual Edges", "5", false, true, "",
     [](O& o, bool on) { o.dual_edges = on; }},
    {"show_points", "&Points", "6", false, true, "", [](O& o, bool on) { o.points = on; }},
    {"show_boundary", "&Boundary Edges", "7", true, false, "",
     [](O& o, bool on) { o.boundary = on; }},
    {"show_arrows", "Vector &Arrows", "9", false, false,
     "Show a vec3 vertex layer as arrows (dark tail, bright tip)",
     [](O& o, bool on) { o.arrows = on; }},
    {"show_rivers", "R&ivers", "R", true, true,
     "Draw rivers along the edges that carry at least the river threshold (hydrology module)",
     [](O& o, bool on) { o.rivers = on; }},
    {"show_plate_boundaries", "Plate Bou&ndaries", "P", false, false,
     "Draw plate boundaries coloured by kind: ridge, subduction, transform, collision "
     "(plates module)",
     [](O& o, bool on) { o.plate_boundaries = on; }},
    {"show_velocity_arrows", "Velocit&y Arrows", "V", false, false,
     "Draw plate motion as arrows, as long as the distance moved in the time the key shows "
     "(tectonics module)",
     [](O& o, bool on) { o.velocity_arrows = on; }},
    {"show_water", "W&ater", "W", true, false,
     "Colour the ocean and lakes as water and, with relief, keep them flat at their level",
     [](O& o, bool on) { o.water = on; }},
    {"lighting", "&Lighting", "L", true, true, "", [](O& o, bool on) { o.lighting = on; }},
    {"relief", "&Relief", "8", false, true,
     "Lift the surface by the shown layer (or elevation), exaggerated", nullptr},
    {"show_legend", "L&egend", "", true, false, "", nullptr},
}};

// The modes that draw one layer, and whether a World has it (of the kind they draw): without
// it they have nothing to show.
struct Layer_mode {
    const char* id;
    bool (*usable)(const World& world);
};
constexpr std::array<Layer_mode, 2> layer_modes{{
    {"show_plate_boundaries",
     [](const World& w) { return render::plate_boundary_layer(w) != nullptr; }},
    {"show_velocity_arrows", [](const World& w) { return render::velocity_layer(w) != nullptr; }},
}};

} // namespace

std::span<const Display_mode> display_modes() { return modes; }

bool enable_display_modes(QWidget& window, const World* world) {
    bool changed = false;
    for (const Layer_mode& m : layer_modes) {
        auto* a = window.findChild<QAction*>(m.id);
        if (!a) continue;
        const bool usable = world && m.usable(*world);
        changed = changed || a->isEnabled() != usable;
        a->setEnabled(usable);
    }
    return changed;
}

void restore_display_modes(QWidget& window) {
    const QSettings settings;
    for (const Display_mode& m : modes)
        if (auto* a = window.findChild<QAction*>(m.id))
            a->setChecked(settings.value(QString("view/") + m.id, a->isChecked()).toBool());
}

void save_display_modes(const QWidget& window) {
    QSettings settings;
    for (const Display_mode& m : modes)
        if (const auto* a = window.findChild<QAction*>(m.id))
            settings.setValue(QString("view/") + m.id, a->isChecked());
}

render::View_options view_options(const QWidget& window, const Layers_dock& layers,
                                  double relief_percent, QString* refusal) {
    render::View_options o;
    // A disabled mode (its layer is missing) stays checked for the next world that has it.
    auto on = [&](const char* id) {
        const auto* a = window.findChild<QAction*>(id);
        return a && a->isChecked() && a->isEnabled();
    };
    for (const Display_mode& m : modes)
        if (m.apply) m.apply(o, on(m.id));
    o.layer = layers.shown_layer();
    o.colours = layers.colour_options();
    if (!on("relief")) return o;
    auto scalar_vertex = [](const render::Layer_stats& s) {
        return !s.is_dict && s.type == Layer_type::vertex &&
               (s.value_type == "float" || s.value_type == "double" || s.value_type == "int32");
    };
    const render::Layer_stats* relief = nullptr;
    for (const char* name : {o.layer.c_str(), "elevation"})
        for (const render::Layer_stats& s : layers.stats())
            if (!relief && scalar_vertex(s) && s.name == name) relief = &s;
    if (relief && std::isfinite(relief->min) && std::isfinite(relief->max)) {
        const double largest = std::max(std::abs(relief->min), std::abs(relief->max));
        o.relief = relief->name;
        o.relief_scale = largest > 0.0 ? relief_percent / 100.0 / largest : 0.0;
    } else if (refusal) {
        *refusal = QObject::tr("Relief needs a scalar vertex layer");
    }
    return o;
}

Legend legend_for(const Layers_dock& layers, bool show) {
    Legend legend;
    const render::Layer_stats* s = layers.shown_stats();
    const render::Colour_options o = layers.colour_options();
    const bool vector = s && s->value_type.find("vec") != std::string::npos;
    legend.visible =
        show && s && !vector && o.map && std::isfinite(s->min) && std::isfinite(s->max);
    if (legend.visible) {
        legend.title = s->name;
        if (const Layer_hints* h = layers.hints(s->name)) {
            if (!h->label.empty()) legend.title = h->label;
            if (!h->unit.empty()) legend.title += " (" + h->unit + ")";
        }
        legend.map = *o.map;
        legend.min = o.range ? o.range->first : s->min;
        legend.max = o.range ? o.range->second : s->max;
        legend.sea_level = o.sea_level;
        legend.categories = o.categories;
    }
    return legend;
}

} // namespace orbis::ui
