// SPDX-License-Identifier: MIT
// Pictures of a World drawn away from the screen: the framebuffer read into a Picture, and a
// whole frame drawn in an OpenGL context of its own on a worker thread, so that a view can have
// the pictures of states it is likely to show next before it shows them.
#pragma once

#include "orbis/render/camera.hpp"
#include "orbis/render/picture_cache.hpp"
#include "orbis/render/scene.hpp"

#include <glm/vec4.hpp>

#include <memory>

class QOffscreenSurface;
class QOpenGLFunctions;

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render::gl {

/// The `width` x `height` pixels of the framebuffer bound for reading, rows from the top.
/// The context must be current; `width` and `height` > 0.
std::shared_ptr<Picture> read_picture(QOpenGLFunctions& gl, int width, int height);

/// The frame a Gl_renderer draws of `world` with `options`, seen by `camera` once its radius is
/// the scene's (as a viewport sets it when the scene arrives), on `background`, in a `width` x
/// `height` framebuffer with a depth buffer (device pixels; the camera keeps its own viewport
/// size, in the widget's pixels): the same pixels as a widget's frame of that size.
/// Makes its own context on `surface` and gives it up before returning, so it may run on any
/// thread; `surface` must have been created on the GUI thread and outlive the call. Nothing
/// when no OpenGL 3.3 core context can be made or the scene cannot be built. Cost: a scene
/// built from scratch, its upload, a frame and a read-back.
std::shared_ptr<Picture> draw_offscreen_picture(QOffscreenSurface& surface, const World& world,
                                                const View_options& options, Camera camera,
                                                const glm::vec4& background, int width, int height);

} // namespace orbis::render::gl
