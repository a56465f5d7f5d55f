// SPDX-License-Identifier: MIT
#include "orbis/gen/tectonics_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/geodesic.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/plate_motion.hpp"
#include "orbis/gen/plates_module.hpp"
#include "orbis/gen/random_stream.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace orbis::gen {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The relief model's fixed numbers (the rates a user may want to change are parameters).
constexpr double arc_distance = 150.0;      // km from a trench to the crest of its arc
constexpr double arc_reach = 300.0;         // km from a trench beyond which an arc does not rise
constexpr double arc_height = 4500.0;       // m where arc uplift stops
constexpr double trench_reach = 150.0;      // km before a trench that the ocean floor bends down
constexpr double trench_extra = 3000.0;     // m deeper at the trench than its age says
constexpr double collision_reach = 500.0;   // km from a collision that ranges rise
constexpr double collision_height = 8500.0; // m where collision uplift stops
constexpr double ocean_relax = 8.0;         // My for ocean floor to settle to its age's depth
constexpr double relief_step = 1.0;         // My: the longest sub-step of the relief's rates
constexpr double isostatic_height = 400.0;  // m continents erode toward
constexpr double shelf_depth = -1000.0;     // m: crust above this starts continental
constexpr float continental_age = 250.0f;   // My given to continents on the first run
constexpr double transform_ratio = 0.5;     // of normal to tangential motion at a transform

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("module 'tectonics': " + what);
}

double radius_of(const World& world) {
    const auto* position = world.layer(position_layer);
    if (!position) fail("needs the 'position' layer");
    for (const Vertex v : world.mesh().vertices())
        return glm::length(glm::dvec3((*position)[v]));
    fail("needs a mesh with vertices");
}

std::vector<std::int32_t> parse_plate_list(const std::string& text, std::size_t count) {
    std::vector<std::int32_t> ids;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto first = item.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        const auto last = item.find_last_not_of(" \t");
        const std::string token = item.substr(first, last - first + 1);
        std::size_t used = 0;
        long value = -1;
        try {
            value = std::stol(token, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != token.size() || value < 0 || std::size_t(value) >= count)
            fail("rift: '" + token + "' is not a plate id in [0, " + std::to_string(count) + ")");
        ids.push_back(std::int32_t(value));
    }
    return ids;
}

// First run: crust kind from the relief (shelves and above are continental), ocean floor's age
// from its depth by inverting ocean_depth_for_age.
void make_crust(World& world) {
    if (world.layer(crust_type_layer) && world.layer(crust_age_layer)) return;
    const auto* elevation = world.layer(elevation_layer);
    if (!elevation) fail("needs the 'elevation' layer (run 'elevation' first)");
    const Mesh& m = world.mesh();
    auto [type, age] = world.lock_layer(crust_type_layer, crust_age_layer);
    for (const Vertex v : m.vertices()) {
        const double e = (*elevation)[v];
        const bool continental = e >= shelf_depth;
        type[v] = std::int32_t(continental ? Crust::continental : Crust::oceanic);
        const double below_ridge = std::max(0.0, -e - 2600.0) / 350.0;
        age[v] = continental ? continental_age : float(std::min(below_ridge * below_ridge, 170.0));
    }
}

double mean_edge_length(const Mesh& m, const World& world) {
    const auto& position = *world.layer(position_layer);
    double sum = 0;
    std::size_t n = 0;
    for (const Edge e : m.edges()) {
        sum += glm::distance(glm::dvec3(position[e.origin(m)]), glm::dvec3(position[e.dest(m)]));
        ++n;
    }
    return n > 0 ? sum / double(n) : 0.0;
}

Plate plate_from_spin(const glm::dvec3& spin, const Plate& like) {
    Plate p = like;
    const double speed = glm::length(spin);
    p.axis = speed > 0 ? spin / speed : glm::dvec3(0, 0, 1);
    p.angular_speed = speed;
    return p;
}

