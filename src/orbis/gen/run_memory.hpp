// SPDX-License-Identifier: MIT
// Run memory: what a module may keep from one run to the next so that, on the same mesh, the
// next run redoes only what its changed inputs reach. The editor's live water re-runs climate
// after every brush stroke; a stroke changes a few thousand vertices of millions, and most of
// a run's work (numbering, adjacency, winds) depends only on the mesh.
#pragma once

#include <atomic>
#include <cstdint>

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

} // namespace orbis::gen
