// SPDX-License-Identifier: MIT
// Plate growth, plate motions and boundary classification for the `plates` module.
#include "orbis/gen/plates_module.hpp"

#include "orbis/core/colour_map.hpp"

#include "orbis/gen/noise.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/scratch_buffer.hpp"
#include "orbis/gen/vertex_adjacency.hpp"

#include "orbis/core/chunked_array.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace orbis::gen {

namespace {

using Engine = std::mt19937_64;

// Uniform in [0, bound), bound > 0. Values below 2^64 mod bound are rejected so that the rest
// is a whole number of copies of [0, bound); std::uniform_int_distribution would do the same job
// but its algorithm differs between standard libraries, and worlds must not.
std::uint64_t draw_below(Engine& engine, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        const std::uint64_t r = engine();
        if (r >= threshold) return r % bound;
    }
}

// Uniform in [0, 1) from the top 53 bits, exact in a double.
double draw_unit(Engine& engine) { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }

template <class T>
void shuffle(std::vector<T>& values, Engine& engine) {
    for (std::size_t i = values.size(); i > 1; --i)
        std::swap(values[i - 1], values[draw_below(engine, i)]);
}

// An axis uniform on the sphere. Rejection from the cube instead of angles: sin and cos are not
// correctly rounded in every libm, sqrt is.
glm::dvec3 draw_axis(Engine& engine) {
    for (;;) {
        // One statement per draw: the order of evaluation of arguments is unspecified.
        const double x = 2 * draw_unit(engine) - 1;
        const double y = 2 * draw_unit(engine) - 1;
        const double z = 2 * draw_unit(engine) - 1;
        const glm::dvec3 v(x, y, z);
        const double r2 = glm::dot(v, v);
        if (r2 <= 1 && r2 > 1e-12) return v / std::sqrt(r2);
    }
}

// A hint to bring *p into the cache; no effect where the compiler has no such builtin.
inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

// Plate of each vertex slot while growing, -1 while free: 16 bits keep the array of a million
// vertices in the L2 cache, which the random reads of the growth need (count is at most 1000).
using Plate_index = std::int16_t;
using Plate_array = std::vector<Plate_index>;

// Longest wait of a claimed vertex, in rounds; the cap only cuts a tail of irregularity^63.
constexpr std::size_t max_delay = 62;

// Raw draws below waits[d] have probability irregularity^d, so one draw gives the whole
// geometric wait (a coin per round would cost ten draws per vertex at 0.9). Products of doubles
// are correctly rounded, so the table is the same everywhere.
using Wait_table = std::array<std::uint64_t, max_delay + 1>;

Wait_table wait_table(double irregularity) {
    Wait_table waits{};
    double p = 1;
    for (std::size_t d = 1; d <= max_delay; ++d) {
        // Kept below 1 so that the product stays below 2^64 even for irregularity 1.
        p = std::min(p * irregularity, 0x1.fffffffffffffp-1);
        waits[d] = static_cast<std::uint64_t>(p * 0x1.0p64);
    }
    return waits;
}

struct Growth {
    Engine& engine;
    const Vertex_adjacency& adjacency;
    Plate_array& plate;
    double irregularity;
    Wait_table waits;
    const std::vector<std::uint8_t>& slowness; // extra rounds a vertex waits, per slot
    const Progress& progress;
    std::string_view module;
};

// Extra rounds each vertex waits when claimed: up to `meander` where a low-frequency noise
// field is high, 0 where it is negative. Fronts crossing slow terrain fall behind, so plates
// bend around it.
std::vector<std::uint8_t> slowness_of(const Mesh& m,
                                      const Layer<glm::vec3, Layer_type::vertex>& position,
                                      int meander, std::uint64_t seed) {
    std::vector<std::uint8_t> slowness(m.vertex_slots(), 0);
    if (meander == 0) return slowness;
    const Fractal_noise noise({seed, 3, 2.5, 2.0, 0.5});
    // A block of live vertices at a time, so that the noise is evaluated in batches (four at a
    // time on vector units, the same bits as one at a time).
    parallel_ranges(m.vertex_slots(), [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        constexpr std::uint32_t block = 1024;
        std::vector<std::uint32_t> live;
        std::vector<glm::dvec3> points;
        std::vector<double> values;
        for (std::uint32_t first = begin; first < end; first += block) {
            live.clear();
            points.clear();
            for (std::uint32_t i = first; i < std::min(end, first + block); ++i) {
                if (!m.contains(Vertex{i})) continue;
                const glm::dvec3 p(position[Vertex{i}]);
                live.push_back(i);
                points.push_back(p / std::sqrt(glm::dot(p, p)));
            }
            values.resize(points.size());
            noise.evaluate(points, values);
            for (std::size_t k = 0; k < live.size(); ++k)
                slowness[live[k]] =
                    static_cast<std::uint8_t>(std::clamp(2.5 * values[k], 0.0, 1.0) * meander);
        }
    });
    return slowness;
}

