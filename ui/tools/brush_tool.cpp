// SPDX-License-Identifier: MIT
// Brush: paints the shown layer with strokes of dabs.
#include "ui/tools/brush_tool.hpp"

#include "ui/commands/command_id.hpp"
#include "ui/document.hpp"

#include "orbis/render/edit_preview.hpp"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolBar>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace orbis::ui {

namespace {

constexpr edit::Brush_mode modes[] = {edit::Brush_mode::raise,  edit::Brush_mode::lower,
                                      edit::Brush_mode::smooth, edit::Brush_mode::flatten,
                                      edit::Brush_mode::set,    edit::Brush_mode::noise};
constexpr edit::Falloff falloffs[] = {edit::Falloff::smooth, edit::Falloff::linear,
                                      edit::Falloff::constant, edit::Falloff::sharp};

} // namespace

Brush_tool::Brush_tool(Tool_context context)
    : Tool(std::move(context)) {}

Tool_description Brush_tool::description() const {
    return {"brush", tr("&Brush"), Qt::Key_B,
            tr("Drag paints the shown layer: raise, lower, smooth, flatten, set, noise ([ and ] "
               "change the radius)")};
}

void Brush_tool::activate() {
    message(tr("Brush: drag to %1 the shown layer; [ and ] change the radius")
                .arg(edit::brush_mode_name(brush().mode)));
}

void Brush_tool::deactivate() {
    stroking_ = false;
    context_.viewport->set_preview(nullptr);
}

edit::Brush Brush_tool::brush() const {
    edit::Brush b = brush_;
    if (mode_) {
        b.mode = modes[std::max(0, mode_->currentIndex())];
        b.falloff = falloffs[std::max(0, falloff_->currentIndex())];
        b.radius_km = radius_->value();
        b.strength = strength_->value();
        b.value = value_->value();
    }
    return b;
}

void Brush_tool::set_brush(const edit::Brush& b) {
    brush_ = b;
    if (!mode_) return;
    const QSignalBlocker blockers[] = {QSignalBlocker(mode_), QSignalBlocker(falloff_),
                                       QSignalBlocker(radius_), QSignalBlocker(strength_),
                                       QSignalBlocker(value_)};
    mode_->setCurrentIndex(int(std::find(std::begin(modes), std::end(modes), b.mode) - modes));
    falloff_->setCurrentIndex(
        int(std::find(std::begin(falloffs), std::end(falloffs), b.falloff) - falloffs));
    radius_->setValue(b.radius_km);
    strength_->setValue(b.strength);
    value_->setValue(b.value);
}

void Brush_tool::scale_radius(double factor) {
    edit::Brush b = brush();
    b.radius_km = std::clamp(b.radius_km * factor, 1.0, 20000.0);
    set_brush(b);
    message(tr("Brush radius %1 km").arg(b.radius_km, 0, 'f', 0), 2000);
    if (const auto& h = context_.viewport->hover()) show_circle(h);
}

void Brush_tool::add_options(QToolBar* bar) {
    bar->addSeparator();
    mode_ = new QComboBox(bar);
    mode_->setObjectName("brush_mode");
    for (const auto m : modes)
        mode_->addItem(QString(edit::brush_mode_name(m)));
    mode_->setToolTip(tr("What the brush does to the values under it"));
    falloff_ = new QComboBox(bar);
    falloff_->setObjectName("brush_falloff");
    for (const auto f : falloffs)
        falloff_->addItem(QString(edit::falloff_name(f)));
    falloff_->setToolTip(tr("How the brush's effect falls off from its centre to its edge"));
    auto spin = [bar](const char* name, double lo, double hi, int decimals, const QString& tip) {
        auto* s = new QDoubleSpinBox(bar);
        s->setObjectName(name);
        s->setRange(lo, hi);
        s->setDecimals(decimals);
        s->setToolTip(tip);
        s->setKeyboardTracking(false);
        return s;
    };
    radius_ = spin("brush_radius", 1.0, 20000.0, 0, tr("Radius on the sphere ([ and ])"));
    radius_->setSuffix(tr(" km"));
    strength_ = spin("brush_strength", 0.0, 1e9, 3,
                     tr("Raise, lower, noise: change at the centre per dab, in the layer's units; "
                        "smooth, flatten: fraction moved per dab (0 to 1)"));
    value_ = spin("brush_value", -1e12, 1e12, 3, tr("The value Set paints (e.g. a plate id)"));
    bar->addWidget(mode_);
    bar->addWidget(falloff_);
    bar->addWidget(radius_);
    bar->addWidget(new QLabel(tr(" strength "), bar));
    bar->addWidget(strength_);
    bar->addWidget(new QLabel(tr(" value "), bar));
    bar->addWidget(value_);
    set_brush(brush_);
    auto shortcut = [&](const char* name, const QString& text, const QKeySequence& key,
                        double factor) {
        auto* a = new QAction(text, bar);
        a->setObjectName(name);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, [this, factor] { scale_radius(factor); });
        bar->parentWidget()->addAction(a);
    };
    shortcut("brush_smaller", tr("Smaller Brush"), QKeySequence(Qt::Key_BracketLeft), 0.8);
    shortcut("brush_larger", tr("Larger Brush"), QKeySequence(Qt::Key_BracketRight), 1.25);
}

