// SPDX-License-Identifier: MIT
#include "orbis/io/crc32c.hpp"

#include <array>
#include <cstring>
#include <thread>
#include <vector>

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

// The register after `n` zero bytes, for the `Shift` tables below.
std::uint32_t zeros(std::uint32_t c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        c = table[c & 0xFF] ^ (c >> 8);
    return c;
}

// The CRC register is linear in its start: running `c` through n bytes equals running 0 through
// them, xored with `c` run through n zero bytes. That lets three streams be computed side by
// side and joined; this is the "run through n zero bytes" map for one n, a byte at a time.
struct Shift {
    std::array<std::array<std::uint32_t, 256>, 4> by_byte{};
    explicit Shift(std::size_t n) {
        for (int b = 0; b < 4; ++b)
            for (std::uint32_t v = 0; v < 256; ++v)
                by_byte[b][v] = zeros(v << (8 * b), n);
    }
    std::uint32_t operator()(std::uint32_t c) const {
        return by_byte[0][c & 0xFF] ^ by_byte[1][(c >> 8) & 0xFF] ^ by_byte[2][(c >> 16) & 0xFF] ^
               by_byte[3][c >> 24];
    }
};

#if defined(__x86_64__)
// Bytes per stream in one step of three streams.
constexpr std::size_t stream_bytes = 4096;

// The SSE 4.2 instruction takes 3 cycles but can start every cycle, so three independent
// streams over neighbouring blocks run about three times as fast as one; they are joined with
// Shift (two table lookups of four bytes per 12 KiB).
[[gnu::target("sse4.2")]] std::uint32_t hardware(const unsigned char* p, std::size_t n,
                                                 std::uint32_t c) {
    static const Shift shift(stream_bytes);
    std::uint64_t c64 = c;
    while (n >= 3 * stream_bytes) {
        std::uint64_t a = c64, b = 0, d = 0;
        for (std::size_t i = 0; i < stream_bytes; i += 8) {
            std::uint64_t wa, wb, wd;
            std::memcpy(&wa, p + i, 8);
            std::memcpy(&wb, p + stream_bytes + i, 8);
            std::memcpy(&wd, p + 2 * stream_bytes + i, 8);
            a = _mm_crc32_u64(a, wa);
            b = _mm_crc32_u64(b, wb);
            d = _mm_crc32_u64(d, wd);
        }
        const std::uint32_t ab =
            shift(static_cast<std::uint32_t>(a)) ^ static_cast<std::uint32_t>(b);
        c64 = shift(ab) ^ static_cast<std::uint32_t>(d);
        p += 3 * stream_bytes;
        n -= 3 * stream_bytes;
    }
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

constexpr std::size_t shift_bytes = 4096;

// The register run through `n` zero bytes, in steps of shift_bytes.
std::uint32_t shifted(std::uint32_t c, std::size_t n) {
    static const Shift step(shift_bytes);
    for (; n >= shift_bytes; n -= shift_bytes)
        c = step(c);
    return zeros(c, n);
}

} // namespace

std::uint32_t crc32c_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::size_t length_b) {
    // With the initial value and final xor of both CRCs, they cancel: see Shift.
    return shifted(crc_a, length_b) ^ crc_b;
}

std::uint32_t crc32c_of_pieces(std::span<const std::span<const std::byte>> pieces) {
    std::size_t total = 0;
    for (const auto& p : pieces)
        total += p.size();
    auto run = [](std::span<const std::span<const std::byte>> part) {
        std::uint32_t c = 0;
        for (const auto& p : part)
            c = crc32c(p, c);
        return c;
    };
    constexpr std::size_t parallel_from = std::size_t{4} << 20;
    if (total < parallel_from) return run(pieces);
    // Two halves by bytes (a piece cut in two if need be), one on another thread.
    std::vector<std::span<const std::byte>> first, second;
    std::size_t seen = 0;
    for (const auto& p : pieces) {
        const std::size_t half = total / 2;
        if (seen >= half) {
            second.push_back(p);
        } else if (seen + p.size() <= half) {
            first.push_back(p);
        } else {
            first.push_back(p.first(half - seen));
            second.push_back(p.subspan(half - seen));
        }
        seen += p.size();
    }
    std::uint32_t second_crc = 0;
    std::thread other([&] { second_crc = run(second); });
    const std::uint32_t first_crc = run(first);
    other.join();
    return crc32c_combine(first_crc, second_crc, total - total / 2);
}

std::uint32_t crc32c(std::span<const std::byte> bytes, std::uint32_t crc) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::uint32_t c = ~crc;
#if defined(__x86_64__)
    if (has_sse42()) return ~hardware(p, bytes.size(), c);
#endif
    return ~portable(p, bytes.size(), c);
}

} // namespace orbis::io
