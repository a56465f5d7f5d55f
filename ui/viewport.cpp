// SPDX-License-Identifier: MIT
// The editor's 3D view of a World: camera, display modes, layer colours, legend, hover picking.
#include "ui/viewport.hpp"

#include "orbis/core/sphere_geometry.hpp"

#include "orbis/core/layer_info.hpp"
#include "orbis/gen/water_readout.hpp"
#include "orbis/render/first_view.hpp"
#include "orbis/render/gl/offscreen_picture.hpp"
#include "orbis/render/ticks.hpp"

#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QThreadPool>
#include <QTimer>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace orbis::ui {

namespace {

const glm::vec4 background{0.07f, 0.08f, 0.10f, 1.0f};
const glm::vec4 highlight_colour{1.0f, 0.55f, 0.0f, 1.0f};

glm::dvec3 position_of(const World& world, Vertex v) {
    return glm::dvec3((*world.layer(position_layer))[v]);
}

// The circumcentre of face f on the sphere through its corners (as mesh_buffers places it).
glm::dvec3 circumcentre(const World& world, Face f) {
    const Mesh& m = world.mesh();
    glm::dvec3 p[3];
    int i = 0;
    for (const Vertex v : f.vertices(m))
        p[i++] = position_of(world, v);
    const glm::dvec3 n = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
    const double r = (glm::length(p[0]) + glm::length(p[1]) + glm::length(p[2])) / 3.0;
    return n * r;
}

// The key to the tectonic overlays of `scene`: a line per boundary kind drawn, then the scale
// of the arrows.
std::vector<Overlay_key_line> overlay_key_of(const render::Scene& scene) {
    std::vector<Overlay_key_line> key;
    if (const auto* b = scene.plate_boundaries.geometry)
        for (const Layer_category& c : b->kinds)
            key.push_back(
                {QColor(c.colour.r, c.colour.g, c.colour.b), QString::fromStdString(c.name)});
    if (const auto* a = scene.velocity_arrows.geometry; a && a->million_years > 0.0) {
        const render::Colour c = render::velocity_arrow_colour;
        // km per million years is mm per year, the unit plate speeds are known in.
        key.push_back(
            {QColor(c.r, c.g, c.b), Viewport::tr("arrow: motion in %1 My (fastest %2 mm/yr)")
                                        .arg(a->million_years)
                                        .arg(a->fastest, 0, 'f', 0)});
    }
    return key;
}

} // namespace

struct Viewport::Build_result {
    World world;
    render::View_options options;
    render::Scene scene;
    std::shared_ptr<const render::Picker> picker;
    std::string error;
    bool whole = false; // built without a delta: another World state, not an edit of the last
    bool picker_later = false; // the picker is built after the scene is shown
};

struct Viewport::Built_picker {
    std::shared_ptr<const render::Picker> picker;
    std::uint64_t mesh_version = 0;
    std::uint64_t position_version = 0;
};

struct Viewport::Prefetched {
    render::World_stamp stamp;
    render::View_options options;
    render::View_place place;
    std::shared_ptr<const render::Picture> picture;
};

// A view is idle when it drew nothing for this long.
constexpr int idle_ms = 300;
// The largest world drawn ahead (see prefetch_next).
constexpr std::uint32_t prefetch_max_vertices = 2'500'000;

Viewport::Viewport(QWidget* parent)
    : QOpenGLWidget(parent)
    , builder_(std::make_unique<render::Scene_builder>())
    , watcher_(new QFutureWatcher<std::shared_ptr<Build_result>>(this))
    , picker_watcher_(new QFutureWatcher<std::shared_ptr<Built_picker>>(this))
    , idle_(new QTimer(this))
    , prefetch_watcher_(new QFutureWatcher<std::shared_ptr<Prefetched>>(this))
    , prefetch_pool_(std::make_unique<QThreadPool>()) {
    // A thread of its own: a picture drawn ahead never keeps a scene build waiting for one of
    // the global pool's threads, and the destructor never runs a job that had not started.
    prefetch_pool_->setMaxThreadCount(1);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
    connect(watcher_, &QFutureWatcherBase::finished, this, &Viewport::scene_built);
    connect(picker_watcher_, &QFutureWatcherBase::finished, this, &Viewport::picker_built);
    idle_->setSingleShot(true);
    idle_->setInterval(idle_ms);
    connect(idle_, &QTimer::timeout, this, &Viewport::prefetch_next);
    connect(prefetch_watcher_, &QFutureWatcherBase::finished, this, &Viewport::prefetched);
}

Viewport::~Viewport() {
    // The workers use builder_ and surface_; they must finish before those go.
    watcher_->waitForFinished();
    picker_watcher_->waitForFinished();
    prefetch_watcher_->waitForFinished();
    release_gl();
}

void Viewport::release_gl() {
    if (!renderer_.initialized() || !context()) return;
    makeCurrent();
    renderer_.release();
    doneCurrent();
}

