// SPDX-License-Identifier: MIT
// Choosing a file format by the file's extension: .orbis, .ply, .obj.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/io/atomic_file.hpp"

#include <filesystem>
#include <string>

namespace orbis::io {

/// The formats Orbis reads and writes.
enum class File_format {
    world, ///< .orbis: everything in a World
    ply,   ///< .ply: positions, faces, vertex and face layers
    obj,   ///< .obj: positions and faces
};

/// The format of `path` by its extension (case-insensitive).
/// \throws File_error for other extensions, listing the known ones.
File_format format_of(const std::filesystem::path& path);

/// How save_any writes.
struct Save_any_options {
    bool compress = false;     ///< .orbis: zstd
    bool ascii = false;        ///< .ply: ASCII instead of binary
    Sync sync = Sync::full;    ///< see write_file_atomically
    Write_progress progress{}; ///< .orbis: hears how far the write got
};

/// Loads `path` in the format its extension names. \throws File_error.
World load_any(const std::filesystem::path& path);

/// Saves `world` to `path` in the format its extension names, atomically. PLY and OBJ keep
/// only what they can hold (see save_ply, save_obj). \throws File_error.
void save_any(const World& world, const std::filesystem::path& path,
              const Save_any_options& options = {});

} // namespace orbis::io
