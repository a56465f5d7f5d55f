// SPDX-License-Identifier: MIT
// Working arrays of generation passes that write every element before reading it: resizing
// them leaves the values uninitialised, so a 10-million-element array is touched once (by the
// pass, possibly on two threads) instead of being zero-filled on one thread first.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace orbis::gen {

/// std::allocator whose value-initialising construct() default-initialises instead, so that
/// resize(n) leaves trivial values (numbers, glm vectors) unset; other constructions as usual.
template <class T>
struct Uninitialized_allocator : std::allocator<T> {
    /// The same allocator for another value type (containers ask for it).
    template <class U>
    struct rebind {
        /// The allocator for U.
        using other = Uninitialized_allocator<U>;
    };
    Uninitialized_allocator() = default;
    /// Converts from the allocator of another value type (stateless).
    template <class U>
    explicit Uninitialized_allocator(const Uninitialized_allocator<U>&) noexcept {}
    /// Default-initialises *p: no write for trivial types.
    template <class U>
    void construct(U* p) noexcept(noexcept(::new (static_cast<void*>(p)) U)) {
        ::new (static_cast<void*>(p)) U;
    }
    /// Constructs *p from `args`.
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

/// Asks the kernel to back the whole 2 MiB pages inside [data, data + bytes) with huge pages
/// when they are first touched (Linux with transparent huge pages in "madvise" mode; no effect
/// elsewhere or for less than 2 MiB). Worth it for arrays of tens of megabytes read in
/// scattered order (graph walks), where 4 KiB pages miss the TLB on nearly every access.
/// Call it before the memory is first written: pages already touched stay small.
void advise_huge_pages(const void* data, std::size_t bytes) noexcept;

/// advise_huge_pages on the capacity of `v` (reserve first, then write).
template <class V>
void advise_huge_pages(const V& v) noexcept {
    advise_huge_pages(v.data(), v.capacity() * sizeof(typename V::value_type));
}

/// A vector whose resize() does not initialise trivial values; write before reading.
template <class T>
using Scratch_vector = std::vector<T, Uninitialized_allocator<T>>;

} // namespace orbis::gen