// Rounds of growth from the seeds (see Plates_module): the vertices due in a round are shuffled,
// then each claims its free neighbours, which become due after a random wait. Each vertex is
// handled once, so the cost is O(vertices + edges) whatever the irregularity.
void grow(const Growth& g, std::vector<std::uint32_t> seeds, std::size_t live) {
    // due[r % size] holds the vertices that claim their neighbours in round r.
    std::array<std::vector<std::uint32_t>, max_delay + 2> due;
    std::size_t waiting = seeds.size();
    std::size_t assigned = seeds.size();
    due[0] = std::move(seeds);
    const std::size_t report_step = std::max<std::size_t>(live / 50, 1);
    std::size_t next_report = report_step;
    for (std::size_t round = 0; waiting > 0; ++round) {
        std::vector<std::uint32_t>& now = due[round % due.size()];
        shuffle(now, g.engine);
        const std::size_t size = now.size();
        for (std::size_t k = 0; k < size; ++k) {
            // The shuffled order scatters reads over the whole mesh, so fetch what the coming
            // vertices need in stages (their rows, then their neighbours' plates) ahead of
            // use; this about halves the time of a million-vertex growth.
            if (k + 16 < size) prefetch(&g.adjacency.first[now[k + 16]]);
            if (k + 8 < size) prefetch(&g.adjacency.next[g.adjacency.first[now[k + 8]]]);
            if (k + 4 < size) {
                const std::uint32_t u = now[k + 4];
                for (std::uint32_t i = g.adjacency.first[u]; i < g.adjacency.first[u + 1]; ++i)
                    prefetch(&g.plate[g.adjacency.next[i]]);
            }
            const std::uint32_t v = now[k];
            const Plate_index p = g.plate[v];
            for (std::uint32_t i = g.adjacency.first[v]; i < g.adjacency.first[v + 1]; ++i) {
                const std::uint32_t n = g.adjacency.next[i];
                if (g.plate[n] >= 0) continue;
                g.plate[n] = p;
                std::size_t delay = 0;
                if (g.irregularity > 0) {
                    const std::uint64_t r = g.engine();
                    while (delay < max_delay && r < g.waits[delay + 1])
                        ++delay;
                }
                delay = std::min(max_delay, delay + g.slowness[n]);
                due[(round + 1 + delay) % due.size()].push_back(n);
                ++waiting;
                ++assigned;
            }
        }
        waiting -= now.size();
        now.clear();
        if (assigned >= next_report) {
            g.progress.report(g.module, 0.05 + 0.65 * double(assigned) / double(live));
            next_report = assigned + report_step;
        }
    }
}

// Gives every vertex no seed reached one plate per connected component, drawn at random.
void adopt_unreached(const Mesh& m, const Vertex_adjacency& a, Plate_array& plate,
                     std::size_t plate_count, Engine& engine) {
    std::vector<std::uint32_t> stack;
    for (const Vertex v : m.vertices()) {
        if (plate[v.index()] >= 0) continue;
        const auto p = static_cast<Plate_index>(draw_below(engine, plate_count));
        plate[v.index()] = p;
        stack.push_back(v.index());
        while (!stack.empty()) {
            const std::uint32_t u = stack.back();
            stack.pop_back();
            for (std::uint32_t i = a.first[u]; i < a.first[u + 1]; ++i) {
                const std::uint32_t n = a.next[i];
                if (plate[n] >= 0) continue;
                plate[n] = p;
                stack.push_back(n);
            }
        }
    }
}

