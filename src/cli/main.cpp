// SPDX-License-Identifier: MIT
// orbis-cli: command-line access to Orbis: generate a sphere, inspect, validate and convert
// world files, run and replay generation modules (plugins included), draw maps and export
// GeoJSON for GIS programs, and simulate plate tectonics. Exit code 0 on success; 130 when
// simulate is interrupted by Ctrl+C; otherwise 1 and one line on stderr.
#include "export_command.hpp"
#include "generate_command.hpp"
#include "map_command.hpp"
#include "replay_command.hpp"
#include "simulate_command.hpp"

#include <orbis/core.hpp>
#include <orbis/core/huge_page_malloc.hpp>
#include <orbis/gen/fibonacci_sphere.hpp>
#include <orbis/gen/plugin.hpp>
#include <orbis/gen/sphere.hpp>
#include <orbis/gen/sphere_delaunay.hpp>
#include <orbis/io/file_error.hpp>
#include <orbis/io/formats.hpp>
#include <orbis/io/world_file.hpp>

#include <CLI/CLI.hpp>
#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Sphere_options {
    std::uint32_t points = 1'000'000;
    float perturbation = 0.f;
    std::uint64_t seed = 1;
    float radius = 1.f;
    bool check_cgal = false;
    std::string output; // save the world here when set
};

// Generates the sphere step by step (so each step can be timed) and prints what a user wants to
// know about it. Returns the process exit code.
int run_sphere(const Sphere_options& o) {
    const orbis::gen::Fibonacci_params params{o.points, o.radius, o.perturbation, o.seed};

    const auto t0 = Clock::now();
    const auto positions = orbis::gen::fibonacci_points(params);
    const double points_ms = ms_since(t0);
    const auto t1 = Clock::now();
    const auto triangulation = orbis::gen::delaunay_on_sphere(positions);
    const double triangulation_ms = ms_since(t1);
    const auto t2 = Clock::now();
    const orbis::Mesh mesh = orbis::build_from_closed_triangulation(
        o.points, triangulation.triangles, triangulation.opposite);
    const double mesh_ms = ms_since(t2);

    int min_valence = INT32_MAX, max_valence = 0;
    double valence_sum = 0;
    for (const orbis::Vertex v : mesh.vertices()) {
        const int k = v.valence(mesh);
        min_valence = std::min(min_valence, k);
        max_valence = std::max(max_valence, k);
        valence_sum += k;
    }
    double min_length = INFINITY, max_length = 0, length_sum = 0;
    for (const orbis::Edge e : mesh.edges()) {
        const double l = glm::distance(glm::dvec3(positions[e.origin(mesh).index()]),
                                       glm::dvec3(positions[e.dest(mesh).index()]));
        min_length = std::min(min_length, l);
        max_length = std::max(max_length, l);
        length_sum += l;
    }

    const auto problem = mesh.validate();
    const std::size_t non_delaunay = orbis::gen::count_non_delaunay_edges(positions, triangulation);
    const std::size_t missing = o.points - mesh.vertex_count();
    const long long euler = static_cast<long long>(mesh.vertex_count()) -
                            static_cast<long long>(mesh.edge_count()) +
                            static_cast<long long>(mesh.face_count());

    std::printf("Fibonacci sphere: %u points, radius %g, perturbation %g, seed %llu\n", o.points,
                double(o.radius), double(o.perturbation), static_cast<unsigned long long>(o.seed));
    std::printf("  vertices %zu, edges %zu, faces %zu, V - E + F = %lld\n", mesh.vertex_count(),
                mesh.edge_count(), mesh.face_count(), euler);
    std::printf("  valence min %d, mean %.3f, max %d\n", min_valence,
                valence_sum / double(mesh.vertex_count()), max_valence);
    std::printf("  edge length min %.6g, mean %.6g, max %.6g\n", min_length,
                length_sum / double(mesh.edge_count()), max_length);
    std::printf("  connectivity %.1f bytes per vertex (%.1f MiB)\n",
                double(mesh.connectivity_bytes()) / double(mesh.vertex_count()),
                double(mesh.connectivity_bytes()) / (1024.0 * 1024.0));
    std::printf("  time: points %.1f ms, triangulation %.1f ms, mesh %.1f ms, total %.1f ms\n",
                points_ms, triangulation_ms, mesh_ms, points_ms + triangulation_ms + mesh_ms);
    std::printf("  checks: mesh %s; %zu points missing; %zu edges not locally Delaunay\n",
                problem ? problem->c_str() : "valid", missing, non_delaunay);

    bool ok = !problem && missing == 0 && non_delaunay == 0 && euler == 2;
    if (o.check_cgal) {
        const auto t3 = Clock::now();
        const auto reference = orbis::gen::delaunay_on_sphere_cgal(positions);
        const double cgal_ms = ms_since(t3);
        auto canonical = [](std::vector<std::array<std::uint32_t, 3>> tris) {
            for (auto& t : tris)
                std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
            std::sort(tris.begin(), tris.end());
            return tris;
        };
        const bool same = canonical(reference.triangles) == canonical(triangulation.triangles);
        std::printf("  CGAL Delaunay_triangulation_on_sphere_2: %.1f ms, %s triangulation\n",
                    cgal_ms, same ? "the same" : "a DIFFERENT");
        ok = ok && same;
    }
    if (!o.output.empty()) {
        const auto t4 = Clock::now();
        orbis::World world(o.seed);
        world.lock_mesh().assign(mesh);
        {
            auto [position] = world.lock_layer(orbis::position_layer);
            for (std::uint32_t i = 0; i < positions.size(); ++i)
                position[orbis::Vertex{i}] = positions[i];
        }
        orbis::io::save_any(world, o.output);
        std::printf("  saved %s in %.1f ms\n", o.output.c_str(), ms_since(t4));
    }
    return ok ? 0 : 1;
}

