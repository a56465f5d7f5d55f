// SPDX-License-Identifier: MIT
// The editor's 3D view of a World: camera, display modes, layer colours, legend, hover picking.
#pragma once

#include "orbis/core/colour_map.hpp"
#include "orbis/core/world.hpp"
#include "orbis/render/camera.hpp"
#include "orbis/render/edit_preview.hpp"
#include "orbis/render/gl/gl_renderer.hpp"
#include "orbis/render/picking.hpp"
#include "orbis/render/picture_cache.hpp"
#include "orbis/render/scene.hpp"

#include <QColor>
#include <QFutureWatcher>
#include <QOpenGLWidget>
#include <QPoint>

class QOffscreenSurface;
class QThreadPool;
class QTimer;

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace orbis::ui {

/// The colour scale drawn in the viewport's corner.
struct Legend {
    bool visible = false;                           ///< drawn at all
    std::string title;                              ///< the layer's name
    Colour_map_kind map = Colour_map_kind::viridis; ///< the map of the shown layer
    double min = 0.0;                               ///< value at the bottom of the bar
    double max = 1.0;                               ///< value at the top of the bar
    double sea_level = 0.0;                         ///< for the terrain map
    std::vector<Layer_category> categories;         ///< named values: listed instead of the bar
    /// Same fields: a legend set again unchanged draws nothing new.
    friend bool operator==(const Legend&, const Legend&) = default;
};

/// One line of the key to the tectonic overlays, drawn in the bottom left corner.
struct Overlay_key_line {
    QColor swatch; ///< the colour the line explains; invalid for text alone
    QString text;  ///< what it means
};

/// What the cursor points at, for the status bar and the inspector.
struct Hover {
    render::Pick pick; ///< the face, nearest vertex and edge
    Vertex vertex;     ///< the element of the shown layer's kind, or the vertex
    Face face;         ///< set when the shown layer is a face layer
    Edge edge;         ///< set for edge layers (dual edges for dual layers)
    std::string text;  ///< one line: element, latitude / longitude, value
};

/// The OpenGL viewport. Scenes are built off the GUI thread from a snapshot of the World (a
/// copy-on-write copy), so a large world never freezes the window; the last uploaded scene is
/// drawn until the new one is ready. Mouse: left drag rotates (arcball), right or middle drag
/// pans, the wheel zooms to the cursor; Home resets the view.
class Viewport : public QOpenGLWidget {
    Q_OBJECT
public:
    /// An empty viewport (no world: a message instead of a planet).
    explicit Viewport(QWidget* parent = nullptr);
    ~Viewport() override;

    /// Shows `world` (a cheap snapshot is kept). Keeps the camera unless `reset_camera`.
    /// Everything that changed is rebuilt off the GUI thread.
    void set_world(const World& world, bool reset_camera = false);
    /// Shows `world`, which differs from the world last given only as `delta` says (an edit,
    /// its undo or redo): triangles and their colours are patched in place, on the GPU too.
    void set_world(const World& world, const World_delta& delta);
    /// Forgets the world and shows `message` instead (e.g. while generating).
    void clear_world(const QString& message);
    /// The world on screen, if any (the snapshot the scene was requested for).
    const World* world() const { return world_ ? &*world_ : nullptr; }
    /// The world the drawn scene was built from (it trails world() while a build runs).
    const World* shown_world() const { return shown_ ? &*shown_ : nullptr; }

    /// The display modes and layer colours.
    const render::View_options& options() const { return options_; }
    /// Sets display modes and layer colours; rebuilds only what they change.
    void set_options(const render::View_options& options);
    /// Sets the legend drawn in the bottom right corner; redraws only when it changed.
    void set_legend(const Legend& legend);
    /// The legend drawn.
    const Legend& legend() const { return legend_; }
    /// Where the legend's colour bar was last drawn (minimum at the bottom), empty when not.
    QRect legend_bar() const { return legend_bar_; }

    /// The camera (for tests and benchmarks: project a vertex to a pixel).
    const render::Camera& camera() const { return camera_; }
    /// Looks at the whole planet from the front.
    void reset_view();

    /// True while a scene is being built for the current world and options.
    bool scene_pending() const;
    /// Blocks until the pending scene is built and uploaded (tests, export).
    void finish_scene();
    /// The key to the plate boundaries and velocity arrows on screen (their kinds' colours,
    /// the arrows' scale), empty when neither is drawn.
    const std::vector<Overlay_key_line>& overlay_key() const { return overlay_key_; }
    /// Why the shown layer colours nothing, or empty.
    const std::string& layer_error() const { return layer_error_; }
    /// Pictures of World states drawn before, shown at once when set_world() goes back to one
    /// of them from the same place with the same options (see render::Picture_cache).
    render::Picture_cache& pictures() { return pictures_; }
    /// True while the view shows a kept picture of the world instead of drawing its scene (until
    /// the scene is built, the view moves or the options change).
    bool showing_picture() const;
    /// States to have pictures of before they are shown, nearest first (the timeline's steps
    /// next to the one shown); an empty list stops. While the view is idle (no frame for a
    /// moment, no scene being built, no drag), the shown state's next frame is kept, then each
    /// listed state without a picture from here is drawn on a worker thread in an OpenGL context
    /// of its own, one at a time.
    void set_prefetch(std::vector<World> states);
    /// Whether a picture of `world` with the current options from the current place is kept.
    bool has_picture(const World& world) const;
    /// True while a state of set_prefetch() is being drawn.
    bool prefetching() const { return prefetching_; }
    /// Worlds of at least this many vertices get their picker after their scene: the first
    /// picture of a new world does not wait for it (0.3 s at 9M vertices), and hovering finds
    /// nothing until it is ready. 2M by default; for tests.
    void set_picker_after_from(std::uint32_t vertices) { picker_after_from_ = vertices; }
    /// True while a picker is built after its scene, or waits for its first frame (see
    /// set_picker_after_from).
    bool picker_pending() const { return picker_building_ || picker_after_frame_; }
    /// True when picks can be made (a picker for the shown world or one it can serve).
    bool can_pick() const { return picker_ != nullptr; }
    /// What the last upload sent to the GPU.
    const render::gl::Upload_stats& last_upload() const { return last_upload_; }
    /// Why OpenGL could not start, or empty when it works.
    const QString& gl_error() const { return gl_error_; }

    /// The element under viewport point `at` (pixels from the top left), or nothing. Picked in
    /// the world last given to set_world (the document's state), not in the older one the
    /// picture may still show, whenever the picker can walk it (all its vertices inside the
    /// radius the picker's walks enter at); else in the shown one until the new picker is ready.
    std::optional<Hover> hover_at(QPoint at) const;
    /// The element the cursor was last over, if any.
    const std::optional<Hover>& hover() const { return hover_; }

    /// Sets what the left button does besides turning the view: with `editing`, a click (press
    /// and release within a few pixels) emits clicked(); with `drags` too, a press on the
    /// planet starts a drag that emits drag_moved() and drag_finished() instead.
    void set_edit_mode(bool editing, bool drags);
    /// Shows a tool's verdict: its ghost in green or its cause in red; nullptr clears it.
    void set_preview(const render::Edit_preview* preview);
    /// Draws a selection: `segments` (its outline, pairs of ends) and `points` (a tint on its
    /// elements), hidden behind the planet like the surface; empty clears it. Redraws only when
    /// it changed.
    void set_selection(const std::vector<glm::vec3>& segments,
                       const std::vector<glm::vec3>& points);
    /// The selection's outline as last set (pairs of ends).
    const std::vector<glm::vec3>& selection_segments() const { return selection_segments_; }
    /// Turns the view until `p` is in the middle, keeping the distance.
    void fly_to(const glm::dvec3& p);

Q_SIGNALS:
    /// The cursor moved to `at` (onto the element in `hover`, or off the planet: nothing), or a
    /// modifier key changed; `modifiers` are those of the event.
    void hovered(const std::optional<orbis::ui::Hover>& hover, QPoint at,
                 Qt::KeyboardModifiers modifiers);
    /// A scene was uploaded (the view now shows the current world and options).
    void scene_ready();
    /// A layer could not be shown; the reason in words.
    void layer_refused(const QString& reason);
    /// A left click in edit mode, at viewport point `at`.
    void clicked(QPoint at, Qt::KeyboardModifiers modifiers);
    /// A tool's drag started at `at` (edit mode with drags: a left press on the planet).
    void drag_started(QPoint at, Qt::KeyboardModifiers modifiers);
    /// The cursor of a tool's drag is at `at`.
    void drag_moved(QPoint at, Qt::KeyboardModifiers modifiers);
    /// The tool's drag ended at `at`.
    void drag_finished(QPoint at, Qt::KeyboardModifiers modifiers);

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Build_result;
    void request_scene();
    void scene_built();
    // Has the renderer allocate the triangles' GPU storage for world_ while its whole build
    // runs (see Gl_renderer::prepare_triangles).
    void prepare_triangles();
    struct Built_picker;
    // Builds the picker of shown_ on a worker (one at a time).
    void request_picker();
    // request_picker() when one waits for the frame after its scene (picker_after_frame_).
    void request_pending_picker();
    void picker_built();
    void update_hover(QPoint at, Qt::KeyboardModifiers modifiers);
    void draw_legend(QPainter& painter);
    void draw_category_legend(QPainter& painter);
    void draw_overlay_key(QPainter& painter);
    void draw_message(QPainter& painter, const QString& text);
    void release_gl();
    const World* picked_world() const;
    // Where a picture of the view is taken from now.
    render::View_place place() const;
    // Reads the framebuffer just drawn into pictures_, for shown_ and options_.
    void keep_picture();
    // Whether a frame drawn now could be kept as the shown state's picture.
    bool can_keep_picture() const;
    struct Prefetched;
    // Starts drawing the next state of prefetch_ that has no picture, when idle.
    void prefetch_next();
    void prefetched();

    std::optional<World> world_;
    render::View_options options_;
    Legend legend_;
    QRect legend_bar_;
    render::Camera camera_;
    render::gl::Gl_renderer renderer_;
    QString gl_error_;
    QString message_;
    std::string layer_error_;
    std::vector<Overlay_key_line> overlay_key_;
    render::gl::Upload_stats last_upload_;

    // Building: one build at a time on a worker thread; requests while busy run afterwards.
    std::unique_ptr<render::Scene_builder> builder_;
    // What changed since the last build was requested, while every change came with a delta.
    std::optional<World_delta> delta_;
    bool delta_complete_ = true;
    QFutureWatcher<std::shared_ptr<Build_result>>* watcher_ = nullptr;
    bool building_ = false;
    bool build_again_ = false;
    bool reset_camera_on_ready_ = false;
    std::uint64_t picker_mesh_version_ = 0;
    std::uint64_t picker_position_version_ = 0;

    // The world the uploaded scene and the picker belong to.
    std::optional<World> shown_;
    std::shared_ptr<const render::Picker> picker_;
    bool picker_serves_world_ = false; // picks may walk world_ instead of shown_
    // The picker built after a large world's scene: the versions of shown_ it is for.
    QFutureWatcher<std::shared_ptr<Built_picker>>* picker_watcher_ = nullptr;
    bool picker_building_ = false;
    bool picker_after_frame_ = false; // request_picker() once the next frame is drawn
    static constexpr int picker_frame_wait_ms = 2000; // or after this long without a frame
    std::uint64_t picker_job_mesh_version_ = 0;
    std::uint64_t picker_job_position_version_ = 0;
    std::uint32_t picker_after_from_ = 2'000'000;

    QPoint last_mouse_;
    QPoint press_at_;
    Qt::MouseButton dragging_ = Qt::NoButton;
    bool moved_ = false;
    bool editing_ = false;
    bool drags_ = false;
    bool vertex_drag_ = false;
    std::optional<Hover> hover_;
    // What the renderer's selection overlay holds: set again on a new GL context, and compared
    // with each set_selection so that an unchanged one costs no frame.
    std::vector<glm::vec3> selection_segments_;
    std::vector<glm::vec3> selection_points_;

    render::Picture_cache pictures_;
    std::shared_ptr<const render::Picture> picture_; // shown instead of the scene while set
    render::View_options picture_options_;           // the options picture_ was found for
    render::View_place picture_place_;               // and the place
    bool keep_picture_ = false;                      // the next frame goes into pictures_
    std::vector<World> prefetch_;
    QOffscreenSurface* surface_ = nullptr; // for the workers' contexts; made on the GUI thread
    QTimer* idle_ = nullptr;               // fires when no frame was drawn for a moment
    QFutureWatcher<std::shared_ptr<Prefetched>>* prefetch_watcher_ = nullptr;
    std::unique_ptr<QThreadPool> prefetch_pool_;
    bool prefetching_ = false;
};

} // namespace orbis::ui