void Brush_tool::show_circle(const std::optional<Hover>& hover) {
    if (!hover) {
        context_.viewport->set_preview(nullptr);
        return;
    }
    render::Edit_preview p;
    p.allowed = true;
    p.ghost_segments = render::surface_circle(hover->pick.point, brush().radius_km);
    context_.viewport->set_preview(&p);
}

void Brush_tool::hover(const Tool_event& event) {
    show_circle(event.hover);
    note_.clear();
}

void Brush_tool::press(const Tool_event& event) {
    stroking_ = false;
    if (!event.hover) return;
    Document& doc = *context_.document;
    if (const auto why = doc.check_edit()) {
        message(*why);
        return;
    }
    edit::Brush b = brush();
    if (b.layer.empty()) b.layer = context_.viewport->options().layer;
    if (const auto why = edit::check_brush(*doc.world(), b)) {
        message(tr("Brush refused: %1").arg(QString::fromStdString(*why)), 10000);
        return;
    }
    const glm::dvec3 at = event.hover->pick.point;
    if (b.mode == edit::Brush_mode::flatten) {
        // Flatten pulls everything toward the value where the stroke began.
        const auto target = edit::value_at(*doc.world(), b.layer, at, event.hover->pick.vertex);
        if (target) b.value = *target;
    }
    stroke_brush_ = b;
    stroke_.clear();
    clamped_ = 0;
    gesture_ = doc.new_gesture();
    stroking_ = true;
    last_ = at;
    dabs({at}, event.hover->pick.vertex);
}

void Brush_tool::drag(const Tool_event& event) {
    show_circle(event.hover);
    if (!stroking_ || !event.hover) return;
    const glm::dvec3 at = event.hover->pick.point;
    const auto centres = edit::stroke_points(last_, at, stroke_brush_.radius_km / 4.0);
    if (centres.empty()) return;
    last_ = at;
    dabs(centres, event.hover->pick.vertex);
}

void Brush_tool::release(const Tool_event& event) {
    if (!stroking_) return;
    drag(event);
    stroking_ = false;
    QString text = tr("%1 %2: %3 dab(s)")
                       .arg(edit::brush_mode_name(stroke_brush_.mode))
                       .arg(QString::fromStdString(stroke_brush_.layer))
                       .arg(stroke_.size());
    if (clamped_ > 0) text += tr("; %1 value(s) held at the layer's range").arg(clamped_);
    message(text, 8000);
}

void Brush_tool::dabs(const std::vector<glm::dvec3>& centres, Vertex hint) {
    Document& doc = *context_.document;
    if (doc.check_edit()) {
        stroking_ = false;
        return;
    }
    World next = *doc.world();
    World_delta delta = delta_from(*doc.world());
    try {
        for (const glm::dvec3& c : centres) {
            edit::Dab_result r = edit::apply_dab(next, stroke_brush_, c, hint);
            stroke_.push_back(c);
            clamped_ += r.clamped;
            delta.vertices.insert(delta.vertices.end(), r.vertices.begin(), r.vertices.end());
            delta.faces.insert(delta.faces.end(), r.faces.begin(), r.faces.end());
        }
    } catch (const std::exception& e) {
        stroking_ = false;
        message(tr("Brush refused: %1").arg(e.what()), 10000);
        return;
    }
    doc.push(tr("Brush %1 %2")
                 .arg(edit::brush_mode_name(stroke_brush_.mode))
                 .arg(QString::fromStdString(stroke_brush_.layer)),
             std::move(next), std::move(delta), Command_id::brush_stroke, gesture_);
}

std::unique_ptr<Tool> make_brush_tool(Tool_context context) {
    return std::make_unique<Brush_tool>(std::move(context));
}

} // namespace orbis::ui
