// SPDX-License-Identifier: MIT
// Splitting generation passes over two threads. Generation must give the same world on any
// machine and thread count, so the helpers only split an index range into contiguous parts or
// run independent tasks side by side; the bodies must write disjoint data and combine nothing
// across parts in a way that depends on the split (no floating-point sums across parts).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "orbis/core/chunked_array.hpp"

namespace orbis::gen {

/// Below this many items a pass runs on the calling thread: starting a thread costs more.
inline constexpr std::uint32_t parallel_ranges_threshold = 1u << 16;

/// How generation passes use threads. Results never depend on it (the tests check that worlds
/// are byte-identical with 1 and 2 threads); only the time does.
struct Parallel_settings {
    /// 1 or 2; the default is 2 on a machine with more than one core.
    unsigned threads = 2;
    /// A pass over fewer items stays on one thread (at least 2); a pass that asks for a lower
    /// threshold of its own gets the lower one. Tests set 2 so that small worlds split too.
    std::uint32_t min_items = parallel_ranges_threshold;
};

namespace detail {
inline std::atomic<unsigned> parallel_threads{std::thread::hardware_concurrency() > 1 ? 2u : 1u};
inline std::atomic<std::uint32_t> parallel_min_items{parallel_ranges_threshold};
} // namespace detail

/// The settings every generation pass reads when it starts.
inline Parallel_settings parallel_settings() {
    return {.threads = detail::parallel_threads.load(std::memory_order_relaxed),
            .min_items = detail::parallel_min_items.load(std::memory_order_relaxed)};
}

/// Changes the settings for passes that start afterwards, process-wide (threads clamped to
/// [1, 2], min_items to at least 2). Meant for command-line options and tests, not to be
/// changed while a pipeline runs on another thread.
inline void set_parallel_settings(const Parallel_settings& settings) {
    detail::parallel_threads.store(std::clamp(settings.threads, 1u, 2u), std::memory_order_relaxed);
    detail::parallel_min_items.store(std::max(settings.min_items, 2u), std::memory_order_relaxed);
}

/// How many parts (1 or 2) a pass over n items is split into: 2 when parallel_settings() allows
/// two threads and n >= min(threshold, its min_items). For passes done by code below gen that
/// takes a thread count (build_from_closed_triangulation).
inline unsigned parallel_parts(std::uint32_t n,
                               std::uint32_t threshold = parallel_ranges_threshold) {
    const Parallel_settings settings = parallel_settings();
    return settings.threads > 1 && n >= std::max(std::min(threshold, settings.min_items), 2u) ? 2
                                                                                              : 1;
}

/// Calls body(begin, end, part) for contiguous parts covering [0, n), part 0 on the calling
/// thread and part 1 (if any) on a second thread; two parts when parallel_settings() allows
/// two threads and n >= min(threshold, its min_items), else one part. Rethrows part 0's
/// exception first, then part 1's, so the error of the lowest index wins when each part stops
/// at its first. Precondition: body's parts write disjoint data.
template <class Body>
void parallel_ranges(std::uint32_t n, Body&& body,
                     std::uint32_t threshold = parallel_ranges_threshold) {
    if (parallel_parts(n, threshold) < 2) {
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

/// Runs task(0) .. task(count - 1), each once: on the calling thread and a second one that take
/// the next task in index order as they finish (list long tasks first), or all on the calling
/// thread in order when parallel_settings() allows one thread. Rethrows the exception of the
/// lowest-numbered task that threw; the others still run. Precondition: tasks write disjoint
/// data.
template <class Task>
void parallel_tasks(std::uint32_t count, Task&& task) {
    std::atomic<std::uint32_t> next{0};
    std::exception_ptr errors[2];
    std::uint32_t error_task[2] = {UINT32_MAX, UINT32_MAX};
    const auto work = [&](unsigned worker) {
        for (std::uint32_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
            try {
                task(i);
            } catch (...) {
                if (i < error_task[worker]) {
                    error_task[worker] = i;
                    errors[worker] = std::current_exception();
                }
            }
        }
    };
    if (parallel_settings().threads < 2 || count < 2) {
        work(0);
        if (errors[0]) std::rethrow_exception(errors[0]);
        return;
    }
    std::thread second([&] { work(1); });
    work(0);
    second.join();
    const unsigned first = error_task[0] < error_task[1] ? 0 : 1;
    if (errors[first]) std::rethrow_exception(errors[first]);
}

/// Calls fill(first_index, chunk) for every chunk of the layer that `out` (a World layer lock)
/// holds, on two threads for layers of more than 16 chunks. The chunks are taken for writing
/// on the calling thread first (the layer's copy-on-write bookkeeping is not for two threads),
/// so every chunk becomes the layer's own, changed or not. Precondition: fill writes only its
/// chunk.
template <class Lock, class Fill>
void parallel_chunks(Lock& out, Fill&& fill) {
    using T = typename Lock::layer_type::value_type;
    const std::size_t count = out.layer().chunk_count();
    std::vector<std::span<T>> chunks(count);
    for (std::size_t c = 0; c < count; ++c)
        chunks[c] = out.chunk(c);
    parallel_ranges(
        static_cast<std::uint32_t>(count),
        [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            for (std::uint32_t c = begin; c < end; ++c)
                fill(std::size_t{c} * Chunked_array<T>::chunk_size, chunks[c]);
        },
        16);
}

/// The new values of the chunks of a layer that fill(first_index, values) changes: fill writes
/// into a copy of each chunk's current values (values it leaves alone, such as dead slots, keep
/// theirs), and a chunk whose bytes come out the same gets no entry (a null pointer). Reads
/// only, on two threads; write_changed_chunks then writes what it found. Arrays rather than
/// vectors, because std::vector<bool> is not an array of bool.
template <class Layer, class Fill>
std::vector<std::unique_ptr<typename Layer::value_type[]>> changed_chunks(const Layer& layer,
                                                                          Fill&& fill) {
    using T = typename Layer::value_type;
    static_assert(std::is_trivially_copyable_v<T>, "chunks are compared byte by byte");
    const std::size_t count = layer.chunk_count();
    std::vector<std::unique_ptr<T[]>> changed(count);
    parallel_ranges(
        static_cast<std::uint32_t>(count),
        [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            std::unique_ptr<T[]> values;
            for (std::uint32_t c = begin; c < end; ++c) {
                const std::span<const T> now = layer.chunk(c);
                if (!values)
                    values = std::make_unique_for_overwrite<T[]>(Chunked_array<T>::chunk_size);
                std::copy(now.begin(), now.end(), values.get());
                fill(std::size_t{c} * Chunked_array<T>::chunk_size,
                     std::span<T>(values.get(), now.size()));
                if (std::memcmp(values.get(), now.data(), now.size_bytes()) != 0)
                    changed[c] = std::move(values);
            }
        },
        16);
    return changed;
}

/// Whether changed_chunks found anything to write.
template <class T>
bool any_changed(const std::vector<std::unique_ptr<T[]>>& changed) {
    for (const auto& c : changed)
        if (c) return true;
    return false;
}

/// Writes the chunks changed_chunks found through `out`, a lock on the same layer (unchanged
/// since): only those chunks are taken for writing, so the rest stay shared with snapshots.
template <class Lock, class T>
void write_changed_chunks(Lock& out, const std::vector<std::unique_ptr<T[]>>& changed) {
    for (std::size_t c = 0; c < changed.size(); ++c)
        if (changed[c]) {
            const auto chunk = out.chunk(c);
            std::copy_n(changed[c].get(), chunk.size(), chunk.begin());
        }
}

/// changed_chunks and write_changed_chunks on a locked layer: an undo step after a run that
/// changed a region holds that region's chunks and not a copy of the whole layer. Cost: a copy
/// and a comparison per chunk, on two threads.
template <class Lock, class Fill>
void parallel_changed_chunks(Lock& out, Fill&& fill) {
    write_changed_chunks(out, changed_chunks(out.layer(), std::forward<Fill>(fill)));
}

} // namespace orbis::gen
