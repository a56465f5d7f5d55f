// SPDX-License-Identifier: MIT
// Run memory: what a module may keep from one run to the next so that, on the same mesh, the
// next run redoes only what its changed inputs reach. The editor's live water re-runs climate
// after every brush stroke; a stroke changes a few thousand vertices of millions, and most of
// a run's work (numbering, adjacency, winds) depends only on the mesh.
#pragma once

#include "orbis/core/chunked_array.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>

namespace orbis::gen {

namespace detail {
inline std::atomic<std::uint32_t> run_memory_limit{0};
} // namespace detail

/// Largest world, in live vertices, for which modules that can keep a run's work for the next
/// run do so (climate); 0, the default, keeps nothing. The kept state costs about 170 bytes a
/// vertex, which is why one-shot pipelines (orbis-cli) leave it off and the editor sets a
/// limit. Results are the same bytes with and without it.
inline std::uint32_t run_memory_limit() {
    return detail::run_memory_limit.load(std::memory_order_relaxed);
}

/// Sets run_memory_limit() for runs that start afterwards, process-wide; modules drop what
/// they kept at their next run once their world is above it.
inline void set_run_memory_limit(std::uint32_t vertices) {
    detail::run_memory_limit.store(vertices, std::memory_order_relaxed);
}

/// Where a module keeps the state of its last run (run memory): the state leaves it while a run
/// uses it, so that a run that stops halfway (an exception, a cancellation) drops it rather
/// than leave it half updated, and two runs at once never share it (the second runs whole).
template <class State>
class Kept_state {
public:
    /// The kept state, now the caller's, or null when there is none.
    std::unique_ptr<State> take() const {
        const std::lock_guard lock(mutex_);
        return std::move(state_);
    }
    /// Keeps `state` for the next run.
    void put(std::unique_ptr<State> state) const {
        const std::lock_guard lock(mutex_);
        state_ = std::move(state);
    }

private:
    mutable std::mutex mutex_;
    mutable std::unique_ptr<State> state_;
};

/// Compares a layer's values with `kept` (a copy of them as of the kept run, at least as many
/// values as the layer has slots, of any type of the same size: bytes for a bool layer) and,
/// for each value whose bytes differ, calls
/// changed(index, kept value, current value) and then updates kept[index]. Whole chunks that
/// match cost one memcmp. `changed` may throw; kept is then partly updated.
template <class Layer, class T, class Changed>
void update_changed(const Layer& layer, T* kept, Changed&& changed) {
    static_assert(std::is_trivially_copyable_v<T>, "values are compared byte by byte");
    constexpr std::size_t chunk = Chunked_array<typename Layer::value_type>::chunk_size;
    for (std::size_t c = 0; c < layer.chunk_count(); ++c) {
        const auto values = layer.chunk(c);
        static_assert(sizeof(values[0]) == sizeof(T));
        T* was = kept + c * chunk;
        if (std::memcmp(values.data(), was, values.size_bytes()) == 0) continue;
        for (std::size_t i = 0; i < values.size(); ++i)
            if (std::memcmp(&values[i], was + i, sizeof(T)) != 0) {
                T now;
                std::memcpy(&now, &values[i], sizeof(T));
                changed(c * chunk + i, was[i], now);
                was[i] = now;
            }
    }
}

} // namespace orbis::gen
