// SPDX-License-Identifier: MIT
// Draws a Scene with OpenGL 3.3 core, uploading only the parts whose stamps changed.
#pragma once

#include "orbis/render/camera.hpp"
#include "orbis/render/scene.hpp"
#include "orbis/render/triangle_clusters.hpp"

#include <QOpenGLFunctions>
#include <QOpenGLFunctions_3_3_Core>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace orbis::render::gl {

/// What one upload() sent to the GPU.
struct Upload_stats {
    int parts = 0;           ///< buffers (geometry or colours) uploaded
    std::size_t bytes = 0;   ///< bytes uploaded
    double milliseconds = 0; ///< wall-clock time of the upload calls
};

/// The OpenGL side of the viewport: GPU buffers per Scene part, the shaders, and the draw.
///
/// Every call needs the same current OpenGL 3.3 core context: initialize() once after it was
/// created, release() before it goes. Geometry and colours are uploaded separately, each only
/// when its stamp in the Scene differs from the one uploaded last, so a new colour map sends
/// colours and not positions, and an unchanged Scene sends nothing.
class Gl_renderer : protected QOpenGLFunctions_3_3_Core {
public:
    Gl_renderer() = default;
    Gl_renderer(const Gl_renderer&) = delete;
    Gl_renderer& operator=(const Gl_renderer&) = delete;
    ~Gl_renderer() = default;

    /// Resolves the GL functions and compiles the shaders.
    /// \throws std::runtime_error with the driver's log when the context is not OpenGL 3.3 core
    /// or a shader does not compile.
    void initialize();
    /// True after a successful initialize() and before release().
    bool initialized() const { return initialized_; }
    /// Deletes every GL object (the context must be current).
    void release();

    /// Makes the GPU buffers match `scene`; parts the scene leaves out are not drawn, nor are
    /// triangles without indices that need uploading when the scene has no mesh. Precondition:
    /// scene.mesh is unchanged since the build (see Scene::mesh).
    Upload_stats upload(const Scene& scene);
    /// Gives a whole build's triangles, drawn from `vertices` shared vertices (coloured when
    /// `colours`, with normals when `normals`) and `indices` indices, their GPU storage before
    /// the build arrives, in buffers of their own: what is drawn meanwhile is untouched, and
    /// the next upload() takes them when the build fits them (else gives them back). A
    /// software renderer zeroes new storage on the calling thread (0.45 s for the indices of
    /// 9M vertices), which this lets the caller pay while the build runs on other cores. Does
    /// nothing when the triangles drawn now already hold a quarter of that storage, so the two
    /// never both hold a large world, or when the same storage is prepared already. Cost: the
    /// storage's bytes, once.
    void prepare_triangles(std::size_t vertices, std::size_t indices, bool colours, bool normals);
    /// Gives back what prepare_triangles() holds (a build that failed will not upload it).
    void drop_prepared() { delete_objects(spare_triangles_); }
    /// Bytes of GPU storage prepare_triangles() holds for the next upload (0 when none).
    std::size_t prepared_bytes() const {
        const Part& p = spare_triangles_;
        return p.vao ? p.positions_bytes + p.normals_bytes + p.colours_bytes + p.indices_bytes : 0;
    }
    /// Draws the uploaded parts as seen by `camera` into the current framebuffer, on
    /// `background`. `lighting` false draws the exact colours.
    void draw(const Camera& camera, bool lighting, const glm::vec4& background);
    /// Draws every uploaded part with the same primitives but the trivial shader: no normals,
    /// colours or overlay passes (the benchmark's baseline).
    void draw_bare(const Camera& camera, const glm::vec4& background);
    /// Whether frames skip the runs of triangles the eye cannot see (on by default): those
    /// whose every triangle faces away, and those outside the view. The picture is the same
    /// either way; off is for comparing and measuring.
    void set_culling(bool on) { culling_ = on; }
    /// Triangles of the surface the last draw() or draw_bare() sent to the GPU.
    std::size_t drawn_triangles() const { return drawn_triangles_; }

    /// The overlays drawn on top of everything, in this order; `selection` is hidden behind the
    /// planet like the surface (a selection spans the globe), the others are not (they are
    /// where the cursor is).
    enum class Overlay { highlight, ghost, cause, selection };
    /// Sets an overlay: line segments (pairs of ends) and points in one colour.
    void set_overlay(Overlay which, const std::vector<glm::vec3>& segments,
                     const std::vector<glm::vec3>& points, const glm::vec4& colour);
    /// True when any overlay has something to draw.
    bool has_overlays() const;
    /// set_overlay(Overlay::highlight, ...): the element under the cursor.
    void set_highlight(const std::vector<glm::vec3>& segments, const std::vector<glm::vec3>& dots,
                       const glm::vec4& colour) {
        set_overlay(Overlay::highlight, segments, dots, colour);
    }

private:
    struct Part {
        unsigned vao = 0;
        unsigned positions = 0;
        unsigned normals = 0;
        unsigned colours = 0;
        unsigned indices = 0;
        int count = 0; // indices, or vertices when there are no indices
        // Elements the GPU buffers have room for: per-vertex arrays and indices get headroom
        // on a full upload, so that edits that append are patched in place.
        std::size_t vertex_capacity = 0;
        std::size_t index_capacity = 0;
        // Bytes of storage each buffer has now (upload_with_room's buffers only).
        std::size_t positions_bytes = 0;
        std::size_t normals_bytes = 0;
        std::size_t colours_bytes = 0;
        std::size_t indices_bytes = 0;
        bool indexed = false;
        bool has_colours = false;
        bool present = false;
        std::uint64_t geometry_stamp = 0;
        std::uint64_t colour_stamp = 0;
        std::vector<Triangle_cluster> clusters; // triangles only: bounds of runs of them
    };
    using Runs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
    enum Part_index {
        triangles,
        voronoi,
        primal,
        dual,
        points,
        boundary,
        arrows,
        rivers,
        plate_boundaries,
        velocity_arrows,
        overlay_parts, // four overlays, lines then points
        part_count = overlay_parts + 8
    };

