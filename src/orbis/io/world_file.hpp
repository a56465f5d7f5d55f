// SPDX-License-Identifier: MIT
// The native world file (.orbis): everything in a World, so that save -> load gives an equal
// World, and nothing trusted on load before it is checked. The format is in
// docs/file-format.md.
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/io/atomic_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

namespace orbis::io {

/// The format version this library writes, and the newest it reads.
inline constexpr std::uint32_t world_format_version = 2;

/// Options for save_world.
struct World_save_options {
    bool compress = false;     ///< zstd-compress each section (smaller, slower)
    int level = 1;             ///< zstd level when compressing (1 = fastest)
    Sync sync = Sync::full;    ///< see write_file_atomically
    Write_progress progress{}; ///< hears how far the write got (see write_file_atomically)
};

/// One section of a world file as its table describes it.
struct World_file_section {
    std::string kind;             ///< "mesh", "layer", "dict", "random", "hints" or "provenance"
    std::string name;             ///< the layer's or dict's name; empty for the others
    std::uint64_t stored_bytes{}; ///< bytes in the file
    std::uint64_t raw_bytes{};    ///< bytes after decompression
    bool compressed = false;      ///< zstd
};

/// What a world file holds, read from its header and table (checksums verified).
struct World_file_info {
    std::uint32_t version{};                  ///< format version
    std::uint64_t file_bytes{};               ///< file size
    std::vector<World_file_section> sections; ///< in file order
};

/// Writes `world` to `path` atomically (the old file survives any failure).
/// \throws File_error; Layer_error when a lock is open.
void save_world(const World& world, const std::filesystem::path& path,
                const World_save_options& options = {});

/// The bytes save_world writes.
std::vector<std::byte> write_world(const World& world, const World_save_options& options = {});

/// Reads a world file, checking everything before trusting it: magic, version, sizes against
/// the file's length, checksums, every id, the mesh's invariants, layer sizes against the
/// mesh, settings against the value types. \throws File_error naming the file, the section
/// and the problem; a newer format version is refused naming the version the file needs.
World load_world(const std::filesystem::path& path);

/// load_world on bytes in memory; `name` stands for the file in messages.
World read_world(std::span<const std::byte> bytes, const std::filesystem::path& name = "<memory>");

/// A coarse sample of a world file's vertices: enough for a picture while the file loads.
struct World_preview {
    std::vector<glm::vec3> positions; ///< every k-th live vertex's position, in slot order
    std::vector<double> values;       ///< the asked layer's value at each; empty: not read
    bool integer_values = false;      ///< the asked layer holds int32 (categories), not reals
    std::map<std::string, Layer_hints, std::less<>> hints; ///< the file's display hints
    std::uint64_t vertex_slots = 0;                        ///< vertex slots in the file
};

/// Every k-th live vertex of the world file at `path`, k chosen so that at most about
/// `max_points` come back, with its value in vertex layer `layer` when that holds float,
/// double or int32 values (other layers, or none of that name: no values).
///
/// Not a load: the header and section table are checked, the sections' checksums and the mesh
/// are not, so a damaged file can give wrong points, non-finite ones among them; draw them,
/// never trust them. nullopt when the file has no cheap preview (a compressed mesh or position
/// section, no `position` layer of vec3) or cannot be read; never throws. Cost: reads the
/// vertex array, the positions and the layer's values in 1 MiB blocks (about 20 bytes a
/// vertex slot from the page cache), whatever k is.
std::optional<World_preview> read_world_preview(const std::filesystem::path& path,
                                                std::size_t max_points, std::string_view layer);

/// The header and section table of a world file (checksums of the table and every section
/// verified, contents not parsed). \throws File_error.
World_file_info inspect_world(const std::filesystem::path& path);

} // namespace orbis::io
