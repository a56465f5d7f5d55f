// SPDX-License-Identifier: MIT
// libFuzzer target: the world file reader must refuse any bytes with File_error, never crash,
// hang or allocate beyond what the input holds.
#include <orbis/io/file_error.hpp>
#include <orbis/io/world_file.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const orbis::World world = orbis::io::read_world(
            std::as_bytes(std::span<const std::uint8_t>(data, size)), "fuzz.orbis");
        // What loads must be a valid world that saves and loads to itself.
        if (world.mesh().validate()) __builtin_trap();
        if (!(orbis::io::read_world(orbis::io::write_world(world)) == world)) __builtin_trap();
    } catch (const orbis::io::File_error&) {
    }
    return 0;
}
