// SPDX-License-Identifier: MIT
// Draws a Scene with OpenGL 3.3 core, uploading only the parts whose stamps changed.
#include "orbis/render/gl/gl_renderer.hpp"

#include "orbis/render/gl/shaders.hpp"
#include "orbis/render/parallel.hpp"

#include <QOpenGLContext>
#include <QOpenGLFunctions>

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace orbis::render::gl {

namespace {

// Radial scales that lift overlays off the surface (relative to the radius), so that lines,
// points and highlights win the depth test against the faces they lie on.
constexpr float cell_lift = 1.0003f;
constexpr float line_lift = 1.0008f;
constexpr float point_lift = 1.0012f;
constexpr float highlight_lift = 1.0016f;
// A patch sends the bytes between two changed elements rather than make another call when they
// are at most this many: copying 4 KB costs about what a glBufferSubData call does.
constexpr std::size_t patch_join_bytes = 4096;

const glm::vec4 surface_colour{0.72f, 0.76f, 0.82f, 1.0f};
const glm::vec4 wire_colour{0.12f, 0.13f, 0.16f, 1.0f};
const glm::vec4 outline_colour{0.05f, 0.05f, 0.08f, 1.0f};
const glm::vec4 dual_colour{0.15f, 0.45f, 0.95f, 1.0f};
const glm::vec4 point_colour{0.95f, 0.35f, 0.1f, 1.0f};
const glm::vec4 boundary_colour{0.95f, 0.1f, 0.1f, 1.0f};

} // namespace

unsigned Gl_renderer::compile(std::string_view vertex, std::string_view fragment,
                              const char* name) {
    auto stage = [&](GLenum type, std::string_view source) {
        const GLuint shader = glCreateShader(type);
        const char* text = source.data();
        const GLint length = static_cast<GLint>(source.size());
        glShaderSource(shader, 1, &text, &length);
        glCompileShader(shader);
        GLint ok = 0;
        glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char log[2048] = {};
            glGetShaderInfoLog(shader, sizeof log, nullptr, log);
            glDeleteShader(shader);
            throw std::runtime_error(std::string("render: shader '") + name +
                                     "' does not compile: " + log);
        }
        return shader;
    };
    const GLuint vs = stage(GL_VERTEX_SHADER, vertex);
    const GLuint fs = stage(GL_FRAGMENT_SHADER, fragment);
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(program, sizeof log, nullptr, log);
        glDeleteProgram(program);
        throw std::runtime_error(std::string("render: shader '") + name +
                                 "' does not link: " + log);
    }
    return program;
}

void Gl_renderer::initialize() {
    if (initialized_) return;
    if (!initializeOpenGLFunctions())
        throw std::runtime_error("render: OpenGL 3.3 core is not available in this context");
    // The 3.3 core table leaves out the constant vertex attributes; the ES 2 table has them.
    es2_ = QOpenGLContext::currentContext()->functions();
    surface_program_ = compile(surface_vertex_shader(), surface_fragment_shader(), "surface");
    bare_program_ = compile(bare_vertex_shader(), bare_fragment_shader(), "bare");
    view_projection_ = glGetUniformLocation(surface_program_, "view_projection");
    scale_ = glGetUniformLocation(surface_program_, "scale");
    light_direction_ = glGetUniformLocation(surface_program_, "light_direction");
    lighting_ = glGetUniformLocation(surface_program_, "lighting");
    flat_normals_ = glGetUniformLocation(surface_program_, "flat_normals");
    bare_view_projection_ = glGetUniformLocation(bare_program_, "view_projection");
    initialized_ = true;
}

void Gl_renderer::release() {
    if (!initialized_) return;
    for (Part& p : parts_)
        delete_objects(p);
    delete_objects(spare_triangles_);
    glDeleteProgram(surface_program_);
    glDeleteProgram(bare_program_);
    surface_program_ = bare_program_ = 0;
    initialized_ = false;
}

void Gl_renderer::delete_objects(Part& part) {
    const GLuint buffers[] = {part.positions, part.normals, part.colours, part.indices};
    glDeleteBuffers(4, buffers);
    if (part.vao) glDeleteVertexArrays(1, &part.vao);
    part = Part{};
}

