// SPDX-License-Identifier: MIT
// A small, portable, reproducible random generator for generation code that must give the same
// world on every platform (the standard distributions do not).
#pragma once

#include <cstdint>

namespace orbis::gen::detail {

/// splitmix64 (Steele, Lea, Flood 2014): tiny, fully specified, the same on every platform;
/// enough for index offsets, shuffles of small tables and picking rotations, not for statistics.
class Splitmix64 {
public:
    explicit Splitmix64(std::uint64_t seed)
        : state_(seed) {}

    /// The generator seeded with `seed` after `draws` calls of next(), in O(1): the state only
    /// advances by a constant per draw. Lets two threads take the two halves of one sequence.
    static Splitmix64 after_draws(std::uint64_t seed, std::uint64_t draws) {
        return Splitmix64(seed + draws * increment);
    }

    std::uint64_t next() {
        state_ += increment;
        std::uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, bound) without bias (Lemire's multiply-and-reject on 32 bits); bound >= 1.
    std::uint32_t next_below(std::uint32_t bound) {
        std::uint64_t product = (next() >> 32) * bound;
        auto low = static_cast<std::uint32_t>(product);
        if (low < bound) {
            const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
            while (low < threshold) {
                product = (next() >> 32) * bound;
                low = static_cast<std::uint32_t>(product);
            }
        }
        return static_cast<std::uint32_t>(product >> 32);
    }

    /// Uniform in [0, 1) with 53 random bits; exact, so no rounding can differ between platforms.
    double next_unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }

    /// Uniform integer in [-64, 63]: the top 7 bits, so no bias.
    int next_small() { return static_cast<int>(next() >> 57) - 64; }

private:
    static constexpr std::uint64_t increment = 0x9e3779b97f4a7c15ull;
    std::uint64_t state_;
};

} // namespace orbis::gen::detail