void Viewport::set_world(const World& world, bool reset_camera) {
    delta_.reset();
    delta_complete_ = false;
    world_ = world;
    // The picker walks any mesh exactly; it only needs every vertex inside the radius its walks
    // enter at (see Picker), which one pass over the positions tells.
    picker_serves_world_ = false;
    if (picker_) {
        if (const auto* positions = world_->layer(position_layer)) {
            double largest = 0.0;
            for (const Vertex v : world_->mesh().vertices())
                largest = std::max(largest, double(glm::length((*positions)[v])));
            picker_serves_world_ = largest <= picker_->max_radius();
        }
    }
    message_.clear();
    reset_camera_on_ready_ = reset_camera_on_ready_ || reset_camera;
    request_scene();
    // A state drawn before from here (a kept timeline step, a run undone) is shown at once,
    // while its scene is built again for turning, picking and editing.
    picture_.reset();
    if (!reset_camera_on_ready_ && renderer_.initialized())
        picture_ = pictures_.find(render::world_stamp(*world_), options_, place());
    if (picture_ && hover_) {
        // The highlight marks an element of the state left behind: it goes, as it would when
        // the new scene arrives, and comes back with the next move over the new one.
        makeCurrent();
        renderer_.set_highlight({}, {}, highlight_colour);
        doneCurrent();
        hover_.reset();
    }
    if (renderer_.has_overlays()) picture_.reset(); // a selection or a tool's preview
    if (picture_) {
        picture_options_ = options_;
        picture_place_ = place();
        update(); // otherwise the frame on screen stays until the scene is ready
    }
    // After the kept picture, which must not wait for it; only while this world's own build
    // runs (one for an earlier state would upload first and give the storage back).
    if (building_ && !build_again_) prepare_triangles();
}

render::View_place Viewport::place() const {
    const double ratio = devicePixelRatioF();
    return render::view_place(camera_, int(std::lround(width() * ratio)),
                              int(std::lround(height() * ratio)));
}

bool Viewport::showing_picture() const {
    return picture_ && renderer_.initialized() && picture_options_ == options_ &&
           picture_place_.same_as(place()) && !renderer_.has_overlays();
}

bool Viewport::can_keep_picture() const {
    return !scene_pending() && !renderer_.has_overlays() && !hover_ && format().samples() <= 0;
}

bool Viewport::has_picture(const World& world) const {
    return pictures_.has(render::world_stamp(world), options_, place());
}

void Viewport::set_prefetch(std::vector<World> states) {
    prefetch_ = std::move(states);
    if (!prefetch_.empty()) idle_->start();
}

void Viewport::prefetch_next() {
    if (prefetch_.empty() || prefetching_ || scene_pending() || dragging_ != Qt::NoButton ||
        !renderer_.initialized() || !shown_ || !surface_ || !isVisible())
        return;
    const render::View_place here = place();
    const render::World_stamp shown = render::world_stamp(*shown_);
    if (!pictures_.find(shown, options_, here) && can_keep_picture()) {
        // The state on screen first: its next frame is its picture. The frame restarts the
        // idle timer, which comes back here for the others.
        keep_picture_ = true;
        update();
        return;
    }
    // No more states than the cache holds besides the shown one's picture: each would push out
    // another, to be drawn again.
    const std::size_t fits =
        pictures_.budget() / (std::size_t(here.width) * std::size_t(here.height) * 4);
    const std::size_t ahead = std::min(prefetch_.size(), fits > 1 ? fits - 1 : 0);
    for (std::size_t i = 0; i < ahead; ++i) {
        const World& state = prefetch_[i];
        // A second scene of a larger world would cost what the editor's memory target allows
        // for the whole of it (about 1.2 GB at 10M).
        if (state.mesh().vertex_count() > prefetch_max_vertices) continue;
        render::World_stamp stamp = render::world_stamp(state);
        if (stamp == shown || pictures_.find(stamp, options_, here)) continue;
        prefetching_ = true;
        auto job = [surface = surface_, state, stamp = std::move(stamp), options = options_,
                    camera = camera_, here]() {
            auto done = std::make_shared<Prefetched>();
            done->picture = render::gl::draw_offscreen_picture(*surface, state, options, camera,
                                                               background, here.width, here.height);
            done->stamp = stamp;
            done->options = options;
            done->place = here;
            return done;
        };
        prefetch_watcher_->setFuture(QtConcurrent::run(prefetch_pool_.get(), job));
        return;
    }
}

void Viewport::prefetched() {
    if (!prefetching_ || prefetch_watcher_->future().resultCount() == 0) return;
    prefetching_ = false;
    const std::shared_ptr<Prefetched> done = prefetch_watcher_->future().result();
    prefetch_watcher_->setFuture(QFuture<std::shared_ptr<Prefetched>>());
    // Drawn for a view that has not moved since: keep it, and go on to the next.
    if (done->picture && done->options == options_ && done->place.same_as(place())) {
        pictures_.put(done->stamp, done->options, done->place, done->picture);
        prefetch_next();
        return;
    }
    // Not drawn (no context on a worker, a refused layer): not tried again.
    if (!done->picture)
        std::erase_if(prefetch_,
                      [&](const World& w) { return render::world_stamp(w) == done->stamp; });
    idle_->start();
}

