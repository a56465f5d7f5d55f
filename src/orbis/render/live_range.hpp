// SPDX-License-Identifier: MIT
// The automatic colour range of a layer, kept per storage chunk so that after an edit only the
// chunks it touched are read again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace orbis {
class Layer_base;
class World;
struct World_delta;
} // namespace orbis

namespace orbis::render {

/// The smallest and largest finite component of the values of typed layer `name` over the
/// live elements of `world` (deleted slots, NaN and infinities are left out), or [0, 1] when
/// there is none: the automatic range of Colour_options. O(live elements).
/// \throws std::invalid_argument when `world` has no typed layer `name` or its size does not
/// match the mesh.
std::pair<double, double> live_range(const World& world, std::string_view name);

/// live_range() kept between calls, for views that follow edits.
///
/// It keeps per storage chunk of the layer (Chunked_array::chunk_size slots) the range of that
/// chunk's live values, and a snapshot of the World of its last call. Layers are copy-on-write
/// chunks, so a chunk that is the same memory as in the snapshot holds the same values (the
/// snapshot keeps it alive, so its address cannot be reused by another chunk); only chunks that
/// are not, and, when the mesh changed, the chunks of the elements a World_delta lists (whose
/// life may have changed) are read again. The result equals live_range() bit for bit.
class Live_range_cache {
public:
    /// live_range(world, name), reading again only the chunks of the layer that are not the
    /// memory they were at the last call, plus, when the mesh changed since, those holding the
    /// elements `delta` lists (which must then start at the last call's mesh: Delta_recorder's
    /// deltas list every element whose life changed, see World_delta). Every chunk is read for
    /// another layer than last time, a mesh change without such a delta, or a `world` with a
    /// lock open. Holds a snapshot of `world` until the next call or clear(): the World's next
    /// write to a chunk copies that chunk, as after any snapshot.
    /// Cost O(chunks + listed elements) plus O(chunk_size) per chunk read; O(1) when the mesh
    /// and the layer are the versions of the last call.
    /// \throws std::invalid_argument as live_range().
    std::pair<double, double> range(const World& world, std::string_view name,
                                    const World_delta* delta = nullptr);
    /// How many chunks the last range() call read (for tests and benchmarks).
    std::size_t last_chunks_read() const { return read_; }
    /// Forgets the snapshot and every chunk's range.
    void clear() { *this = Live_range_cache(); }

private:
    // One chunk's finite live extremes; lo > hi when it has none.
    struct Bounds {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -std::numeric_limits<double>::infinity();
        std::size_t slots = 0; // the chunk's slot count when read (the last chunk grows)
    };
    template <class T, auto Type>
    void update(const World& world, const Layer_base& layer, const World_delta* delta);

    std::shared_ptr<const World> snapshot_; // the World of the last call, nullptr: none
    std::string name_;
    std::uint64_t mesh_version_ = 0;
    std::uint64_t layer_version_ = 0;
    std::vector<Bounds> chunks_;
    std::pair<double, double> range_{0.0, 1.0};
    std::size_t read_ = 0;
};

} // namespace orbis::render
