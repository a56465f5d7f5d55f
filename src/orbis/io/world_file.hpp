// SPDX-License-Identifier: MIT
// The native world file (.orbis): everything in a World, checked on load (docs/file-format.md).
#pragma once

#include "orbis/core/world.hpp"
#include "orbis/io/atomic_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace orbis::io {

/// The format version this library writes, and the newest it reads.
inline constexpr std::uint32_t world_format_version = 1;

} // namespace orbis::io