// Splits plate `id` along a great circle through one of its vertices, drawn from `random`, and
// sets the halves apart at `speed` radians per My. False when the circle leaves one side empty.
bool rift_plate(World& world, std::vector<Plate>& plates, std::int32_t id, double speed,
                Random_stream& random) {
    const Mesh& m = world.mesh();
    const auto& position = *world.layer(position_layer);
    std::vector<std::uint32_t> members;
    {
        const auto& plate_id = *world.layer(plate_id_layer);
        for (const Vertex v : m.vertices())
            if (plate_id[v] == id) members.push_back(v.index());
    }
    if (members.size() < 2) return false;
    const glm::dvec3 centre =
        glm::normalize(glm::dvec3(position[Vertex(members[random.below(members.size())])]));
    const glm::dvec3 helper = std::abs(centre.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    const glm::dvec3 east = glm::normalize(glm::cross(helper, centre));
    const glm::dvec3 north = glm::cross(centre, east);
    const double angle = 2 * std::numbers::pi * random.uniform();
    const glm::dvec3 along = std::cos(angle) * east + std::sin(angle) * north;
    const glm::dvec3 normal = glm::cross(centre, along);
    std::vector<std::uint32_t> moved;
    for (const std::uint32_t i : members)
        if (glm::dot(glm::dvec3(position[Vertex(i)]), normal) > 0) moved.push_back(i);
    if (moved.empty() || moved.size() == members.size()) return false;
    const auto new_id = std::int32_t(plates.size());
    {
        auto [plate_id] = world.lock_layer(plate_id_layer);
        for (const std::uint32_t i : moved)
            plate_id[Vertex(i)] = new_id;
    }
    // A spin about centre x normal moves the circle's points along +normal: the moved side one
    // way, the rest the other.
    const glm::dvec3 apart = glm::normalize(glm::cross(centre, normal)) * (speed / 2);
    const Plate old = plates[std::size_t(id)];
    const glm::dvec3 spin = old.axis * old.angular_speed;
    plates[std::size_t(id)] = plate_from_spin(spin - apart, old);
    plates.push_back(plate_from_spin(spin + apart, old));
    return true;
}

Dict_array events_of(const Dict& state) {
    const Dict_value* v = state.find("events");
    return v && v->is<Dict_array>() ? v->as<Dict_array>() : Dict_array{};
}

void add_event(Dict& state, double time, std::string_view kind, std::int32_t plate,
               std::int32_t other) {
    Dict_array events = events_of(state);
    Dict e;
    e.set("time", time);
    e.set("kind", std::string(kind));
    e.set("plate", std::int64_t(plate));
    e.set("other", std::int64_t(other));
    events.emplace_back(std::move(e));
    state.set("events", std::move(events));
}

double number_in(const Dict& d, std::string_view key) {
    const Dict_value* v = d.find(key);
    if (!v) return 0;
    if (v->is<double>()) return v->as<double>();
    if (v->is<std::int64_t>()) return double(v->as<std::int64_t>());
    return 0;
}

// Adds this step's collided areas to the running totals; returns the pairs that weld now.
std::vector<std::pair<std::int32_t, std::int32_t>>
add_collisions(Dict& state, const Plate_motion& motion, double suture_area) {
    Dict_array totals;
    if (const Dict_value* v = state.find("collided"); v && v->is<Dict_array>())
        totals = v->as<Dict_array>();
    std::map<std::pair<std::int32_t, std::int32_t>, double> sums;
    for (const Dict_value& entry : totals) {
        const Dict& d = entry.as<Dict>();
        sums[{std::int32_t(number_in(d, "a")), std::int32_t(number_in(d, "b"))}] =
            number_in(d, "area");
    }
    for (const auto& [pair, area] : motion.collided)
        sums[pair] += area;
    std::vector<std::pair<std::int32_t, std::int32_t>> welds;
    totals.clear();
    for (const auto& [pair, area] : sums) {
        if (area >= suture_area) {
            welds.push_back(pair);
            continue;
        }
        Dict d;
        d.set("a", std::int64_t(pair.first));
        d.set("b", std::int64_t(pair.second));
        d.set("area", area);
        totals.emplace_back(std::move(d));
    }
    state.set("collided", std::move(totals));
    return welds;
}

// Welds plate b into a (the one with more vertices keeps its id and motion; the other is left
// empty and still).
void suture(World& world, std::vector<Plate>& plates, std::int32_t a, std::int32_t b) {
    const Mesh& m = world.mesh();
    std::size_t count_a = 0, count_b = 0;
    {
        const auto& plate_id = *world.layer(plate_id_layer);
        for (const Vertex v : m.vertices()) {
            count_a += plate_id[v] == a;
            count_b += plate_id[v] == b;
        }
    }
    if (count_b > count_a) std::swap(a, b);
    auto [plate_id] = world.lock_layer(plate_id_layer);
    for (const Vertex v : m.vertices())
        if (plate_id.get(v) == b) plate_id[v] = a;
    plates[std::size_t(b)].angular_speed = 0;
}

// Vertices at the convergent fronts of the step's end, by role.
struct Fronts {
    std::vector<std::uint32_t> overriding, subducting, collision;
};

Fronts find_fronts(const World& world, std::span<const Plate> plates,
                   std::span<const std::uint32_t> boundary) {
    const Mesh& m = world.mesh();
    const auto& position = *world.layer(position_layer);
    const auto& plate_id = *world.layer(plate_id_layer);
    const auto& crust = *world.layer(crust_type_layer);
    const auto& age = *world.layer(crust_age_layer);
    Fronts f;
    std::vector<std::uint8_t> role(m.vertex_slots(), 0); // bit 1 over, 2 under, 4 collision
    for (const std::uint32_t a : boundary) {
        const Vertex va(a);
        for (const Vertex vb : va.neighbors(m)) {
            const std::uint32_t b = vb.index();
            const std::int32_t pa = plate_id[va], pb = plate_id[vb];
            if (pa == pb || b < a) continue;
            const glm::dvec3 xa(position[va]), xb(position[vb]);
            const glm::dvec3 mid = (xa + xb) * 0.5;
            const glm::dvec3 relative = plate_velocity(plates[std::size_t(pb)], mid) -
                                        plate_velocity(plates[std::size_t(pa)], mid);
            const glm::dvec3 n = glm::normalize(xb - xa);
            const glm::dvec3 s = glm::normalize(glm::cross(mid, n));
            const double normal = glm::dot(relative, n), along = std::abs(glm::dot(relative, s));
            if (normal >= 0 || -normal <= transform_ratio * along) continue;
            const bool ca = crust[va] == std::int32_t(Crust::continental);
            const bool cb = crust[vb] == std::int32_t(Crust::continental);
            if (ca && cb) {
                role[a] |= 4;
                role[b] |= 4;
                continue;
            }
            bool a_under = ca != cb ? !ca : age[va] > age[vb];
            if (!ca && !cb && age[va] == age[vb])
                a_under = plates[std::size_t(pa)].density > plates[std::size_t(pb)].density;
            role[a] |= a_under ? 2 : 1;
            role[b] |= a_under ? 1 : 2;
        }
    }
    for (std::uint32_t i = 0; i < role.size(); ++i) {
        if (role[i] & 1) f.overriding.push_back(i);
        if (role[i] & 2) f.subducting.push_back(i);
        if (role[i] & 4) f.collision.push_back(i);
    }
    return f;
}

// Ages the crust, settles ocean floor, raises arcs and ranges near the fronts, erodes
// continents, and writes each vertex's velocity.
void shape_relief(World& world, std::span<const Plate> plates, const Plate_motion& motion,
                  const Tectonics_params& params, double radius) {
    const Fronts fronts = find_fronts(world, plates, motion.boundary);
    // The three fields walk the graph from scattered fronts, where following quad-edge records
    // misses the cache at every neighbour; the rows and a flat copy of the positions, built in
    // slot order on two threads, cost a fraction of that. The fields then share the threads.
    const Vertex_adjacency adjacency = vertex_adjacency(world.mesh());
    const auto& layer = *world.layer(position_layer);
    std::vector<glm::vec3> positions(layer.size());
    {
        constexpr std::size_t chunk_size = Chunked_array<glm::vec3>::chunk_size;
        parallel_ranges(
            static_cast<std::uint32_t>(layer.chunk_count()),
            [&](std::uint32_t begin, std::uint32_t end, unsigned) {
                for (std::uint32_t c = begin; c < end; ++c) {
                    const std::span<const glm::vec3> values = layer.chunk(c);
                    std::copy(values.begin(), values.end(), positions.begin() + c * chunk_size);
                }
            },
            8);
    }
    std::vector<double> d_under, d_over, d_collision;
    parallel_tasks(3, [&](std::uint32_t task) {
        if (task == 0)
            d_under = geodesic_distances_from(adjacency, positions, radius, fronts.subducting,
                                              std::max(arc_reach, trench_reach));
        else if (task == 1)
            d_over =
                geodesic_distances_from(adjacency, positions, radius, fronts.overriding, arc_reach);
        else
            d_collision = geodesic_distances_from(adjacency, positions, radius, fronts.collision,
                                                  collision_reach);
    });
    // The relief's rates act over the step in sub-steps of at most relief_step, the
    // bands held where the step left them: one explicit update of a long step overshoots
    // (at 10 My, an arc on young ocean floor stood 1.6 times as high as at 1 My, broke the
    // surface and became a speck of continent that never subducts).
    const double dt = params.dt;
    const int cycles = std::max(1, int(std::ceil(dt / relief_step - 1e-9)));
    const double h = dt / cycles;
    const double settle = 1 - std::exp(-h / ocean_relax);
    const double erode = std::exp(-h / params.erosion_time);
    const Mesh& m = world.mesh();
    const auto& position = *world.layer(position_layer);
    auto [elevation, type, age, plate_id, velocity] = world.lock_layer(
        elevation_layer, crust_type_layer, crust_age_layer, plate_id_layer, velocity_layer);
    for (const auto& [i, born_age] : motion.new_crust) {
        const Vertex v(i);
        const float age_before = born_age - float(dt); // aged below with everyone
        age[v] = age_before;
        type[v] = std::int32_t(Crust::oceanic);
        // Born at a ridge during the sub-step that ends at the first positive age the loop
        // below reaches (as it computes them), at that age's depth; the sub-steps after it
        // carry it on. With one sub-step that is its age at the end of the step.
        float born_at = born_age;
        for (int k = 0; k + 1 < cycles; ++k) {
            const float a_k = age_before + float(h * (k + 1));
            if (a_k > 0) {
                born_at = a_k;
                break;
            }
        }
        elevation[v] = float(ocean_depth_for_age(born_at));
    }
    for (const Vertex v : m.vertices()) {
        const std::uint32_t i = v.index();
        const float age_before = age.get(v);
        const float a = age_before + float(dt);
        age[v] = a;
        double e = elevation.get(v);
        const bool was_continental = type.get(v) == std::int32_t(Crust::continental);
        bool continental = was_continental;
        const bool arc = d_over[i] < arc_reach && d_over[i] <= d_under[i];
        // A band along the trench, highest at arc_distance: volcanic arcs and coastal ranges
        // stand back from the trench, not on it.
        const double w_arc =
            arc ? std::max(0.0, 1 - std::abs(d_over[i] - arc_distance) / arc_distance) : 0.0;
        const bool collision = d_collision[i] < collision_reach;
        const double w_collision = collision ? 1 - d_collision[i] / collision_reach : 0.0;
        const double w_trench = d_under[i] < trench_reach ? 1 - d_under[i] / trench_reach : 0.0;
        const double bend = trench_extra * w_trench * w_trench;
        for (int k = 0; k < cycles; ++k) {
            // Crust a ridge made during the step has its relief from the sub-step it was born in.
            const float a_k = k + 1 == cycles ? a : age_before + float(h * (k + 1));
            if (k + 1 < cycles && a_k <= 0) continue;
            if (!continental) {
                const double target = ocean_depth_for_age(a_k) - bend;
                e += (target - e) * settle;
            } else if (e > isostatic_height) {
                e = isostatic_height + (e - isostatic_height) * erode;
            }
            if (arc)
                e += params.arc_uplift * h * w_arc * w_arc *
                     std::clamp(1 - e / arc_height, 0.0, 1.0);
            if (collision)
                e += params.collision_uplift * h * w_collision *
                     std::clamp(1 - e / collision_height, 0.0, 1.0);
            // An arc that rises above the sea has made continental crust.
            if (!continental && e > 0) continental = true;
        }
        elevation[v] = float(e);
        if (continental && !was_continental) type[v] = std::int32_t(Crust::continental);
        const std::int32_t p = plate_id.get(v);
        velocity[v] = glm::vec3(plate_velocity(plates[std::size_t(p)], glm::dvec3(position[v])));
    }
}

} // namespace

