// SPDX-License-Identifier: MIT
// A plugin whose module changes the World, then throws: a std::exception of a type defined in
// the plugin, or (parameter `foreign`) an int.
#include <orbis/core/world.hpp>
#include <orbis/gen/module.hpp>
#include <orbis/gen/plugin_api.hpp>

#include <memory>
#include <stdexcept>

namespace {

using namespace orbis;
using namespace orbis::gen;

// Its typeinfo lives in the plugin only.
class Plugin_failure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Throwing_params {
    bool foreign = false; // throw an int instead of a std::exception
};

class Throwing_module final : public Module_of<Throwing_params> {
public:
    std::string_view name() const override { return "throwing"; }
    std::string_view description() const override { return "writes 'scratch', then throws"; }
    const Parameter_list<Throwing_params>& parameter_list() const override {
        static const auto list = Parameter_list<Throwing_params>().add(
            "foreign", &Throwing_params::foreign, "throw an int instead of a std::exception");
        return list;
    }
    Layer_uses layers_for(const Throwing_params&) const override {
        return {.reads = {}, .writes = {Layer_use::of(scratch_layer)}};
    }
    Dict run_with(World& world, const Throwing_params& params, const Progress&) const override {
        {
            auto [scratch] = world.lock_layer(scratch_layer);
            scratch.fill(7.0);
        }
        world.lock_random()->discard(3);
        world.set_hints("scratch", make_hints("Scratch"));
        if (params.foreign) throw 42;
        throw Plugin_failure("the plugin failed on purpose");
    }

private:
    // double on faces: a layer type the host may never instantiate itself.
    static constexpr auto scratch_layer = Layer_info<double, Layer_type::face>("scratch");
};

} // namespace

ORBIS_MODULE_PLUGIN(registry) { registry.add(std::make_shared<Throwing_module>()); }
