// SPDX-License-Identifier: MIT
#include "orbis/render/gl/offscreen_picture.hpp"

#include "orbis/render/gl/gl_renderer.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <algorithm>
#include <exception>
#include <vector>

namespace orbis::render::gl {

std::shared_ptr<Picture> read_picture(QOpenGLFunctions& gl, int width, int height) {
    auto picture = std::make_shared<Picture>();
    picture->width = width;
    picture->height = height;
    const std::size_t row = std::size_t(width) * 4;
    picture->pixels.resize(row * std::size_t(height));
    gl.glPixelStorei(GL_PACK_ALIGNMENT, 4);
    gl.glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, picture->pixels.data());
    // OpenGL's rows run from the bottom: turn them over.
    std::vector<std::uint8_t> line(row);
    for (int y = 0; y < height / 2; ++y) {
        std::uint8_t* a = picture->pixels.data() + std::size_t(y) * row;
        std::uint8_t* b = picture->pixels.data() + std::size_t(height - 1 - y) * row;
        std::copy(a, a + row, line.data());
        std::copy(b, b + row, a);
        std::copy(line.data(), line.data() + row, b);
    }
    return picture;
}

std::shared_ptr<Picture> draw_offscreen_picture(QOffscreenSurface& surface, const World& world,
                                                const View_options& options, Camera camera,
                                                const glm::vec4& background, int width,
                                                int height) {
    if (width <= 0 || height <= 0) return nullptr;
    QOpenGLContext context;
    context.setFormat(surface.format());
    if (!context.create() || !context.makeCurrent(&surface)) return nullptr;
    std::shared_ptr<Picture> picture;
    {
        // The framebuffer and the renderer's objects go before the context is released.
        QOpenGLFramebufferObject fbo(width, height, QOpenGLFramebufferObject::CombinedDepthStencil);
        Gl_renderer renderer;
        try {
            if (fbo.isValid() && fbo.bind()) {
                renderer.initialize();
                Scene_builder builder;
                const Scene scene = builder.build(world, options);
                renderer.upload(scene);
                camera.set_radius(scene.radius);
                context.functions()->glViewport(0, 0, width, height);
                renderer.draw(camera, options.lighting, background);
                picture = read_picture(*context.functions(), width, height);
            }
        } catch (const std::exception&) {
            picture.reset(); // no 3.3 core context, or a layer the scene refuses
        }
        renderer.release();
        fbo.release();
    }
    context.doneCurrent();
    return picture;
}

} // namespace orbis::render::gl