// Surface of each plate: a third of each face's planar area per corner, or vertex counts when
// that gives no usable total (no faces, or positions that are not finite).
std::vector<double> plate_areas(const Mesh& m, const Layer<glm::vec3, Layer_type::vertex>& position,
                                const Plate_array& plate, std::size_t plate_count) {
    std::vector<double> area(plate_count, 0.0);
    double total = 0;
    // The thirds on two threads, a block of faces at a time; the sums stay in face order on one
    // thread, so that they round as they always have.
    const std::uint32_t slots = m.face_slots();
    constexpr std::uint32_t block = 1u << 20;
    struct Third {
        double area; // a third of the face's planar area
        std::uint32_t corners[3];
    };
    Scratch_vector<Third> thirds(std::min(slots, block));
    for (std::uint32_t f0 = 0; f0 < slots; f0 += block) {
        const std::uint32_t count = std::min(block, slots - f0);
        parallel_ranges(count, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            for (std::uint32_t i = begin; i < end; ++i) {
                const Face f{f0 + i};
                if (!m.contains(f)) {
                    thirds[i].corners[0] = UINT32_MAX;
                    continue;
                }
                const Edge e = f.edge(m);
                const Vertex a = e.origin(m), b = e.dest(m), c = e.left_next(m).dest(m);
                const glm::dvec3 pa(position[a]);
                thirds[i] = {glm::length(glm::cross(glm::dvec3(position[b]) - pa,
                                                    glm::dvec3(position[c]) - pa)) /
                                 6,
                             {a.index(), b.index(), c.index()}};
            }
        });
        // Neighbouring faces mostly lie in one plate, so that plate's sum is held in a register
        // while it lasts instead of going through memory for every corner (a store and a load
        // on the critical path of each addition); each plate's additions keep their order.
        std::size_t current = SIZE_MAX; // no plate's sum held yet
        double sum = 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            const Third& t = thirds[i];
            if (t.corners[0] == UINT32_MAX) continue;
            for (const std::uint32_t v : t.corners) {
                const auto k = static_cast<std::size_t>(plate[v]);
                if (k != current) {
                    if (current != SIZE_MAX) area[current] = sum;
                    current = k;
                    sum = area[k];
                }
                sum += t.area;
            }
            total += 3 * t.area;
        }
        if (current != SIZE_MAX) area[current] = sum;
    }
    if (std::isfinite(total) && total > 0) return area;
    std::fill(area.begin(), area.end(), 0.0);
    for (const Vertex v : m.vertices())
        area[static_cast<std::size_t>(plate[v.index()])] += 1;
    return area;
}

std::string plates_where() { return "Dict layer '" + std::string(plates_dict_name) + "'"; }

double number_field(const Dict& d, std::string_view key, const std::string& where) {
    const Dict_value* v = d.find(key);
    if (!v) throw std::runtime_error(where + ": missing '" + std::string(key) + "'");
    if (v->is<double>()) return v->as<double>();
    if (v->is<std::int64_t>()) return static_cast<double>(v->as<std::int64_t>());
    throw std::runtime_error(where + ": '" + std::string(key) + "' is " +
                             std::string(v->kind_name()) + ", not a number");
}

Plate read_plate(const Dict_value& value, std::size_t index) {
    const std::string where = plates_where() + ", plate " + std::to_string(index);
    if (!value.is<Dict>())
        throw std::runtime_error(where + ": is " + std::string(value.kind_name()) + ", not a dict");
    const Dict& d = value.as<Dict>();
    Plate plate;
    const Dict_value* type = d.find("type");
    if (!type || !type->is<std::string>() ||
        (type->as<std::string>() != "continental" && type->as<std::string>() != "oceanic"))
        throw std::runtime_error(where + ": 'type' must be the string \"continental\" or " +
                                 "\"oceanic\"");
    plate.continental = type->as<std::string>() == "continental";
    const Dict_value* axis = d.find("axis");
    if (!axis || !axis->is<glm::dvec3>())
        throw std::runtime_error(where + ": 'axis' must be a vec3");
    const double length = glm::length(axis->as<glm::dvec3>());
    if (!std::isfinite(length) || length == 0)
        throw std::runtime_error(where + ": 'axis' must be finite and not zero");
    plate.axis = axis->as<glm::dvec3>() / length;
    plate.angular_speed = number_field(d, "angular_speed", where);
    if (!std::isfinite(plate.angular_speed))
        throw std::runtime_error(where + ": 'angular_speed' must be finite");
    plate.density = number_field(d, "density", where);
    if (!std::isfinite(plate.density) || plate.density <= 0)
        throw std::runtime_error(where + ": 'density' must be finite and positive");
    return plate;
}

