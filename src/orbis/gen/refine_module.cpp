// SPDX-License-Identifier: MIT
#include "orbis/gen/refine_module.hpp"

#include "orbis/core/interpolation.hpp"
#include "orbis/core/world.hpp"
#include "orbis/gen/collapse_check.hpp"
#include "orbis/gen/delaunay_module.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/sphere_predicates.hpp"

#include <glm/geometric.hpp>

#include <atomic>
#include <stdexcept>

namespace orbis::gen {

namespace {

using Float_layer = Layer<float, Layer_type::vertex>;

struct Settings {
    std::string layer;
    float band_min, band_max;
    double split_length, collapse_length;
    std::int64_t passes, max_vertices;
};

struct Counts {
    std::int64_t splits = 0, collapses = 0, refused = 0, folding = 0, flips = 0;
};

const Float_layer& float_layer(const World& world, const std::string& name) {
    const Layer_base* base = world.find_layer(name);
    const auto* layer = dynamic_cast<const Float_layer*>(base);
    if (!layer)
        throw std::runtime_error(
            "module 'refine' needs a float vertex layer '" + name + "'" +
            (base ? std::string(", not a ") + std::string(base->value_name()) + " layer"
                  : std::string()));
    return *layer;
}

const Layer<glm::vec3, Layer_type::vertex>& positions_of(const World& world) {
    const auto* layer = world.layer(position_layer);
    if (!layer) throw std::runtime_error("module 'refine' needs the 'position' layer");
    return *layer;
}

double arc_length(const glm::vec3& a, const glm::vec3& b, double radius) {
    const glm::dvec3 p(a), q(b);
    return radius * std::atan2(glm::length(glm::cross(p, q)), glm::dot(p, q));
}

// The live primal edges of `m` for which keep(e) holds, in slot order; two threads each scan
// half the slots, and the second half's list is appended to the first's.
template <class Keep>
std::vector<Edge> edges_where(const Mesh& m, Keep&& keep) {
    std::vector<Edge> found, second;
    parallel_ranges(m.edge_slots() / 2, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        std::vector<Edge>& out = part == 0 ? found : second;
        for (std::uint32_t q = begin; q < end; ++q) {
            const Edge e{2 * q};
            if (m.contains(e) && keep(e)) out.push_back(e);
        }
    });
    found.insert(found.end(), second.begin(), second.end());
    return found;
}

// One pass of splits. Returns the vertices it created.
std::vector<Vertex> split_pass(World& world, Mesh_lock& lock, const Settings& s, double radius,
                               Counts& counts) {
    std::vector<Edge> long_edges;
    {
        const auto& position = positions_of(world);
        const auto& value = float_layer(world, s.layer);
        const auto in_band = [&](Vertex v) {
            const float x = value[v];
            return x >= s.band_min && x <= s.band_max;
        };
        const Mesh& m = *lock;
        long_edges = edges_where(m, [&](Edge e) {
            const Vertex a = e.origin(m), b = e.dest(m);
            return (in_band(a) || in_band(b)) &&
                   arc_length(position[a], position[b], radius) > s.split_length;
        });
    }
    std::vector<Vertex> created;
    for (const Edge e : long_edges) {
        if (std::int64_t(lock->vertex_count()) >= s.max_vertices) break;
        Edge out;
        if (lock.try_split(e, 0.5f, &out)) {
            ++counts.refused;
            continue;
        }
        ++counts.splits;
        created.push_back(out.origin(*lock));
    }
    return created;
}

// One pass of collapses. Returns the surviving vertices.
std::vector<Vertex> collapse_pass(World& world, Mesh_lock& lock, const Settings& s, double radius,
                                  Counts& counts) {
    std::vector<glm::vec3> p;
    std::vector<char> busy; // in the band, next to it, or already part of a collapse this pass
    std::vector<Edge> short_edges;
    {
        const auto& position = positions_of(world);
        const auto& value = float_layer(world, s.layer);
        const Mesh& m = *lock;
        p.assign(position.begin(), position.end());
        busy.assign(m.vertex_slots(), 0);
        // Two threads mark; a vertex next to both halves may be marked by both, with the same
        // value, so the stores are atomic (plain stores on this hardware) but need no order.
        parallel_ranges(m.vertex_slots(), [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            const auto mark = [&](Vertex v) {
                std::atomic_ref<char>(busy[v.index()]).store(1, std::memory_order_relaxed);
            };
            for (std::uint32_t i = begin; i < end; ++i) {
                const Vertex v{i};
                if (!m.contains(v)) continue;
                const float x = value[v];
                if (x < s.band_min || x > s.band_max) continue;
                mark(v);
                for (const Vertex n : v.neighbors(m))
                    mark(n);
            }
        });
        short_edges = edges_where(m, [&](Edge e) {
            const Vertex a = e.origin(m), b = e.dest(m);
            return !busy[a.index()] && !busy[b.index()] &&
                   arc_length(p[a.index()], p[b.index()], radius) < s.collapse_length;
        });
    }
    std::vector<Vertex> survivors;
    for (const Edge e : short_edges) {
        const Mesh& m = *lock;
        if (!m.contains(e)) continue;
        const Vertex a = e.origin(m), b = e.dest(m);
        if (busy[a.index()] || busy[b.index()]) continue;
        const glm::vec3 target = orbis::detail::slerp_value(p[a.index()], p[b.index()], 0.5f);
        if (!collapse_keeps_orientation(
                m, [&](Vertex x) { return p[x.index()]; }, e, target)) {
            ++counts.folding;
            continue;
        }
        if (lock.try_collapse(e, 0.5f)) {
            ++counts.refused;
            continue;
        }
        ++counts.collapses;
        busy[a.index()] = busy[b.index()] = 1;
        p[a.index()] = target;
        for (const Vertex n : a.neighbors(*lock))
            busy[n.index()] = 1;
        survivors.push_back(a);
    }
    return survivors;
}

void restore_delaunay(World& world, Mesh_lock& lock, const std::vector<Vertex>& changed,
                      Counts& counts) {
    const auto& position = positions_of(world);
    const std::vector<glm::vec3> p(position.begin(), position.end());
    // The edges around the changed vertices, gathered on two threads in the order of one.
    const Mesh& m = *lock;
    std::vector<Edge> edges, second;
    parallel_ranges(static_cast<std::uint32_t>(changed.size()),
                    [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
                        std::vector<Edge>& out = part == 0 ? edges : second;
                        for (std::uint32_t i = begin; i < end; ++i) {
                            const Vertex v = changed[i];
                            if (!m.contains(v)) continue;
                            for (const Edge e : v.edges(m)) {
                                out.push_back(e);
                                out.push_back(e.left_next(m));
                            }
                        }
                    });
    edges.insert(edges.end(), second.begin(), second.end());
    counts.flips += std::int64_t(lawson_flips(lock, p, std::move(edges)).flips);
}

} // namespace

