// SPDX-License-Identifier: MIT
// Splitting a per-vertex pass over two threads. Generation must give the same world on any
// machine and thread count, so the helper only splits an index range into contiguous parts;
// the body must write disjoint data and combine nothing across parts in a way that depends on
// the split (no floating-point sums across parts).
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>

namespace orbis::gen {

/// Below this many items a pass runs on the calling thread: starting a thread costs more.
inline constexpr std::uint32_t parallel_ranges_threshold = 1u << 16;

/// Calls body(begin, end, part) for contiguous parts covering [0, n), part 0 on the calling
/// thread and part 1 (if any) on a second thread; two parts when n >= max(threshold, 2) and
/// the machine has more than one core, else one. Rethrows the first exception a part threw.
/// Precondition: body's parts write disjoint data.
template <class Body>
void parallel_ranges(std::uint32_t n, Body&& body,
                     std::uint32_t threshold = parallel_ranges_threshold) {
    const bool split = n >= std::max(threshold, 2u) && std::thread::hardware_concurrency() > 1;
    if (!split) {
        body(std::uint32_t{0}, n, 0u);
        return;
    }
    const std::uint32_t middle = n / 2;
    std::exception_ptr second_error;
    std::thread second([&] {
        try {
            body(middle, n, 1u);
        } catch (...) {
            second_error = std::current_exception();
        }
    });
    std::exception_ptr first_error;
    try {
        body(std::uint32_t{0}, middle, 0u);
    } catch (...) {
        first_error = std::current_exception();
    }
    second.join();
    if (first_error) std::rethrow_exception(first_error);
    if (second_error) std::rethrow_exception(second_error);
}

} // namespace orbis::gen
