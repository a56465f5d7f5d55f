// SPDX-License-Identifier: MIT
// What the viewport draws of a World: the display modes and the CPU buffers they need.
#include "orbis/render/scene.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace orbis::render {

namespace {

bool is_primal_edge(Layer_type t) {
    return t == Layer_type::edge_primal || t == Layer_type::edge_primal_directed;
}

bool is_dual_edge(Layer_type t) {
    return t == Layer_type::edge_dual || t == Layer_type::edge_dual_directed;
}

} // namespace

template <class Buffers>
void Scene_builder::stamp(Scene_part<Buffers>& part, Change geometry, Change colours,
                          Stamps& stamps) {
    if (part.geometry != stamps.geometry || stamps.geometry_stamp == 0) geometry = Change::rebuilt;
    if (geometry == Change::rebuilt) {
        stamps.geometry = part.geometry;
        stamps.geometry_stamp = next_stamp_++;
        // New geometry means a new vertex count: colours go up again with it.
        colours = Change::rebuilt;
    } else if (geometry == Change::in_place) {
        part.base_geometry_stamp = stamps.geometry_stamp;
        stamps.geometry_stamp = next_stamp_++;
    }
    if (part.colours != stamps.colours || stamps.colour_stamp == 0) colours = Change::rebuilt;
    if (colours == Change::rebuilt) {
        stamps.colours = part.colours;
        stamps.colour_stamp = next_stamp_++;
    } else if (colours == Change::in_place) {
        part.base_colour_stamp = stamps.colour_stamp;
        stamps.colour_stamp = next_stamp_++;
    }
    part.geometry_stamp = stamps.geometry_stamp;
    part.colour_stamp = stamps.colour_stamp;
}

void Scene_builder::add_rebuilds() {
    const Rebuild_counts& r = cache_.last_rebuilds();
    rebuilt_.positions += r.positions;
    rebuilt_.triangles += r.triangles;
    rebuilt_.voronoi += r.voronoi;
    rebuilt_.primal_edges += r.primal_edges;
    rebuilt_.dual_edges += r.dual_edges;
    rebuilt_.rivers += r.rivers;
    rebuilt_.tectonics += r.tectonics;
    rebuilt_.layer_colours += r.layer_colours;
    rebuilt_.buffer_colours += r.buffer_colours;
}

void Scene_builder::refresh_points(const World& world, bool want_points, const World_delta* delta) {
    const auto* positions = world.layer(position_layer);
    if (!positions)
        throw std::invalid_argument("render: the world has no '" +
                                    std::string(position_layer.name()) + "' layer");
    points_rebuilt_ = false;
    const bool current = points_mesh_version_ == world.mesh_version() &&
                         points_position_version_ == positions->version();
    if (current && (points_built_ || !want_points)) return;
    const Mesh& m = world.mesh();
    const bool follows = delta && !current && delta->from_mesh_version == points_mesh_version_ &&
                         delta->from_position_version == points_position_version_;
    points_mesh_version_ = world.mesh_version();
    points_position_version_ = positions->version();
    points_rebuilt_ = true;
    if (follows) {
        // After edits the radius can only grow where vertices changed (a shrink is not
        // noticed: the camera frames a little more than needed), and a mesh without boundary
        // gets one only at the elements the delta lists.
        bool opened = false;
        for (const Vertex v : delta->vertices) {
            if (!m.contains(v)) continue;
            radius_ = std::max(radius_, double(glm::length((*positions)[v])));
            for (const Edge e : v.edges(m))
                opened = opened || m.is_boundary(e);
        }
        for (const Face f : delta->faces)
            if (m.contains(f))
                for (const Edge e : f.edges(m))
                    opened = opened || m.is_boundary(e);
        if (!boundary_.positions.empty() || opened) rebuild_boundary(world);
        points_built_ = false;
    } else {
        radius_ = 0.0;
        for (const Vertex v : m.vertices())
            radius_ = std::max(radius_, double(glm::length((*positions)[v])));
        if (!(radius_ > 0.0)) radius_ = 1.0;
        rebuild_boundary(world);
        points_built_ = false;
    }
    if (want_points) {
        points_.positions.clear();
        points_.vertex_of.clear();
        for (const Vertex v : m.vertices()) {
            points_.positions.push_back((*positions)[v]);
            points_.vertex_of.push_back(v);
        }
        points_built_ = true;
    }
}

