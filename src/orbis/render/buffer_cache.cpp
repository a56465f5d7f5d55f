// SPDX-License-Identifier: MIT
// Keeps the render buffers of one World view and rebuilds a part only when its inputs changed.
#include "orbis/render/buffer_cache.hpp"

#include "orbis/core/layer.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"
#include "orbis/render/parallel.hpp"

#include <cmath>
#include <stdexcept>

namespace orbis::render {

namespace {

// The relief layer of `world` as a float or double vertex layer, or a refusal.
const Layer_base& relief_layer_of(const World& world, const std::string& name) {
    const Layer_base* layer = world.find_layer(name);
    if (!is_relief_layer(layer)) throw std::invalid_argument("render: " + relief_refusal(name));
    return *layer;
}

double relief_value(const Layer_base& layer, Vertex v) {
    switch (layer.value_tag()) {
    case Value_type::float32:
        return static_cast<const Layer<float, Layer_type::vertex>&>(layer)[v];
    case Value_type::float64:
        return static_cast<const Layer<double, Layer_type::vertex>&>(layer)[v];
    default:
        return static_cast<const Layer<std::int32_t, Layer_type::vertex>&>(layer)[v];
    }
}

// The versions of the water layers when they decide the colours of `layer` under `options`
// (see Colour_options::water), zeros otherwise.
std::array<std::uint64_t, 3> water_versions(const World& world, const Layer_base& layer,
                                            const Colour_options& options) {
    if (!options.water || options.map != Colour_map_kind::terrain ||
        layer.type() != Layer_type::vertex)
        return {};
    return water_layers(world).versions();
}

} // namespace

Buffer_cache::Geometry_key Buffer_cache::key_of(const World& world) const {
    const auto* layer = world.layer(position_layer);
    if (!layer)
        throw std::invalid_argument("render: the world has no '" +
                                    std::string(position_layer.name()) + "' layer");
    const std::uint64_t relief =
        relief_layer_.empty() ? 0 : relief_layer_of(world, relief_layer_).version();
    Geometry_key key{true, world.mesh_version(), layer->version(), relief, {}};
    if (water_flattens(world)) key.water_versions = water_layers(world).versions();
    return key;
}

bool Buffer_cache::water_flattens(const World& world) const {
    return relief_water_ && relief_layer_ == elevation_layer_name &&
           static_cast<bool>(water_layers(world));
}

bool is_relief_layer(const Layer_base* layer) {
    return layer && layer->type() == Layer_type::vertex &&
           (layer->value_tag() == Value_type::float32 ||
            layer->value_tag() == Value_type::float64 || layer->value_tag() == Value_type::int32);
}

std::string relief_refusal(const std::string& name) {
    return "relief needs a float, double or int32 vertex layer; '" + name + "' is not one";
}

void Buffer_cache::set_relief(std::string_view layer, double scale, bool water) {
    if (layer.empty()) {
        scale = 0.0;
        water = false;
    }
    if (layer == relief_layer_ && scale == relief_scale_ && water == relief_water_) return;
    relief_layer_ = std::string(layer);
    relief_scale_ = scale;
    relief_water_ = water;
    positions_key_ = {};
    keys_.fill({});
    // The relief scale is no part of Geometry_key: rivers and overlays on the old surface are
    // stale.
    river_key_ = {};
    boundary_key_ = {};
    arrow_key_ = {};
    index_valid_.fill(false);
    dirt_valid_.fill(false);
    colours_updated_.fill(false);
    line_index_valid_.fill(false);
    line_dirt_valid_.fill(false);
    line_colours_updated_.fill(false);
}

void Buffer_cache::count(int Rebuild_counts::*part) {
    ++(last_.*part);
    ++(total_.*part);
}

const std::vector<glm::vec3>& Buffer_cache::positions(const World& world) {
    const Geometry_key key = key_of(world);
    if (key != positions_key_) {
        // Rewritten in place, smooth triangles holding the surface no longer match their key
        // (which an undo could bring back): they are built again when next asked for.
        forget_smooth_surface();
        std::vector<glm::vec3>& lifted = surface();
        lifted = vertex_positions(world);
        if (!relief_layer_.empty()) {
            const Layer_base& relief = relief_layer_of(world, relief_layer_);
            const Water_layers water = water_flattens(world) ? water_layers(world) : Water_layers{};
            const Mesh& m = world.mesh();
            detail::in_parallel(m.vertex_slots(), [&](std::size_t first, std::size_t last) {
                for (std::size_t i = first; i < last; ++i) {
                    const Vertex v{static_cast<std::uint32_t>(i)};
                    if (!m.contains(v)) continue;
                    const double value =
                        water && water.wet(v) ? double((*water.level)[v]) : relief_value(relief, v);
                    if (std::isfinite(value))
                        lifted[i] *= static_cast<float>(1.0 + relief_scale_ * value);
                }
            });
        }
        positions_key_ = key;
        count(&Rebuild_counts::positions);
    }
    return surface();
}

void Buffer_cache::forget_smooth_surface() {
    if (!surface_in_smooth_) return;
    keys_[smooth_triangles] = {};
    index_valid_[1] = dirt_valid_[1] = colours_updated_[1] = false;
}

const std::vector<glm::vec3>& Buffer_cache::surface_positions(const World& world) {
    begin_call();
    return positions(world);
}

const River_buffers& Buffer_cache::rivers(const World& world, double min_discharge, bool water) {
    begin_call();
    const auto* discharge = discharge_layer(world);
    if (!discharge)
        throw std::invalid_argument("render: rivers need a float directed primal edge layer '" +
                                    std::string(discharge_layer_name) + "' (from hydrology)");
    const Water_layers w = water ? water_layers(world) : Water_layers{};
    const River_key key{key_of(world), discharge->version(), min_discharge, water, w.versions()};
    if (key != river_key_) {
        // A refusal leaves no rivers and no key, so that the next request tries again.
        river_key_ = {};
        river_ribbons(world.mesh(), positions(world), *discharge, min_discharge, w, rivers_);
        river_key_ = key;
        count(&Rebuild_counts::rivers);
    }
    return rivers_;
}

const Boundary_lines& Buffer_cache::plate_boundaries(const World& world) {
    begin_call();
    const auto* kinds = plate_boundary_layer(world);
    if (!kinds)
        throw std::invalid_argument("render: plate boundaries need an int32 primal edge layer '" +
                                    std::string(plate_boundary_layer_name) + "' (from plates)");
    const Layer_hints* hints = world.hints(plate_boundary_layer_name);
    const Overlay_key key{key_of(world), kinds->version(), 0, hints ? *hints : Layer_hints{}};
    if (key != boundary_key_) {
        boundary_key_ = {};
        plate_boundary_lines(world.mesh(), positions(world), *kinds, hints, boundaries_);
        boundary_key_ = key;
        count(&Rebuild_counts::tectonics);
    }
    return boundaries_;
}

const Velocity_arrows& Buffer_cache::velocity_arrows(const World& world, std::size_t max_arrows) {
    begin_call();
    const auto* velocity = velocity_layer(world);
    if (!velocity)
        throw std::invalid_argument("render: velocity arrows need a vec3 vertex layer '" +
                                    std::string(velocity_layer_name) + "' (from tectonics)");
    const Overlay_key key{key_of(world), velocity->version(), max_arrows, {}};
    if (key != arrow_key_) {
        arrow_key_ = {};
        render::velocity_arrows(world.mesh(), positions(world), *velocity, max_arrows, arrows_);
        arrow_key_ = key;
        count(&Rebuild_counts::tectonics);
    }
    return arrows_;
}

const Triangle_buffers& Buffer_cache::triangles(const World& world, Shading shading, bool normals) {
    begin_call();
    const Target target = shading == Shading::flat ? flat_triangles : smooth_triangles;
    const int s = shading == Shading::flat ? 0 : 1;
    Triangle_buffers& out = triangles_[s];
    const Geometry_key key = key_of(world);
    if (keys_[target] != key) {
        const std::vector<glm::vec3>& surface_now = positions(world);
        if (shading == Shading::flat) {
            render::triangles(world.mesh(), surface_now, shading, out, normals);
        } else {
            // Smooth outputs are the vertex slots: the surface becomes the triangles' positions
            // and is kept there (see surface()), rather than copied.
            if (!surface_in_smooth_) {
                out.positions = std::move(surface_);
                surface_ = {};
                surface_in_smooth_ = true;
            }
            index_valid_[s] = false;
            // No indices: a viewer keeps them on the GPU only (see smooth_indices()).
            render::smooth_triangles(world.mesh(), out, normals, &index_[s], false);
        }
        keys_[target] = key;
        index_valid_[s] = dirt_valid_[s] = colours_updated_[s] = false;
        // Indexed now, off the edit path: the first edit after a build costs what it touches
        // (smooth triangles are indexed by their build).
        if (shading == Shading::flat) index_[s] = index_triangles(out, world.mesh());
        index_valid_[s] = true;
        count(&Rebuild_counts::triangles);
    } else if (normals && !out.with_normals) {
        // The same triangles with normals: the GPU copy needs them too.
        add_smooth_normals(world.mesh(), positions(world), out);
        dirt_valid_[s] = colours_updated_[s] = false;
        count(&Rebuild_counts::triangles);
    }
    return out;
}

const Triangle_index* Buffer_cache::triangle_index(Shading shading) const {
    const int s = shading == Shading::flat ? 0 : 1;
    return index_valid_[s] ? &index_[s] : nullptr;
}

const Voronoi_buffers& Buffer_cache::voronoi_cells(const World& world) {
    begin_call();
    const Geometry_key key = key_of(world);
    if (keys_[voronoi] != key) {
        render::voronoi_cells(world.mesh(), positions(world), voronoi_);
        keys_[voronoi] = key;
        count(&Rebuild_counts::voronoi);
    }
    return voronoi_;
}

const Line_buffers& Buffer_cache::primal_edges(const World& world) {
    begin_call();
    const Geometry_key key = key_of(world);
    if (keys_[primal_lines] != key) {
        primal_ = render::primal_edges(world.mesh(), positions(world));
        keys_[primal_lines] = key;
        line_index_valid_[0] = line_dirt_valid_[0] = line_colours_updated_[0] = false;
        line_index_[0] = index_lines(primal_, world.mesh());
        line_index_valid_[0] = true;
        count(&Rebuild_counts::primal_edges);
    }
    return primal_;
}

const Line_buffers& Buffer_cache::dual_edges(const World& world) {
    begin_call();
    const Geometry_key key = key_of(world);
    if (keys_[dual_lines] != key) {
        dual_ = render::dual_edges(world.mesh(), positions(world));
        keys_[dual_lines] = key;
        line_index_valid_[1] = line_dirt_valid_[1] = line_colours_updated_[1] = false;
        line_index_[1] = index_lines(dual_, world.mesh());
        line_index_valid_[1] = true;
        count(&Rebuild_counts::dual_edges);
    }
    return dual_;
}

const Buffer_cache::Layer_entry& Buffer_cache::layer_colours(const World& world,
                                                             std::string_view name,
                                                             const Colour_options& options,
                                                             Target target) {
    const Layer_base* layer = world.find_layer(name);
    if (!layer)
        throw std::invalid_argument("render: there is no typed layer '" + std::string(name) +
                                    "' to colour");
    Layer_entry& e = layers_[target];
    const auto water = water_versions(world, *layer, options);
    if (e.serial == 0 || e.name != name || e.mesh_version != world.mesh_version() ||
        e.layer_version != layer->version() || !(e.options == options) ||
        e.water_versions != water) {
        e.colours = colours_for_layer(world, name, options, &ranges_);
        e.name = std::string(name);
        e.mesh_version = world.mesh_version();
        e.layer_version = layer->version();
        e.options = options;
        e.water_versions = water;
        e.serial = next_serial_++;
        count(&Rebuild_counts::layer_colours);
    }
    return e;
}

template <class Buffers>
const std::vector<Colour>& Buffer_cache::colours(const World& world, Target target,
                                                 const Buffers& buffers, std::string_view name,
                                                 const Colour_options& options) {
    const Layer_entry& layer = layer_colours(world, name, options, target);
    Colour_entry& e = colours_[target];
    // Which element each output vertex stands for depends on the mesh alone, so moving
    // vertices (a position write) leaves laid-out colours valid.
    if (e.layer_serial != layer.serial || e.mesh_version != world.mesh_version()) {
        if (target == flat_triangles || target == smooth_triangles)
            colours_updated_[target == flat_triangles ? 0 : 1] = false;
        if (target == primal_lines || target == dual_lines)
            line_colours_updated_[target == primal_lines ? 0 : 1] = false;
        // Vertex colours on smooth triangles would be a copy of the slot colours, element for
        // element (dead slots no_colour in both): the slot colours serve instead, as long as
        // they cover every output.
        e.slots_serve = target == smooth_triangles && layer.colours.type == Layer_type::vertex &&
                        layer.colours.colours.size() >= buffers.positions.size();
        if (e.slots_serve)
            std::vector<Colour>().swap(e.colours);
        else
            e.colours = colours_on(buffers, layer.colours);
        e.layer_serial = layer.serial;
        e.mesh_version = world.mesh_version();
        count(&Rebuild_counts::buffer_colours);
    }
    return e.slots_serve ? layer.colours.colours : e.colours;
}

const std::vector<Colour>& Buffer_cache::triangle_colours(const World& world, Shading shading,
                                                          std::string_view name,
                                                          const Colour_options& options) {
    // Starts the call's counts; colours need no normals.
    const Triangle_buffers& b = triangles(world, shading, false);
    return colours(world, shading == Shading::flat ? flat_triangles : smooth_triangles, b, name,
                   options);
}

const std::vector<Colour>& Buffer_cache::voronoi_colours(const World& world, std::string_view name,
                                                         const Colour_options& options) {
    const Voronoi_buffers& b = voronoi_cells(world);
    return colours(world, voronoi, b, name, options);
}

const std::vector<Colour>& Buffer_cache::primal_edge_colours(const World& world,
                                                             std::string_view name,
                                                             const Colour_options& options) {
    const Line_buffers& b = primal_edges(world);
    return colours(world, primal_lines, b, name, options);
}

const std::vector<Colour>& Buffer_cache::dual_edge_colours(const World& world,
                                                           std::string_view name,
                                                           const Colour_options& options) {
    const Line_buffers& b = dual_edges(world);
    return colours(world, dual_lines, b, name, options);
}

bool Buffer_cache::apply(const World& world, const World_delta& delta) {
    begin_call();
    const Geometry_key from{true, delta.from_mesh_version, delta.from_position_version};
    const Geometry_key to = key_of(world);
    // A delta within one state (layer values edited) still recolours in place.
    if (positions_key_ != from) return false;
    // Positions first: both shadings read them.
    const auto* layer = world.layer(position_layer);
    std::vector<glm::vec3>& lifted = surface();
    // Only grows: an undo shrinks the slots, but a triangle it collapses to a point still names
    // a slot it took back, and smooth triangles' outputs are the surface's slots.
    if (lifted.size() < layer->size()) lifted.resize(layer->size());
    for (const Vertex v : delta.vertices)
        if (v.index() < layer->size()) lifted[v.index()] = (*layer)[v];
    positions_key_ = to;
    bool updated = false;
    for (const Shading shading : {Shading::flat, Shading::smooth}) {
        const int s = shading == Shading::flat ? 0 : 1;
        const Target target = shading == Shading::flat ? flat_triangles : smooth_triangles;
        if (keys_[target] != from) {
            dirt_valid_[s] = colours_updated_[s] = false;
            // The surface patched above lies in stale smooth triangles: see positions().
            if (shading == Shading::smooth) forget_smooth_surface();
            continue;
        }
        Triangle_buffers& b = triangles_[s];
        if (!index_valid_[s]) {
            index_[s] = index_triangles(b, world.mesh());
            index_valid_[s] = true;
        }
        // Values alone changed (a brush dab): the geometry stays, only colours are patched.
        geometry_patched_[s] = from != to;
        dirt_[s] =
            geometry_patched_[s]
                ? update_triangles(world.mesh(), lifted, delta.vertices, delta.faces, b, index_[s])
                : outputs_showing(world.mesh(), delta.vertices, delta.faces, b, index_[s]);
        dirt_valid_[s] = true;
        keys_[target] = to;
        count(&Rebuild_counts::updates);
        updated = true;
        // The faces whose triangles were rewritten, for face layer colours.
        std::vector<std::uint32_t> faces;
        for (const std::uint32_t t : dirt_[s].triangles)
            if (const Face f = b.face_at(world.mesh(), t); f.valid()) faces.push_back(f.index());
        for (std::size_t k = 0; k < dirt_[s].vertices.size(); k += 3)
            if (shading == Shading::flat && b.face_of[dirt_[s].vertices[k] / 3].valid())
                faces.push_back(b.face_of[dirt_[s].vertices[k] / 3].index());
        update_triangle_colours(world, target, delta, faces);
    }
    for (const bool dual : {false, true}) {
        const int l = dual ? 1 : 0;
        const Target target = dual ? dual_lines : primal_lines;
        if (keys_[target] != from) {
            line_dirt_valid_[l] = line_colours_updated_[l] = false;
            continue;
        }
        Line_buffers& b = dual ? dual_ : primal_;
        if (!line_index_valid_[l]) {
            line_index_[l] = index_lines(b, world.mesh());
            line_index_valid_[l] = true;
        }
        line_dirt_[l] = update_lines(world.mesh(), lifted, delta.vertices, delta.faces, delta.edges,
                                     dual, b, line_index_[l]);
        line_dirt_valid_[l] = true;
        keys_[target] = to;
        count(&Rebuild_counts::updates);
        updated = true;
        update_line_colours(world, target, delta);
    }
    return updated;
}

const Layer_base* Buffer_cache::colours_at_start(const World& world, Target target,
                                                 const World_delta& delta) const {
    const Layer_entry& layer = layers_[target];
    const Colour_entry& laid = colours_[target];
    const Layer_base* base = layer.serial ? world.find_layer(layer.name) : nullptr;
    if (!base || layer.mesh_version != delta.from_mesh_version ||
        laid.layer_serial != layer.serial || laid.mesh_version != delta.from_mesh_version)
        return nullptr;
    // The delta lists every vertex whose water changed, but water layers that came or went
    // change every vertex's colour.
    const bool had_water = layer.water_versions != std::array<std::uint64_t, 3>{};
    const bool has_water =
        water_versions(world, *base, layer.options) != std::array<std::uint64_t, 3>{};
    if (had_water != has_water) return nullptr;
    return base;
}

void Buffer_cache::mark_recoloured(const World& world, Target target, const Layer_base& base) {
    Layer_entry& layer = layers_[target];
    layer.mesh_version = world.mesh_version();
    layer.layer_version = base.version();
    layer.water_versions = water_versions(world, base, layer.options);
    layer.serial = next_serial_++;
    colours_[target].layer_serial = layer.serial;
    colours_[target].mesh_version = world.mesh_version();
}

void Buffer_cache::update_line_colours(const World& world, Target target,
                                       const World_delta& delta) {
    const int l = target == dual_lines ? 1 : 0;
    line_colours_updated_[l] = false;
    Layer_entry& layer = layers_[target];
    const Layer_base* base = colours_at_start(world, target, delta);
    if (!base) return;
    // The slots of every rewritten segment's edge, in both directions for directed layers.
    const Line_buffers& b = target == dual_lines ? dual_ : primal_;
    std::vector<std::size_t> slots;
    for (std::size_t k = 0; k < line_dirt_[l].vertices.size(); k += 2) {
        const Edge e = b.edge_of[line_dirt_[l].vertices[k] / 2];
        if (!e.valid()) continue;
        slots.push_back(e.quad_index());
        slots.push_back(e.index());
        slots.push_back(e.sym().index());
    }
    // Gone edges draw nothing (no_edge), whatever their slots hold.
    if (!recolour_slots(world, layer.name, layer.options, slots, layer.colours, &ranges_, &delta))
        return;
    colours_on(b, layer.colours, line_dirt_[l].vertices, colours_[target].colours);
    mark_recoloured(world, target, *base);
    line_colours_updated_[l] = true;
}

void Buffer_cache::update_triangle_colours(const World& world, Target target,
                                           const World_delta& delta,
                                           const std::vector<std::uint32_t>& faces) {
    const int s = target == flat_triangles ? 0 : 1;
    colours_updated_[s] = false;
    Layer_entry& layer = layers_[target];
    const Layer_base* base = colours_at_start(world, target, delta);
    if (!base) return;
    std::vector<std::size_t> slots;
    if (base->type() == Layer_type::vertex) {
        for (const Vertex v : delta.vertices)
            slots.push_back(v.index());
    } else if (base->type() == Layer_type::face) {
        for (const Face f : delta.faces)
            slots.push_back(f.index());
        slots.insert(slots.end(), faces.begin(), faces.end());
    } else {
        return;
    }
    if (!recolour_slots(world, layer.name, layer.options, slots, layer.colours, &ranges_, &delta))
        return;
    Colour_entry& laid = colours_[target];
    // Slot colours that serve as the laid ones are recoloured already, unless an edit added
    // outputs they do not cover: then they are laid out after all.
    if (laid.slots_serve && layer.colours.colours.size() < triangles_[s].positions.size()) {
        laid.slots_serve = false;
        laid.colours = colours_on(triangles_[s], layer.colours);
    } else if (!laid.slots_serve) {
        colours_on(triangles_[s], layer.colours, dirt_[s].vertices, laid.colours);
    }
    mark_recoloured(world, target, *base);
    colours_updated_[s] = true;
}

const Buffer_dirt* Buffer_cache::dirt(Shading shading) const {
    const int s = shading == Shading::flat ? 0 : 1;
    return dirt_valid_[s] ? &dirt_[s] : nullptr;
}

const Buffer_dirt* Buffer_cache::line_dirt(bool dual) const {
    return line_dirt_valid_[dual ? 1 : 0] ? &line_dirt_[dual ? 1 : 0] : nullptr;
}

bool Buffer_cache::line_colours_updated(bool dual) const {
    return line_colours_updated_[dual ? 1 : 0];
}

bool Buffer_cache::geometry_patched(Shading shading) const {
    const int s = shading == Shading::flat ? 0 : 1;
    return dirt_valid_[s] && geometry_patched_[s];
}

bool Buffer_cache::colours_updated(Shading shading) const {
    return colours_updated_[shading == Shading::flat ? 0 : 1];
}

} // namespace orbis::render