double ocean_depth_for_age(double age) {
    return -(2600.0 + 350.0 * std::sqrt(std::clamp(age, 0.0, 170.0)));
}

Layer_hints crust_type_hints() {
    Layer_hints h = make_hints("Crust", "", "categorical");
    h.categories.push_back({std::int32_t(Crust::oceanic), "oceanic", {40, 70, 140}});
    h.categories.push_back({std::int32_t(Crust::continental), "continental", {170, 140, 90}});
    return h;
}

Tectonic_step_stats tectonic_step(World& world, const Tectonics_params& params,
                                  std::span<const std::int32_t> rift_now) {
    Tectonic_step_stats stats;
    const auto boundary_start = Clock::now();
    const double radius = radius_of(world);
    if (!world.layer(plate_id_layer)) fail("needs the 'plate_id' layer (run 'plates' first)");
    make_crust(world);
    std::vector<Plate> plates = read_plates(world);
    for (Plate& p : plates)
        p.angular_speed *= params.speed;
    Dict state;
    if (const Dict* d = world.layer(tectonics_dict_name)) state = *d;
    const double time = number_in(state, "time");
    // The target spacing is the mesh's on the first run, so later runs keep its resolution.
    const double spacing = state.contains("spacing") ? number_in(state, "spacing")
                                                     : mean_edge_length(world.mesh(), world);
    const double target = state.contains("vertices") ? number_in(state, "vertices")
                                                     : double(world.mesh().vertex_count());

    // Rifts: the ones asked for, then large plates at random.
    Random_stream random = step_stream(world, "tectonics/rift");
    std::vector<std::int32_t> rifting(rift_now.begin(), rift_now.end());
    if (params.rift_interval > 0) {
        const double chance = params.dt / params.rift_interval;
        std::vector<std::int32_t> drawn;
        for (std::size_t p = 0; p < plates.size(); ++p)
            if (random.uniform() < chance) drawn.push_back(std::int32_t(p));
        if (!drawn.empty()) {
            std::vector<std::size_t> counts(plates.size(), 0);
            const auto& plate_id = *world.layer(plate_id_layer);
            std::size_t total = 0;
            for (const Vertex v : world.mesh().vertices()) {
                ++counts[std::size_t(plate_id[v])];
                ++total;
            }
            for (const std::int32_t p : drawn)
                if (double(counts[std::size_t(p)]) >= params.rift_min_area * double(total))
                    rifting.push_back(p);
        }
    }
    for (const std::int32_t p : rifting) {
        if (!rift_plate(world, plates, p, params.rift_speed * params.speed, random)) continue;
        ++stats.rifts;
        add_event(state, time, "rift", p, std::int32_t(plates.size() - 1));
    }
    const auto store = [&] {
        std::vector<Plate> stored = plates;
        for (Plate& p : stored)
            p.angular_speed /= params.speed;
        write_plates(world, stored);
    };
    if (stats.rifts > 0) {
        store();
        world.set_hints(plate_id_layer.name(), plate_id_hints(plates.size()));
    }
    stats.boundary_ms += ms_since(boundary_start);

    const Plate_motion motion = move_plates(
        world, plates,
        {.dt = params.dt, .radius = radius, .spacing = spacing, .target_vertices = target});
    stats.motion_ms = motion.motion_ms;
    stats.repair_ms = motion.repair_ms;
    stats.substeps = motion.substeps;
    stats.flips = motion.flips;
    stats.splits = motion.splits;
    stats.collapses = motion.collapses;
    stats.refused = motion.refused;
    stats.folded = motion.folded;
    stats.moved = motion.moved;
    stats.rebuilt = motion.rebuilt;

    const auto relief_start = Clock::now();
    shape_relief(world, plates, motion, params, radius);
    for (const auto& [a, b] : add_collisions(state, motion, params.suture_area)) {
        suture(world, plates, a, b);
        ++stats.sutures;
        add_event(state, time + params.dt, "suture", a, b);
    }
    if (stats.sutures > 0) store();
    classify_plate_boundaries(world);
    if (!state.contains("spacing")) state.set("spacing", spacing);
    if (!state.contains("vertices")) state.set("vertices", target);
    state.set("time", time + params.dt);
    state.set("steps", std::int64_t(number_in(state, "steps")) + 1);
    *world.lock_layer(tectonics_dict_name) = std::move(state);
    stats.boundary_ms += ms_since(relief_start);
    return stats;
}