std::string_view Refine_module::description() const {
    return "adaptive resolution: splits long edges where a vertex layer lies in a band (land and "
           "coasts by default), collapses short edges elsewhere, keeps the mesh Delaunay; reads "
           "'position' and the layer, changes the mesh (layers follow)";
}

const Parameter_list<Refine_params>& Refine_module::parameter_list() const {
    static const auto list =
        Parameter_list<Refine_params>()
            .add("layer", &Refine_params::layer, "float vertex layer that decides where to refine")
            .add("band_min", &Refine_params::band_min, -1e30, 1e30, "",
                 "refine where the layer is at least this")
            .add("band_max", &Refine_params::band_max, -1e30, 1e30, "",
                 "refine where the layer is at most this")
            .add("split_length", &Refine_params::split_length, 1e-6, 1e9, "km",
                 "split edges longer than this in the band")
            .add("collapse_length", &Refine_params::collapse_length, 0.0, 1e9, "km",
                 "collapse edges shorter than this away from the band")
            .add("passes", &Refine_params::passes, 1, 100, "", "split-collapse rounds")
            .add("max_vertices", &Refine_params::max_vertices, 4, 100'000'000, "",
                 "stop splitting at this many vertices");
    return list;
}

Layer_uses Refine_module::layers_for(const Refine_params& params) const {
    Layer_use band = Layer_use::of(Layer_info<float, Layer_type::vertex>("refine"));
    band.name = params.layer;
    return {.reads = {Layer_use::of(position_layer), band}, .writes = {Layer_use::mesh()}};
}

Dict Refine_module::run_with(World& world, const Refine_params& params,
                             const Progress& progress) const {
    const Settings s{params.layer,        float(params.band_min), float(params.band_max),
                     params.split_length, params.collapse_length, params.passes,
                     params.max_vertices};
    float_layer(world, s.layer);
    const auto& position = positions_of(world);
    double radius = 0;
    for (const Vertex v : world.mesh().vertices()) {
        radius = glm::length(glm::dvec3(position[v]));
        break;
    }
    if (radius == 0) throw std::runtime_error("module 'refine' needs a mesh with positions");

    Counts counts;
    for (std::int64_t pass = 0; pass < s.passes; ++pass) {
        const double done = double(pass) / double(s.passes);
        const double step = 1.0 / double(s.passes);
        progress.report(name(), done);
        auto lock = world.lock_mesh();
        std::vector<Vertex> changed = split_pass(world, lock, s, radius, counts);
        progress.report(name(), done + step / 3);
        const auto survivors = collapse_pass(world, lock, s, radius, counts);
        changed.insert(changed.end(), survivors.begin(), survivors.end());
        progress.report(name(), done + 2 * step / 3);
        restore_delaunay(world, lock, changed, counts);
    }
    Dict report;
    report.set("splits", counts.splits);
    report.set("collapses", counts.collapses);
    report.set("refused", counts.refused);
    report.set("folding", counts.folding);
    report.set("flips", counts.flips);
    report.set("vertices", std::int64_t(world.mesh().vertex_count()));
    return report;
}

} // namespace orbis::gen