    unsigned compile(std::string_view vertex, std::string_view fragment, const char* name);
    void ensure_objects(Part& part);
    void delete_objects(Part& part);
    void upload_array(unsigned buffer, const void* data, std::size_t bytes, Upload_stats& stats);
    // Storage for `capacity` elements of `size` bytes, the first `count` from `data`; the
    // buffer's storage is kept when it already has that many bytes (`allocated`, updated).
    void upload_with_room(unsigned target, unsigned buffer, std::size_t& allocated,
                          const void* data, std::size_t count, std::size_t capacity,
                          std::size_t size, Upload_stats& stats);
    // glBufferSubData of the elements at `elements` (ascending), merged into runs.
    void patch(unsigned target, unsigned buffer, const void* data, std::size_t size,
               const std::vector<std::uint32_t>& elements, std::size_t stride, Upload_stats& stats);
    // glBufferSubData of the corners [first, last) of flat triangles with one normal each.
    void send_corner_normals(unsigned buffer, const std::vector<glm::vec3>& normals,
                             std::size_t first, std::size_t last, Upload_stats& stats);
    // patch() for those corners: `corners` ascending.
    void patch_corner_normals(unsigned buffer, const std::vector<glm::vec3>& normals,
                              const std::vector<std::uint32_t>& corners, Upload_stats& stats);
    // Writes the indices of triangles [first, last) of smooth triangles `b` without indices,
    // read from their mesh `m`, into the bound element buffer (mapped when large); all of them
    // face by face when `index` (b's) is given and the range is the whole.
    void send_smooth_indices(const Mesh& m, const Triangle_buffers& b, std::size_t first,
                             std::size_t last, Upload_stats& stats,
                             const Triangle_index* index = nullptr);
    // patch() for those indices: the `listed` triangles, ascending.
    void patch_smooth_indices(const Mesh& m, const Triangle_buffers& b,
                              const std::vector<std::uint32_t>& listed, Upload_stats& stats);
    void upload_positions(Part& part, const std::vector<glm::vec3>& positions, Upload_stats& stats);
    // Puts prepare_triangles()'s buffers in place of the triangles' when `scene_part` is a whole
    // upload they fit; else gives them back.
    void take_spare_triangles(const Scene_part<Triangle_buffers>& scene_part);
    // `mesh`, `index`: the scene's (Scene::mesh, Scene::triangle_index), for triangles without
    // indices.
    template <class Buffers>
    void upload_part(Part& part, const Scene_part<Buffers>& scene_part, Upload_stats& stats,
                     const Mesh* mesh = nullptr, const Triangle_index* index = nullptr);
    // Draws with the part's colours, or `colour` when it has none or own_colours is false.
    // Triangles only: draws the runs [first, last) of triangles in `runs` when given.
    void draw_part(const Part& part, unsigned mode, float scale, const glm::vec4& colour, bool lit,
                   bool own_colours = true, const Runs* runs = nullptr);
    // The surface's triangles `camera` may see, for draw_part; nullptr draws them all.
    const Runs* surface_runs(const Camera& camera);
    // Issues the draw calls of `part` (bound), whole or by runs of triangles.
    void draw_elements(const Part& part, unsigned mode, const Runs* runs);

    bool initialized_ = false;
    QOpenGLFunctions* es2_ = nullptr;
    unsigned surface_program_ = 0;
    unsigned bare_program_ = 0;
    int view_projection_ = -1;
    int scale_ = -1;
    int light_direction_ = -1;
    int lighting_ = -1;
    int flat_normals_ = -1;
    int bare_view_projection_ = -1;
    Part parts_[part_count];
    Part spare_triangles_; // prepare_triangles()'s buffers, until upload() takes them
    bool voronoi_outlines_ = false;
    bool flat_shading_ = false;
    bool dual_edges_coloured_ = false;
    bool culling_ = true;
    std::size_t drawn_triangles_ = 0;
    Runs runs_; // surface_runs' answer, kept to reuse its memory
    glm::vec4 overlay_colours_[4] = {{1.0f, 0.6f, 0.0f, 1.0f},
                                     {0.2f, 1.0f, 0.4f, 1.0f},
                                     {1.0f, 0.15f, 0.15f, 1.0f},
                                     {0.3f, 0.95f, 1.0f, 1.0f}};
};

} // namespace orbis::render::gl
