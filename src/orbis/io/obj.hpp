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

/// Reads `v` and `f` lines into a new World with orbis::position_layer (a fourth `v` number or
/// vertex colours are ignored). Corners may be written `a`, `a/b`, `a//c` or `a/b/c`; positive
/// indices are 1-based (and may refer to vertices further down), negative ones count back
/// from the last vertex read so far. Comments (`#` to the end of the line) and every other
/// statement (vn, vt, g, o, s, usemtl, mtllib, l, p, ...) are ignored; line continuations
/// (`\` at the end of a line) are not supported. Polygons with more than three corners are
/// refused naming the line; non-manifold input is refused as load_ply refuses it, naming the
/// faces (`face 2 (line 8)`, numbered from 0 in file order) and their corners.
/// \throws File_error.
World load_obj(const std::filesystem::path& path);

/// load_obj on bytes in memory; `name` stands for the file in messages.
World read_obj(std::span<const std::byte> bytes, const std::string& name = "<memory>");

} // namespace orbis::io