// Per component: minimum, mean and maximum over the live elements of a layer.
struct Component_stats {
    double min = INFINITY, max = -INFINITY, sum = 0;
    std::size_t count = 0;
    void add(double x) {
        min = std::min(min, x);
        max = std::max(max, x);
        sum += x;
        ++count;
    }
};

// Calls f(id) for every live element a layer of `type` has a value for.
template <orbis::Layer_type Type, class F>
void for_each_element(const orbis::Mesh& m, F f) {
    using orbis::Layer_type;
    if constexpr (Type == Layer_type::vertex) {
        for (const orbis::Vertex v : m.vertices())
            f(v);
    } else if constexpr (Type == Layer_type::face) {
        for (const orbis::Face x : m.faces())
            f(x);
    } else {
        for (const orbis::Edge e : m.edges()) {
            const bool dual =
                Type == Layer_type::edge_dual || Type == Layer_type::edge_dual_directed;
            const orbis::Edge x = dual ? e.rot() : e;
            f(x);
            if constexpr (orbis::is_directed(Type)) f(x.sym());
        }
    }
}

std::string layer_summary(const orbis::World& world, const orbis::Layer_base& base) {
    return orbis::with_value_type(base.value_tag(), [&]<class T>() {
        return orbis::with_layer_type(base.type(), [&]<orbis::Layer_type Type>() {
            const auto& layer = dynamic_cast<const orbis::Layer<T, Type>&>(base);
            constexpr int n = orbis::layer_value_length<T>;
            Component_stats stats[4];
            for_each_element<Type>(world.mesh(), [&](auto id) {
                const T& v = layer[id];
                for (int i = 0; i < n; ++i) {
                    if constexpr (orbis::Layer_scalar<T>)
                        stats[i].add(static_cast<double>(v));
                    else
                        stats[i].add(static_cast<double>(v[i]));
                }
            });
            std::string out;
            char buffer[160];
            for (int i = 0; i < n; ++i) {
                const Component_stats& c = stats[i];
                if (c.count == 0) {
                    out += " (no elements)";
                    break;
                }
                std::snprintf(buffer, sizeof buffer, "%s%s min %.6g mean %.6g max %.6g",
                              i ? ";" : "", n > 1 ? (std::string(" ") + "xyzw"[i]).c_str() : "",
                              c.min, c.sum / double(c.count), c.max);
                out += buffer;
            }
            return out;
        });
    });
}

std::string params_text(const orbis::Dict& params) {
    std::string out;
    for (const auto& e : params.entries()) {
        std::string v;
        if (e.value.is<bool>()) {
            v = e.value.as<bool>() ? "true" : "false";
        } else if (e.value.is<std::int64_t>()) {
            v = std::to_string(e.value.as<std::int64_t>());
        } else if (e.value.is<double>()) {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%g", e.value.as<double>());
            v = buffer;
        } else if (e.value.is<std::string>()) {
            v = "\"" + e.value.as<std::string>() + "\"";
        }
        out += (out.empty() ? "" : ", ") + e.key + "=" + v;
    }
    return out;
}

