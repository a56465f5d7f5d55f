// SPDX-License-Identifier: MIT
// Splitting a pass over many elements between a few threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace orbis::render::detail {

/// Runs f(first, last) on disjoint parts of [0, n), on up to eight threads (one below 2^16
/// elements); rethrows the first exception a part threw, after every part ended. The view's
/// builds are bound by memory latency (ring walks) and page faults on fresh output, both of
/// which overlap well across cores.
template <class F>
void in_parallel(std::size_t n, F&& f) {
    constexpr std::size_t min_part = 1u << 16;
    if (n < min_part) {
        // Small passes (an edit's) ask nothing: hardware_concurrency() reads a file each call.
        f(std::size_t{0}, n);
        return;
    }
    const std::size_t threads = std::clamp<std::size_t>(
        std::min<std::size_t>(std::thread::hardware_concurrency(), 8), 1, n / min_part + 1);
    if (threads == 1) {
        f(std::size_t{0}, n);
        return;
    }
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        pool.emplace_back([&f, &errors, t, threads, n] {
            try {
                f(n * t / threads, n * (t + 1) / threads);
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
    }
    for (auto& thread : pool)
        thread.join();
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

} // namespace orbis::render::detail
