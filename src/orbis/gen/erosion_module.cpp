// SPDX-License-Identifier: MIT
#include "orbis/gen/erosion_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/cell_area.hpp"
#include "orbis/gen/climate_module.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/flow_routing.hpp"
#include "orbis/gen/vertex_adjacency.hpp"
#include "orbis/gen/world_ocean.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace orbis::gen {

namespace {

// Precipitation that makes the drainage area count at face value: 1,000 mm/yr.
constexpr double reference_precipitation = 1000.0;
// Gauss-Seidel sweeps of the implicit diffusion stop when no vertex moves more than this (m),
// or after max_sweeps: every sweep sets each vertex to a weighted mean of its start height and
// its neighbours', so stopping early gives a surface between the old one and the exact solution
// and never an unstable one.
constexpr double sweep_tolerance = 0.05;
constexpr int max_sweeps = 20;
// Edges shorter than this fraction of the mean edge count as that long in the diffusion:
// refine leaves a few slivers (tens of metres against ~15 km), whose weights would otherwise
// make the solve stiff for no visible gain.
constexpr double shortest_edge_fraction = 0.5;

// Everything about the mesh that stays fixed while the surface changes.
struct Terrain_graph {
    Vertex_adjacency g;
    std::vector<glm::dvec3> unit;    // per slot, the direction of the vertex
    std::vector<double> area;        // per slot, m², weighted by precipitation when known
    std::vector<double> cell_area;   // per slot, m², for volumes
    std::vector<std::uint8_t> ocean; // per slot, 1 on the world ocean
    std::vector<std::uint32_t> land; // the live slots off the world ocean
    std::vector<float> weight;       // per neighbour entry of g: 4 / (degree * length²), 1/m²
    double radius_m = 0;
};

// Lowers every drained land vertex by the stream-power law with n = 1, implicitly: walking
// the order (receivers first), E = K A^m (h - h_r') / d becomes
// h' = (h + F h_r') / (1 + F), F = K dt A^m / d, so h' lies between the receiver's new level
// and h whatever the time step. `base` is the level donors drain to: the new height on the
// drained surface, the lake surface over depressions (the lake bed keeps its height, as lakes
// trap what comes in; its surface follows the spill point when the outlet is cut down), and
// sea level 0 on the ocean. `drainage` is scratch space, one entry per slot.
void stream_power(const Terrain_graph& t, const Flow_tree& flow, const Erosion_params& p,
                  std::vector<float>& h, std::vector<double>& base, std::vector<double>& drainage) {
    const std::vector<std::uint32_t>& order = flow.order;
    std::copy(t.area.begin(), t.area.end(), drainage.begin());
    for (std::size_t i = order.size(); i-- > 0;) {
        const std::uint32_t v = order[i], r = flow.receiver[v];
        if (r != v) drainage[r] += drainage[v];
    }
    const double kdt = p.erodibility * p.time_step;
    const bool square_root = p.area_exponent == 0.5;
    for (const std::uint32_t v : order) {
        const std::uint32_t r = flow.receiver[v];
        if (r == v || t.ocean[v]) {
            base[v] = double(flow.filled[v]);
            continue;
        }
        if (flow.filled[v] > h[v]) {
            base[v] = std::max(double(h[v]), base[r]);
            continue;
        }
        const double d = t.radius_m * glm::length(t.unit[v] - t.unit[r]);
        const double a =
            square_root ? std::sqrt(drainage[v]) : std::pow(drainage[v], p.area_exponent);
        const double f = kdt * a / std::max(d, 1e-9);
        const double lowered = (double(h[v]) + f * base[r]) / (1 + f);
        // In [base[r], h[v]] before rounding; rounding to float keeps it there.
        h[v] = float(lowered);
        base[v] = double(h[v]);
    }
}

// Hillslope creep dh/dt = kappa * laplacian(h) on land, one backward-Euler step solved by
// Gauss-Seidel sweeps, with the ocean held at sea level 0 (the coast is the hillslopes' base
// level). The Laplacian at v is sum_n w (h_n - h_v) with w = 4 / (degree * length²), which is
// exact on regular square and hexagonal grids and positive on any mesh (so the step obeys the
// maximum principle). Material reaching valley floors is taken to be carried off by the rivers
// (the stream-power law's detachment-limited assumption), so a vertex is never raised; nor is
// land taken below sea level, so the coastline stays put.
void diffuse(const Terrain_graph& t, const Erosion_params& p, std::vector<float>& h) {
    const std::uint32_t slots = t.g.slots();
    const double kdt = p.diffusion * p.time_step;
    std::vector<float> current(slots);
    for (std::uint32_t v = 0; v < slots; ++v)
        current[v] = t.ocean[v] ? 0.f : h[v];
    for (int sweep = 0; sweep < max_sweeps; ++sweep) {
        double change = 0;
        for (const std::uint32_t v : t.land) {
            double sum = double(h[v]), total = 1;
            for (std::uint32_t k = t.g.first[v]; k < t.g.first[v + 1]; ++k) {
                const double a = kdt * double(t.weight[k]);
                sum += a * double(current[t.g.next[k]]);
                total += a;
            }
            const auto next = float(sum / total);
            change = std::max(change, double(std::abs(next - current[v])));
            current[v] = next;
        }
        if (change < sweep_tolerance) break;
    }
    for (const std::uint32_t v : t.land) {
        const float old = h[v];
        h[v] = std::min(old, std::max(current[v], std::min(old, 0.f)));
    }
}

} // namespace

