// SPDX-License-Identifier: MIT
// PLY exchange (Stanford polygon format): vertex positions, triangles, and the World's vertex and
// face layers as properties. Writes ASCII and binary little-endian; reads ASCII and binary of
// either byte order.
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

/// Writes the live vertices (positions from orbis::position_layer as `float x, y, z`; zeros if
/// the World has none) with every vertex layer as properties, and the live faces
/// (`property list uchar int vertex_indices`, counterclockwise) with every face layer,
/// atomically. Ids are compacted: deleted slots are skipped and the rest numbered in index
/// order, so the n-th live vertex is vertex n of the file.
///
/// Layers become properties named after the layer: scalars one property, vectors one per
/// component, `name_x`, `name_y`, `name_z`, `name_w`. PLY types: bool -> uchar (0/1),
/// int32 -> int, uint32 -> uint, float -> float, double -> double, vec -> float components,
/// dvec -> double components, and int64 -> double, because PLY has no 64-bit integer type: an
/// int64 value beyond +-2^53, which a double cannot hold exactly, is refused rather than
/// rounded. A `comment orbis_layer ELEMENT NAME TYPE` line per layer records what PLY cannot say
/// (bool, int64, which components form a vector), so load_ply restores the exact layer types;
/// other readers ignore comments. Layer settings (initial value, range, modes) are not written.
/// Edge layers and Dict layers are not written: PLY has no element for edges of this mesh and
/// no place for unstructured data (use the world file for a full save).
/// \throws File_error naming the layer when a layer name cannot be a PLY property name (empty,
/// spaces, control characters), when two layers would give the same property name or one would
/// take `x`, `y`, `z`, `vertex_indices` or the name `position`, when an int64 value does not fit
/// a double, or when the file cannot be written.
void save_ply(const World& world, const std::filesystem::path& path,
              const Ply_save_options& options = {});

/// The PLY bytes save_ply would write. \throws File_error as save_ply (with "<memory>" as the
/// file).
std::vector<std::byte> write_ply(const World& world,
                                 Ply_format format = Ply_format::binary_little_endian);

/// Reads a triangle mesh (closed, with boundary, or only points) into a new World.
///
/// Elements: `vertex` (needs scalar `x`, `y`, `z`, which go into orbis::position_layer as float)
/// and `face` (the list `vertex_indices` or `vertex_index`, any integer types); other elements
/// and list properties other than the corners are read past and dropped. Every PLY scalar type
/// and alias is read (char/int8, uchar/uint8, short/int16, ushort/uint16, int/int32,
/// uint/uint32, float/float32, double/float64). Other scalar vertex and face properties become
/// layers with default settings, named as save_ply names them: with Orbis's `orbis_layer`
/// comments the exact layer types come back; otherwise `NAME_x`, `NAME_y` (, `NAME_z`
/// (, `NAME_w`)) of float or double type regroup into a vec2/3/4 layer `NAME` (dvec when any is
/// double) and lone properties map by type: char, uchar, short, ushort, int -> int32,
/// uint -> uint32, float -> float, double -> double. Vertex i of the file is Vertex(i); face i
/// is Face(i) when build_from_face_soup takes its bulk path (closed or disc-like manifold input),
/// else faces are numbered in the order they could be added; face layers follow the faces
/// either way.
///
/// Refused with File_error: faces with more or fewer than three corners (naming the face),
/// corners that are not vertices, non-manifold input (a third face on an edge, a face against
/// its neighbours' orientation, a repeated face or corner: naming the face, its corners and
/// the face in the way; fans of faces that meet only at a vertex: naming the vertex and the
/// faces of each fan), two properties that would make layers of the same name (layer names
/// are unique in a World: e.g. a vertex and a face property `quality`, or `a` next to
/// `a_x, a_y`), truncated data, numbers that are not numbers of their type, counts larger than
/// the remaining bytes can hold (checked before anything is allocated for them), and ASCII text
/// after the last element. Trailing bytes after binary data are ignored.
/// \throws File_error naming the file and the element (`vertex 12`, `face 7 (line 40)`),
/// header line or property that is wrong.
World load_ply(const std::filesystem::path& path);

/// load_ply on bytes in memory; `name` stands for the file in messages.
World read_ply(std::span<const std::byte> bytes, const std::string& name = "<memory>");

} // namespace orbis::io