void Scene_builder::rebuild_boundary(const World& world) {
    const auto* positions = world.layer(position_layer);
    const Mesh& m = world.mesh();
    boundary_.positions.clear();
    // Each face has three sides and each edge two: a mesh where these agree has every edge
    // between two faces, and no boundary to look for.
    if (3 * m.face_count() == 2 * m.edge_count()) return;
    for (const Edge e : m.edges()) {
        if (m.is_boundary(e)) {
            boundary_.positions.push_back((*positions)[e.origin(m)]);
            boundary_.positions.push_back((*positions)[e.dest(m)]);
        }
    }
}

const std::string* Scene_builder::build_arrows(const World& world, const std::string& name,
                                               bool& rebuilt) {
    static const std::string refused = "arrows need a vec3 or dvec3 vertex layer";
    const Layer_base* layer = world.find_layer(name);
    if (!layer || layer->type() != Layer_type::vertex ||
        (layer->value_tag() != Value_type::vec3 && layer->value_tag() != Value_type::dvec3))
        return &refused;
    const auto* positions = world.layer(position_layer);
    if (name == arrows_layer_ && arrows_mesh_version_ == world.mesh_version() &&
        arrows_position_version_ == positions->version() &&
        arrows_layer_version_ == layer->version())
        return nullptr;
    const Mesh& m = world.mesh();
    auto vector_of = [&](Vertex v) {
        if (layer->value_tag() == Value_type::vec3)
            return glm::dvec3(static_cast<const Layer<glm::vec3, Layer_type::vertex>&>(*layer)[v]);
        return static_cast<const Layer<glm::dvec3, Layer_type::vertex>&>(*layer)[v];
    };
    // The longest vector spans about the mean edge length, so that arrows do not cross.
    double longest = 0.0, edges = 0.0;
    std::size_t sampled = 0;
    for (const Vertex v : m.vertices()) {
        const double length = glm::length(vector_of(v));
        if (std::isfinite(length)) longest = std::max(longest, length);
        if (sampled < 4096 && v.edge(m).valid()) {
            const Edge e = v.edge(m);
            edges += glm::length(glm::dvec3((*positions)[e.dest(m)]) -
                                 glm::dvec3((*positions)[e.origin(m)]));
            ++sampled;
        }
    }
    const double scale = longest > 0.0 && sampled ? 0.9 * edges / double(sampled) / longest : 0.0;
    arrows_.positions.clear();
    arrows_.vertex_of.clear();
    arrow_colours_.clear();
    // The tail dark, the tip bright: the direction reads without arrow heads.
    const Colour tail{90, 40, 0, 255}, tip{255, 235, 80, 255};
    for (const Vertex v : m.vertices()) {
        const glm::dvec3 d = vector_of(v);
        if (!std::isfinite(d.x) || !std::isfinite(d.y) || !std::isfinite(d.z)) continue;
        const glm::dvec3 p((*positions)[v]);
        arrows_.positions.push_back(glm::vec3(p));
        arrows_.positions.push_back(glm::vec3(p + d * scale));
        arrows_.vertex_of.push_back(v);
        arrows_.vertex_of.push_back(v);
        arrow_colours_.push_back(tail);
        arrow_colours_.push_back(tip);
    }
    arrows_layer_ = name;
    arrows_mesh_version_ = world.mesh_version();
    arrows_position_version_ = positions->version();
    arrows_layer_version_ = layer->version();
    rebuilt = true;
    return nullptr;
}

