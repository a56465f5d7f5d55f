// SPDX-License-Identifier: MIT
// Writing a file so that the old one survives any failure: a temporary file in the same
// folder, flushed and synced, then renamed over the target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

namespace orbis::io {

/// Whether a save waits for the data to reach the disk.
enum class Sync {
    full, ///< fsync the file before the rename and the folder after it (survives power loss)
    none, ///< leave flushing to the kernel (survives a crash of the process, not of the machine)
};

/// Told how far a write got: bytes written so far and in all. Called on the writing thread
/// between system calls (about every IOV_MAX pieces), so it must be cheap and thread-safe.
using Write_progress = std::function<void(std::uint64_t written, std::uint64_t total)>;

/// Replaces `path` with `pieces` written one after another. The target is never half-written:
/// the bytes go to a temporary file beside it, which is renamed over the target only when
/// everything was written (and synced, with Sync::full); on any failure the temporary file is
/// removed and the target is left as it was. \throws File_error naming the path and the
/// system's reason (no space, no permission, ...). `progress`, when set, hears how far the
/// write got.
void write_file_atomically(const std::filesystem::path& path,
                           std::span<const std::span<const std::byte>> pieces,
                           Sync sync = Sync::full, const Write_progress& progress = {});

/// A file's bytes, read into memory that was never zero-filled first (large files go to
/// huge pages where the system has them), so that reading costs one copy from the page cache.
class File_bytes {
public:
    /// No bytes.
    File_bytes() = default;
    /// Room for `size` bytes, not initialised. \throws std::bad_alloc.
    explicit File_bytes(std::size_t size);
    /// Takes the bytes over; `other` is left empty.
    File_bytes(File_bytes&& other) noexcept;
    /// Takes the bytes over.
    File_bytes& operator=(File_bytes&& other) noexcept;
    File_bytes(const File_bytes&) = delete;
    File_bytes& operator=(const File_bytes&) = delete;
    ~File_bytes();

    /// The bytes.
    std::byte* data() { return data_; }
    /// The bytes.
    const std::byte* data() const { return data_; }
    /// Number of bytes.
    std::size_t size() const { return size_; }
    /// Forgets the bytes after the first `n`. Precondition: `n <= size()`.
    void shrink(std::size_t n) { size_ = n; }
    /// All the bytes as a span.
    operator std::span<const std::byte>() const { return {data_, size_}; }

private:
    void release() noexcept;

    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    void* mapping_ = nullptr; // the mapping data_ lies in, or nothing when allocated with new
    std::size_t mapped_ = 0;  // the mapping's length
};

/// Reads the whole of `path`. Refuses directories, files that are not regular and files
/// larger than `max_bytes`. \throws File_error.
File_bytes read_file(const std::filesystem::path& path,
                     std::size_t max_bytes = std::size_t{1} << 40);

} // namespace orbis::io