void Viewport::keep_picture() {
    const render::View_place here = place();
    if (here.width <= 0 || here.height <= 0 || format().samples() > 0) return;
    render::World_stamp stamp = render::world_stamp(*shown_);
    if (pictures_.find(stamp, options_, here)) return; // a scrub back: the same pixels
    pictures_.put(std::move(stamp), options_, here,
                  render::gl::read_picture(*context()->functions(), here.width, here.height));
}

void Viewport::set_world(const World& world, const World_delta& delta) {
    if (delta_complete_) {
        if (!delta_) {
            delta_ = delta;
        } else {
            // Merged deltas start where the first did and list everything any of them did.
            delta_->vertices.insert(delta_->vertices.end(), delta.vertices.begin(),
                                    delta.vertices.end());
            delta_->faces.insert(delta_->faces.end(), delta.faces.begin(), delta.faces.end());
            delta_->edges.insert(delta_->edges.end(), delta.edges.begin(), delta.edges.end());
        }
    }
    world_ = world;
    picture_.reset();
    if (picker_serves_world_ && picker_) {
        const auto* positions = world_->layer(position_layer);
        for (const Vertex v : delta.vertices)
            if (!positions || (world_->mesh().contains(v) &&
                               glm::length(glm::dvec3((*positions)[v])) > picker_->max_radius()))
                picker_serves_world_ = false;
    }
    message_.clear();
    request_scene();
}

void Viewport::clear_world(const QString& message) {
    world_.reset();
    picture_.reset();
    picker_after_frame_ = false;
    picker_serves_world_ = false;
    message_ = message;
    hover_.reset();
    update();
}

void Viewport::set_options(const render::View_options& options) {
    if (options == options_) return;
    options_ = options;
    request_scene();
}

void Viewport::set_legend(const Legend& legend) {
    // The statistics' timer sets it again after every pause in editing; an unchanged legend
    // must not cost a frame, which is a second of the GUI thread at 10M in software.
    if (legend == legend_) return;
    legend_ = legend;
    update();
}

void Viewport::reset_view() {
    camera_.set_viewport(width(), height());
    camera_.reset();
    // A generated world is two-thirds ocean: look at its land first.
    if (const World* world = picked_world())
        if (const auto land = render::land_facing_direction(*world))
            camera_.look_at(*land * camera_.radius());
    update();
}

bool Viewport::scene_pending() const { return building_ || build_again_; }

void Viewport::finish_scene() {
    while (scene_pending()) {
        if (!building_) {
            request_scene();
            continue;
        }
        watcher_->waitForFinished();
        // finished() is delivered through the event loop; deliver it now.
        scene_built();
    }
    request_pending_picker();
    while (picker_building_) {
        picker_watcher_->waitForFinished();
        picker_built();
    }
}

void Viewport::request_scene() {
    if (!world_) return;
    if (building_) {
        build_again_ = true;
        return;
    }
    build_again_ = false;
    building_ = true;
    std::optional<World_delta> delta;
    if (delta_complete_) delta = std::move(delta_);
    delta_.reset();
    delta_complete_ = true;
    const auto* positions = world_->layer(position_layer);
    bool need_picker = !picker_ || !positions || picker_mesh_version_ != world_->mesh_version() ||
                       picker_position_version_ != positions->version();
    if (need_picker && delta && picker_ && positions) {
        // The picker's index only chooses where walks start, so it survives edits, unless a
        // vertex moved outside the radius it enters the mesh at (see Picker).
        need_picker = false;
        for (const Vertex v : delta->vertices)
            if (world_->mesh().contains(v) &&
                glm::length(glm::dvec3((*positions)[v])) > picker_->max_radius())
                need_picker = true;
    }
    // While a picker is on its way, no build makes another: one for this very state is not
    // built twice, and an edit's build leaves it to the job (picker_built asks again for the
    // state then shown), rather than spend the whole world's picker on the edit's picture.
    if (need_picker && picker_building_ &&
        (delta || (positions && picker_job_mesh_version_ == world_->mesh_version() &&
                   picker_job_position_version_ == positions->version())))
        need_picker = false;
    // A large world's first picture does not wait for its picker.
    const bool picker_later =
        need_picker && !delta && world_->mesh().vertex_count() >= picker_after_from_;
    if (picker_later) need_picker = false;
    render::Scene_builder* builder = builder_.get();
    auto job = [builder, world = *world_, options = options_, need_picker, picker_later,
                delta = std::move(delta)]() {
        auto result = std::make_shared<Build_result>();
        result->world = world;
        result->options = options;
        result->whole = !delta;
        result->picker_later = picker_later;
        try {
            result->scene = builder->build(result->world, options, delta ? &*delta : nullptr);
            if (need_picker) result->picker = std::make_shared<render::Picker>(result->world);
        } catch (const std::exception& e) {
            result->error = e.what();
        }
        return result;
    };
    watcher_->setFuture(QtConcurrent::run(job));
}

