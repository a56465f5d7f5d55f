// SPDX-License-Identifier: MIT
// An offscreen OpenGL 3.3 core context for tests that check the renderer by its pixels.
#pragma once

#include <QDir>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QSurfaceFormat>

#include <cstdlib>
#include <memory>

namespace orbis::render {

inline constexpr int width = 1024, height = 768;

/// One GL 3.3 core context drawing into an offscreen framebuffer of width × height; fbo is
/// null when no such context could be made (no display).
struct Offscreen_gl {
    QOffscreenSurface surface;
    QOpenGLContext context;
    std::unique_ptr<QOpenGLFramebufferObject> fbo;
    Offscreen_gl() {
        QSurfaceFormat format;
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        format.setDepthBufferSize(24);
        surface.setFormat(format);
        surface.create();
        context.setFormat(format);
        if (!context.create() || !context.makeCurrent(&surface)) return;
        fbo = std::make_unique<QOpenGLFramebufferObject>(
            width, height, QOpenGLFramebufferObject::CombinedDepthStencil);
        fbo->bind();
        context.functions()->glViewport(0, 0, width, height);
    }
};

/// Where a test saves screenshot `name`: $ORBIS_SCREENSHOTS, else a temporary folder.
inline QString screenshot_path(const QString& name) {
    const char* dir = std::getenv("ORBIS_SCREENSHOTS");
    const QString base = dir ? QString(dir) : QDir::tempPath() + "/orbis-screenshots";
    QDir().mkpath(base);
    return base + "/" + name + ".png";
}

} // namespace orbis::render