std::string_view Tectonics_module::description() const {
    return "moves the plates: rigid plates turn about their Euler poles for 'steps' steps of "
           "'dt' My on the living mesh (flips, splits at ridges, collapses at trenches keep it "
           "Delaunay); new ocean floor at ridges, subduction, arcs, collisions and sutures, rifts; "
           "reads position, plate_id, plates, elevation; writes them and velocity, crust_age, "
           "crust_type, plate_boundary, tectonics";
}

const Parameter_list<Tectonics_params>& Tectonics_module::parameter_list() const {
    static const auto list =
        Parameter_list<Tectonics_params>()
            .add("steps", &Tectonics_params::steps, 0, 100000, "", "steps to advance")
            .add("dt", &Tectonics_params::dt, 0.01, 10.0, "My", "million years per step")
            .add("speed", &Tectonics_params::speed, 0.01, 10.0, "",
                 "multiplies the plates' angular speeds (and rift_speed)")
            .add("rift", &Tectonics_params::rift,
                 "plate ids to split at the start, separated by commas (e.g. \"3,7\")")
            .add("rift_interval", &Tectonics_params::rift_interval, 0.0, 1e6, "My",
                 "mean time between spontaneous rifts of a large plate; 0 for never")
            .add("rift_min_area", &Tectonics_params::rift_min_area, 0.0, 1.0, "",
                 "share of the vertices a plate needs to rift by itself")
            .add("rift_speed", &Tectonics_params::rift_speed, 0.0, 0.1, "rad/My",
                 "angular speed at which rifted halves part")
            .add("arc_uplift", &Tectonics_params::arc_uplift, 0.0, 10000.0, "m/My",
                 "uplift at a subduction front's overriding side (arcs, coastal ranges)")
            .add("collision_uplift", &Tectonics_params::collision_uplift, 0.0, 10000.0, "m/My",
                 "uplift where continents collide (orogeny)")
            .add("erosion_time", &Tectonics_params::erosion_time, 1.0, 1e6, "My",
                 "time over which continents lose 63% of their height above 400 m")
            .add("suture_area", &Tectonics_params::suture_area, 0.0, 1e9, "km²",
                 "continent lost to a collision before the two plates weld into one");
    return list;
}

