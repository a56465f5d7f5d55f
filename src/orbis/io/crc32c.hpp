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

} // namespace orbis::io
