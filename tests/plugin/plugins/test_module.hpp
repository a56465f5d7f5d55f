// SPDX-License-Identifier: MIT
// A module that does nothing, under any name: what the test plugins register when the test is
// about the plugin rather than the module.
#pragma once

#include <orbis/gen/module.hpp>

#include <string>
#include <utility>

namespace orbis::test {

/// Reads and writes nothing; its run returns an empty report.
class Named_module final : public gen::Module {
public:
    /// A module called `name`.
    explicit Named_module(std::string name)
        : name_(std::move(name)) {}
    /// The name given.
    std::string_view name() const override { return name_; }
    /// "does nothing".
    std::string_view description() const override { return "does nothing"; }
    /// None.
    std::vector<gen::Parameter> parameters() const override { return {}; }
    /// Nothing.
    gen::Layer_uses layers(const Dict&) const override { return {}; }
    /// Nothing; an empty report.
    Dict run(World&, const Dict&, const gen::Progress&) const override { return {}; }

private:
    std::string name_;
};

} // namespace orbis::test