Plate_boundary classify_edge(const Plate& a_plate, const Plate& b_plate, glm::dvec3 a, glm::dvec3 c,
                             double transform_ratio) {
    a = glm::normalize(a);
    c = glm::normalize(c);
    glm::dvec3 p = a + c;
    const double p_length = glm::length(p);
    // Coincident-direction or antipodal ends leave no direction across the boundary.
    if (!(p_length > 0)) return Plate_boundary::transform;
    p /= p_length;
    glm::dvec3 n = (c - a) - glm::dot(c - a, p) * p;
    const double n_length = glm::length(n);
    if (!(n_length > 0)) return Plate_boundary::transform;
    n /= n_length;
    const glm::dvec3 v = b_plate.angular_speed * glm::cross(b_plate.axis, p) -
                         a_plate.angular_speed * glm::cross(a_plate.axis, p);
    const double normal = glm::dot(v, n);
    const double tangential = std::abs(glm::dot(v, glm::cross(p, n)));
    // Written so that NaN (positions that are not finite) also lands on transform.
    if (!(std::abs(normal) > transform_ratio * tangential)) return Plate_boundary::transform;
    if (normal > 0) return Plate_boundary::ridge;
    if (a_plate.continental && b_plate.continental) return Plate_boundary::collision;
    const bool origin_under = a_plate.continental == b_plate.continental
                                  ? a_plate.density >= b_plate.density
                                  : !a_plate.continental;
    return origin_under ? Plate_boundary::subducting_origin : Plate_boundary::subducting_dest;
}

} // namespace

std::vector<Plate> read_plates(const World& world) {
    const Dict* d = world.layer(plates_dict_name);
    if (!d)
        throw std::runtime_error("the World has no " + plates_where() +
                                 " (the 'plates' module writes it)");
    const Dict_value* count = d->find("count");
    if (!count || !count->is<std::int64_t>() || count->as<std::int64_t>() < 0)
        throw std::runtime_error(plates_where() + ": 'count' must be a non-negative integer");
    const Dict_value* array = d->find("plates");
    if (!array || !array->is<Dict_array>())
        throw std::runtime_error(plates_where() + ": 'plates' must be an array");
    const Dict_array& values = array->as<Dict_array>();
    if (static_cast<std::uint64_t>(count->as<std::int64_t>()) != values.size())
        throw std::runtime_error(plates_where() + ": 'count' is " +
                                 std::to_string(count->as<std::int64_t>()) + " but 'plates' has " +
                                 std::to_string(values.size()) + " entries");
    std::vector<Plate> plates;
    plates.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        plates.push_back(read_plate(values[i], i));
    return plates;
}

void write_plates(World& world, std::span<const Plate> plates) {
    Dict_array values;
    values.reserve(plates.size());
    for (const Plate& p : plates) {
        Dict d;
        d.set("type", p.continental ? "continental" : "oceanic");
        d.set("axis", p.axis);
        d.set("angular_speed", p.angular_speed);
        d.set("density", p.density);
        values.emplace_back(std::move(d));
    }
    auto lock = world.lock_layer(plates_dict_name);
    lock->set("count", static_cast<std::int64_t>(plates.size()));
    lock->set("plates", std::move(values));
}

