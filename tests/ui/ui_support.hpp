// SPDX-License-Identifier: MIT
// What the editor's tests share: small planets and where screenshots go.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/gen/module_registry.hpp"
#include "orbis/gen/pipeline.hpp"

#include <QDir>
#include <QString>

#include <cstdint>
#include <cstdlib>

namespace orbis::ui::testing {

/// A planet of `count` points with the default pipeline's layers (plates, elevation).
inline World small_world(std::int64_t count = 3000) {
    gen::Pipeline p = gen::default_pipeline();
    gen::override_parameter(p, gen::builtin_modules(), "count", Dict_value(count), "sphere");
    World w;
    gen::run_pipeline(w, p, gen::builtin_modules());
    return w;
}

/// Where screenshot `name` goes: $ORBIS_SCREENSHOTS (ctest sets it; the files are kept as
/// test artefacts), else a folder in the temporary directory.
inline QString screenshot_path(const QString& name) {
    const char* dir = std::getenv("ORBIS_SCREENSHOTS");
    const QString base = dir ? QString(dir) : QDir::tempPath() + "/orbis-screenshots";
    QDir().mkpath(base);
    return base + "/" + name + ".png";
}

} // namespace orbis::ui::testing