void Viewport::prepare_triangles() {
    if (!renderer_.initialized() || !options_.triangles) return;
    // Shared vertices unless a face layer is shown (see Scene_builder::build).
    const Layer_base* layer = options_.layer.empty() ? nullptr : world_->find_layer(options_.layer);
    if (layer && layer->type() == Layer_type::face) return;
    const bool coloured = layer && layer->type() == Layer_type::vertex;
    const bool normals = options_.shading != render::Shading::flat;
    const bool current = QOpenGLContext::currentContext() == context();
    if (!current) makeCurrent();
    // Shared vertices are the vertex slots, dead ones included (see Triangle_buffers). The
    // triangles are the live faces, or the face slots when the build keeps them in slot order:
    // storage for the faces, with its room, fits the slots while fewer than an eighth of them
    // are free (the default pipeline's 10M world: 11.7 %); otherwise the upload allocates anew.
    // Not storage for the slots: it is touched ahead, and at 10M that is 27 MB more at the peak.
    renderer_.prepare_triangles(world_->mesh().vertex_slots(), 3 * world_->mesh().face_count(),
                                coloured, normals);
    if (!current) doneCurrent();
}

void Viewport::scene_built() {
    if (!building_ || watcher_->future().resultCount() == 0) return;
    building_ = false;
    const std::shared_ptr<Build_result> result = watcher_->future().result();
    // Consume it: finish_scene() and the queued finished() signal must not upload twice.
    watcher_->setFuture(QFuture<std::shared_ptr<Build_result>>());
    if (!result->error.empty()) {
        message_ = QString::fromStdString(result->error);
        shown_.reset();
        if (renderer_.prepared_bytes() > 0) {
            makeCurrent();
            renderer_.drop_prepared();
            doneCurrent();
        }
    } else {
        shown_ = result->world;
        // A build for a state left since draws that state, not the picture of the current one.
        if (!build_again_) picture_.reset();
        // The first frame of another state is kept as a picture, unless one is kept already.
        keep_picture_ = result->whole;
        if (result->picker) {
            picker_ = result->picker;
            picker_serves_world_ = false; // a new entry radius: true again below when current
        } else if (result->picker_later) {
            // The last picker may not enter this world where it should; none until its own.
            picker_.reset();
            picker_serves_world_ = false;
        }
        // A picker kept through a delta counts as current for the versions it now serves.
        picker_mesh_version_ = shown_->mesh_version();
        picker_position_version_ = shown_->layer(position_layer)->version();
        if (picker_ && world_ && world_->mesh_version() == picker_mesh_version_ &&
            world_->layer(position_layer) &&
            world_->layer(position_layer)->version() == picker_position_version_)
            picker_serves_world_ = true;
        camera_.set_radius(result->scene.radius);
        if (reset_camera_on_ready_) {
            reset_view();
            reset_camera_on_ready_ = false;
        }
        if (renderer_.initialized()) {
            makeCurrent();
            last_upload_ = renderer_.upload(result->scene);
            if (hover_) renderer_.set_highlight({}, {}, highlight_colour);
            doneCurrent();
        }
        hover_.reset();
        // No word on scene.tectonics_error: the window disables these overlays without their
        // layers, and a scene built for a world a step behind the toggles would only flash one.
        overlay_key_ = overlay_key_of(result->scene);
        const std::string before = layer_error_;
        layer_error_ = result->scene.layer_error;
        if (!layer_error_.empty() && layer_error_ != before)
            Q_EMIT layer_refused(QString::fromStdString(layer_error_));
    }
    update();
    Q_EMIT scene_ready();
    if (result->error.empty() && result->picker_later) {
        // After the frame this scene brings, so that drawing it and building the picker do not
        // hold their memory at once (at 9M vertices, the software renderer's bins and the
        // picker's cells) nor share the cores. A hidden view draws no frame: at once.
        if (isVisible() && renderer_.initialized()) {
            picker_after_frame_ = true;
            // A window that is shown but never repaints (minimised) gets it all the same.
            QTimer::singleShot(picker_frame_wait_ms, this, &Viewport::request_pending_picker);
        } else {
            request_picker();
        }
    }
    if (build_again_) request_scene();
}

void Viewport::request_picker() {
    if (picker_building_ || !shown_ || !shown_->layer(position_layer)) return;
    picker_building_ = true;
    picker_job_mesh_version_ = shown_->mesh_version();
    picker_job_position_version_ = shown_->layer(position_layer)->version();
    picker_watcher_->setFuture(QtConcurrent::run([world = *shown_] {
        auto built = std::make_shared<Built_picker>();
        built->mesh_version = world.mesh_version();
        built->position_version = world.layer(position_layer)->version();
        try {
            built->picker = std::make_shared<render::Picker>(world);
        } catch (...) {
            // No picks in this state, as when a scene's own build fails; the future still has
            // a result, so picker_built() always runs.
        }
        return built;
    }));
}

