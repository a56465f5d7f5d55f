// SPDX-License-Identifier: MIT
// Named random streams for generation steps: a step draws one number from the World's generator
// and derives from it a stream per purpose, so that its parts do not share one sequence.
#pragma once

#include <cstdint>
#include <string_view>

namespace orbis {
class World;
}

namespace orbis::gen {

/// A small random stream (splitmix64) whose every output is fully specified, so the same seed
/// and tag give the same numbers on every platform (the standard distributions do not).
/// Enough for choices, shuffles and offsets; not a generator for statistics or cryptography.
class Random_stream {
public:
    /// The stream named `tag` under `seed`: the state is splitmix64's mix of the seed and of the
    /// FNV-1a hash of the tag, so nearby seeds and similar tags still give unrelated streams.
    Random_stream(std::uint64_t seed, std::string_view tag);

    /// The next 64 random bits.
    std::uint64_t next_u64() {
        state_ += 0x9e3779b97f4a7c15ull;
        std::uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, 1) from the top 53 bits, exact in a double, so no rounding can differ
    /// between platforms.
    double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1p-53; }

    /// Uniform in [0, n) without bias. Precondition: n >= 1. Draws are rejected below
    /// 2^64 mod n so that the rest is a whole number of copies of [0, n): one draw on average,
    /// at most two on average for any n.
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t threshold = (0 - n) % n;
        for (;;) {
            const std::uint64_t r = next_u64();
            if (r >= threshold) return r % n;
        }
    }

private:
    std::uint64_t state_;
};

/// FNV-1a (64 bits) of `text`: fully specified, so tags hash the same everywhere.
std::uint64_t fnv1a_64(std::string_view text);

/// A stream for the part `tag` of a generation step: draws exactly ONE number from `world`'s
/// generator (locking it briefly) and mixes in the tag. A step that takes each part's stream
/// this way, once per part and in a fixed order, can change how many numbers one part draws
/// without shifting the numbers of any other part (or of the steps after it), which a single
/// shared sequence would do. \throws Layer_error when the World's generator is already locked.
Random_stream step_stream(World& world, std::string_view tag);

} // namespace orbis::gen
