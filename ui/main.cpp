// SPDX-License-Identifier: MIT
// orbis: the editor. Opens the file given, or generates a world with the default pipeline.
#include "ui/autosave.hpp"
#include "ui/file_actions.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport.hpp"

#include "orbis/core/huge_page_malloc.hpp"
#include "orbis/gen/pipeline.hpp"
#include "ui/editor_modules.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QPixmap>
#include <QScreen>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace {

// Qt aborts when it cannot reach a display; say so in one line instead.
bool has_display() {
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) return true;
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

} // namespace

int main(int argc, char** argv) {
    QElapsedTimer since_start;
    since_start.start();
    orbis::use_huge_page_malloc(argv);
    if (!has_display()) {
        std::fprintf(stderr, "orbis: no display to open a window on (DISPLAY is not set); run it "
                             "in a desktop session or under xvfb-run, or use orbis-cli\n");
        return 1;
    }
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    QSurfaceFormat::setDefaultFormat(format);

    QApplication app(argc, argv);
    QApplication::setOrganizationName("Orbis");
    QApplication::setApplicationName("orbis");
    QApplication::setApplicationVersion(ORBIS_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("Orbis: spherical Delaunay worlds and their Voronoi duals.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "A world to open (.orbis, .ply, .obj).", "[FILE]");
    QCommandLineOption pipeline_option({"p", "pipeline"},
                                       "Generate with this pipeline (JSON) instead of the "
                                       "default one.",
                                       "json");
    QCommandLineOption vertices_option({"n", "vertices"},
                                       "Points of the sphere step when generating "
                                       "(default: the pipeline's, 1,000,000).",
                                       "count");
    QCommandLineOption screenshot_option(
        "screenshot", "Once the world is on screen, save the window as a PNG and quit.", "png");
    parser.addOption(pipeline_option);
    parser.addOption(vertices_option);
    QCommandLineOption plugins_option(
        "plugins",
        "Also load module plugins (*.so) from this folder (repeatable; ORBIS_MODULE_PATH and "
        "~/.local/share/orbis/modules are always searched).",
        "dir");
    QCommandLineOption autosave_option(
        "autosave-seconds",
        "Autosave unsaved work to the recovery folder every N seconds in this session (0: never; "
        "default: the preference, 300).",
        "N");
    QCommandLineOption recover_option(
        "recover",
        "Restore the autosaved work of recovery entry ID (the start-up question does "
        "this for further entries).",
        "ID");
    QCommandLineOption timings_option(
        "timings", "Print to stderr when the first picture is drawn, and a large file's preview "
                   "before it (milliseconds since start).");
    parser.addOption(screenshot_option);
    parser.addOption(timings_option);
    parser.addOption(plugins_option);
    parser.addOption(autosave_option);
    parser.addOption(recover_option);
    parser.process(app);
    std::vector<std::filesystem::path> plugin_folders;
    for (const QString& dir : parser.values(plugins_option))
        plugin_folders.emplace_back(dir.toStdString());
    const auto refused = orbis::ui::load_editor_modules(plugin_folders);
    for (const auto& refusal : refused)
        std::fprintf(stderr, "orbis: plugin refused: %s\n", refusal.c_str());

    orbis::ui::Main_window window;
    if (parser.isSet(autosave_option)) {
        bool ok = false;
        const int seconds = parser.value(autosave_option).toInt(&ok);
        if (!ok || !window.autosave().set_interval(seconds, false)) {
            std::fprintf(stderr,
                         "orbis: --autosave-seconds wants a number of seconds, 0 or more, "
                         "not '%s'\n",
                         qPrintable(parser.value(autosave_option)));
            return 2;
        }
    }
    window.resize(1280, 800);
    window.show();
    // Work an editor that died left behind comes first: the user decides before anything new
    // is generated.
    bool restored = false;
    if (parser.isSet(recover_option)) {
        const QString id = parser.value(recover_option);
        for (const auto& entry : orbis::ui::find_recoverable())
            if (entry.id == id) restored = window.files().restore(entry);
        if (!restored)
            window.statusBar()->showMessage(
                QObject::tr("Nothing to recover under %1 (restored elsewhere or discarded)")
                    .arg(id),
                15000);
    } else if (!parser.isSet(screenshot_option) && !qEnvironmentVariableIsSet("ORBIS_NO_DIALOGS")) {
        const auto entries = orbis::ui::find_recoverable();
        if (!entries.empty()) restored = window.files().offer_recovery(entries);
    }
    if (!refused.empty())
        window.statusBar()->showMessage(
            QObject::tr("%n plugin(s) refused; see the terminal", "", int(refused.size())), 15000);
    if (parser.isSet(screenshot_option)) {
        const QString path = parser.value(screenshot_option);
        QObject::connect(
            window.viewport(), &orbis::ui::Viewport::scene_ready, &window, [&window, path] {
                if (!window.world() || window.generating() || window.files().opening() ||
                    window.viewport()->scene_pending())
                    return;
                // One more turn of the event loop paints the new scene first.
                QTimer::singleShot(100, &window, [&window, path] {
                    // What the screen shows, not a re-render.
                    const QPixmap shot = window.screen()->grabWindow(window.winId());
                    if (!shot.save(path)) {
                        std::fprintf(stderr, "orbis: cannot write %s\n", qPrintable(path));
                        QApplication::exit(1);
                        return;
                    }
                    QApplication::quit();
                });
            });
    }
    if (parser.isSet(timings_option)) {
        QObject::connect(
            window.viewport(), &QOpenGLWidget::frameSwapped, &window,
            [&window, &since_start, preview = false, world = false]() mutable {
                const orbis::World* shown = window.viewport()->shown_world();
                const bool opening = window.files().opening();
                // Once opened, the preview stays drawn until the world's own
                // scene is built.
                if (!shown || (opening ? preview : world) ||
                    (!opening && (!window.world() || window.viewport()->scene_pending())))
                    return;
                (opening ? preview : world) = true;
                std::fprintf(stderr, "orbis: %lld ms: first picture%s, %zu vertices\n",
                             static_cast<long long>(since_start.elapsed()),
                             opening ? " (preview while the file loads)" : "",
                             shown->mesh().vertex_count());
            });
    }
    const QStringList files = parser.positionalArguments();
    if (restored) {
        // The restored work is the document; a file named too waits for File > Open.
    } else if (!files.isEmpty()) {
        window.open_file(files.front());
    } else {
        try {
            orbis::gen::Pipeline pipeline =
                parser.isSet(pipeline_option)
                    ? orbis::gen::load_pipeline(parser.value(pipeline_option).toStdString(),
                                                orbis::ui::editor_modules())
                    : orbis::gen::default_pipeline();
            if (parser.isSet(vertices_option)) {
                bool ok = false;
                const qlonglong n = parser.value(vertices_option).toLongLong(&ok);
                if (!ok)
                    throw orbis::gen::Pipeline_error("--vertices wants a number, not '" +
                                                     parser.value(vertices_option).toStdString() +
                                                     "'");
                orbis::gen::override_parameter(pipeline, orbis::ui::editor_modules(), "count",
                                               orbis::Dict_value(std::int64_t{n}), "sphere");
            }
            window.generate(pipeline);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "orbis: %s\n", e.what());
            return 2;
        }
    }
    return app.exec();
}
