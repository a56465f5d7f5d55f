// SPDX-License-Identifier: MIT
// Atomic saves: the old file survives every failure, no temporary file is left behind.
#include <orbis/io/atomic_file.hpp>
#include <orbis/io/file_error.hpp>

#include <gtest/gtest.h>

#include <cstring>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <csignal>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace orbis::io {
namespace {

namespace fs = std::filesystem;

// A fresh, empty folder per test: pids are reused, and a folder named by pid alone could hold
// what an earlier process with the same pid left behind (the "no temporary file left" checks
// count the files in it).
fs::path scratch(const std::string& name) {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = fs::temp_directory_path() /
                         ("orbis_atomic_" + std::to_string(::getpid()) + "_" + test->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir / name;
}

std::span<const std::byte> bytes_of(const std::string& s) {
    return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

std::string contents(const fs::path& p) {
    const auto bytes = read_file(p);
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::size_t files_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}

TEST(AtomicFile, ProgressGrowsToTheWholeFile) {
    const fs::path p = scratch("progress.bin");
    // More pieces than one writev takes, so that progress is told more than once.
    std::vector<std::string> parts;
    for (int i = 0; i < 3000; ++i)
        parts.push_back(std::string(std::size_t(1 + i % 7), char('a' + i % 26)));
    std::vector<std::span<const std::byte>> pieces;
    std::uint64_t expected = 0;
    for (const auto& part : parts) {
        pieces.push_back(bytes_of(part));
        expected += part.size();
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> told;
    write_file_atomically(p, pieces, Sync::none, [&](std::uint64_t written, std::uint64_t total) {
        told.emplace_back(written, total);
    });
    ASSERT_GE(told.size(), 3u);
    EXPECT_EQ(told.front().first, 0u);
    EXPECT_EQ(told.back().first, expected);
    for (std::size_t i = 0; i < told.size(); ++i) {
        EXPECT_EQ(told[i].second, expected);
        if (i > 0) {
            EXPECT_GE(told[i].first, told[i - 1].first);
        }
    }
    EXPECT_EQ(contents(p).size(), expected);
}

TEST(AtomicFile, WritesAndReplaces) {
    const fs::path p = scratch("a.bin");
    const std::string one = "first", two = "second version";
    const std::span<const std::byte> a[] = {bytes_of(one)};
    write_file_atomically(p, a);
    EXPECT_EQ(contents(p), one);
    const std::span<const std::byte> b[] = {bytes_of(two), bytes_of(one)};
    write_file_atomically(p, b, Sync::none);
    EXPECT_EQ(contents(p), two + one);
    EXPECT_EQ(files_in(p.parent_path()), 1u); // no temporary file left
}

TEST(AtomicFile, LargeFilesReadBackExactly) {
    // Over 2 MiB, read_file reads into a huge-page mapping instead of new[].
    const fs::path p = scratch("large.bin");
    std::string data((std::size_t{5} << 20) + 17, '\0');
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<char>(i * 2654435761u >> 13);
    const std::span<const std::byte> pieces[] = {bytes_of(data)};
    write_file_atomically(p, pieces, Sync::none);
    File_bytes bytes = read_file(p);
    ASSERT_EQ(bytes.size(), data.size());
    EXPECT_EQ(std::memcmp(bytes.data(), data.data(), data.size()), 0);
    File_bytes moved = std::move(bytes);
    EXPECT_EQ(bytes.size(), 0u);
    EXPECT_EQ(contents(p), data);
}

TEST(AtomicFile, AFailedWriteLeavesTheOldFileIntact) {
    // Simulate a full disk: a file size limit makes write() fail with EFBIG part way through.
    const fs::path p = scratch("b.bin");
    const std::string old = "the user's hours of work";
    const std::span<const std::byte> a[] = {bytes_of(old)};
    write_file_atomically(p, a);
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, SIG_IGN);
    rlimit small = saved;
    small.rlim_cur = 4096;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::string big(100000, 'x');
    const std::span<const std::byte> b[] = {bytes_of(big)};
    try {
        write_file_atomically(p, b);
        ADD_FAILURE() << "the write did not fail";
    } catch (const File_error& x) {
        EXPECT_NE(std::string(x.what()).find("unchanged"), std::string::npos) << x.what();
        EXPECT_EQ(x.path(), p);
    }
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
    EXPECT_EQ(contents(p), old);
    for (const auto& e : fs::directory_iterator(p.parent_path()))
        EXPECT_FALSE(e.path().filename().string().starts_with(".b.bin.tmp-")) << e.path();
}

TEST(AtomicFile, AKilledSaveLeavesTheOldFileIntact) {
    // A child process starts saving a large file and is killed mid-write; the target keeps
    // its old content (at most a stray temporary file remains, never a torn target).
    const fs::path p = scratch("c.bin");
    const std::string old = "old content";
    const std::span<const std::byte> a[] = {bytes_of(old)};
    write_file_atomically(p, a);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const std::string big(std::size_t{1} << 20, 'y');
        std::vector<std::span<const std::byte>> pieces(4096, bytes_of(big)); // 4 GiB: never done
        try {
            write_file_atomically(p, pieces, Sync::none);
        } catch (...) {
        }
        _exit(0);
    }
    usleep(50 * 1000);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_EQ(contents(p), old);
    for (const auto& e : fs::directory_iterator(p.parent_path()))
        if (e.path().filename().string().starts_with(".c.bin.tmp-")) fs::remove(e.path());
}

TEST(AtomicFile, ReadRefusesFoldersAndMissingFilesWithTheirReason) {
    const fs::path dir = scratch("folder");
    fs::create_directories(dir);
    try {
        (void)read_file(dir);
        ADD_FAILURE();
    } catch (const File_error& x) {
        EXPECT_NE(std::string(x.what()).find("folder"), std::string::npos);
    }
    try {
        (void)read_file(dir.parent_path() / "missing.orbis");
        ADD_FAILURE();
    } catch (const File_error& x) {
        EXPECT_NE(std::string(x.what()).find("No such file"), std::string::npos) << x.what();
    }
    EXPECT_THROW(write_file_atomically(dir, {}), File_error);
}

} // namespace
} // namespace orbis::io