void Gl_renderer::ensure_objects(Part& part) {
    if (part.vao) return;
    glGenVertexArrays(1, &part.vao);
    GLuint buffers[4];
    glGenBuffers(4, buffers);
    part.positions = buffers[0];
    part.normals = buffers[1];
    part.colours = buffers[2];
    part.indices = buffers[3];
    glBindVertexArray(part.vao);
    glBindBuffer(GL_ARRAY_BUFFER, part.positions);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, part.normals);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, part.colours);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Colour), nullptr);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, part.indices);
    glBindVertexArray(0);
}

void Gl_renderer::upload_array(unsigned buffer, const void* data, std::size_t bytes,
                               Upload_stats& stats) {
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), data, GL_STATIC_DRAW);
    stats.bytes += bytes;
    ++stats.parts;
}

void Gl_renderer::upload_positions(Part& part, const std::vector<glm::vec3>& positions,
                                   Upload_stats& stats) {
    ensure_objects(part);
    upload_array(part.positions, positions.data(), positions.size() * sizeof(glm::vec3), stats);
    part.count = static_cast<int>(positions.size());
    part.indexed = false;
}

void Gl_renderer::upload_with_room(unsigned target, unsigned buffer, std::size_t& allocated,
                                   const void* data, std::size_t count, std::size_t capacity,
                                   std::size_t size, Upload_stats& stats) {
    glBindBuffer(target, buffer);
    // Storage of the same size is written over rather than given up: a software renderer's
    // new storage is fresh memory, and at a million vertices its page faults cost ten times
    // the copy (a timeline scrub uploads every buffer whole, with a count a little different).
    if (allocated != capacity * size) {
        glBufferData(target, static_cast<GLsizeiptr>(capacity * size), nullptr, GL_STATIC_DRAW);
        allocated = capacity * size;
    }
    const std::size_t bytes = count * size;
    stats.bytes += bytes;
    ++stats.parts;
    if (bytes == 0) return;
    // A large array is copied into the mapped buffer by several threads: with a software
    // renderer the buffer is fresh memory, and its page faults are most of the copy.
    if (bytes >= (std::size_t{1} << 24)) {
        if (void* mapped = glMapBufferRange(target, 0, static_cast<GLsizeiptr>(bytes),
                                            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT)) {
            const auto* from = static_cast<const unsigned char*>(data);
            auto* to = static_cast<unsigned char*>(mapped);
            detail::in_parallel(bytes, [&](std::size_t first, std::size_t last) {
                std::memcpy(to + first, from + first, last - first);
            });
            if (glUnmapBuffer(target) == GL_TRUE) return;
        }
    }
    glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
}

void Gl_renderer::patch(unsigned target, unsigned buffer, const void* data, std::size_t size,
                        const std::vector<std::uint32_t>& elements, std::size_t stride,
                        Upload_stats& stats) {
    glBindBuffer(target, buffer);
    const auto* bytes = static_cast<const unsigned char*>(data);
    // Runs of nearby elements go up as one call: a few kilobytes too many cost less than a
    // call. Shared vertices are in slot order, which scatters a region's over a band of slots
    // (a Fibonacci sphere numbers by latitude): joined, a dab's go up in one or a few calls.
    const std::size_t join = std::max<std::size_t>(8, patch_join_bytes / (stride * size));
    for (std::size_t i = 0; i < elements.size();) {
        std::size_t j = i;
        while (j + 1 < elements.size() && elements[j + 1] <= elements[j] + join)
            ++j;
        const std::size_t first = std::size_t{elements[i]} * stride;
        const std::size_t last = (std::size_t{elements[j]} + 1) * stride;
        glBufferSubData(target, static_cast<GLintptr>(first * size),
                        static_cast<GLsizeiptr>((last - first) * size), bytes + first * size);
        stats.bytes += (last - first) * size;
        i = j + 1;
    }
    ++stats.parts;
}

