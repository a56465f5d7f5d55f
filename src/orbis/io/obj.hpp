// SPDX-License-Identifier: MIT
// Wavefront OBJ exchange of the geometry: vertex positions and triangles.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/io/atomic_file.hpp"

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace orbis::io {

/// Writes `v x y z` for the live vertices (orbis::position_layer; zeros if absent) and
/// `f a b c` (1-based, compacted ids) for the live faces, atomically. Layers are not written:
/// OBJ has no place for them. \throws File_error.
void save_obj(const World& world, const std::filesystem::path& path, Sync sync = Sync::full);

/// The OBJ text save_obj would write.
std::vector<std::byte> write_obj(const World& world);

/// Reads `v` and `f` lines (negative indices, `a/b/c` corner forms, comments and other
/// statements ignored) into a new World with orbis::position_layer; polygons with more than
/// three corners and non-manifold input are refused naming the line or faces.
/// \throws File_error.
World load_obj(const std::filesystem::path& path);

/// load_obj on bytes in memory; `name` stands for the file in messages.
World read_obj(std::span<const std::byte> bytes, const std::string& name = "<memory>");

} // namespace orbis::io
