// SPDX-License-Identifier: MIT
// An Orbis module plugin: `slope`, how steep the terrain is at each vertex. It reads the
// `position` and `elevation` layers (run `elevation` first) and writes the `slope` layer.
#include <orbis/core/world.hpp>
#include <orbis/gen/elevation_module.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plugin_api.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

// Everything but the entry points stays inside the library: an unnamed namespace cannot clash
// with the names of Orbis or of another plugin.
namespace {

using namespace orbis;
using namespace orbis::gen;

/// Steepness at each vertex in metres of height per km; split vertices get the mean of the ends.
constexpr auto slope_layer =
    Layer_info<float, Layer_type::vertex>("slope").interpolation(Interpolation::lerp);

/// The parameters of `slope`, with their defaults; names and ranges are in parameter_list().
struct Slope_params {
    bool land_only = false;     ///< vertices below sea level get 0
    std::int64_t smoothing = 0; ///< rounds of averaging with the neighbours
};

/// `slope`: at each vertex, the largest height difference to a neighbour divided by the length
/// of the edge between them, in m/km; then `smoothing` rounds of averaging with the neighbours.
class Slope_module final : public Module_of<Slope_params> {
public:
    std::string_view name() const override { return "slope"; }

    std::string_view description() const override {
        return "steepness of the terrain in m/km: the largest height difference to a neighbour "
               "over the edge's length; reads position, elevation; writes 'slope' (float, vertex)";
    }

    // Declared once: `orbis-cli modules`, pipelines, the editor's form and run_with all read
    // this list. Ranges are checked before run_with is called.
    const Parameter_list<Slope_params>& parameter_list() const override {
        static const auto list =
            Parameter_list<Slope_params>()
                .add("land_only", &Slope_params::land_only,
                     "vertices below sea level (elevation < 0) get slope 0")
                .add("smoothing", &Slope_params::smoothing, 0, 20, "",
                     "rounds of averaging each vertex's slope with its neighbours'");
        return list;
    }

    // Orbis checks a pipeline against these declarations before anything runs, sets the hints
    // on the World when the module runs, and records what the result was computed from.
    Layer_uses layers_for(const Slope_params&) const override {
        return {.reads = {Layer_use::of(position_layer), Layer_use::of(elevation_layer)},
                .writes = {
                    Layer_use::of(slope_layer).with_hints(make_hints("Slope", "m/km", "magma"))}};
    }

    Dict run_with(World& world, const Slope_params& params,
                  const Progress& progress) const override {
        const Mesh& mesh = world.mesh();
        // Both layers exist: the reads above are required, so run_module checked them.
        const auto& position = *world.layer(position_layer);
        const auto& elevation = *world.layer(elevation_layer);
        // A refusal is an exception; run_module then puts the World back as it was.
        if (mesh.vertex_count() == 0) throw std::runtime_error("module 'slope': no vertices");

        const auto counts = [&](Vertex v) { return !params.land_only || elevation[v] >= 0; };
        std::vector<float> slope(mesh.vertex_slots(), 0.0f);
        for (const Vertex v : mesh.vertices()) {
            if (!counts(v)) continue;
            float steepest = 0;
            for (const Vertex n : v.neighbors(mesh)) {
                const float km = glm::distance(position[v], position[n]); // positions are in km
                if (km > 0)
                    steepest = std::max(steepest, std::abs(elevation[v] - elevation[n]) / km);
            }
            slope[v.index()] = steepest;
        }

        for (std::int64_t round = 0; round < params.smoothing; ++round) {
            // Throws Cancelled when the user stopped the run; partial results are thrown away.
            progress.report(name(), 0.2 + 0.7 * double(round) / double(params.smoothing));
            std::vector<float> next(slope.size(), 0.0f);
            for (const Vertex v : mesh.vertices()) {
                if (!counts(v)) continue;
                float sum = slope[v.index()];
                int count = 1;
                for (const Vertex n : v.neighbors(mesh)) {
                    sum += slope[n.index()];
                    ++count;
                }
                next[v.index()] = sum / float(count);
            }
            slope.swap(next);
        }

        // Write through a lock: it creates the layer when missing and stamps its new version.
        double largest = 0, total = 0;
        {
            auto [out] = world.lock_layer(slope_layer);
            for (const Vertex v : mesh.vertices()) {
                out[v] = slope[v.index()];
                largest = std::max(largest, double(slope[v.index()]));
                total += slope[v.index()];
            }
        }
        progress.report(name(), 1.0);

        Dict report; // what `orbis-cli generate` prints after the step
        report.set("max", largest);
        report.set("mean", total / double(mesh.vertex_count()));
        return report;
    }
};

} // namespace

// The plugin's entry points: Orbis checks the version the plugin was compiled with, then calls
// this to register its modules.
ORBIS_MODULE_PLUGIN(registry) { registry.add(std::make_shared<Slope_module>()); }
