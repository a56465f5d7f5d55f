// SPDX-License-Identifier: MIT
#include "orbis/io/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace orbis::io {

namespace {

constexpr std::uint32_t polynomial = 0x82F63B78u;

constexpr std::array<std::uint32_t, 256> make_table() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ polynomial : c >> 1;
        t[i] = c;
    }
    return t;
}
constexpr auto table = make_table();

std::uint32_t portable(const unsigned char* p, std::size_t n, std::uint32_t c) {
    for (std::size_t i = 0; i < n; ++i)
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c;
}

#if defined(__x86_64__)
// One stream of the SSE 4.2 instruction: 8 bytes per 3 cycles, about memory speed.
[[gnu::target("sse4.2")]] std::uint32_t hardware(const unsigned char* p, std::size_t n,
                                                 std::uint32_t c) {
    std::uint64_t c64 = c;
    while (n >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        c64 = _mm_crc32_u64(c64, word);
        p += 8;
        n -= 8;
    }
    c = static_cast<std::uint32_t>(c64);
    while (n > 0) {
        c = _mm_crc32_u8(c, *p++);
        --n;
    }
    return c;
}

bool has_sse42() {
    static const bool yes = __builtin_cpu_supports("sse4.2");
    return yes;
}
#endif

} // namespace

std::uint32_t crc32c(std::span<const std::byte> bytes, std::uint32_t crc) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::uint32_t c = ~crc;
#if defined(__x86_64__)
    if (has_sse42()) return ~hardware(p, bytes.size(), c);
#endif
    return ~portable(p, bytes.size(), c);
}

} // namespace orbis::io