std::array<std::size_t, 6> classify_plate_boundaries(World& world, double transform_ratio) {
    if (!std::isfinite(transform_ratio) || transform_ratio < 0)
        throw std::runtime_error("classify_plate_boundaries: transform_ratio must be finite and "
                                 "not negative, not " +
                                 std::to_string(transform_ratio));
    const auto* position = world.layer(position_layer);
    if (!position) throw std::runtime_error("classify_plate_boundaries needs the 'position' layer");
    const auto* plate_id = world.layer(plate_id_layer);
    if (!plate_id) throw std::runtime_error("classify_plate_boundaries needs the 'plate_id' layer");
    const std::vector<Plate> plates = read_plates(world);
    const Mesh& m = world.mesh();

    // Checked before anything is written, so that a refusal leaves the World as it was. Two
    // threads; each part stops at its first bad vertex and part 0's error is thrown first, so
    // the message names the lowest one.
    const auto plate_count = static_cast<std::int32_t>(plates.size());
    parallel_ranges(m.vertex_slots(), [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t i = begin; i < end; ++i) {
            const Vertex v{i};
            if (!m.contains(v)) continue;
            const std::int32_t p = (*plate_id)[v];
            if (v.edge(m).valid() && (p < 0 || p >= plate_count))
                throw std::runtime_error("classify_plate_boundaries: vertex " + to_string(v) +
                                         " has plate_id " + std::to_string(p) + ", outside [0, " +
                                         std::to_string(plate_count) + ")");
        }
    });

    auto [boundary] = world.lock_layer(plate_boundary_layer);
    constexpr std::size_t chunk_size = Chunked_array<std::int32_t>::chunk_size;
    // A block of chunks is classified on two threads into `values`; then, on this thread, only
    // chunks whose values change are written, so a snapshot keeps sharing the rest (tectonics
    // classifies every step, and most of a world's edges stay as they were). Writing a chunk
    // does the layer's bookkeeping, which is not for two threads at once.
    constexpr std::size_t block = 256;
    const std::size_t chunks = boundary.layer().chunk_count();
    Scratch_vector<std::int32_t> values(std::min(chunks, block) * chunk_size);
    std::array<std::array<std::size_t, 6>, 2> part_counts{};
    for (std::size_t c0 = 0; c0 < chunks; c0 += block) {
        const auto count = static_cast<std::uint32_t>(std::min(block, chunks - c0));
        parallel_ranges(
            count,
            [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
                for (std::uint32_t k = begin; k < end; ++k) {
                    const std::size_t c = c0 + k;
                    const std::size_t size = boundary.layer().chunk(c).size();
                    std::int32_t* out = values.data() + std::size_t{k} * chunk_size;
                    for (std::size_t i = 0; i < size; ++i) {
                        const Edge e{static_cast<std::uint32_t>(2 * (c * chunk_size + i))};
                        Plate_boundary kind = Plate_boundary::joined;
                        if (m.contains(e)) {
                            const Vertex a = e.origin(m), b = e.dest(m);
                            const std::int32_t pa = (*plate_id)[a], pb = (*plate_id)[b];
                            if (pa != pb)
                                kind = classify_edge(plates[static_cast<std::size_t>(pa)],
                                                     plates[static_cast<std::size_t>(pb)],
                                                     glm::dvec3((*position)[a]),
                                                     glm::dvec3((*position)[b]), transform_ratio);
                            ++part_counts[part][static_cast<std::size_t>(kind)];
                        }
                        out[i] = static_cast<std::int32_t>(kind);
                    }
                }
            },
            8);
        for (std::uint32_t k = 0; k < count; ++k) {
            const std::span<const std::int32_t> old = boundary.layer().chunk(c0 + k);
            const std::int32_t* computed = values.data() + std::size_t{k} * chunk_size;
            if (!std::equal(old.begin(), old.end(), computed))
                std::copy_n(computed, old.size(), boundary.chunk(c0 + k).begin());
        }
    }
    std::array<std::size_t, 6> counts{};
    for (std::size_t k = 0; k < counts.size(); ++k)
        counts[k] = part_counts[0][k] + part_counts[1][k];
    return counts;
}

std::string_view Plates_module::description() const {
    return "grows tectonic plates from random seeds with a shuffled frontier, gives them types "
           "and rotations, and classifies the edges between them; reads 'position', writes "
           "'plate_id' (vertex), 'plate_boundary' (primal edge) and the 'plates' Dict";
}