// The steps that made the world and the layers whose inputs changed since.
void print_provenance(const orbis::World& world) {
    const auto& steps = world.provenance().steps;
    if (steps.empty()) {
        std::printf("  provenance: none recorded\n");
        return;
    }
    std::printf("  provenance: %zu steps\n", steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto& s = steps[i];
        std::string wrote;
        for (const auto& w : s.writes)
            wrote += (wrote.empty() ? "" : ", ") + w;
        std::printf("    %zu. run %u: %s (%s) wrote %s\n", i + 1, s.run, s.module.c_str(),
                    params_text(s.params).c_str(),
                    wrote.empty() ? "nothing that is still its" : wrote.c_str());
    }
    const auto stale = orbis::stale_layers(world);
    if (stale.empty()) {
        std::printf("  stale layers: none\n");
        return;
    }
    std::printf("  stale layers: %zu\n", stale.size());
    for (const auto& s : stale)
        std::printf("    %s: %s\n", s.layer.c_str(), s.reason.c_str());
}

int run_info(const std::string& file) {
    const orbis::World world = orbis::io::load_any(file);
    const orbis::Mesh& m = world.mesh();
    std::printf("%s\n", file.c_str());
    if (orbis::io::format_of(file) == orbis::io::File_format::world) {
        const auto info = orbis::io::inspect_world(file);
        std::size_t compressed = 0;
        for (const auto& s : info.sections)
            compressed += s.compressed;
        std::printf("  Orbis world file, format version %u, %llu bytes, %zu sections (%zu "
                    "compressed)\n",
                    info.version, static_cast<unsigned long long>(info.file_bytes),
                    info.sections.size(), compressed);
    }
    const long long euler = static_cast<long long>(m.vertex_count()) -
                            static_cast<long long>(m.edge_count()) +
                            static_cast<long long>(m.face_count());
    std::printf("  vertices %zu, edges %zu, faces %zu, V - E + F = %lld\n", m.vertex_count(),
                m.edge_count(), m.face_count(), euler);
    std::printf("  slots: vertices %u, faces %u, edges %u (deleted ids are reused)\n",
                m.vertex_slots(), m.face_slots(), m.edge_slots() / 2);
    for (const auto& name : world.layer_names()) {
        if (const orbis::Layer_base* layer = world.find_layer(name)) {
            std::printf("  layer %-16s %-20s %-6s%s\n", name.c_str(),
                        std::string(orbis::layer_type_name(layer->type())).c_str(),
                        std::string(layer->value_name()).c_str(),
                        layer_summary(world, *layer).c_str());
        } else if (const orbis::Dict* dict = world.layer(name)) {
            std::printf("  dict  %-16s %zu keys\n", name.c_str(), dict->size());
        }
        if (const orbis::Layer_hints* h = world.hints(name)) {
            std::string text = h->label.empty() ? name : h->label;
            if (!h->unit.empty()) text += ", " + h->unit;
            if (!h->colour_map.empty()) text += ", shown with " + h->colour_map;
            if (!h->categories.empty())
                text += ", " + std::to_string(h->categories.size()) + " named values";
            std::printf("        %-16s (%s)\n", "", text.c_str());
        }
    }
    print_provenance(world);
    return 0;
}

int run_validate(const std::string& file) {
    // Loading checks everything (sizes, checksums, ids, mesh invariants, layer settings);
    // here the values are checked against their layers' ranges too.
    const orbis::World world = orbis::io::load_any(file);
    if (auto problem = world.mesh().validate()) {
        std::cerr << "orbis-cli: " << file << ": " << *problem << '\n';
        return 1;
    }
    std::printf("%s: valid (%zu vertices, %zu faces, %zu layers)\n", file.c_str(),
                world.mesh().vertex_count(), world.mesh().face_count(), world.layer_names().size());
    return 0;
}

struct Convert_options {
    std::string input, output;
    bool compress = false;
    bool ascii = false;
};

