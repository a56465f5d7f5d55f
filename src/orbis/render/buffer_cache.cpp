// SPDX-License-Identifier: MIT
// Keeps the render buffers of one World view and rebuilds a part only when its inputs changed.
#include "orbis/render/buffer_cache.hpp"

#include "orbis/core/world.hpp"

#include <stdexcept>

namespace orbis::render {

Buffer_cache::Geometry_key Buffer_cache::key_of(const World& world) const {
    const auto* layer = world.layer(position_layer);
    if (!layer)
        throw std::invalid_argument("render: the world has no '" +
                                    std::string(position_layer.name()) + "' layer");
    return {true, world.mesh_version(), layer->version()};
}

void Buffer_cache::count(int Rebuild_counts::*part) {
    ++(last_.*part);
    ++(total_.*part);
}

const std::vector<glm::vec3>& Buffer_cache::positions(const World& world) {
    const Geometry_key key = key_of(world);
    if (key != positions_key_) {
        positions_ = vertex_positions(world);
        positions_key_ = key;
        count(&Rebuild_counts::positions);
    }
    return positions_;
}

const Triangle_buffers& Buffer_cache::triangles(const World& world, Shading shading) {
    begin_call();
    const Target target = shading == Shading::flat ? flat_triangles : smooth_triangles;
    Triangle_buffers& out = triangles_[shading == Shading::flat ? 0 : 1];
    const Geometry_key key = key_of(world);
    if (keys_[target] != key) {
        render::triangles(world.mesh(), positions(world), shading, out);
        keys_[target] = key;
        count(&Rebuild_counts::triangles);
    }
    return out;
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
    if (e.serial == 0 || e.name != name || e.mesh_version != world.mesh_version() ||
        e.layer_version != layer->version() || !(e.options == options)) {
        e.colours = colours_for_layer(world, name, options);
        e.name = std::string(name);
        e.mesh_version = world.mesh_version();
        e.layer_version = layer->version();
        e.options = options;
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
        e.colours = colours_on(buffers, layer.colours);
        e.layer_serial = layer.serial;
        e.mesh_version = world.mesh_version();
        count(&Rebuild_counts::buffer_colours);
    }
    return e.colours;
}

const std::vector<Colour>& Buffer_cache::triangle_colours(const World& world, Shading shading,
                                                          std::string_view name,
                                                          const Colour_options& options) {
    const Triangle_buffers& b = triangles(world, shading); // starts the call's counts
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

} // namespace orbis::render
