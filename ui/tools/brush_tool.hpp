// SPDX-License-Identifier: MIT
// Brush: paints the shown layer (raise, lower, smooth, flatten, set, noise) with strokes of dabs.
#pragma once

#include "ui/tools/tool.hpp"

#include "orbis/edit/brush.hpp"

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

class QComboBox;
class QDoubleSpinBox;

namespace orbis::ui {

/// Paints a scalar vertex or face layer, by default the one the view shows. A stroke is a press,
/// a drag and a release: dabs (edit::apply_dab) at the press and every quarter radius along the
/// way, all one undo step holding only the chunks the stroke touched. The circle under the cursor
/// shows the brush on the surface; `[` and `]` shrink and grow it.
class Brush_tool final : public Tool {
    Q_OBJECT
public:
    /// A brush working in `context`: raise, 200 km, 100 units per dab, smooth falloff.
    explicit Brush_tool(Tool_context context);

    Tool_description description() const override;
    void activate() override;
    void deactivate() override;
    void hover(const Tool_event& event) override;
    bool drags() const override { return true; }
    void press(const Tool_event& event) override;
    void drag(const Tool_event& event) override;
    void release(const Tool_event& event) override;
    void add_options(QToolBar* bar) override;

    /// The brush's settings; an empty layer means the layer the view shows.
    edit::Brush brush() const;
    /// Sets the brush's settings (and its toolbar widgets).
    void set_brush(const edit::Brush& brush);
    /// The centres of the last stroke's dabs in order, with the settings it used (flatten's
    /// target filled in): replaying them with edit::apply_dab gives the same World.
    const std::vector<glm::dvec3>& last_stroke() const { return stroke_; }
    /// The settings the last stroke painted with.
    const edit::Brush& last_stroke_brush() const { return stroke_brush_; }
    /// Values the last stroke held at the layer's range.
    std::size_t last_stroke_clamped() const { return clamped_; }
    /// Scales the radius by `factor` (what `[` and `]` do), kept within [1, 20000] km.
    void scale_radius(double factor);

private:
    void dabs(const std::vector<glm::dvec3>& centres, Vertex hint);
    void show_circle(const std::optional<Hover>& hover);

    edit::Brush brush_;
    edit::Brush stroke_brush_;
    std::vector<glm::dvec3> stroke_;
    glm::dvec3 last_{0.0};
    std::uint64_t gesture_ = 0;
    std::size_t clamped_ = 0;
    bool stroking_ = false;
    QComboBox* mode_ = nullptr;
    QComboBox* falloff_ = nullptr;
    QDoubleSpinBox* radius_ = nullptr;
    QDoubleSpinBox* strength_ = nullptr;
    QDoubleSpinBox* value_ = nullptr;
};

} // namespace orbis::ui
