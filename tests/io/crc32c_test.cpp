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

} // namespace
} // namespace orbis::io