void Viewport::picker_built() {
    if (!picker_building_ || picker_watcher_->future().resultCount() == 0) return;
    picker_building_ = false;
    const std::shared_ptr<Built_picker> built = picker_watcher_->future().result();
    picker_watcher_->setFuture(QFuture<std::shared_ptr<Built_picker>>());
    // Taken only for the state still shown, and only when no build made a picker meanwhile.
    if (picker_ || !shown_) return;
    const auto* positions = shown_->layer(position_layer);
    const bool current = positions && built->mesh_version == shown_->mesh_version() &&
                         built->position_version == positions->version();
    if (current && !built->picker) return; // this state has no picks
    if (current) {
        picker_ = built->picker;
        picker_mesh_version_ = built->mesh_version;
        picker_position_version_ = built->position_version;
        const auto* now = world_ ? world_->layer(position_layer) : nullptr;
        picker_serves_world_ = now && world_->mesh_version() == picker_mesh_version_ &&
                               now->version() == picker_position_version_;
    } else {
        request_picker(); // the shown state moved on without a picker of its own
    }
}

void Viewport::initializeGL() {
    try {
        renderer_.initialize();
        connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
            makeCurrent();
            renderer_.release();
            doneCurrent();
        });
    } catch (const std::exception& e) {
        gl_error_ = QString::fromStdString(e.what());
    }
    if (renderer_.initialized() && !surface_ && QOpenGLContext::supportsThreadedOpenGL()) {
        // Prefetched pictures are drawn on workers, in contexts of the same format on this.
        surface_ = new QOffscreenSurface(nullptr, this);
        surface_->setFormat(context()->format());
        surface_->create();
    }
    if (renderer_.initialized() && (!selection_segments_.empty() || !selection_points_.empty()))
        renderer_.set_overlay(render::gl::Gl_renderer::Overlay::selection, selection_segments_,
                              selection_points_, {0.3f, 0.95f, 1.0f, 1.0f});
    // Buffers built before the context existed were never uploaded: build (nothing new) and
    // upload everything again.
    if (world_) request_scene();
}

void Viewport::resizeGL(int w, int h) { camera_.set_viewport(w, h); }

void Viewport::paintGL() {
    camera_.set_viewport(width(), height());
    const bool from_picture = shown_ && showing_picture();
    if (from_picture) {
        // Drawn by the painter below.
    } else if (renderer_.initialized() && shown_) {
        renderer_.draw(camera_, options_.lighting, background);
        // Only a frame of exactly the current state, with nothing drawn over the scene.
        if (keep_picture_ && can_keep_picture()) keep_picture();
        keep_picture_ = false;
    } else {
        QOpenGLFunctions* gl = context()->functions();
        gl->glClearColor(background.r, background.g, background.b, background.a);
        gl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    }
    QPainter painter(this);
    if (from_picture) {
        const QImage image(picture_->pixels.data(), picture_->width, picture_->height,
                           QImage::Format_RGBX8888);
        painter.setCompositionMode(QPainter::CompositionMode_Source);
        painter.drawImage(QRect(0, 0, width(), height()), image);
        painter.setCompositionMode(QPainter::CompositionMode_SourceOver);
    }
    painter.setRenderHint(QPainter::Antialiasing);
    legend_bar_ = QRect();
    if (!gl_error_.isEmpty())
        draw_message(painter, "OpenGL 3.3 is not available: " + gl_error_);
    else if (!shown_)
        draw_message(painter, message_.isEmpty() ? tr("No world") : message_);
    else if (legend_.visible)
        draw_legend(painter);
    if (shown_ && gl_error_.isEmpty() && !overlay_key_.empty()) draw_overlay_key(painter);
    if (!prefetch_.empty()) idle_->start();
    // Queued: the frame is composed and swapped first.
    if (picker_after_frame_) QTimer::singleShot(0, this, &Viewport::request_pending_picker);
}

void Viewport::request_pending_picker() {
    if (!picker_after_frame_) return;
    picker_after_frame_ = false;
    request_picker();
}

void Viewport::draw_overlay_key(QPainter& painter) {
    const QFontMetrics metrics(painter.font());
    const int margin = 16, swatch = 22, line = metrics.height() + 4;
    int text_width = 0;
    for (const Overlay_key_line& l : overlay_key_)
        text_width = std::max(text_width, metrics.horizontalAdvance(l.text));
    const QRect panel(margin, height() - margin - line * int(overlay_key_.size()) - 12,
                      swatch + text_width + 28, line * int(overlay_key_.size()) + 12);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(20, 22, 28, 200));
    painter.drawRoundedRect(panel, 6, 6);
    int y = panel.top() + 6;
    for (const Overlay_key_line& l : overlay_key_) {
        if (l.swatch.isValid()) {
            painter.setPen(QPen(l.swatch, 3));
            painter.drawLine(panel.left() + 8, y + line / 2, panel.left() + 8 + swatch,
                             y + line / 2);
        }
        painter.setPen(QColor(230, 230, 235));
        painter.drawText(QRect(panel.left() + 16 + swatch, y, text_width + 4, line),
                         Qt::AlignLeft | Qt::AlignVCenter, l.text);
        y += line;
    }
}

