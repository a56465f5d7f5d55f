// SPDX-License-Identifier: MIT
// Private to orbis::io (PLY and OBJ readers): turning the triangles read from a file into a mesh,
// or into a File_error that names the faces that make the input non-manifold.
#pragma once

#include "orbis/core/face_soup.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>

namespace orbis::io::detail {

/// Builds the mesh of `triangles` on vertices 0..vertex_count-1 with build_from_face_soup.
/// Faces that can never be added (a third face on an edge, a face oriented against its
/// neighbours, a duplicate, a repeated corner) and vertices where fans of faces meet at a point
/// only (a "bow-tie") are refused with a File_error about `file` whose part names the first
/// offending face and whose problem names the faces involved with their corners.
/// `face_name(i)` names input face i in messages ("face 7", "face 7 (line 12)").
/// Precondition: every corner is below vertex_count (the readers check it while reading).
Face_soup_result build_mesh_checked(const std::filesystem::path& file, std::uint32_t vertex_count,
                                    std::span<const Triangle> triangles,
                                    const std::function<std::string(std::size_t)>& face_name);

} // namespace orbis::io::detail