std::string_view Erosion_module::description() const {
    return "rivers cut valleys (stream-power law solved implicitly along the flow tree, Braun & "
           "Willett 2013) and hillslopes creep (linear diffusion); the ocean floor and lake beds "
           "are left alone; reads position, elevation and, when present, precipitation; writes "
           "'elevation' and the 'terrain' Dict's min, max and land_fraction";
}

const Parameter_list<Erosion_params>& Erosion_module::parameter_list() const {
    static const auto list =
        Parameter_list<Erosion_params>()
            .add("iterations", &Erosion_params::iterations, 0, 1000, "",
                 "time steps; each routes the flow again over the eroded surface")
            .add("time_step", &Erosion_params::time_step, 1.0, 1.0e7, "yr",
                 "length of one time step (any length is stable)")
            .add("erodibility", &Erosion_params::erodibility, 0.0, 1.0e-3, "m^(1-2m)/yr",
                 "K of the stream-power law E = K A^m S; higher cuts deeper valleys")
            .add("area_exponent", &Erosion_params::area_exponent, 0.1, 1.0, "",
                 "m of the stream-power law: how much more large rivers cut than small ones")
            .add("diffusion", &Erosion_params::diffusion, 0.0, 1.0e4, "m²/yr",
                 "hillslope diffusivity at the mesh scale; rounds ridges and peaks")
            .add("uplift", &Erosion_params::uplift, 0.0, 0.01, "m/yr",
                 "uniform uplift of land (not the world ocean) during each step");
    return list;
}

Layer_uses Erosion_module::layers_for(const Erosion_params&) const {
    // The elevation layer keeps the hints its own module gives it.
    Layer_use elevation = Layer_use::of(elevation_layer);
    for (const Layer_use& u : Elevation_module().layers_for(Elevation_params{}).writes)
        if (u.same_layer(elevation)) elevation = u;
    return {.reads = {Layer_use::of(position_layer), Layer_use::of(elevation_layer),
                      Layer_use::of(precipitation_layer).optional()},
            .writes = {elevation, Layer_use::dict(std::string(terrain_dict_name))}};
}

