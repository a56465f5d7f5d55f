// SPDX-License-Identifier: MIT
#include "orbis/core/huge_page_malloc.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#if defined(__linux__) && defined(__GLIBC__)
#include <unistd.h>
#define ORBIS_CAN_RESTART 1
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#undef ORBIS_CAN_RESTART
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#undef ORBIS_CAN_RESTART
#endif
#endif

namespace orbis {

namespace {

constexpr const char* tunables_variable = "GLIBC_TUNABLES";
constexpr const char* hugetlb_tunable = "glibc.malloc.hugetlb";

// Whether the kernel hands out transparent huge pages at all ("always" or "madvise"). A kernel
// without the file (no THP support) counts as off.
[[maybe_unused]] bool kernel_has_huge_pages() {
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string modes{std::istreambuf_iterator<char>(file), {}};
    return !modes.empty() && modes.find("[never]") == std::string::npos;
}

} // namespace

void use_huge_page_malloc(char** argv) noexcept {
#if defined(ORBIS_CAN_RESTART)
    try {
        if (!argv || !argv[0]) return;
        if (const char* choice = std::getenv("ORBIS_HUGE_PAGES");
            choice && std::strcmp(choice, "0") == 0)
            return;
        const char* tunables = std::getenv(tunables_variable);
        if (tunables && std::strstr(tunables, hugetlb_tunable)) return;
        if (!kernel_has_huge_pages()) return;
        const std::string before = tunables ? tunables : "";
        const std::string after =
            (before.empty() ? std::string() : before + ":") + hugetlb_tunable + "=1";
        if (setenv(tunables_variable, after.c_str(), 1) != 0) return;
        execv("/proc/self/exe", argv);
        // Still here: the restart failed (no /proc, say). Go on with small pages, and leave
        // the environment as it was for the programs this one starts.
        if (tunables)
            setenv(tunables_variable, before.c_str(), 1);
        else
            unsetenv(tunables_variable);
    } catch (...) {
        // Out of memory building a short string: go on without huge pages.
    }
#else
    (void)argv;
#endif
}

} // namespace orbis
