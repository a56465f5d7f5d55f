// SPDX-License-Identifier: MIT
#include "orbis/gen/random_stream.hpp"

#include "orbis/core/world.hpp"

namespace orbis::gen {

namespace {

// splitmix64's output function: a bijection that spreads every input bit over the output.
std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

} // namespace

std::uint64_t fnv1a_64(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

// The tag's hash is mixed before it meets the seed: FNV-1a of tags differing in their last
// character differ only in a few low bits, which a plain xor would pass on almost unchanged.
Random_stream::Random_stream(std::uint64_t seed, std::string_view tag)
    : state_(mix(seed ^ mix(fnv1a_64(tag)))) {}

Random_stream step_stream(World& world, std::string_view tag) {
    const std::uint64_t seed = (*world.lock_random())();
    return Random_stream(seed, tag);
}

} // namespace orbis::gen