int run_convert(const Convert_options& o) {
    const orbis::World world = orbis::io::load_any(o.input);
    orbis::io::save_any(world, o.output, {.compress = o.compress, .ascii = o.ascii});
    std::printf("%s -> %s\n", o.input.c_str(), o.output.c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    orbis::use_huge_page_malloc(argv);
    CLI::App app{"orbis-cli: generate, inspect and convert Orbis worlds"};
    app.require_subcommand(1);
    app.fallthrough(); // --plugins may come before or after the subcommand
    std::vector<std::string> plugin_folders;
    app.add_option("--plugins", plugin_folders,
                   "Also load module plugins (*.so) from this folder (repeatable; "
                   "ORBIS_MODULE_PATH and ~/.local/share/orbis/modules are always searched)");

    Sphere_options sphere;
    auto* sphere_cmd = app.add_subcommand(
        "sphere", "Generate a Fibonacci sphere, triangulate it and print its statistics");
    sphere_cmd->add_option("-n,--points", sphere.points, "Number of points (at least 4)")
        ->check(CLI::Range(4u, 1u << 29));
    sphere_cmd
        ->add_option("-p,--perturbation", sphere.perturbation,
                     "Random offset of each point along the spiral, in [0, 1)")
        ->check(CLI::Range(0.f, 0.999999f));
    sphere_cmd->add_option("-s,--seed", sphere.seed, "Seed of the perturbation");
    sphere_cmd->add_option("-r,--radius", sphere.radius, "Sphere radius")
        ->check(CLI::PositiveNumber);
    sphere_cmd->add_flag("--check-cgal", sphere.check_cgal,
                         "Also triangulate with CGAL and compare the triangulations");
    sphere_cmd->add_option("-o,--output", sphere.output,
                           "Save the world (mesh and positions) to this file (.orbis, .ply, .obj)");

    std::string info_file;
    auto* info_cmd = app.add_subcommand(
        "info", "Print a world file's counts, format and layers (kind, type, min/mean/max)");
    info_cmd->add_option("file", info_file, "World file (.orbis, .ply, .obj)")->required();

    std::string validate_file;
    auto* validate_cmd = app.add_subcommand(
        "validate", "Check a world file completely: structure, checksums, mesh, layers");
    validate_cmd->add_option("file", validate_file, "World file (.orbis, .ply, .obj)")->required();

    Convert_options convert;
    auto* convert_cmd = app.add_subcommand(
        "convert", "Convert between .orbis, .ply and .obj (chosen by the extensions)");
    convert_cmd->add_option("input", convert.input, "File to read")->required();
    convert_cmd->add_option("output", convert.output, "File to write (replaced atomically)")
        ->required();
    convert_cmd->add_flag("--compress", convert.compress, "zstd-compress an .orbis output");
    convert_cmd->add_flag("--ascii", convert.ascii, "Write a .ply output as ASCII");

    orbis::cli::Generate_options generate;
    auto* generate_cmd = orbis::cli::add_generate_command(app, generate);
    bool modules_json = false;
    auto* modules_cmd = orbis::cli::add_modules_command(app, modules_json);
    orbis::cli::Replay_options replay;
    auto* replay_cmd = orbis::cli::add_replay_command(app, replay);
    orbis::cli::Map_command_options map;
    auto* map_cmd = orbis::cli::add_map_command(app, map);
    orbis::cli::Export_options export_options;
    auto* export_cmd = orbis::cli::add_export_command(app, export_options);
    orbis::cli::Simulate_options simulate;
    auto* simulate_cmd = orbis::cli::add_simulate_command(app, simulate);

    CLI11_PARSE(app, argc, argv);
    try {
        // Plugins load only for the commands that run modules: a broken plugin must not keep
        // anyone from inspecting or converting a file.
        const auto registry = [&] {
            const std::vector<std::filesystem::path> folders(plugin_folders.begin(),
                                                             plugin_folders.end());
            orbis::gen::Plugin_report report;
            auto modules = orbis::gen::available_modules(folders, &report);
            for (const auto& refusal : report.refused)
                std::cerr << "orbis-cli: plugin refused: " << refusal << '\n';
            return modules;
        };
        if (*sphere_cmd) return run_sphere(sphere);
        if (*info_cmd) return run_info(info_file);
        if (*validate_cmd) return run_validate(validate_file);
        if (*convert_cmd) return run_convert(convert);
        if (*generate_cmd) return orbis::cli::run_generate(generate, registry());
        if (*modules_cmd) return orbis::cli::run_modules(registry(), modules_json);
        if (*replay_cmd) return orbis::cli::run_replay(replay, registry());
        if (*map_cmd) return orbis::cli::run_map(map);
        if (*export_cmd) return orbis::cli::run_export(export_options);
        if (*simulate_cmd) return orbis::cli::run_simulate(simulate, registry());
    } catch (const std::exception& e) {
        std::cerr << "orbis-cli: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