void Viewport::draw_message(QPainter& painter, const QString& text) {
    painter.setPen(QColor(220, 220, 230));
    QFont font = painter.font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    painter.setFont(font);
    painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, text);
}

void Viewport::draw_legend(QPainter& painter) {
    const QFontMetrics metrics(painter.font());
    if (!legend_.categories.empty()) {
        draw_category_legend(painter);
        return;
    }
    const int bar_width = 18;
    const int bar_height = std::clamp(height() / 3, 80, 260);
    const int label_width = metrics.horizontalAdvance("-000000.0") + 8;
    const int margin = 16;
    const QRect bar(width() - margin - label_width - bar_width, height() - margin - bar_height,
                    bar_width, bar_height);
    const QRect panel = bar.adjusted(-10, -metrics.height() - 16, label_width + 8, 10);
    legend_bar_ = bar;
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(20, 22, 28, 200));
    painter.drawRoundedRect(panel, 6, 6);

    painter.setPen(QColor(230, 230, 235));
    painter.drawText(QRect(panel.left() + 8, panel.top() + 4, panel.width() - 16, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(QString::fromStdString(legend_.title), Qt::ElideRight,
                                        panel.width() - 16));
    // The bar: the map sampled finely, low values at the bottom.
    const int steps = bar_height;
    for (int i = 0; i < steps; ++i) {
        const double t = (i + 0.5) / steps;
        const double value = legend_.min + t * (legend_.max - legend_.min);
        const Srgb8 c = map_colour(legend_.map, value, legend_.min, legend_.max, legend_.sea_level);
        painter.fillRect(QRect(bar.left(), bar.bottom() - i, bar.width(), 1),
                         QColor(c.r, c.g, c.b));
    }
    painter.setPen(QColor(230, 230, 235));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    const std::vector<double> ticks = render::nice_ticks(legend_.min, legend_.max, 5);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
    for (const double v : ticks) {
        const double t =
            legend_.max > legend_.min ? (v - legend_.min) / (legend_.max - legend_.min) : 0.5;
        const int y = bar.bottom() - int(std::lround(t * (bar_height - 1)));
        painter.drawLine(bar.right() + 1, y, bar.right() + 5, y);
        painter.drawText(
            QRect(bar.right() + 8, y - metrics.height() / 2, label_width, metrics.height()),
            Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(render::format_tick(v, step)));
    }
}

// Named values (plates, boundary kinds): a swatch and a name each, as many as fit.
void Viewport::draw_category_legend(QPainter& painter) {
    const QFontMetrics metrics(painter.font());
    const int row = metrics.height() + 2;
    const int margin = 16;
    const int rows_fit = std::max(1, (height() / 2 - metrics.height()) / row);
    const auto& all = legend_.categories;
    const int shown = int(std::min<std::size_t>(all.size(), std::size_t(rows_fit)));
    const bool more = std::size_t(shown) < all.size();
    int text_width = metrics.horizontalAdvance(QString::fromStdString(legend_.title));
    for (int i = 0; i < shown; ++i)
        text_width = std::max(text_width,
                              metrics.horizontalAdvance(QString::fromStdString(all[i].name)) + row);
    const int rows = shown + (more ? 1 : 0);
    // Generous: text measured here can come out narrower than painted on some surfaces.
    const int panel_width = text_width + 24 + 2 * row;
    const QRect panel(width() - margin - panel_width, height() - margin - (rows + 1) * row - 12,
                      panel_width, (rows + 1) * row + 12);
    legend_bar_ = panel;
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(20, 22, 28, 200));
    painter.drawRoundedRect(panel, 6, 6);
    painter.setPen(QColor(230, 230, 235));
    int y = panel.top() + 6;
    painter.drawText(QRect(panel.left() + 8, y, panel.width() - 16, row),
                     Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(legend_.title));
    for (int i = 0; i < shown; ++i) {
        y += row;
        const Layer_category& c = all[std::size_t(i)];
        painter.fillRect(QRect(panel.left() + 8, y + 3, row - 6, row - 6),
                         QColor(c.colour.r, c.colour.g, c.colour.b));
        painter.drawText(QRect(panel.left() + 8 + row, y, panel.width() - 16 - row, row),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(c.name));
    }
    if (more)
        painter.drawText(QRect(panel.left() + 8, y + row, panel.width() - 16, row),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         tr("… and %1 more").arg(all.size() - std::size_t(shown)));
}

