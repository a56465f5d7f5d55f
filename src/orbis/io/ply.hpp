// SPDX-License-Identifier: MIT
// PLY exchange (Stanford polygon format, ASCII and binary little-endian): vertex positions,
// triangles, and the World's vertex and face layers as properties.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/io/atomic_file.hpp"

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace orbis::io {

/// PLY encodings Orbis writes.
enum class Ply_format {
    binary_little_endian, ///< compact and fast (the default)
    ascii,                ///< readable
};

/// Options for save_ply.
struct Ply_save_options {
    Ply_format format = Ply_format::binary_little_endian; ///< the encoding
    Sync sync = Sync::full;                               ///< see write_file_atomically
};

/// Writes the live vertices (positions from orbis::position_layer; zeros if absent) with
/// every vertex layer as properties, and the live faces with every face layer, atomically.
/// Ids are compacted (deleted slots skipped). Scalar layers become one property named after
/// the layer; vectors one property per component, `name_x`, `name_y`, `name_z`, `name_w`.
/// \throws File_error.
void save_ply(const World& world, const std::filesystem::path& path,
              const Ply_save_options& options = {});

/// The PLY bytes save_ply would write.
std::vector<std::byte> write_ply(const World& world,
                                 Ply_format format = Ply_format::binary_little_endian);

/// Reads a triangle mesh (closed or with boundary) into a new World: `x, y, z` into
/// orbis::position_layer, other vertex and face properties into layers (named as save_ply
/// names them, so components regroup into vectors), faces with more than three corners
/// refused. Non-manifold input is refused with a message naming the offending faces.
/// \throws File_error naming the file and the element, line or property that is wrong.
World load_ply(const std::filesystem::path& path);

/// load_ply on bytes in memory; `name` stands for the file in messages.
World read_ply(std::span<const std::byte> bytes, const std::string& name = "<memory>");

} // namespace orbis::io