void Gl_renderer::send_corner_normals(unsigned buffer, const std::vector<glm::vec3>& normals,
                                      std::size_t first, std::size_t last, Upload_stats& stats) {
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    // In pieces, so that the expanded copy never holds more than a few megabytes.
    constexpr std::size_t piece = std::size_t{1} << 18;
    std::vector<glm::vec3> corners;
    corners.reserve(std::min(piece, last - first));
    for (std::size_t begin = first; begin < last; begin += piece) {
        const std::size_t end = std::min(last, begin + piece);
        corners.clear();
        for (std::size_t o = begin; o < end; ++o)
            corners.push_back(normals[o / 3]);
        glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>(begin * sizeof(glm::vec3)),
                        static_cast<GLsizeiptr>(corners.size() * sizeof(glm::vec3)),
                        corners.data());
        stats.bytes += corners.size() * sizeof(glm::vec3);
    }
}

void Gl_renderer::patch_corner_normals(unsigned buffer, const std::vector<glm::vec3>& normals,
                                       const std::vector<std::uint32_t>& corners,
                                       Upload_stats& stats) {
    // Runs of corners at most 8 apart: each run is expanded to one normal a corner on the way.
    for (std::size_t i = 0; i < corners.size();) {
        std::size_t j = i;
        while (j + 1 < corners.size() && corners[j + 1] <= corners[j] + 8)
            ++j;
        send_corner_normals(buffer, normals, corners[i], std::size_t{corners[j]} + 1, stats);
        i = j + 1;
    }
    ++stats.parts;
}

namespace {

// Room for edits that append: an eighth more, and at least a few thousand elements.
std::size_t with_room(std::size_t n) { return n + n / 8 + 4096; }

// The capacity for `n` elements in a buffer that has `capacity`: kept while it holds them
// with at most a quarter more room than with_room gives, so that the steps of a timeline, a
// few vertices apart, reuse one storage.
std::size_t keep_room(std::size_t capacity, std::size_t n) {
    return capacity >= n && capacity <= with_room(n) + n / 4 ? capacity : with_room(n);
}

// Flat triangles index their corners in order (corner k of triangle t is output 3t + k, see
// Triangle_buffers), so they draw as arrays and their index buffer would be a copy of 0, 1, 2...
template <class Buffers>
bool draws_indexed(const Buffers& b) {
    if constexpr (requires { b.shading; })
        return b.shading != Shading::flat;
    else
        return requires {
            b.normals;
            b.indices;
        };
}

// The indices `b` draws with: its own, or (smooth triangles without them) three a triangle.
template <class Buffers>
std::size_t index_count(const Buffers& b) {
    if constexpr (std::is_same_v<Buffers, Triangle_buffers>)
        if (!b.with_indices) return 3 * b.triangle_count();
    return b.indices.size();
}

// Whether the indices of `b` are read from the mesh: smooth triangles without them.
template <class Buffers>
bool indices_from_mesh(const Buffers& b) {
    if constexpr (std::is_same_v<Buffers, Triangle_buffers>)
        return !b.with_indices;
    else
        return false;
}

} // namespace