const World* Viewport::picked_world() const {
    if (picker_serves_world_ && world_) return &*world_;
    return shown_ ? &*shown_ : nullptr;
}

std::optional<Hover> Viewport::hover_at(QPoint at) const {
    const World* world = picked_world();
    if (!world || !picker_) return std::nullopt;
    const render::Ray ray = camera_.ray_at({at.x() + 0.5, at.y() + 0.5});
    const Face hint =
        hover_ && world->mesh().contains(hover_->pick.face) ? hover_->pick.face : no_face;
    const auto pick = picker_->pick(*world, ray, hint);
    if (!pick) return std::nullopt;
    Hover h;
    h.pick = *pick;
    h.vertex = pick->vertex;
    const Mesh& m = world->mesh();
    const Layer_base* layer = options_.layer.empty() ? nullptr : world->find_layer(options_.layer);
    QString element = QString("vertex v%1").arg(pick->vertex.index());
    std::size_t slot = pick->vertex.index();
    if (layer) {
        switch (layer->type()) {
        case Layer_type::vertex:
            break;
        case Layer_type::face:
            h.face = pick->face;
            element = QString("face f%1").arg(pick->face.index());
            slot = pick->face.index();
            break;
        case Layer_type::edge_primal:
        case Layer_type::edge_primal_directed:
            h.edge = pick->edge;
            element = QString("edge e%1 (v%2 → v%3)")
                          .arg(pick->edge.index())
                          .arg(pick->edge.origin(m).index())
                          .arg(pick->edge.dest(m).index());
            slot = layer->type() == Layer_type::edge_primal ? pick->edge.quad_index()
                                                            : pick->edge.index();
            break;
        case Layer_type::edge_dual:
        case Layer_type::edge_dual_directed:
            h.edge = pick->edge.rot();
            element = QString("dual edge %1 (f%2 → f%3)")
                          .arg(QString::fromStdString(layer->element_name(
                              layer->type() == Layer_type::edge_dual ? h.edge.quad_index()
                                                                     : h.edge.index())))
                          .arg(h.edge.origin_face(m).index())
                          .arg(h.edge.dest_face(m).index());
            slot = layer->type() == Layer_type::edge_dual ? h.edge.quad_index() : h.edge.index();
            break;
        }
    }
    QString text = element + "  " + QString::fromStdString(latitude_longitude_text(pick->point));
    if (layer && slot < layer->size())
        text += QString("  %1 = %2")
                    .arg(QString::fromStdString(layer->name()),
                         QString::fromStdString(layer->format_value(slot)));
    if (const std::string water = gen::water_readout(*world, pick->vertex); !water.empty())
        text += "  " + QString::fromStdString(water);
    text += QString("  (face f%1, edge e%2)").arg(pick->face.index()).arg(pick->edge.index());
    h.text = text.toStdString();
    return h;
}

void Viewport::update_hover(QPoint at, Qt::KeyboardModifiers modifiers) {
    // Over a picture only picks in the pictured state say what is seen.
    std::optional<Hover> h =
        showing_picture() && !picker_serves_world_ ? std::nullopt : hover_at(at);
    const bool same = h && hover_ && h->vertex == hover_->vertex && h->face == hover_->face &&
                      h->edge == hover_->edge && h->pick.face == hover_->pick.face;
    if (!same) {
        std::vector<glm::vec3> segments;
        std::vector<glm::vec3> points;
        const World* world = picked_world();
        if (h && world) {
            const Mesh& m = world->mesh();
            if (h->face.valid()) {
                for (const Edge e : h->face.edges(m)) {
                    segments.push_back(glm::vec3(position_of(*world, e.origin(m))));
                    segments.push_back(glm::vec3(position_of(*world, e.dest(m))));
                }
            } else if (h->edge.valid() && h->edge.is_primal()) {
                segments.push_back(glm::vec3(position_of(*world, h->edge.origin(m))));
                segments.push_back(glm::vec3(position_of(*world, h->edge.dest(m))));
            } else if (h->edge.valid()) {
                const Face a = h->edge.origin_face(m);
                const Face b = h->edge.dest_face(m);
                if (a.valid() && b.valid()) {
                    segments.push_back(glm::vec3(circumcentre(*world, a)));
                    segments.push_back(glm::vec3(circumcentre(*world, b)));
                }
            } else {
                points.push_back(glm::vec3(position_of(*world, h->vertex)));
            }
        }
        // Over a kept picture the highlight waits for the scene: drawing it would need the
        // scene of the step before, which would flash back into view.
        if (renderer_.initialized() && !showing_picture()) {
            makeCurrent();
            renderer_.set_highlight(segments, points, highlight_colour);
            doneCurrent();
        }
        update();
    }
    hover_ = h;
    Q_EMIT hovered(hover_, at, modifiers);
}

void Viewport::set_edit_mode(bool editing, bool drags) {
    editing_ = editing;
    drags_ = editing && drags;
    setCursor(editing ? Qt::CrossCursor : Qt::ArrowCursor);
}

