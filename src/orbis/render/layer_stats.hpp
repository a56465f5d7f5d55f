// SPDX-License-Identifier: MIT
// Summaries of a World's layers (count, range, mean, histogram) for the editor's Layers dock.
#pragma once

#include "orbis/core/layer_info.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace orbis {
class World;
}

namespace orbis::render {

/// What a layer holds, summarised over the live elements it binds to. The summarised quantity
/// is the value itself for scalars (bool as 0 or 1, integers converted to double) and the
/// Euclidean length for vectors.
struct Layer_stats {
    /// The layer's name.
    std::string name;
    /// True for a Dict layer, which has no elements: then only `count` says anything.
    bool is_dict = false;
    /// The elements a typed layer binds values to (left as vertex for a Dict layer).
    Layer_type type = Layer_type::vertex;
    /// Layer_base::value_name() ("float", "vec3", ...), or "dict".
    std::string value_type;
    /// Live elements for a typed layer, counted per slot: each live undirected edge once, each
    /// direction of a live edge for directed layers. Top-level keys for a Dict layer.
    std::size_t count = 0;
    /// How many of the `count` quantities are finite: those behind min, mean, max and the
    /// histogram (NaN and infinite values, and vectors with such a component, are left out).
    std::size_t finite = 0;
    /// Smallest finite quantity; NaN when `finite` is 0.
    double min = std::numeric_limits<double>::quiet_NaN();
    /// Mean of the finite quantities; NaN when `finite` is 0.
    double mean = std::numeric_limits<double>::quiet_NaN();
    /// Largest finite quantity; NaN when `finite` is 0.
    double max = std::numeric_limits<double>::quiet_NaN();
    /// Finite quantities counted in equal bins over [min, max], max in the last bin; all in bin 0
    /// when min == max. Sums to `finite`; empty when `finite` is 0.
    std::vector<std::size_t> histogram;
    /// What the figures of a typed layer were computed from: the layer's version
    /// (Layer_base::version, which every change of its values moves to a fresh stamp) and the
    /// mesh's, which decides the live slots. Equal stamps mean equal figures.
    std::uint64_t version = 0;
    /// See `version`.
    std::uint64_t mesh_version = 0;
    /// The figures are not computed yet (all_layer_stats was asked for other layers first):
    /// only the name, the kind and the value type are filled.
    bool pending = false;
};

/// The statistics of layer `name` of `world` with `bins` histogram bins. O(live elements + bins)
/// in two passes, allocating only the histogram (about 10 ms per million float values).
/// \throws std::invalid_argument when `world` has no typed or Dict layer `name`, or bins < 1.
Layer_stats layer_stats(const World& world, std::string_view name, int bins = 32);

/// layer_stats of every typed and Dict layer of `world`, in World::layer_names() order.
/// O(live elements per layer, summed), whole layers shared between two threads. A typed
/// layer's figures are taken from `previous` (an earlier result, e.g. before an edit) when
/// they were computed from the same version of it and of the mesh with as many bins, so that
/// after a brush stroke only the stroked layer is read again. When `now` is given, only the
/// typed layers it accepts (by name) are read; the others not in `previous` come back
/// `pending`, so that a caller can show what it needs first and the rest later.
/// \throws std::invalid_argument when bins < 1.
std::vector<Layer_stats> all_layer_stats(const World& world, int bins = 32,
                                         const std::vector<Layer_stats>& previous = {},
                                         const std::function<bool(std::string_view)>& now = {});

} // namespace orbis::render