Dict Erosion_module::run_with(World& world, const Erosion_params& params,
                              const Progress& progress) const {
    const auto* position = world.layer(position_layer);
    const auto* elevation = world.layer(elevation_layer);
    if (!position || !elevation)
        throw std::runtime_error("module 'erosion' needs the layers position and elevation "
                                 "(run 'elevation' first)");
    const Mesh& m = world.mesh();
    if (m.vertex_count() == 0) throw std::runtime_error("module 'erosion' needs vertices");
    const std::uint32_t slots = m.vertex_slots();

    Terrain_graph t;
    t.unit.assign(slots, glm::dvec3(0));
    std::vector<float> h(slots, 0.f);
    double radius_km = 0;
    for (const Vertex v : m.vertices()) {
        const glm::dvec3 p((*position)[v]);
        radius_km = std::max(radius_km, glm::length(p));
        t.unit[v.index()] = glm::normalize(p);
        h[v.index()] = (*elevation)[v];
    }
    // Positions are in km (the sphere module's radius); lengths and areas below are in metres.
    t.radius_m = 1000.0 * radius_km;
    // Row order does not matter here, and the edge scan is the cheapest to build.
    t.g = vertex_adjacency(m, Neighbour_order::edge_scan);
    t.ocean = world_ocean(t.g, h, 0.f);
    t.cell_area = vertex_cell_areas(world, t.radius_m);
    t.area = t.cell_area;
    if (const auto* rain = world.layer(precipitation_layer))
        for (const Vertex v : m.vertices())
            t.area[v.index()] *= std::max(0.0, double((*rain)[v])) / reference_precipitation;
    for (std::uint32_t v = 0; v < slots; ++v)
        if (!t.ocean[v] && t.g.first[v] != t.g.first[v + 1]) t.land.push_back(v);
    if (params.diffusion > 0) {
        // Edge lengths first, then, floored, the weights in their place.
        t.weight.resize(t.g.next.size());
        double sum = 0;
        for (std::uint32_t v = 0; v < slots; ++v)
            for (std::uint32_t k = t.g.first[v]; k < t.g.first[v + 1]; ++k) {
                const double d = t.radius_m * glm::length(t.unit[v] - t.unit[t.g.next[k]]);
                t.weight[k] = float(d);
                sum += d;
            }
        const double shortest =
            shortest_edge_fraction * sum / double(std::max<std::size_t>(1, t.g.next.size()));
        for (std::uint32_t v = 0; v < slots; ++v) {
            const double degree = double(t.g.first[v + 1] - t.g.first[v]);
            for (std::uint32_t k = t.g.first[v]; k < t.g.first[v + 1]; ++k) {
                const double d = std::max(shortest, double(t.weight[k]));
                t.weight[k] = float(4.0 / (degree * d * d));
            }
        }
    }
    progress.report(name(), 0.05);

    const std::vector<float> initial = h;
    std::vector<double> base(slots, 0.0), drainage(slots, 0.0);
    const auto uplift = float(params.uplift * params.time_step);
    for (std::int64_t step = 0; step < params.iterations; ++step) {
        if (uplift > 0) {
            for (const std::uint32_t v : t.land)
                h[v] += uplift;
        }
        if (params.erodibility > 0) {
            const Flow_tree flow = route_flow(t.g, h, t.ocean, 0.f);
            stream_power(t, flow, params, h, base, drainage);
        }
        if (params.diffusion > 0) diffuse(t, params, h);
        progress.report(name(), 0.05 + 0.9 * double(step + 1) / double(params.iterations));
    }

    // What erosion removed: the uplifted surface minus the final one.
    const double lifted = double(uplift) * double(params.iterations);
    double volume = 0, incision = 0;
    float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
    std::size_t land = 0;
    for (const Vertex v : m.vertices()) {
        const std::uint32_t i = v.index();
        if (!t.ocean[i]) {
            const double cut = double(initial[i]) + lifted - double(h[i]);
            volume += cut * t.cell_area[i];
            incision = std::max(incision, cut);
        }
        lo = std::min(lo, h[i]);
        hi = std::max(hi, h[i]);
        land += h[i] > 0;
    }
    {
        auto [out] = world.lock_layer(elevation_layer);
        for (const Vertex v : m.vertices())
            out[v] = h[v.index()];
    }
    const double fraction = double(land) / double(m.vertex_count());
    {
        auto terrain = world.lock_layer(terrain_dict_name);
        terrain->set("min", double(lo));
        terrain->set("max", double(hi));
        terrain->set("land_fraction", fraction);
    }
    Dict report;
    report.set("eroded_volume", volume * 1e-9);
    report.set("max_incision", incision);
    return report;
}

} // namespace orbis::gen