void Viewport::set_preview(const render::Edit_preview* preview) {
    if (!renderer_.initialized()) return;
    using Overlay = render::gl::Gl_renderer::Overlay;
    makeCurrent();
    if (preview) {
        // A refused edit shows its element in red among the causes instead.
        static const std::vector<glm::vec3> none;
        renderer_.set_overlay(
            Overlay::highlight, preview->allowed ? preview->subject_segments : none,
            preview->allowed ? preview->subject_points : none, {1.0f, 0.6f, 0.0f, 1.0f});
        renderer_.set_overlay(Overlay::ghost, preview->ghost_segments, preview->ghost_points,
                              {0.2f, 1.0f, 0.4f, 1.0f});
        renderer_.set_overlay(Overlay::cause, preview->cause_segments, preview->cause_points,
                              {1.0f, 0.15f, 0.15f, 1.0f});
    } else {
        renderer_.set_overlay(Overlay::ghost, {}, {}, {0.2f, 1.0f, 0.4f, 1.0f});
        renderer_.set_overlay(Overlay::cause, {}, {}, {1.0f, 0.15f, 0.15f, 1.0f});
    }
    doneCurrent();
    update();
}

void Viewport::set_selection(const std::vector<glm::vec3>& segments,
                             const std::vector<glm::vec3>& points) {
    // Every edit sets the outline again; an unchanged one must not cost a frame.
    if (segments == selection_segments_ && points == selection_points_) return;
    selection_segments_ = segments;
    selection_points_ = points;
    if (!renderer_.initialized()) return;
    makeCurrent();
    renderer_.set_overlay(render::gl::Gl_renderer::Overlay::selection, segments, points,
                          {0.3f, 0.95f, 1.0f, 1.0f});
    doneCurrent();
    update();
}

void Viewport::fly_to(const glm::dvec3& p) {
    camera_.look_at(p);
    update();
}

void Viewport::mousePressEvent(QMouseEvent* event) {
    last_mouse_ = event->pos();
    press_at_ = event->pos();
    dragging_ = event->button();
    moved_ = false;
    if (drags_ && event->button() == Qt::LeftButton && hover_at(event->pos())) {
        vertex_drag_ = true;
        Q_EMIT drag_started(event->pos(), event->modifiers());
    }
}

void Viewport::mouseMoveEvent(QMouseEvent* event) {
    const QPoint at = event->pos();
    if (dragging_ != Qt::NoButton && (at - press_at_).manhattanLength() > 4) moved_ = true;
    if (vertex_drag_) {
        Q_EMIT drag_moved(at, event->modifiers());
    } else if (dragging_ == Qt::LeftButton) {
        camera_.rotate({last_mouse_.x() + 0.5, last_mouse_.y() + 0.5},
                       {at.x() + 0.5, at.y() + 0.5});
        update();
    } else if (dragging_ == Qt::RightButton || dragging_ == Qt::MiddleButton) {
        camera_.pan({double(at.x() - last_mouse_.x()), double(at.y() - last_mouse_.y())});
        update();
    } else {
        update_hover(at, event->modifiers());
    }
    last_mouse_ = at;
}

void Viewport::mouseReleaseEvent(QMouseEvent* event) {
    const bool left = event->button() == Qt::LeftButton;
    if (event->button() == dragging_) dragging_ = Qt::NoButton;
    if (vertex_drag_ && left) {
        vertex_drag_ = false;
        Q_EMIT drag_finished(event->pos(), event->modifiers());
    } else if (editing_ && left && !moved_) {
        Q_EMIT clicked(event->pos(), event->modifiers());
    }
    update_hover(event->pos(), event->modifiers());
}

void Viewport::wheelEvent(QWheelEvent* event) {
    const double factor = std::pow(1.0015, event->angleDelta().y());
    const QPointF at = event->position();
    camera_.zoom_at({at.x(), at.y()}, factor);
    update();
}

void Viewport::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Home) {
        reset_view();
        return;
    }
    if (event->key() == Qt::Key_Shift && hover_) update_hover(last_mouse_, event->modifiers());
    QOpenGLWidget::keyPressEvent(event);
}

void Viewport::keyReleaseEvent(QKeyEvent* event) {
    // Shift changes what some tools would do (a collapse snaps): preview it at once.
    if (event->key() == Qt::Key_Shift && hover_) update_hover(last_mouse_, event->modifiers());
    QOpenGLWidget::keyReleaseEvent(event);
}

void Viewport::leaveEvent(QEvent* event) {
    if (hover_) {
        hover_.reset();
        if (renderer_.initialized()) {
            makeCurrent();
            renderer_.set_highlight({}, {}, highlight_colour);
            doneCurrent();
        }
        update();
        Q_EMIT hovered(std::nullopt, last_mouse_, Qt::NoModifier);
    }
    QOpenGLWidget::leaveEvent(event);
}

} // namespace orbis::ui
