// SPDX-License-Identifier: MIT
// Writing a file so that the old one survives any failure: a temporary file in the same
// folder, flushed and synced, then renamed over the target.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <vector>

namespace orbis::io {

/// Whether a save waits for the data to reach the disk.
enum class Sync {
    full, ///< fsync the file before the rename and the folder after it (survives power loss)
    none, ///< leave flushing to the kernel (survives a crash of the process, not of the machine)
};

/// Replaces `path` with `pieces` written one after another. The target is never half-written:
/// the bytes go to a temporary file beside it, which is renamed over the target only when
/// everything was written (and synced, with Sync::full); on any failure the temporary file is
/// removed and the target is left as it was. \throws File_error naming the path and the
/// system's reason (no space, no permission, ...).
void write_file_atomically(const std::filesystem::path& path,
                           std::span<const std::span<const std::byte>> pieces,
                           Sync sync = Sync::full);

/// Reads the whole of `path`. Refuses directories, files that are not regular and files
/// larger than `max_bytes`. \throws File_error.
std::vector<std::byte> read_file(const std::filesystem::path& path,
                                 std::size_t max_bytes = std::size_t{1} << 40);

} // namespace orbis::io
