// SPDX-License-Identifier: MIT
// A small module plugin for orbis_plugin_bench, built once per module name
// (ORBIS_BENCH_MODULE_NAME): a module with a parameter and a layer it writes, so that loading it
// resolves about as many Orbis symbols as a real plugin's.
#include <orbis/core/world.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plugin_api.hpp>

#include <memory>

namespace {

using namespace orbis;
using namespace orbis::gen;

constexpr auto filled_layer =
    Layer_info<float, Layer_type::vertex>("bench_" ORBIS_BENCH_MODULE_NAME);

struct Fill_params {
    double value = 1.0;
};

class Fill_module final : public Module_of<Fill_params> {
public:
    std::string_view name() const override { return ORBIS_BENCH_MODULE_NAME; }
    std::string_view description() const override { return "fills a vertex layer"; }
    const Parameter_list<Fill_params>& parameter_list() const override {
        static const auto list = Parameter_list<Fill_params>().add(
            "value", &Fill_params::value, -1e6, 1e6, "", "value written to every vertex");
        return list;
    }
    Layer_uses layers_for(const Fill_params&) const override {
        return {.reads = {Layer_use::mesh()},
                .writes = {Layer_use::of(filled_layer).with_hints(make_hints("Filled"))}};
    }
    Dict run_with(World& world, const Fill_params& params,
                  const Progress& progress) const override {
        {
            auto [layer] = world.lock_layer(filled_layer);
            layer.fill(float(params.value));
        }
        progress.report(name(), 1.0);
        Dict report;
        report.set("vertices", std::int64_t(world.mesh().vertex_count()));
        return report;
    }
};

} // namespace

ORBIS_MODULE_PLUGIN(registry) { registry.add(std::make_shared<Fill_module>()); }