const Parameter_list<Plates_params>& Plates_module::parameter_list() const {
    static const auto list =
        Parameter_list<Plates_params>()
            .add("count", &Plates_params::count, 2, 1000, "",
                 "number of plates; at most the number of vertices")
            .add("continental_fraction", &Plates_params::continental_fraction, 0.0, 1.0, "",
                 "share of the surface area on continental plates, met as closely as whole "
                 "plates allow")
            .add("max_speed", &Plates_params::max_speed, 0.0, 1.0, "rad/Myr",
                 "largest angular speed of a plate (0.017 is about 1 degree, 11 cm/yr on "
                 "Earth's equator)")
            .add("irregularity", &Plates_params::irregularity, 0.0, 0.9, "",
                 "chance, drawn again each round, that a newly claimed vertex waits one more "
                 "round before it claims its neighbours: 0 gives straight borders, higher values "
                 "ragged ones")
            .add("meander", &Plates_params::meander, 0, 16, "",
                 "most rounds a vertex in slow terrain (low-frequency noise) waits before it "
                 "claims its neighbours: plates grow unevenly, so borders bend at the scale of "
                 "continents")
            .add("transform_ratio", &Plates_params::transform_ratio, 0.0, 1000.0, "",
                 "a boundary is a transform when its normal relative motion is at most this "
                 "times its tangential relative motion");
    return list;
}

Layer_hints plate_boundary_hints() {
    Layer_hints h = make_hints("Plate boundary", "", "categorical");
    h.categories = {{0, "joined", {200, 200, 200}},
                    {1, "ridge", {230, 60, 40}},
                    {2, "subducting (origin under)", {40, 90, 220}},
                    {3, "subducting (dest under)", {60, 140, 240}},
                    {4, "transform", {240, 200, 40}},
                    {5, "collision", {150, 60, 170}}};
    return h;
}

Layer_hints plate_id_hints(std::size_t count) {
    Layer_hints h = make_hints("Plate", "", "categorical");
    h.categories.push_back({-1, "no plate", {0, 0, 0}});
    for (std::size_t i = 0; i < count; ++i)
        h.categories.push_back(
            {std::int64_t(i), "Plate " + std::to_string(i + 1), categorical(std::int64_t(i))});
    return h;
}

Layer_uses Plates_module::layers_for(const Plates_params& params) const {
    return {.reads = {Layer_use::of(position_layer)},
            .writes = {
                Layer_use::of(plate_id_layer).with_hints(plate_id_hints(std::size_t(params.count))),
                Layer_use::of(plate_boundary_layer).with_hints(plate_boundary_hints()),
                Layer_use::dict(std::string(plates_dict_name))}};
}

