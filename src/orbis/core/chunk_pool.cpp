// SPDX-License-Identifier: MIT
#include "orbis/core/chunk_pool.hpp"

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace orbis::detail {

namespace {

constexpr std::size_t arena_bytes = std::size_t{32} << 20;
constexpr std::size_t huge_page = std::size_t{2} << 20;

struct Pool {
    std::mutex mutex;
    std::unordered_map<std::size_t, std::vector<void*>> free_chunks; // by chunk size
    char* next = nullptr;                                            // bump pointer
    char* end = nullptr;
    std::size_t in_use = 0;

    void new_arena() {
#if defined(__linux__)
        // Reserve one huge page more than needed so the arena can start on a huge-page boundary.
        void* raw = mmap(nullptr, arena_bytes + huge_page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (raw == MAP_FAILED) throw std::bad_alloc();
        auto start = (reinterpret_cast<std::uintptr_t>(raw) + huge_page - 1) & ~(huge_page - 1);
        next = reinterpret_cast<char*>(start);
        madvise(next, arena_bytes, MADV_HUGEPAGE); // advice only: failure changes nothing
#else
        next = static_cast<char*>(std::aligned_alloc(huge_page, arena_bytes));
        if (!next) throw std::bad_alloc();
#endif
        end = next + arena_bytes;
    }
};

Pool& pool() {
    static Pool* p = new Pool; // never destroyed: chunks may outlive static destructors
    return *p;
}

} // namespace

void* allocate_chunk(std::size_t bytes) {
    assert(bytes > 0 && bytes <= (std::size_t{1} << 20));
    bytes = (bytes + 63) & ~std::size_t{63};
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    auto& list = p.free_chunks[bytes];
    p.in_use += bytes;
    if (!list.empty()) {
        void* chunk = list.back();
        list.pop_back();
        return chunk;
    }
    if (static_cast<std::size_t>(p.end - p.next) < bytes) {
        try {
            p.new_arena();
        } catch (...) {
            p.in_use -= bytes;
            throw;
        }
    }
    void* chunk = p.next;
    p.next += bytes;
    return chunk;
}

void release_chunk(void* chunk, std::size_t bytes) noexcept {
    if (!chunk) return;
    bytes = (bytes + 63) & ~std::size_t{63};
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    p.in_use -= bytes;
    try {
        p.free_chunks[bytes].push_back(chunk);
    } catch (...) {
        // Out of memory for the free list: the chunk is simply not reused.
    }
}

std::size_t chunk_bytes_in_use() noexcept {
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    return p.in_use;
}

} // namespace orbis::detail
