// SPDX-License-Identifier: MIT
#include "orbis/gen/elevation_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/noise.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/scratch_buffer.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace orbis::gen {

namespace {

// Hop counts are at most 4096 (see max_hops below), so 16 bits hold them: six walks' arrays and
// the plate ids they compare stay small enough to share the last-level cache at 10M vertices.
using Hops = std::uint16_t;
constexpr Hops unreached = std::numeric_limits<Hops>::max();
constexpr std::uint32_t most_hops = 4096;

// Hops from the nearest source, walking only between vertices of the same plate (or between
// any vertices when `plate` is null); unreached beyond `max_hops` (at most most_hops).
template <class Plate_id>
std::vector<Hops> hops_within_plate(const Vertex_adjacency& g, const Plate_id* plate,
                                    const std::vector<std::uint32_t>& sources,
                                    std::uint32_t max_hops) {
    std::vector<Hops> hops;
    hops.reserve(g.slots());
    advise_huge_pages(hops);
    hops.resize(g.slots(), unreached);
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
                if (hops[n] != unreached || (plate && plate[n] != plate[v])) continue;
                hops[n] = static_cast<Hops>(h);
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
double bell(Hops hops, double edge_km, double centre_km, double width_km) {
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

    // Per slot on two threads; each part stops at its first vertex without a plate, and the
    // first part's error is thrown first, so the message names the lowest such vertex.
    Scratch_vector<glm::dvec3> unit(slots);
    std::vector<std::int32_t> plate(slots);
    // The walks compare plates of neighbours at random: 16-bit copies halve what they read
    // (the plates module makes at most 1000 plates; a World with more uses the full ids).
    const bool narrow = plates.size() <= std::size_t(std::numeric_limits<std::int16_t>::max());
    std::vector<std::int16_t> narrow_plate(narrow ? slots : 0);
    double part_radius[2] = {0, 0};
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        double r = 0;
        for (std::uint32_t i = begin; i < end; ++i) {
            const Vertex v{i};
            if (!m.contains(v)) {
                unit[i] = glm::dvec3(0);
                plate[i] = -1;
                if (narrow) narrow_plate[i] = -1;
                continue;
            }
            const glm::dvec3 p((*position)[v]);
            r = std::max(r, glm::length(p));
            unit[i] = glm::normalize(p);
            plate[i] = (*plate_id)[v];
            if (plate[i] < 0 || std::size_t(plate[i]) >= plates.size())
                throw std::runtime_error("module 'elevation': vertex v" + std::to_string(i) +
                                         " has no plate (run 'plates' first)");
            if (narrow) narrow_plate[i] = static_cast<std::int16_t>(plate[i]);
        }
        part_radius[part] = r;
    });
    // A maximum does not depend on the split (std::max skips NaN lengths either way).
    const double radius = std::max(part_radius[0], part_radius[1]);
    // The arcs on two threads, a block at a time; the sum stays in edge order on one thread,
    // so that it rounds as it always has.
    double edge_sum = 0;
    {
        const std::uint32_t quads = m.edge_slots() / 2;
        constexpr std::uint32_t block = 1u << 20;
        Scratch_vector<double> arc(std::min(quads, block));
        for (std::uint32_t q0 = 0; q0 < quads; q0 += block) {
            const std::uint32_t count = std::min(block, quads - q0);
            parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
                for (std::uint32_t i = begin; i < end; ++i) {
                    const Edge e{2 * (q0 + i)};
                    // -1 marks a dead quad-edge: acos never gives it, not even for NaN.
                    arc[i] = m.contains(e)
                                 ? std::acos(std::clamp(
                                       glm::dot(unit[e.origin(m).index()], unit[e.dest(m).index()]),
                                       -1.0, 1.0))
                                 : -1.0;
                }
            });
            for (std::uint32_t i = 0; i < count; ++i)
                if (arc[i] != -1.0) edge_sum += arc[i];
        }
    }
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
    // Six independent walks, on two threads, longest first (the crust border reaches furthest
    // and crosses plates).
    const auto max_hops = [&](double reach_km) {
        return std::uint32_t(std::clamp(reach_km / edge_km, 1.0, double(most_hops)));
    };
    struct Walk {
        const std::vector<std::uint32_t>& sources;
        double reach_km;
        bool within_plate;
        std::vector<Hops> hops;
    };
    std::array<Walk, 6> walks{{{crust_border, 3000, false, {}},
                               {ridge, 1200, true, {}},
                               {collision, 900, true, {}},
                               {overriding_continent, 600, true, {}},
                               {overriding_ocean, 400, true, {}},
                               {trench, 300, true, {}}}};
    parallel_tasks(std::uint32_t(walks.size()), [&](std::uint32_t i) {
        Walk& w = walks[i];
        const std::uint32_t reach = max_hops(w.reach_km);
        if (!w.within_plate)
            w.hops = hops_within_plate<std::int16_t>(g, nullptr, w.sources, reach);
        else if (narrow)
            w.hops = hops_within_plate(g, narrow_plate.data(), w.sources, reach);
        else
            w.hops = hops_within_plate(g, plate.data(), w.sources, reach);
    });
    const auto& border_hops = walks[0].hops;
    const auto& ridge_hops = walks[1].hops;
    const auto& collision_hops = walks[2].hops;
    const auto& andes_hops = walks[3].hops;
    const auto& arc_hops = walks[4].hops;
    const auto& trench_hops = walks[5].hops;
    progress.report(name(), 0.4);

    const Fractal_noise coast_noise({draw_seed(world), 6, 1.2, 2.1, 0.6});
    const Fractal_noise hill_noise({draw_seed(world), 8, 3.0, 2.0, 0.5});
    const Fractal_noise range_noise({draw_seed(world), 6, 4.0, 2.0, 0.5});
    // The continental slope: 0 in the ocean, 1 inland, smoothstep across coast_blur around the
    // coast, which noise moves up to 2,500 km. Further than that (plus half the slope, plus a
    // kilometre for the noise's last ulps) from the crust border the step is flat whatever the
    // noise says, and rounding is monotonic, so the noise is skipped there with the same bytes
    // as a result.
    const double slope_low = -0.5 * coast_blur, slope_high = 0.5 * coast_blur;
    const auto coast_needs_noise = [&](double signed_km) {
        return !(coast_blur > 0 &&
                 (signed_km + 2501.0 < slope_low || signed_km - 2501.0 > slope_high));
    };
    const auto coast_step = [&](double signed_km, double noise) {
        if (coast_blur > 0) {
            if (signed_km + 2501.0 < slope_low) return 0.0;
            if (signed_km - 2501.0 > slope_high) return 1.0;
        }
        return smoothstep(slope_low, slope_high, signed_km + 2500.0 * noise);
    };
    const auto signed_km_of = [&](std::uint32_t i) {
        const double border_km =
            border_hops[i] == unreached ? 3000.0 : double(border_hops[i]) * edge_km;
        return continental(i) ? border_km : -border_km;
    };
    struct Bells {
        double collision, andes, arc;
        // Far from every range the three terms they weigh would each add +0 to h, which is
        // never -0 here, so the range noise is skipped with the same bytes as a result: most
        // vertices, and 6 of the 20 octaves a vertex would cost.
        bool any() const { return collision != 0 || andes != 0 || arc != 0; }
    };
    const auto bells_of = [&](std::uint32_t i) {
        return Bells{bell(collision_hops[i], edge_km, 0, 300),
                     bell(andes_hops[i], edge_km, 150, 150), bell(arc_hops[i], edge_km, 100, 80)};
    };
    // Each vertex's height depends on nothing but its own inputs: two threads, and progress
    // reported (and cancellation checked) from the calling thread's half only. Within a part,
    // blocks of vertices: each noise is evaluated for the block's vertices that need it in one
    // batch (four at a time on vector units, bit for bit the values of one at a time), then the
    // heights are summed vertex by vertex as before.
    Scratch_vector<float> height(slots);
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        constexpr std::uint32_t block = 1024;
        struct Batch {
            std::vector<glm::dvec3> points;
            std::vector<double> values;
            std::size_t next = 0;
            void evaluate(const Fractal_noise& noise) {
                values.resize(points.size());
                noise.evaluate(points, values);
                next = 0;
            }
        } hill, coast, range;
        for (Batch* b : {&hill, &coast, &range})
            b->points.reserve(block);
        for (std::uint32_t first = begin; first < end; first += block) {
            const std::uint32_t last = std::min(end, first + block);
            for (Batch* b : {&hill, &coast, &range})
                b->points.clear();
            for (std::uint32_t i = first; i < last; ++i) {
                if (plate[i] < 0) continue;
                hill.points.push_back(unit[i]);
                if (coast_needs_noise(signed_km_of(i))) coast.points.push_back(unit[i]);
                if (bells_of(i).any()) range.points.push_back(unit[i]);
            }
            hill.evaluate(hill_noise);
            coast.evaluate(coast_noise);
            range.evaluate(range_noise);
            for (std::uint32_t i = first; i < last; ++i) {
                if (plate[i] < 0) {
                    height[i] = 0.f;
                    continue;
                }
                const double signed_km = signed_km_of(i);
                const double continent = coast_step(
                    signed_km, coast_needs_noise(signed_km) ? coast.values[coast.next++] : 0.0);
                double h = -4200.0 + continent * 4800.0;
                const bool oceanic = !plates[std::size_t(plate[i])].continental;
                const Bells bells = bells_of(i);
                if (bells.any()) {
                    // Peaks and passes along ranges: ridged noise in [0.35, 1].
                    const double ridged =
                        0.35 + 0.65 * (1.0 - std::abs(range.values[range.next++]));
                    h += mountain_height * ridged * bells.collision;
                    h += 0.8 * mountain_height * ridged * bells.andes;
                    h += 3000.0 * ridged * bells.arc;
                }
                h -= trench_depth * bell(trench_hops[i], edge_km, 0, 80);
                if (oceanic) h += 2000.0 * bell(ridge_hops[i], edge_km, 0, 250);
                h += roughness * (0.6 + 0.4 * continent) * hill.values[hill.next++];
                height[i] = float(h);
            }
            if (part == 0 && ((first - begin) & 0xFFFF) == 0)
                progress.report(name(), 0.4 + 0.5 * double(first - begin) / double(end - begin));
        }
    });

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