void Gl_renderer::send_smooth_indices(const Mesh& m, const Triangle_buffers& b, std::size_t first,
                                      std::size_t last, Upload_stats& stats,
                                      const Triangle_index* index) {
    const std::size_t bytes = 3 * (last - first) * sizeof(std::uint32_t);
    stats.bytes += bytes;
    if (bytes == 0) return;
    const auto offset = static_cast<GLintptr>(3 * first * sizeof(std::uint32_t));
    // Large ranges are written straight into the mapped buffer, so that no copy of them is
    // ever held (at ten million vertices, 216 MB); smooth_indices() splits them over threads.
    if (bytes >= (std::size_t{1} << 24)) {
        if (void* mapped =
                glMapBufferRange(GL_ELEMENT_ARRAY_BUFFER, offset, static_cast<GLsizeiptr>(bytes),
                                 GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT)) {
            const std::span<std::uint32_t> to(static_cast<std::uint32_t*>(mapped),
                                              3 * (last - first));
            // The whole, through the index, reads the mesh in order (see
            // smooth_indices_by_face).
            if (index && first == 0 && last == b.triangle_count())
                smooth_indices_by_face(m, b, *index, to);
            else
                smooth_indices(m, b, first, to);
            if (glUnmapBuffer(GL_ELEMENT_ARRAY_BUFFER) == GL_TRUE) return;
        }
    }
    // In pieces, so that the copy never holds more than a few megabytes.
    constexpr std::size_t piece = std::size_t{1} << 18;
    std::vector<std::uint32_t> values(3 * std::min(piece, last - first));
    for (std::size_t begin = first; begin < last; begin += piece) {
        const std::size_t end = std::min(last, begin + piece);
        const std::span<std::uint32_t> part(values.data(), 3 * (end - begin));
        smooth_indices(m, b, begin, part);
        glBufferSubData(GL_ELEMENT_ARRAY_BUFFER,
                        static_cast<GLintptr>(3 * begin * sizeof(std::uint32_t)),
                        static_cast<GLsizeiptr>(part.size_bytes()), part.data());
    }
}

void Gl_renderer::patch_smooth_indices(const Mesh& m, const Triangle_buffers& b,
                                       const std::vector<std::uint32_t>& listed,
                                       Upload_stats& stats) {
    // Runs joined as patch() joins them: the triangles between are rewritten with what they
    // hold already.
    const std::size_t join =
        std::max<std::size_t>(8, patch_join_bytes / (3 * sizeof(std::uint32_t)));
    for (std::size_t i = 0; i < listed.size();) {
        std::size_t j = i;
        while (j + 1 < listed.size() && listed[j + 1] <= listed[j] + join)
            ++j;
        send_smooth_indices(m, b, listed[i], std::size_t{listed[j]} + 1, stats);
        i = j + 1;
    }
    ++stats.parts;
}

