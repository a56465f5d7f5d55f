// SPDX-License-Identifier: MIT
#include "orbis/gen/elevation_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/noise.hpp"
#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace orbis::gen {

namespace {

constexpr std::uint32_t unreached = std::numeric_limits<std::uint32_t>::max();

// Hops from the nearest source, walking only between vertices of the same plate; unreached
// beyond `max_hops`.
std::vector<std::uint32_t> hops_within_plate(const Vertex_adjacency& g,
                                             const std::vector<std::int32_t>& plate,
                                             const std::vector<std::uint32_t>& sources,
                                             std::uint32_t max_hops) {
    std::vector<std::uint32_t> hops(plate.size(), unreached);
    std::vector<std::uint32_t> frontier, next;
    for (const std::uint32_t s : sources)
        if (hops[s] == unreached) {
            hops[s] = 0;
            frontier.push_back(s);
        }
    for (std::uint32_t h = 1; h <= max_hops && !frontier.empty(); ++h) {
        next.clear();
        for (const std::uint32_t v : frontier)
            for (std::uint32_t k = g.first[v]; k < g.first[v + 1]; ++k) {
                const std::uint32_t n = g.next[k];
                if (hops[n] != unreached || plate[n] != plate[v]) continue;
                hops[n] = h;
                next.push_back(n);
            }
        std::swap(frontier, next);
    }
    return hops;
}

double smoothstep(double a, double b, double x) {
    const double t = std::clamp((x - a) / (b - a), 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

// exp(-(d / width)^2) for a distance in km, 0 where unreached.
double bell(std::uint32_t hops, double edge_km, double centre_km, double width_km) {
    if (hops == unreached) return 0;
    const double x = (double(hops) * edge_km - centre_km) / width_km;
    return std::exp(-x * x);
}

std::uint64_t draw_seed(World& world) { return (*world.lock_random())(); }

} // namespace

std::string_view Elevation_module::description() const {
    return "terrain heights in metres from plate types, plate boundaries (mountains, trenches, "
           "ridges) and fractal noise; reads position, plate_id, plate_boundary, 'plates'; "
           "writes 'elevation' (float, vertex, lerp) and the 'terrain' Dict (sea_level)";
}

const Parameter_list<Elevation_params>& Elevation_module::parameter_list() const {
    static const auto list =
        Parameter_list<Elevation_params>()
            .add("mountain_height", &Elevation_params::mountain_height, 0.0, 9000.0, "m",
                 "uplift where continents collide")
            .add("trench_depth", &Elevation_params::trench_depth, 0.0, 7000.0, "m",
                 "depth of ocean trenches below the ocean floor")
            .add("roughness", &Elevation_params::roughness, 0.0, 3000.0, "m",
                 "amplitude of fractal hills and sea-floor roughness")
            .add("coast_blur", &Elevation_params::coast_blur, 0.0, 2000.0, "km",
                 "width over which continental crust fades into oceanic crust")
            .add("land_fraction", &Elevation_params::land_fraction, 0.0, 1.0, "",
                 "fraction of vertices above sea level");
    return list;
}

Layer_uses Elevation_module::layers_for(const Elevation_params&) const {
    Layer_hints hints = make_hints("Elevation", "m", "terrain");
    hints.min = -11000.0;
    hints.max = 9000.0;
    return {.reads = {Layer_use::of(position_layer), Layer_use::of(plate_id_layer),
                      Layer_use::of(plate_boundary_layer),
                      Layer_use::dict(std::string(plates_dict_name))},
            .writes = {Layer_use::of(elevation_layer).with_hints(std::move(hints)),
                       Layer_use::dict(std::string(terrain_dict_name))}};
}

Dict Elevation_module::run_with(World& world, const Elevation_params& params,
                                const Progress& progress) const {
    const double mountain_height = params.mountain_height;
    const double trench_depth = params.trench_depth;
    const double roughness = params.roughness;
    const double coast_blur = params.coast_blur;
    const double land_fraction = params.land_fraction;

    const auto* position = world.layer(position_layer);
    const auto* plate_id = world.layer(plate_id_layer);
    const auto* boundary = world.layer(plate_boundary_layer);
    if (!position || !plate_id || !boundary)
        throw std::runtime_error("module 'elevation' needs the layers position, plate_id and "
                                 "plate_boundary (run 'plates' first)");
    const std::vector<Plate> plates = read_plates(world);
    const Mesh& m = world.mesh();
    if (m.vertex_count() == 0) throw std::runtime_error("module 'elevation' needs vertices");
    const std::uint32_t slots = m.vertex_slots();

    std::vector<glm::dvec3> unit(slots, glm::dvec3(0));
    std::vector<std::int32_t> plate(slots, -1);
    double radius = 0;
    for (const Vertex v : m.vertices()) {
        const glm::dvec3 p((*position)[v]);
        radius = std::max(radius, glm::length(p));
        unit[v.index()] = glm::normalize(p);
        plate[v.index()] = (*plate_id)[v];
        if (plate[v.index()] < 0 || std::size_t(plate[v.index()]) >= plates.size())
            throw std::runtime_error("module 'elevation': vertex v" + std::to_string(v.index()) +
                                     " has no plate (run 'plates' first)");
    }
    double edge_sum = 0;
    for (const Edge e : m.edges())
        edge_sum += std::acos(
            std::clamp(glm::dot(unit[e.origin(m).index()], unit[e.dest(m).index()]), -1.0, 1.0));
    const double edge_km = radius * edge_sum / double(std::max<std::size_t>(1, m.edge_count()));
    // The walks below visit each vertex's neighbours several times: an array beats quad-edges.
    const Vertex_adjacency g = vertex_adjacency(m);
    progress.report(name(), 0.1);

    // Sources of the boundary features, each on its side of the boundary.
    std::vector<std::uint32_t> collision, overriding_continent, overriding_ocean, trench, ridge;
    for (const Edge e : m.edges()) {
        const auto kind = Plate_boundary((*boundary)[e]);
        const std::uint32_t a = e.base().origin(m).index(), b = e.base().dest(m).index();
        switch (kind) {
        case Plate_boundary::collision:
            collision.push_back(a);
            collision.push_back(b);
            break;
        case Plate_boundary::subducting_origin:
        case Plate_boundary::subducting_dest: {
            const std::uint32_t down = kind == Plate_boundary::subducting_origin ? a : b;
            const std::uint32_t up = down == a ? b : a;
            (plates[std::size_t(plate[up])].continental ? overriding_continent : overriding_ocean)
                .push_back(up);
            if (!plates[std::size_t(plate[down])].continental) trench.push_back(down);
            break;
        }
        case Plate_boundary::ridge:
            ridge.push_back(a);
            ridge.push_back(b);
            break;
        default:
            break;
        }
    }
    const auto hops_for = [&](const std::vector<std::uint32_t>& sources, double reach_km) {
        const auto max_hops = std::uint32_t(std::clamp(reach_km / edge_km, 1.0, 4096.0));
        return hops_within_plate(g, plate, sources, max_hops);
    };
    const auto collision_hops = hops_for(collision, 900);
    const auto andes_hops = hops_for(overriding_continent, 600);
    const auto arc_hops = hops_for(overriding_ocean, 400);
    const auto trench_hops = hops_for(trench, 300);
    const auto ridge_hops = hops_for(ridge, 1200);
    progress.report(name(), 0.3);

    // Signed distance to the border between continental and oceanic crust (positive on
    // continents), so that coasts can be moved off the plate borders by noise.
    std::vector<std::uint32_t> crust_border;
    const auto continental = [&](std::uint32_t v) {
        return plates[std::size_t(plate[v])].continental;
    };
    for (std::uint32_t v = 0; v < slots; ++v) {
        if (plate[v] < 0) continue;
        for (std::uint32_t k = g.first[v]; k < g.first[v + 1]; ++k)
            if (continental(g.next[k]) != continental(v)) {
                crust_border.push_back(v);
                break;
            }
    }
    const std::vector<std::int32_t> anywhere(slots, 0);
    const auto border_hops = hops_within_plate(
        g, anywhere, crust_border, std::uint32_t(std::clamp(3000.0 / edge_km, 1.0, 4096.0)));
    progress.report(name(), 0.4);

    const Fractal_noise coast_noise({draw_seed(world), 6, 1.2, 2.1, 0.6});
    const Fractal_noise hill_noise({draw_seed(world), 8, 3.0, 2.0, 0.5});
    const Fractal_noise range_noise({draw_seed(world), 6, 4.0, 2.0, 0.5});
    std::vector<float> height(slots, 0.f);
    for (std::uint32_t i = 0; i < slots; ++i) {
        if (plate[i] < 0) continue;
        const glm::dvec3& p = unit[i];
        const double border_km =
            border_hops[i] == unreached ? 3000.0 : double(border_hops[i]) * edge_km;
        const double signed_km = continental(i) ? border_km : -border_km;
        const double continent =
            smoothstep(-0.5 * coast_blur, 0.5 * coast_blur, signed_km + 2500.0 * coast_noise(p));
        double h = -4200.0 + continent * 4800.0;
        // Peaks and passes along ranges: ridged noise in [0.35, 1].
        const double ridged = 0.35 + 0.65 * (1.0 - std::abs(range_noise(p)));
        const bool oceanic = !plates[std::size_t(plate[i])].continental;
        h += mountain_height * ridged * bell(collision_hops[i], edge_km, 0, 300);
        h += 0.8 * mountain_height * ridged * bell(andes_hops[i], edge_km, 150, 150);
        h += 3000.0 * ridged * bell(arc_hops[i], edge_km, 100, 80);
        h -= trench_depth * bell(trench_hops[i], edge_km, 0, 80);
        if (oceanic) h += 2000.0 * bell(ridge_hops[i], edge_km, 0, 250);
        h += roughness * (0.6 + 0.4 * continent) * hill_noise(p);
        height[i] = float(h);
        if ((i & 0xFFFF) == 0) progress.report(name(), 0.4 + 0.5 * double(i) / double(slots));
    }

    // Sea level where land_fraction of the vertices lie above it.
    std::vector<float> sorted;
    sorted.reserve(m.vertex_count());
    for (const Vertex v : m.vertices())
        sorted.push_back(height[v.index()]);
    const std::size_t k =
        std::min(sorted.size() - 1, std::size_t((1.0 - land_fraction) * double(sorted.size())));
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(k), sorted.end());
    const float sea =
        land_fraction <= 0 ? *std::max_element(sorted.begin(), sorted.end()) : sorted[k];
    float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
    std::size_t land = 0;
    {
        auto [elevation] = world.lock_layer(elevation_layer);
        for (const Vertex v : m.vertices()) {
            const float h = std::clamp(height[v.index()] - sea, -11000.f, 9000.f);
            elevation[v] = h;
            lo = std::min(lo, h);
            hi = std::max(hi, h);
            land += h > 0;
        }
    }
    const double fraction = double(land) / double(m.vertex_count());
    {
        auto terrain = world.lock_layer(terrain_dict_name);
        terrain->set("sea_level", 0.0);
        terrain->set("land_fraction", fraction);
        terrain->set("min", double(lo));
        terrain->set("max", double(hi));
    }
    Dict report;
    report.set("min", double(lo));
    report.set("max", double(hi));
    report.set("land_fraction", fraction);
    return report;
}

} // namespace orbis::gen
