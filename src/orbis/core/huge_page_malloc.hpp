// SPDX-License-Identifier: MIT
// Asking glibc's malloc for transparent huge pages, process-wide. The generation passes
// allocate arrays of tens of megabytes per run; with 4 KiB pages each run pays a page fault
// per 4 KiB on first touch (on the virtual machines measured, a 1M-vertex `hydrology` or
// `climate` run spent half its time there) and a TLB miss on most scattered reads. glibc
// reads the setting only from the environment, before main, hence a restart.
#pragma once

namespace orbis {

/// Restarts this program in place (execv of /proc/self/exe: same process id, same arguments)
/// with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES, so that malloc advises the kernel to
/// back its memory with transparent huge pages. Does nothing, and returns, when
/// GLIBC_TUNABLES already mentions glibc.malloc.hugetlb (a restarted process, or the user's
/// own choice), when ORBIS_HUGE_PAGES is 0, when the kernel has transparent huge pages off,
/// under AddressSanitizer or ThreadSanitizer (their allocators ignore glibc's), or off Linux
/// with glibc; also returns, with the environment as it was, if the restart fails.
/// Call first thing in main(), before any thread starts; argv must end with a null pointer.
void use_huge_page_malloc(char** argv) noexcept;

} // namespace orbis
