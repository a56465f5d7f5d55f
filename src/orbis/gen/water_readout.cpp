// SPDX-License-Identifier: MIT
#include "orbis/gen/water_readout.hpp"

#include "orbis/gen/biome_module.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/hydrology_module.hpp"

#include <cmath>
#include <cstdio>

namespace orbis::gen {

namespace {

std::string number(double x, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
    return buffer;
}

void add(std::string& out, const std::string& part) {
    if (!out.empty()) out += "  ";
    out += part;
}

} // namespace

std::string water_readout(const World& world, Vertex v) {
    std::string out;
    if (const auto* biome = world.layer(biome_layer)) {
        const std::int32_t id = (*biome)[v];
        const Layer_hints* hints = world.hints(biome_layer.name());
        const Layer_category* c = hints ? hints->category(id) : nullptr;
        add(out, c ? c->name : "biome " + std::to_string(id));
    }
    const auto* ocean = world.layer(ocean_layer);
    const auto* lake = world.layer(lake_layer);
    const auto* level = world.layer(water_level_layer);
    if (ocean && (*ocean)[v]) {
        add(out, "ocean");
    } else if (lake && (*lake)[v] >= 0) {
        add(out, "lake " + std::to_string((*lake)[v]) +
                     (level ? " at " + number((*level)[v], 0) + " m" : std::string()));
    }
    if (const auto* discharge = world.layer(discharge_layer)) {
        double out_flow = 0;
        for (const Edge e : v.edges(world.mesh()))
            out_flow += double((*discharge)[e]);
        if (out_flow > 0)
            add(out, "discharge " + number(out_flow, out_flow < 10 ? 2 : 0) + " m³/s");
    }
    if (const auto* basin = world.layer(basin_layer); basin && (*basin)[v] >= 0)
        add(out, "basin " + std::to_string((*basin)[v]));
    if (const auto* t = world.layer(temperature_layer)) add(out, number((*t)[v], 1) + " °C");
    if (const auto* p = world.layer(precipitation_layer)) add(out, number((*p)[v], 0) + " mm/yr");
    return out;
}

} // namespace orbis::gen