template <class Buffers>
void Gl_renderer::upload_part(Part& part, const Scene_part<Buffers>& scene_part,
                              Upload_stats& stats, const Mesh* mesh, const Triangle_index* index) {
    part.present = scene_part.geometry != nullptr;
    if (!part.present) return;
    const Buffers& b = *scene_part.geometry;
    constexpr bool has_normals = requires {
        b.normals;
        b.indices;
    };
    const bool indexed = draws_indexed(b);
    const bool from_mesh = indices_from_mesh(b);
    // A scene without its mesh cannot say what such triangles draw: none rather than garbage
    // (what the GPU holds already is drawn on).
    if (from_mesh && !mesh && part.geometry_stamp != scene_part.geometry_stamp) {
        part.present = false;
        return;
    }
    if (part.geometry_stamp != scene_part.geometry_stamp) {
        ensure_objects(part);
        glBindVertexArray(part.vao);
        bool fits = b.positions.size() <= part.vertex_capacity && indexed == part.indexed;
        if constexpr (has_normals)
            fits = fits && (!indexed || index_count(b) <= part.index_capacity);
        if (scene_part.dirt && part.geometry_stamp != 0 &&
            scene_part.base_geometry_stamp == part.geometry_stamp && fits) {
            const Buffer_dirt& dirt = *scene_part.dirt;
            patch(GL_ARRAY_BUFFER, part.positions, b.positions.data(), sizeof(glm::vec3),
                  dirt.vertices, 1, stats);
            if constexpr (has_normals) {
                if (indexed) {
                    if (!b.normals.empty())
                        patch(GL_ARRAY_BUFFER, part.normals, b.normals.data(), sizeof(glm::vec3),
                              dirt.vertices, 1, stats);
                    if (from_mesh) {
                        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, part.indices);
                        if constexpr (std::is_same_v<Buffers, Triangle_buffers>)
                            patch_smooth_indices(*mesh, b, dirt.triangles, stats);
                    } else {
                        patch(GL_ELEMENT_ARRAY_BUFFER, part.indices, b.indices.data(),
                              sizeof(std::uint32_t), dirt.triangles, 3, stats);
                    }
                } else {
                    patch_corner_normals(part.normals, b.normals, dirt.vertices, stats);
                }
            }
        } else {
            part.vertex_capacity = keep_room(part.vertex_capacity, b.positions.size());
            upload_with_room(GL_ARRAY_BUFFER, part.positions, part.positions_bytes,
                             b.positions.data(), b.positions.size(), part.vertex_capacity,
                             sizeof(glm::vec3), stats);
            if constexpr (has_normals) {
                if (indexed) {
                    // Shared vertices without normals (shaded flat while drawing) hold none.
                    upload_with_room(GL_ARRAY_BUFFER, part.normals, part.normals_bytes,
                                     b.normals.data(), b.normals.size(),
                                     b.normals.empty() ? 0 : part.vertex_capacity,
                                     sizeof(glm::vec3), stats);
                } else {
                    // Flat: one normal per triangle, spread over its three corners.
                    upload_with_room(GL_ARRAY_BUFFER, part.normals, part.normals_bytes, nullptr, 0,
                                     part.vertex_capacity, sizeof(glm::vec3), stats);
                    send_corner_normals(part.normals, b.normals, 0, b.positions.size(), stats);
                }
                if (indexed && b.normals.empty())
                    glDisableVertexAttribArray(1);
                else
                    glEnableVertexAttribArray(1);
                part.index_capacity = indexed ? keep_room(part.index_capacity, index_count(b)) : 0;
                if (indexed && from_mesh) {
                    upload_with_room(GL_ELEMENT_ARRAY_BUFFER, part.indices, part.indices_bytes,
                                     nullptr, 0, part.index_capacity, sizeof(std::uint32_t), stats);
                    if constexpr (std::is_same_v<Buffers, Triangle_buffers>)
                        send_smooth_indices(*mesh, b, 0, b.triangle_count(), stats, index);
                } else if (indexed) {
                    upload_with_room(GL_ELEMENT_ARRAY_BUFFER, part.indices, part.indices_bytes,
                                     b.indices.data(), b.indices.size(), part.index_capacity,
                                     sizeof(std::uint32_t), stats);
                } else {
                    // Gives back what smooth triangles drawn before held.
                    glBufferData(GL_ELEMENT_ARRAY_BUFFER, 0, nullptr, GL_STATIC_DRAW);
                    part.indices_bytes = 0;
                }
            }
            // Colours must be sent whole into the resized buffer.
            part.colour_stamp = 0;
        }
        glBindVertexArray(0);
        part.count = static_cast<int>(b.positions.size());
        if constexpr (has_normals)
            if (indexed) part.count = static_cast<int>(index_count(b));
        part.indexed = indexed;
        part.geometry_stamp = scene_part.geometry_stamp;
        if constexpr (std::is_same_v<Buffers, Triangle_buffers>) part.clusters = b.clusters;
    }
    if (part.colour_stamp != scene_part.colour_stamp) {
        ensure_objects(part);
        glBindVertexArray(part.vao);
        const std::vector<Colour>* colours = scene_part.colours;
        if (colours && scene_part.dirt && part.has_colours && part.colour_stamp != 0 &&
            scene_part.base_colour_stamp == part.colour_stamp &&
            colours->size() <= part.vertex_capacity) {
            patch(GL_ARRAY_BUFFER, part.colours, colours->data(), sizeof(Colour),
                  scene_part.dirt->vertices, 1, stats);
        } else if (colours) {
            upload_with_room(GL_ARRAY_BUFFER, part.colours, part.colours_bytes, colours->data(),
                             colours->size(), std::max(part.vertex_capacity, colours->size()),
                             sizeof(Colour), stats);
            glEnableVertexAttribArray(2);
        } else {
            glDisableVertexAttribArray(2);
        }
        glBindVertexArray(0);
        part.has_colours = colours != nullptr;
        part.colour_stamp = scene_part.colour_stamp;
    }
}