Scene Scene_builder::build(const World& world, const View_options& options,
                           const World_delta* delta) {
    rebuilt_ = {};
    Scene scene;
    scene.mesh = &world.mesh();
    std::string relief = options.relief;
    if (!relief.empty() && !is_relief_layer(world.find_layer(relief))) {
        scene.layer_error = relief_refusal(relief);
        relief.clear();
    }
    cache_.set_relief(relief, options.relief_scale, options.water);
    const bool applied = delta && cache_.apply(world, *delta);
    if (applied) add_rebuilds();
    // Triangles patched while hidden have no patch the GPU could follow later: upload whole.
    if (applied && !options.triangles) triangle_stamps_ = Stamps{};
    if (applied && !options.wireframe) primal_stamps_ = Stamps{};
    if (applied && !options.dual_edges && !options.voronoi_outlines) dual_stamps_ = Stamps{};
    refresh_points(world, options.points, delta);
    scene.radius = radius_;

    // The view's water switch is the colours' too.
    Colour_options colour_options = options.colours;
    colour_options.water = colour_options.water && options.water;
    const Layer_base* layer = nullptr;
    if (!options.layer.empty()) {
        layer = world.find_layer(options.layer);
        if (!layer)
            scene.layer_error = world.layer(options.layer)
                                    ? "layer '" + options.layer + "' is a Dict: it has no colours"
                                    : "no layer named '" + options.layer + "'";
    }
    // A plain value with a flag: GCC 12 warns (wrongly) of an uninitialised std::optional here.
    const bool typed = layer != nullptr;
    const Layer_type type = typed ? layer->type() : Layer_type::vertex;
    auto change = [](bool rebuilt) { return rebuilt ? Change::rebuilt : Change::none; };
    // Colours for one part, or nothing with the reason kept when the layer is refused.
    auto colours_of = [&](auto&& get) -> const std::vector<Colour>* {
        try {
            const std::vector<Colour>* c = &get();
            add_rebuilds();
            return c;
        } catch (const std::invalid_argument& e) {
            scene.layer_error = e.what();
            return nullptr;
        }
    };

    if (options.triangles) {
        // Face colours need three corners of its own per face; everything else draws the
        // shared-vertex buffers, shaded flat from the slope of the positions when asked.
        const Shading shading = typed && type == Layer_type::face ? Shading::flat : Shading::smooth;
        scene.flat_shading = shading == Shading::flat || options.shading == Shading::flat;
        scene.triangles.geometry = &cache_.triangles(world, shading, !scene.flat_shading);
        scene.triangle_index = cache_.triangle_index(shading);
        add_rebuilds();
        const bool rebuilt = cache_.last_rebuilds().triangles > 0;
        const Buffer_dirt* dirt = applied && !rebuilt ? cache_.dirt(shading) : nullptr;
        Change colours = Change::none;
        if (typed && (type == Layer_type::vertex || type == Layer_type::face)) {
            scene.triangles.colours = colours_of([&]() -> const std::vector<Colour>& {
                return cache_.triangle_colours(world, shading, options.layer, colour_options);
            });
            if (scene.triangles.colours && cache_.last_rebuilds().buffer_colours > 0)
                colours = Change::rebuilt;
            else if (scene.triangles.colours && dirt && cache_.colours_updated(shading))
                colours = Change::in_place;
        }
        scene.triangles.dirt = dirt;
        stamp(scene.triangles,
              rebuilt                                    ? Change::rebuilt
              : dirt && cache_.geometry_patched(shading) ? Change::in_place
                                                         : Change::none,
              colours, triangle_stamps_);
    }
    if (options.voronoi_cells) {
        scene.voronoi.geometry = &cache_.voronoi_cells(world);
        add_rebuilds();
        const bool rebuilt = cache_.last_rebuilds().voronoi > 0;
        if (typed && type == Layer_type::vertex)
            scene.voronoi.colours = colours_of([&]() -> const std::vector<Colour>& {
                return cache_.voronoi_colours(world, options.layer, colour_options);
            });
        stamp(scene.voronoi, change(rebuilt),
              change(scene.voronoi.colours && cache_.last_rebuilds().buffer_colours > 0),
              voronoi_stamps_);
    }
    // Edge segments: patched when the delta reached them, else rebuilt or unchanged; coloured
    // by the shown layer when `colour`.
    auto lines = [&](Scene_part<Line_buffers>& part, const Line_buffers& geometry, bool dual,
                     bool colour, auto&& get_colours, Stamps& stamps) {
        part.geometry = &geometry;
        add_rebuilds();
        const Rebuild_counts& r = cache_.last_rebuilds();
        const bool rebuilt = (dual ? r.dual_edges : r.primal_edges) > 0;
        part.dirt = applied && !rebuilt ? cache_.line_dirt(dual) : nullptr;
        Change colours = Change::none;
        if (colour) {
            part.colours = colours_of(get_colours);
            if (part.colours && cache_.last_rebuilds().buffer_colours > 0)
                colours = Change::rebuilt;
            else if (part.colours && part.dirt && cache_.line_colours_updated(dual))
                colours = Change::in_place;
        }
        stamp(part,
              rebuilt     ? Change::rebuilt
              : part.dirt ? Change::in_place
                          : Change::none,
              colours, stamps);
    };
    if (options.wireframe)
        lines(
            scene.primal_edges, cache_.primal_edges(world), false, typed && is_primal_edge(type),
            [&]() -> const std::vector<Colour>& {
                return cache_.primal_edge_colours(world, options.layer, colour_options);
            },
            primal_stamps_);
    if (options.dual_edges || options.voronoi_outlines) {
        lines(
            scene.dual_edges, cache_.dual_edges(world), true,
            options.dual_edges && typed && is_dual_edge(type),
            [&]() -> const std::vector<Colour>& {
                return cache_.dual_edge_colours(world, options.layer, colour_options);
            },
            dual_stamps_);
        scene.voronoi_outlines = options.voronoi_outlines;
        scene.dual_edges_coloured = options.dual_edges;
    }
    if (options.rivers) {
        try {
            const River_buffers& rivers =
                cache_.rivers(world, options.river_min_discharge, options.water);
            add_rebuilds();
            scene.rivers.geometry = &rivers;
            scene.rivers.colours = &rivers.colours;
            const bool rebuilt = cache_.last_rebuilds().rivers > 0;
            stamp(scene.rivers, change(rebuilt), change(rebuilt), river_stamps_);
        } catch (const std::invalid_argument& e) {
            scene.river_error = e.what();
        }
    }
    // The tectonic overlays, like rivers, come from their layers on the surface as drawn; the
    // first one missing says why.
    auto overlay = [&](auto& part, auto&& get, Stamps& stamps) {
        try {
            const auto& buffers = get();
            add_rebuilds();
            part.geometry = &buffers;
            part.colours = &buffers.colours;
            const bool rebuilt = cache_.last_rebuilds().tectonics > 0;
            stamp(part, change(rebuilt), change(rebuilt), stamps);
        } catch (const std::invalid_argument& e) {
            if (scene.tectonics_error.empty()) scene.tectonics_error = e.what();
        }
    };
    if (options.plate_boundaries)
        overlay(
            scene.plate_boundaries,
            [&]() -> const Boundary_lines& { return cache_.plate_boundaries(world); },
            plate_boundary_stamps_);
    if (options.velocity_arrows)
        overlay(
            scene.velocity_arrows,
            [&]() -> const Velocity_arrows& {
                return cache_.velocity_arrows(world, options.max_velocity_arrows);
            },
            velocity_stamps_);
    if (options.points) {
        scene.points.geometry = &points_;
        stamp(scene.points, change(points_rebuilt_), Change::none, point_stamps_);
    }
    if (options.boundary && !boundary_.positions.empty()) {
        scene.boundary.geometry = &boundary_;
        stamp(scene.boundary, change(points_rebuilt_), Change::none, boundary_stamps_);
    }
    if (options.arrows && typed) {
        bool rebuilt = false;
        if (const std::string* why = build_arrows(world, options.layer, rebuilt)) {
            if (scene.layer_error.empty()) scene.layer_error = *why;
        } else {
            scene.arrows.geometry = &arrows_;
            scene.arrows.colours = &arrow_colours_;
            stamp(scene.arrows, change(rebuilt), change(rebuilt), arrow_stamps_);
        }
    }
    if (layer && scene.layer_error.empty()) {
        const bool shown = scene.triangles.colours || scene.voronoi.colours ||
                           scene.primal_edges.colours || scene.dual_edges.colours ||
                           scene.arrows.geometry;
        if (!shown)
            scene.layer_error = "layer '" + options.layer +
                                "' colours no part on screen; turn on " +
                                (is_primal_edge(type) ? std::string("the wireframe")
                                 : is_dual_edge(type) ? std::string("dual edges")
                                                      : std::string("triangles or cells"));
    }
    return scene;
}

} // namespace orbis::render
