// SPDX-License-Identifier: MIT
#include "orbis/io/atomic_file.hpp"

#include "orbis/io/file_error.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <utility>

#include <climits>
#include <cstdio>
#include <fcntl.h>
#include <vector>

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace orbis::io {

namespace {

std::string system_reason(int error) { return std::strerror(error); }

// Closes a descriptor and removes the temporary file unless it was committed.
class Temporary {
public:
    Temporary(std::filesystem::path path, int fd)
        : path_(std::move(path))
        , fd_(fd) {}
    Temporary(const Temporary&) = delete;
    Temporary& operator=(const Temporary&) = delete;
    ~Temporary() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(path_.c_str());
    }
    int fd() const { return fd_; }
    int close() {
        const int r = ::close(fd_);
        fd_ = -1;
        return r;
    }
    void commit() { committed_ = true; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    int fd_;
    bool committed_ = false;
};

// Swaps two names atomically where the system can (Linux 3.15, most local file systems).
// Used instead of a rename over the target when the caller does not sync: ext4 treats a rename
// that replaces a file as a request to start writing the new file out at once (its
// auto_da_alloc safeguard for programs that forget fsync), which made a save wait for the
// disk it had asked not to wait for. An exchange is as atomic for the target.
bool exchange(const std::filesystem::path& a, const std::filesystem::path& b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0;
#else
    (void)a;
    (void)b;
    return false;
#endif
}

} // namespace

void write_file_atomically(const std::filesystem::path& path,
                           std::span<const std::span<const std::byte>> pieces, Sync sync,
                           const Write_progress& progress) {
    const std::filesystem::path folder =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw File_error(path, "", "is a folder, not a file");
    // A unique name beside the target, so the rename stays within one file system.
    std::random_device random;
    int fd = -1;
    std::filesystem::path temporary;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        std::string name = ".";
        name += path.filename().string();
        name += ".tmp-";
        name += std::to_string(random());
        name += '-';
        name += std::to_string(::getpid());
        temporary = folder / name;
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            throw File_error(path, "",
                             "cannot create a temporary file in " + folder.string() + ": " +
                                 system_reason(errno));
    }
    if (fd < 0) throw File_error(path, "", "cannot find a free temporary file name");
    Temporary file(temporary, fd);
    // Keep the permissions of the file being replaced.
    struct stat old {};
    if (::stat(path.c_str(), &old) == 0) (void)::fchmod(file.fd(), old.st_mode & 07777);

    // writev in batches: a world file is thousands of chunks, one system call each would
    // cost more than the copying.
    std::vector<iovec> batch;
    std::size_t next = 0;
    std::uint64_t total = 0;
    std::uint64_t written = 0;
    if (progress) {
        for (const auto& p : pieces)
            total += p.size();
        progress(0, total);
    }
    while (next < pieces.size()) {
        batch.clear();
        for (; next < pieces.size() && batch.size() < IOV_MAX; ++next)
            if (!pieces[next].empty())
                batch.push_back({const_cast<std::byte*>(pieces[next].data()), pieces[next].size()});
        std::size_t first = 0;
        while (first < batch.size()) {
            const ssize_t n =
                ::writev(file.fd(), batch.data() + first, static_cast<int>(batch.size() - first));
            if (n < 0) {
                if (errno == EINTR) continue;
                throw File_error(path, "",
                                 "cannot write: " + system_reason(errno) +
                                     " (the existing file is unchanged)");
            }
            // Skip what was written, possibly part of a piece.
            auto done = static_cast<std::size_t>(n);
            written += done;
            if (progress) progress(written, total);
            while (first < batch.size() && done >= batch[first].iov_len)
                done -= batch[first++].iov_len;
            if (first < batch.size()) {
                batch[first].iov_base = static_cast<std::byte*>(batch[first].iov_base) + done;
                batch[first].iov_len -= done;
            }
        }
    }
    if (sync == Sync::full && ::fsync(file.fd()) != 0)
        throw File_error(path, "",
                         "cannot flush to disk: " + system_reason(errno) +
                             " (the existing file is unchanged)");
    if (file.close() != 0)
        throw File_error(path, "",
                         "cannot close: " + system_reason(errno) +
                             " (the existing file is unchanged)");
    if (sync == Sync::none && exchange(temporary, path)) {
        // The old file now has the temporary name; removing it can only fail to tidy up.
        (void)::unlink(temporary.c_str());
    } else if (::rename(temporary.c_str(), path.c_str()) != 0) {
        throw File_error(path, "",
                         "cannot replace the file: " + system_reason(errno) +
                             " (the existing file is unchanged)");
    }
    file.commit();
    if (sync == Sync::full) {
        // The rename itself reaches the disk only when the folder is synced.
        const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0) {
            (void)::fsync(dir);
            ::close(dir);
        }
    }
}

namespace {
constexpr std::size_t huge_page = std::size_t{2} << 20;
} // namespace

File_bytes::File_bytes(std::size_t size)
    : size_(size) {
    if (size < huge_page) {
        data_ = new std::byte[size];
        return;
    }
    // A fresh anonymous mapping arrives zeroed from the kernel, so nothing is filled twice,
    // and starts on a huge page so that the kernel can back it with huge pages.
    const std::size_t rounded = (size + huge_page - 1) / huge_page * huge_page;
    mapped_ = rounded + huge_page;
    mapping_ = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping_ == MAP_FAILED) {
        mapping_ = nullptr;
        throw std::bad_alloc();
    }
    const auto address = reinterpret_cast<std::uintptr_t>(mapping_);
    data_ = static_cast<std::byte*>(mapping_) + (huge_page - address % huge_page) % huge_page;
    ::madvise(data_, rounded, MADV_HUGEPAGE); // advice only: failure changes nothing
}

File_bytes::File_bytes(File_bytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr))
    , size_(std::exchange(other.size_, 0))
    , mapping_(std::exchange(other.mapping_, nullptr))
    , mapped_(std::exchange(other.mapped_, 0)) {}

File_bytes& File_bytes::operator=(File_bytes&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        mapping_ = std::exchange(other.mapping_, nullptr);
        mapped_ = std::exchange(other.mapped_, 0);
    }
    return *this;
}

File_bytes::~File_bytes() { release(); }

void File_bytes::release() noexcept {
    if (mapping_)
        ::munmap(mapping_, mapped_);
    else
        delete[] data_;
    data_ = nullptr;
    mapping_ = nullptr;
    size_ = mapped_ = 0;
}

File_bytes read_file(const std::filesystem::path& path, std::size_t max_bytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw File_error(path, "", "cannot open: " + system_reason(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw File_error(path, "", "cannot stat: " + system_reason(errno));
    if (S_ISDIR(st.st_mode)) throw File_error(path, "", "is a folder, not a file");
    if (!S_ISREG(st.st_mode)) throw File_error(path, "", "is not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        throw File_error(path, "", "is larger than " + std::to_string(max_bytes) + " bytes");
    File_bytes bytes(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw File_error(path, "", "cannot read: " + system_reason(errno));
        }
        if (n == 0) break; // shrank while reading
        done += static_cast<std::size_t>(n);
    }
    bytes.shrink(done);
    return bytes;
}

} // namespace orbis::io
