// SPDX-License-Identifier: MIT
#include "orbis/gen/run_on_part.hpp"

#include <vector>

namespace orbis::gen {

namespace {

// Calls f(key, inside) for every live element a layer of `Type` holds a value for.
template <Layer_type Type, class F>
void for_each_key(const Mesh& m, const std::vector<bool>& in, F f) {
    const auto inside = [&](Vertex v) { return in[v.index()]; };
    if constexpr (Type == Layer_type::vertex) {
        for (const Vertex v : m.vertices())
            f(v, inside(v));
    } else if constexpr (Type == Layer_type::face) {
        for (const Face x : m.faces()) {
            bool all = true;
            for (const Vertex v : x.vertices(m))
                all = all && inside(v);
            f(x, all);
        }
    } else {
        constexpr bool dual =
            Type == Layer_type::edge_dual || Type == Layer_type::edge_dual_directed;
        for (const Edge e : m.edges()) {
            const bool both = inside(e.origin(m)) && inside(e.dest(m));
            const Edge k = dual ? e.rot() : e;
            f(k, both);
            if constexpr (is_directed(Type)) f(k.sym(), both);
        }
    }
}

} // namespace

std::optional<std::string> check_run_on_part(const Module& module, const Dict& params) {
    for (const auto& w : module.layers(params).writes)
        if (w.kind == Layer_use_kind::mesh)
            return "module '" + std::string(module.name()) +
                   "' edits the mesh, so it runs on the whole world only";
    return std::nullopt;
}

World keep_inside_part(const World& before, World after, std::span<const Vertex> part,
                       const Module& module, const Dict& params) {
    const Mesh& mesh = after.mesh();
    std::vector<bool> in(mesh.vertex_slots(), false);
    for (const Vertex v : part)
        if (v.index() < in.size()) in[v.index()] = true;
    for (const auto& w : module.layers(params).writes) {
        if (w.kind == Layer_use_kind::dict) {
            if (const Dict* old = before.layer(w.name); old && !before.find_layer(w.name))
                *after.lock_layer(w.name) = *old;
            continue;
        }
        if (w.kind != Layer_use_kind::typed) continue;
        const Layer_base* written = after.find_layer(w.name);
        if (!written) continue;
        with_value_type(written->value_tag(), [&]<class T>() {
            with_layer_type(written->type(), [&]<Layer_type Type>() {
                const T initial =
                    dynamic_cast<const Layer<T, Type>&>(*written).info().initial_value();
                const auto* old = dynamic_cast<const Layer<T, Type>*>(before.find_layer(w.name));
                // Locking an existing layer checks only its type, and the name outlives the lock.
                auto [layer] = after.lock_layer(Layer_info<T, Type>(w.name));
                for_each_key<Type>(mesh, in, [&](auto key, bool inside) {
                    if (!inside) layer[key] = old ? (*old)[key] : initial;
                });
            });
        });
    }
    after.set_provenance(before.provenance());
    return after;
}

} // namespace orbis::gen
