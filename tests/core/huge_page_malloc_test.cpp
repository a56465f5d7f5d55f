// SPDX-License-Identifier: MIT
// orbis::use_huge_page_malloc, through a probe program (ORBIS_HUGE_PAGE_PROBE) that calls it
// first thing, as orbis and orbis-cli do, and prints what the restarted process sees.
#include <orbis/core/huge_page_malloc.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace {

// The probe's output when run with `environment` (assignments for env(1)) and two arguments,
// one with a space in it.
std::string run_probe(const std::string& environment) {
    const std::string command = "env -u GLIBC_TUNABLES -u ORBIS_HUGE_PAGES " + environment + " " +
                                ORBIS_HUGE_PAGE_PROBE + " first 'second one'";
    std::string out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[256];
        while (std::fgets(buffer, sizeof buffer, pipe))
            out += buffer;
        pclose(pipe);
    }
    return out;
}

// Whether this build and kernel restart at all (see the function's comment).
bool restarts() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__linux__) ||        \
    !defined(__GLIBC__)
    return false;
#else
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string modes{std::istreambuf_iterator<char>(file), {}};
    return !modes.empty() && modes.find("[never]") == std::string::npos;
#endif
}

TEST(HugePageMalloc, RestartsWithTheTunableAndTheSameArguments) {
    const std::string out = run_probe("");
    EXPECT_NE(out.find("arg first\narg second one\n"), std::string::npos) << out;
    EXPECT_NE(out.find("checksum 1"), std::string::npos) << out;
    if (restarts())
        EXPECT_NE(out.find("tunables glibc.malloc.hugetlb=1\n"), std::string::npos) << out;
    else
        EXPECT_NE(out.find("tunables (unset)\n"), std::string::npos) << out;
}

TEST(HugePageMalloc, KeepsTheUsersOtherTunables) {
    const std::string out = run_probe("GLIBC_TUNABLES=glibc.malloc.check=0");
    if (restarts())
        EXPECT_NE(out.find("tunables glibc.malloc.check=0:glibc.malloc.hugetlb=1\n"),
                  std::string::npos)
            << out;
    else
        EXPECT_NE(out.find("tunables glibc.malloc.check=0\n"), std::string::npos) << out;
}

TEST(HugePageMalloc, RespectsTheUsersChoice) {
    EXPECT_NE(run_probe("GLIBC_TUNABLES=glibc.malloc.hugetlb=0")
                  .find("tunables glibc.malloc.hugetlb=0\n"),
              std::string::npos);
    const std::string off = run_probe("ORBIS_HUGE_PAGES=0");
    EXPECT_NE(off.find("tunables (unset)\n"), std::string::npos) << off;
    EXPECT_NE(off.find("arg first\narg second one\n"), std::string::npos) << off;
}

} // namespace
