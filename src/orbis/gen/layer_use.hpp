// SPDX-License-Identifier: MIT
// What a module reads and writes, declared: the mesh, typed layers (as their Layer_info) and
// Dict layers. Pipelines are checked against these declarations before anything runs, and the
// World's provenance records them, so that layers computed from an input know when it changed.
#pragma once

#include "orbis/core/layer_hints.hpp"
#include "orbis/core/layer_info.hpp"

#include <optional>
#include <string>
#include <vector>

namespace orbis::gen {

/// What a Layer_use names.
enum class Layer_use_kind {
    mesh,  ///< the World's mesh (connectivity and vertex set)
    typed, ///< a typed layer of a value type on an element kind
    dict,  ///< a Dict layer
};

/// One thing a module reads or writes.
struct Layer_use {
    Layer_use_kind kind = Layer_use_kind::typed; ///< mesh, typed or Dict layer
    std::string name;                            ///< the layer's name; "mesh" for the mesh
    Value_type value = Value_type::float32;      ///< typed layers: the value type
    Layer_type type = Layer_type::vertex;        ///< typed layers: the elements
    bool required = true;                        ///< reads: the module refuses to run without it
    Layer_hints hints; ///< writes: how the layer is shown; run_module sets them on the World

    /// The mesh.
    static Layer_use mesh();
    /// The typed layer `info` describes.
    template <class T, Layer_type Type>
    static Layer_use of(const Layer_info<T, Type>& info) {
        Layer_use u;
        u.kind = Layer_use_kind::typed;
        u.name = std::string(info.name());
        u.value = value_type_of<T>;
        u.type = Type;
        return u;
    }
    /// The Dict layer `name`.
    static Layer_use dict(std::string name);
    /// A copy that the module can do without (reads only).
    Layer_use optional() const;
    /// A copy with display hints (writes only).
    Layer_use with_hints(Layer_hints h) const;

    /// For messages: "the mesh", "layer 'plate_id' (int32, vertex)", "Dict layer 'plates'".
    std::string describe() const;
    /// True when `other` names the same thing with the same type (requirement and hints aside).
    bool same_layer(const Layer_use& other) const;
};

/// What a module reads and writes when run with given parameters.
struct Layer_uses {
    std::vector<Layer_use> reads;  ///< inputs, required or optional
    std::vector<Layer_use> writes; ///< outputs; the mesh among them for modules that edit it
};

} // namespace orbis::gen