Dict Plates_module::run_with(World& world, const Plates_params& params,
                             const Progress& progress) const {
    const auto* position = world.layer(position_layer);
    if (!position) throw std::runtime_error("module 'plates' needs the 'position' layer");
    const Mesh& mesh = world.mesh();
    const std::size_t live = mesh.vertex_count();
    if (live == 0) throw std::runtime_error("module 'plates' needs a mesh with vertices");
    const std::int64_t given_count = params.count;
    // Plate_index holds at most 32767 plates; parameters() allows 1000.
    if (given_count < 1 || given_count > 1000)
        throw std::runtime_error("module 'plates': count " + std::to_string(given_count) +
                                 " is outside [1, 1000]");
    const auto count = static_cast<std::size_t>(given_count);
    if (count > live)
        throw std::runtime_error("module 'plates': count " + std::to_string(count) +
                                 " is more than the mesh's " + std::to_string(live) + " vertices");
    const double continental_fraction = params.continental_fraction;
    const double max_speed = params.max_speed;
    const double irregularity = params.irregularity;
    const auto meander = static_cast<int>(params.meander);
    const double transform_ratio = params.transform_ratio;

    // Growth reads 4 bytes per neighbour instead of walking quad-edge records. Edge-scan order is
    // the cheaper one to build, and must stay: growth claims neighbours in row order, so ring
    // order would give other plates from the same seed.
    const Vertex_adjacency graph = vertex_adjacency(mesh, Neighbour_order::edge_scan);
    progress.report(name(), 0.05);

    Plate_array plate;
    plate.reserve(mesh.vertex_slots());
    advise_huge_pages(plate);
    plate.resize(mesh.vertex_slots(), -1);
    std::vector<Plate> plates(count);
    {
        auto random = world.lock_random();
        Engine& engine = *random;

        std::vector<std::uint32_t> frontier;
        frontier.reserve(live);
        for (const Vertex v : mesh.vertices())
            frontier.push_back(v.index());
        for (std::size_t i = 0; i < count; ++i) {
            std::swap(frontier[i], frontier[i + draw_below(engine, live - i)]);
            plate[frontier[i]] = static_cast<Plate_index>(i);
        }
        frontier.resize(count);
        const std::vector<std::uint8_t> slowness = slowness_of(mesh, *position, meander, engine());
        grow({engine, graph, plate, irregularity, wait_table(irregularity), slowness, progress,
              name()},
             std::move(frontier), live);
        adopt_unreached(mesh, graph, plate, count, engine);

        const std::vector<double> area = plate_areas(mesh, *position, plate, count);
        double total = 0;
        for (const double a : area)
            total += a;
        std::vector<std::size_t> order(count);
        for (std::size_t i = 0; i < count; ++i)
            order[i] = i;
        shuffle(order, engine);
        const double target = continental_fraction * total;
        double continental = 0;
        for (const std::size_t k : order) {
            // Taking the plate moves the sum closer to the target exactly when half of it fits.
            if (continental + area[k] / 2 < target) {
                plates[k].continental = true;
                continental += area[k];
            }
        }
        for (Plate& p : plates) {
            p.axis = draw_axis(engine);
            p.angular_speed = draw_unit(engine) * max_speed;
            p.density = (p.continental ? 2.6 : 2.9) + 0.2 * draw_unit(engine);
        }
    }
    progress.report(name(), 0.75);

    {
        auto [ids] = world.lock_layer(plate_id_layer);
        parallel_chunks(ids, [&](std::size_t first, std::span<std::int32_t> values) {
            std::copy_n(plate.begin() + static_cast<std::ptrdiff_t>(first), values.size(),
                        values.begin());
        });
    }
    write_plates(world, plates);
    progress.report(name(), 0.8);
    const auto counts = classify_plate_boundaries(world, transform_ratio);

    const auto kind = [&](Plate_boundary b) {
        return static_cast<std::int64_t>(counts[static_cast<std::size_t>(b)]);
    };
    Dict report;
    report.set("plates", static_cast<std::int64_t>(count));
    report.set("ridge", kind(Plate_boundary::ridge));
    report.set("subduction",
               kind(Plate_boundary::subducting_origin) + kind(Plate_boundary::subducting_dest));
    report.set("transform", kind(Plate_boundary::transform));
    report.set("collision", kind(Plate_boundary::collision));
    return report;
}

std::string_view Plate_boundaries_module::description() const {
    return "classifies the edges between plates again after mesh edits; reads 'position', "
           "'plate_id' and the 'plates' Dict, writes 'plate_boundary'";
}

const Parameter_list<Plate_boundaries_params>& Plate_boundaries_module::parameter_list() const {
    static const auto list = Parameter_list<Plate_boundaries_params>().add(
        "transform_ratio", &Plate_boundaries_params::transform_ratio, 0.0, 1000.0, "",
        "a boundary is a transform when its normal relative motion is at most this times its "
        "tangential relative motion");
    return list;
}

Layer_uses Plate_boundaries_module::layers_for(const Plate_boundaries_params&) const {
    return {.reads = {Layer_use::mesh(), Layer_use::of(position_layer),
                      Layer_use::of(plate_id_layer),
                      Layer_use::dict(std::string(plates_dict_name))},
            .writes = {Layer_use::of(plate_boundary_layer).with_hints(plate_boundary_hints())}};
}

Dict Plate_boundaries_module::run_with(World& world, const Plate_boundaries_params& params,
                                       const Progress&) const {
    const auto counts = classify_plate_boundaries(world, params.transform_ratio);
    const auto count = [&](Plate_boundary kind) {
        return static_cast<std::int64_t>(counts[static_cast<std::size_t>(kind)]);
    };
    Dict report;
    report.set("ridge", count(Plate_boundary::ridge));
    report.set("subduction",
               count(Plate_boundary::subducting_origin) + count(Plate_boundary::subducting_dest));
    report.set("transform", count(Plate_boundary::transform));
    report.set("collision", count(Plate_boundary::collision));
    return report;
}

} // namespace orbis::gen
