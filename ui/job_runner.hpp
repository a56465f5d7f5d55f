// SPDX-License-Identifier: MIT
// Runs a generation pipeline, or modules on the document, off the GUI thread.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/gen/pipeline.hpp"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QWidget;

namespace orbis::ui {

class Document;

/// Runs one pipeline at a time on a worker thread with a progress dialog and Cancel. A new
/// world replaces the document when done; a module run on the document becomes one undoable
/// step, unless the document changed meanwhile (then it is refused, with the reason). While a
/// job reads the document, the document refuses edits (Document::check_edit).
class Job_runner : public QObject {
    Q_OBJECT
public:
    /// A runner for `document`; its progress dialog is a child of `dialog_parent`.
    Job_runner(Document& document, QWidget* dialog_parent);
    ~Job_runner() override;

    /// Starts generating a new world with `pipeline`. False while another job runs.
    bool generate(const gen::Pipeline& pipeline);
    /// Starts `pipeline` on the document's current world; the result is one step called
    /// `step_text`. False while another job runs or without a world.
    bool run_on_document(const gen::Pipeline& pipeline, const QString& step_text);
    /// Runs module `module` (built-in or plugin, see editor_modules) with `params` (completed
    /// with defaults) on the document as one step called `step_text` ("Run MODULE" when
    /// empty). Returns why not: no world, no such module, bad parameters, a required input the
    /// world lacks, a job running.
    std::optional<QString> run_module(const QString& module, const Dict& params,
                                      const QString& step_text = {});
    /// Runs module `module` with `params` on the document's selection (its vertices and the
    /// corners of its faces; faces and edges wholly inside) as one undoable step: the module
    /// runs on the whole world and what it wrote is kept only inside the part
    /// (gen::keep_inside_part). Returns why not: as run_module, an empty selection, or a module
    /// that edits the mesh.
    std::optional<QString> run_module_on_selection(const QString& module, const Dict& params);
    /// Runs step `step` of the world's provenance again with its recorded module and
    /// parameters, as one undoable step "Re-run MODULE"; its layers are then fresh. Returns
    /// why not, as run_module.
    std::optional<QString> rerun_step(std::size_t step);
    /// True while a job runs.
    bool running() const;
    /// Blocks until the running job (if any) finished and its result was taken (tests).
    void finish();
    /// Asks the running job to stop; the document stays as it was.
    void cancel();
    /// The last pipeline that generated a world.
    const gen::Pipeline& last_pipeline() const { return last_pipeline_; }

Q_SIGNALS:
    /// A job ended; `message` says how (for the status bar).
    void finished(const QString& message);
    /// A job failed: `what` could not be done because of `why`.
    void failed(const QString& what, const QString& why);

private:
    struct State;
    bool start(const gen::Pipeline& pipeline, std::optional<World> start, const QString& step);
    void take_result();

    Document& document_;
    QWidget* dialog_parent_;
    gen::Pipeline last_pipeline_;
    std::unique_ptr<State> state_;
};

} // namespace orbis::ui