void Gl_renderer::prepare_triangles(std::size_t vertices, std::size_t indices, bool colours,
                                    bool normals) {
    const std::size_t vertex_capacity = with_room(vertices), index_capacity = with_room(indices);
    const std::size_t positions_bytes = vertex_capacity * sizeof(glm::vec3);
    const std::size_t normals_bytes = normals ? positions_bytes : 0;
    const std::size_t colours_bytes = colours ? vertex_capacity * sizeof(Colour) : 0;
    const std::size_t indices_bytes = index_capacity * sizeof(std::uint32_t);
    const std::size_t bytes = positions_bytes + normals_bytes + colours_bytes + indices_bytes;
    const Part& now = parts_[triangles];
    if (4 * (now.positions_bytes + now.normals_bytes + now.colours_bytes + now.indices_bytes) >=
        bytes)
        return;
    Part& part = spare_triangles_;
    if (part.vao && part.vertex_capacity == vertex_capacity &&
        part.index_capacity == index_capacity && part.normals_bytes == normals_bytes &&
        part.colours_bytes == colours_bytes)
        return;
    delete_objects(part);
    ensure_objects(part);
    part.vertex_capacity = vertex_capacity;
    part.index_capacity = index_capacity;
    const auto allocate = [this](unsigned target, std::size_t& allocated, std::size_t size) {
        allocated = size;
        if (size > 0) glBufferData(target, static_cast<GLsizeiptr>(size), nullptr, GL_STATIC_DRAW);
    };
    glBindBuffer(GL_ARRAY_BUFFER, part.positions);
    allocate(GL_ARRAY_BUFFER, part.positions_bytes, positions_bytes);
    glBindBuffer(GL_ARRAY_BUFFER, part.normals);
    allocate(GL_ARRAY_BUFFER, part.normals_bytes, normals_bytes);
    glBindBuffer(GL_ARRAY_BUFFER, part.colours);
    allocate(GL_ARRAY_BUFFER, part.colours_bytes, colours_bytes);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    // The index buffer is bound to the part's own vertex array object (ensure_objects).
    glBindVertexArray(part.vao);
    allocate(GL_ELEMENT_ARRAY_BUFFER, part.indices_bytes, indices_bytes);
    glBindVertexArray(0);
}

void Gl_renderer::take_spare_triangles(const Scene_part<Triangle_buffers>& scene_part) {
    if (!spare_triangles_.vao) return;
    const Triangle_buffers* b = scene_part.geometry;
    Part& spare = spare_triangles_;
    // Taken only for a whole upload the spare's storage is kept for, as upload_part would keep
    // its own.
    const bool fits =
        b && draws_indexed(*b) && !scene_part.dirt &&
        parts_[triangles].geometry_stamp != scene_part.geometry_stamp &&
        keep_room(spare.vertex_capacity, b->positions.size()) == spare.vertex_capacity &&
        keep_room(spare.index_capacity, index_count(*b)) == spare.index_capacity;
    if (fits) {
        delete_objects(parts_[triangles]);
        std::swap(parts_[triangles], spare);
    } else {
        delete_objects(spare);
    }
}

