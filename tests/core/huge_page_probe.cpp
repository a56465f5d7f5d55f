// SPDX-License-Identifier: MIT
// For huge_page_malloc_test: restarts as an Orbis program does, then prints what the restarted
// process sees: its arguments, GLIBC_TUNABLES, and the memory malloc backed with huge pages.
#include <orbis/core/huge_page_malloc.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
    orbis::use_huge_page_malloc(argv);
    for (int i = 1; i < argc; ++i)
        std::printf("arg %s\n", argv[i]);
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    std::printf("tunables %s\n", tunables ? tunables : "(unset)");
    // 64 MiB from malloc, touched: with huge pages, some of it shows as AnonHugePages.
    constexpr std::size_t bytes = std::size_t{64} << 20;
    auto* block = static_cast<char*>(std::malloc(bytes));
    if (!block) return 1;
    std::memset(block, 1, bytes);
    std::ifstream smaps("/proc/self/smaps_rollup");
    for (std::string line; std::getline(smaps, line);)
        if (line.rfind("AnonHugePages:", 0) == 0) std::printf("%s\n", line.c_str());
    std::printf("checksum %d\n", int(block[bytes - 1]));
    std::free(block);
    return 0;
}
