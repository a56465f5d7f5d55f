// SPDX-License-Identifier: MIT
// CRC-32C (Castagnoli, the checksum of iSCSI, ext4 and SCTP), used for the world file's
// sections: with the SSE 4.2 instruction it runs at memory speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace orbis::io {

/// CRC-32C of `bytes` continuing from `crc` (0 to start): reflected polynomial 0x82F63B78,
/// initial value and final xor 0xFFFFFFFF; crc32c("123456789") == 0xE3069283.
std::uint32_t crc32c(std::span<const std::byte> bytes, std::uint32_t crc = 0);

/// CRC-32C of the pieces' bytes one after another. Inputs of 4 MiB or more are split in two
/// halves checked on two threads and joined with crc32c_combine.
std::uint32_t crc32c_of_pieces(std::span<const std::span<const std::byte>> pieces);

/// The CRC-32C of a followed by b, from crc32c(a), crc32c(b) and b's length. O(length_b / 4096).
std::uint32_t crc32c_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::size_t length_b);

} // namespace orbis::io
