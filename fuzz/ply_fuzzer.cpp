// SPDX-License-Identifier: MIT
// libFuzzer target: the PLY reader must refuse any bytes with File_error, never crash, hang or
// allocate beyond what the input holds.
#include <orbis/io/file_error.hpp>
#include <orbis/io/ply.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const orbis::World world = orbis::io::read_ply(
            std::as_bytes(std::span<const std::uint8_t>(data, size)), "fuzz.ply");
        if (world.mesh().validate()) __builtin_trap();
    } catch (const orbis::io::File_error&) {
    }
    return 0;
}
