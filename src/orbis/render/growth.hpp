// SPDX-License-Identifier: MIT
// Room for growth in the CPU arrays that in-place updates append to, as the GPU buffers have.
#pragma once

#include <cstddef>
#include <vector>

namespace orbis::render::detail {

/// Gives the empty `v` capacity for `n` elements and room for edits to append (an eighth more,
/// as Gl_renderer leaves in its buffers), unless it already has n and a sixteenth. Without
/// room, the first append after a full build moves the whole array to fresh memory: about half
/// a second for the triangles of a million-vertex world. The room is address space only until
/// appends write it. Precondition: `v` is empty (a build is about to fill it).
template <class T>
void reserve_with_room(std::vector<T>& v, std::size_t n) {
    if (v.capacity() >= n + n / 16) return;
    std::vector<T>().swap(v); // frees the old memory instead of copying it
    v.reserve(n + n / 8 + 4096);
}

} // namespace orbis::render::detail