Layer_uses Tectonics_module::layers_for(const Tectonics_params&) const {
    Layer_use elevation = Layer_use::of(elevation_layer);
    for (const Layer_use& u : Elevation_module().layers_for(Elevation_params{}).writes)
        if (u.same_layer(elevation)) elevation = u;
    Layer_hints velocity_hints = make_hints("Velocity", "km/My");
    Layer_hints age_hints = make_hints("Crust age", "My", "viridis");
    age_hints.min = 0.0;
    age_hints.max = 200.0;
    return {
        .reads = {Layer_use::of(position_layer), Layer_use::of(plate_id_layer),
                  Layer_use::dict(std::string(plates_dict_name)), Layer_use::of(elevation_layer)},
        .writes = {Layer_use::mesh(), Layer_use::of(position_layer), Layer_use::of(plate_id_layer),
                   Layer_use::dict(std::string(plates_dict_name)), elevation,
                   Layer_use::of(velocity_layer).with_hints(velocity_hints),
                   Layer_use::of(crust_age_layer).with_hints(age_hints),
                   Layer_use::of(crust_type_layer).with_hints(crust_type_hints()),
                   Layer_use::of(plate_boundary_layer).with_hints(plate_boundary_hints()),
                   Layer_use::dict(std::string(tectonics_dict_name))}};
}