Upload_stats Gl_renderer::upload(const Scene& scene) {
    const auto start = std::chrono::steady_clock::now();
    Upload_stats stats;
    take_spare_triangles(scene.triangles);
    upload_part(parts_[triangles], scene.triangles, stats, scene.mesh, scene.triangle_index);
    upload_part(parts_[voronoi], scene.voronoi, stats);
    upload_part(parts_[primal], scene.primal_edges, stats);
    upload_part(parts_[dual], scene.dual_edges, stats);
    upload_part(parts_[points], scene.points, stats);
    upload_part(parts_[boundary], scene.boundary, stats);
    upload_part(parts_[arrows], scene.arrows, stats);
    upload_part(parts_[rivers], scene.rivers, stats);
    upload_part(parts_[plate_boundaries], scene.plate_boundaries, stats);
    upload_part(parts_[velocity_arrows], scene.velocity_arrows, stats);
    voronoi_outlines_ = scene.voronoi_outlines;
    flat_shading_ = scene.flat_shading;
    dual_edges_coloured_ = scene.dual_edges_coloured;
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    stats.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

void Gl_renderer::set_overlay(Overlay which, const std::vector<glm::vec3>& segments,
                              const std::vector<glm::vec3>& points_, const glm::vec4& colour) {
    Upload_stats ignored;
    const int o = static_cast<int>(which);
    Part& lines = parts_[overlay_parts + 2 * o];
    lines.present = !segments.empty();
    if (lines.present) upload_positions(lines, segments, ignored);
    Part& dots = parts_[overlay_parts + 2 * o + 1];
    dots.present = !points_.empty();
    if (dots.present) upload_positions(dots, points_, ignored);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    overlay_colours_[o] = colour;
}

bool Gl_renderer::has_overlays() const {
    for (int i = overlay_parts; i < part_count; ++i)
        if (parts_[i].present) return true;
    return false;
}

void Gl_renderer::draw_part(const Part& part, unsigned mode, float scale, const glm::vec4& colour,
                            bool lit, bool own_colours, const Runs* runs) {
    if (!part.present || part.count == 0) return;
    glUniform1f(scale_, scale);
    glUniform1f(lighting_, lit ? 1.0f : 0.0f);
    glBindVertexArray(part.vao);
    const bool masked = part.has_colours && !own_colours;
    if (masked) glDisableVertexAttribArray(2);
    if (!part.has_colours || masked)
        es2_->glVertexAttrib4f(2, colour.r, colour.g, colour.b, colour.a);
    draw_elements(part, mode, runs);
    if (masked) glEnableVertexAttribArray(2);
    glBindVertexArray(0);
}

void Gl_renderer::draw_elements(const Part& part, unsigned mode, const Runs* runs) {
    if (!runs) {
        if (part.indexed)
            glDrawElements(mode, part.count, GL_UNSIGNED_INT, nullptr);
        else
            glDrawArrays(mode, 0, part.count);
        return;
    }
    // Three indices (smooth) or three vertices (flat) a triangle.
    std::vector<GLsizei> counts;
    counts.reserve(runs->size());
    for (const auto& [first, last] : *runs)
        counts.push_back(static_cast<GLsizei>(3 * (last - first)));
    if (part.indexed) {
        std::vector<const void*> offsets;
        offsets.reserve(runs->size());
        for (const auto& run : *runs)
            offsets.push_back(
                reinterpret_cast<const void*>(3 * std::size_t{run.first} * sizeof(std::uint32_t)));
        glMultiDrawElements(mode, counts.data(), GL_UNSIGNED_INT, offsets.data(),
                            static_cast<GLsizei>(runs->size()));
    } else {
        std::vector<GLint> firsts;
        firsts.reserve(runs->size());
        for (const auto& run : *runs)
            firsts.push_back(static_cast<GLint>(3 * run.first));
        glMultiDrawArrays(mode, firsts.data(), counts.data(), static_cast<GLsizei>(runs->size()));
    }
}

const Gl_renderer::Runs* Gl_renderer::surface_runs(const Camera& camera) {
    const Part& part = parts_[triangles];
    const std::size_t count = part.present ? static_cast<std::size_t>(part.count) / 3 : 0;
    drawn_triangles_ = count;
    if (!culling_ || part.clusters.empty()) return nullptr;
    runs_ = visible_triangle_runs(part.clusters, count, camera.eye(),
                                  camera.projection() * camera.view());
    drawn_triangles_ = 0;
    for (const auto& [first, last] : runs_)
        drawn_triangles_ += last - first;
    return &runs_;
}

void Gl_renderer::draw(const Camera& camera, bool lighting, const glm::vec4& background) {
    glClearColor(background.r, background.g, background.b, background.a);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glUseProgram(surface_program_);
    const glm::mat4 vp(camera.projection() * camera.view());
    glUniformMatrix4fv(view_projection_, 1, GL_FALSE, glm::value_ptr(vp));
    // A headlight from above left of the eye, so that relief casts readable shading.
    const glm::dvec3 light = camera.orientation() * glm::normalize(glm::dvec3(-0.35, 0.45, 1.0));
    glUniform3f(light_direction_, float(light.x), float(light.y), float(light.z));

    glUniform1f(flat_normals_, flat_shading_ ? 1.0f : 0.0f);
    draw_part(parts_[triangles], GL_TRIANGLES, 1.0f, surface_colour, lighting, true,
              surface_runs(camera));
    glUniform1f(flat_normals_, 0.0f);
    const float cells = parts_[triangles].present ? cell_lift : 1.0f;
    draw_part(parts_[voronoi], GL_TRIANGLES, cells, surface_colour, lighting);
    // Rivers lie on the faces (lifted a little) and sit on top of the cells when they are
    // drawn; the offset settles the remaining depth ties in their favour without moving them.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -2.0f);
    draw_part(parts_[rivers], GL_TRIANGLES, parts_[voronoi].present ? cells : 1.0f,
              glm::vec4(river_colour) / 255.0f, lighting);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_CULL_FACE);
    // Lines and points sit on the near side only: the depth test against the surface hides
    // the far side's.
    draw_part(parts_[primal], GL_LINES, line_lift, wire_colour, false);
    if (voronoi_outlines_)
        draw_part(parts_[dual], GL_LINES, line_lift, outline_colour, false, false);
    if (dual_edges_coloured_) draw_part(parts_[dual], GL_LINES, line_lift, dual_colour, false);
    glPointSize(4.0f);
    draw_part(parts_[points], GL_POINTS, point_lift, point_colour, false);
    draw_part(parts_[boundary], GL_LINES, point_lift, boundary_colour, false);
    draw_part(parts_[arrows], GL_LINES, point_lift, point_colour, false);
    // Plate boundaries and velocity arrows are read at a glance over the whole globe: two
    // pixels wide, above the wireframe and the cells they would otherwise tie with.
    glLineWidth(2.0f);
    draw_part(parts_[plate_boundaries], GL_LINES, point_lift, boundary_colour, false);
    draw_part(parts_[velocity_arrows], GL_LINES, line_lift, point_colour, false);
    glLineWidth(1.0f);
    // The selection spans the globe: its far side hides behind the planet like the surface.
    const int selection = static_cast<int>(Overlay::selection);
    glLineWidth(2.0f);
    draw_part(parts_[overlay_parts + 2 * selection], GL_LINES, highlight_lift,
              overlay_colours_[selection], false);
    glPointSize(3.0f);
    draw_part(parts_[overlay_parts + 2 * selection + 1], GL_POINTS, point_lift,
              overlay_colours_[selection], false);
    glLineWidth(1.0f);
    glDisable(GL_DEPTH_TEST);
    glPointSize(9.0f);
    // Wide lines are no core feature but Mesa and the desktop drivers draw them; where they
    // are refused the overlays stay one pixel wide.
    glLineWidth(3.0f);
    for (int o = 0; o < selection; ++o) {
        draw_part(parts_[overlay_parts + 2 * o], GL_LINES, highlight_lift, overlay_colours_[o],
                  false);
        draw_part(parts_[overlay_parts + 2 * o + 1], GL_POINTS, highlight_lift, overlay_colours_[o],
                  false);
    }
    glLineWidth(1.0f);
    glEnable(GL_DEPTH_TEST);
    glUseProgram(0);
}

void Gl_renderer::draw_bare(const Camera& camera, const glm::vec4& background) {
    glClearColor(background.r, background.g, background.b, background.a);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glUseProgram(bare_program_);
    const glm::mat4 vp(camera.projection() * camera.view());
    glUniformMatrix4fv(bare_view_projection_, 1, GL_FALSE, glm::value_ptr(vp));
    glPointSize(4.0f);
    for (const Part_index i : {triangles, voronoi, primal, dual, points, boundary, arrows, rivers,
                               plate_boundaries, velocity_arrows}) {
        const Part& part = parts_[i];
        if (!part.present || part.count == 0) continue;
        const GLenum mode = i == triangles || i == voronoi || i == rivers ? GL_TRIANGLES
                            : i == points                                 ? GL_POINTS
                                                                          : GL_LINES;
        glBindVertexArray(part.vao);
        draw_elements(part, mode, i == triangles ? surface_runs(camera) : nullptr);
        glBindVertexArray(0);
    }
    glUseProgram(0);
}

} // namespace orbis::render::gl
