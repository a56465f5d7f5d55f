// SPDX-License-Identifier: MIT
// CRC-32C against the standard check value and the byte-at-a-time definition.
#include <orbis/io/crc32c.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string_view>
#include <vector>

namespace orbis::io {
namespace {

std::span<const std::byte> bytes_of(std::string_view s) {
    return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

// The definition: reflected polynomial, bit by bit.
std::uint32_t reference(std::span<const std::byte> bytes) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (const std::byte b : bytes) {
        c ^= static_cast<std::uint8_t>(b);
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
}

TEST(Crc32c, StandardCheckValue) {
    EXPECT_EQ(crc32c(bytes_of("123456789")), 0xE3069283u);
    EXPECT_EQ(crc32c({}), 0u);
}

TEST(Crc32c, MatchesTheDefinitionAndContinuesAcrossPieces) {
    std::mt19937_64 rng(3);
    std::vector<std::byte> data(1000);
    for (auto& b : data)
        b = static_cast<std::byte>(rng());
    for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 1000u}) {
        const auto piece = std::span<const std::byte>(data).first(n);
        EXPECT_EQ(crc32c(piece), reference(piece)) << n;
        for (std::size_t cut = 0; cut <= n; cut += 3)
            EXPECT_EQ(crc32c(piece.subspan(cut), crc32c(piece.first(cut))), crc32c(piece));
    }
}

TEST(Crc32c, LongInputsMatchTheDefinition) {
    // Long enough for the three-stream path (12 KiB steps), with every kind of remainder.
    std::mt19937_64 rng(5);
    std::vector<std::byte> data(3 * 12288 + 777);
    for (auto& b : data)
        b = static_cast<std::byte>(rng());
    for (std::size_t n : {12287u, 12288u, 12289u, 24576u + 13u, 3u * 12288u + 777u}) {
        const auto piece = std::span<const std::byte>(data).first(n);
        EXPECT_EQ(crc32c(piece), reference(piece)) << n;
        EXPECT_EQ(crc32c(piece.subspan(5000), crc32c(piece.first(5000))), crc32c(piece)) << n;
    }
}

TEST(Crc32c, PiecesAndCombineMatchTheWhole) {
    // 5 MiB: over the size where the pieces are split between two threads.
    std::mt19937_64 rng(7);
    std::vector<std::byte> data((std::size_t{5} << 20) + 333);
    for (auto& b : data)
        b = static_cast<std::byte>(rng());
    const std::span<const std::byte> all(data);
    const std::uint32_t whole = reference(all);
    EXPECT_EQ(crc32c(all), whole);
    std::vector<std::span<const std::byte>> pieces;
    for (std::size_t at = 0; at < data.size();) {
        const std::size_t n = std::min<std::size_t>(rng() % 70000, data.size() - at);
        pieces.push_back(all.subspan(at, n));
        at += n;
    }
    EXPECT_EQ(crc32c_of_pieces(pieces), whole);
    for (std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, data.size() / 3})
        EXPECT_EQ(
            crc32c_combine(crc32c(all.first(cut)), crc32c(all.subspan(cut)), data.size() - cut),
            whole)
            << cut;
}

} // namespace
} // namespace orbis::io