Dict Tectonics_module::run_with(World& world, const Tectonics_params& params,
                                const Progress& progress) const {
    if (!world.layer(plate_id_layer)) fail("needs the 'plate_id' layer (run 'plates' first)");
    const std::vector<std::int32_t> rift_now =
        parse_plate_list(params.rift, read_plates(world).size());
    Tectonic_step_stats total;
    for (std::int64_t step = 0; step < params.steps; ++step) {
        progress.report(name(), double(step) / double(params.steps));
        const Tectonic_step_stats s = tectonic_step(
            world, params, step == 0 ? std::span(rift_now) : std::span<const std::int32_t>());
        total.substeps += s.substeps;
        total.flips += s.flips;
        total.splits += s.splits;
        total.collapses += s.collapses;
        total.refused += s.refused;
        total.folded += s.folded;
        total.moved += s.moved;
        total.rebuilt += s.rebuilt;
        total.rifts += s.rifts;
        total.sutures += s.sutures;
    }
    Dict report;
    report.set("steps", params.steps);
    const Dict* state = world.layer(tectonics_dict_name);
    report.set("time", state ? number_in(*state, "time") : 0.0);
    report.set("substeps", total.substeps);
    report.set("flips", total.flips);
    report.set("splits", total.splits);
    report.set("collapses", total.collapses);
    report.set("refused", total.refused);
    report.set("folded", total.folded);
    report.set("moved", total.moved);
    report.set("rebuilt", total.rebuilt);
    report.set("rifts", total.rifts);
    report.set("sutures", total.sutures);
    report.set("vertices", std::int64_t(world.mesh().vertex_count()));
    report.set("plates", std::int64_t(read_plates(world).size()));
    return report;
}

} // namespace orbis::gen
