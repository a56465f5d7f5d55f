// SPDX-License-Identifier: MIT
// 8-bit RGB images and their PNG files (libpng, a private dependency of orbis::io).
#pragma once

#include "orbis/core/colour_map.hpp"
#include "orbis/io/atomic_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace orbis::io {

/// An 8-bit sRGB image: rows from the top, pixels left to right, 3 bytes (r, g, b) each.
struct Image {
    /// Pixels per row.
    std::uint32_t width = 0;
    /// Number of rows.
    std::uint32_t height = 0;
    /// width * height * 3 bytes, row-major from the top-left pixel.
    std::vector<std::uint8_t> pixels;

    /// An empty (0 x 0) image.
    Image() = default;
    /// A `width` x `height` image filled with `fill`. \throws std::length_error when the pixels
    /// would not fit in memory's address range.
    Image(std::uint32_t width, std::uint32_t height, Srgb8 fill = Srgb8(0));

    /// The pixel at column x, row y. Precondition: x < width, y < height.
    Srgb8 at(std::uint32_t x, std::uint32_t y) const {
        const std::uint8_t* p = &pixels[3 * (std::size_t{y} * width + x)];
        return {p[0], p[1], p[2]};
    }
    /// Sets the pixel at column x, row y. Precondition: x < width, y < height.
    void set(std::uint32_t x, std::uint32_t y, Srgb8 c) {
        std::uint8_t* p = &pixels[3 * (std::size_t{y} * width + x)];
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
    }

    /// Same size and pixels.
    friend bool operator==(const Image&, const Image&) = default;
};

/// How hard PNG encoding works at making the file small.
enum class Png_compression {
    small, ///< libpng's default: for a 2048 x 1024 map about 0.5 s, the smaller file
    fast,  ///< about 7 times faster, files about 1.8 times larger (for previews and exports)
};

/// The PNG encoding of `image` (8-bit RGB, no alpha). \throws std::invalid_argument when the
/// image is empty or pixels.size() is not width * height * 3, std::runtime_error when libpng
/// fails. Cost: O(pixels), see Png_compression.
std::vector<std::byte> encode_png(const Image& image,
                                  Png_compression compression = Png_compression::small);

/// Writes `image` to `path` as PNG, atomically (write_file_atomically: a failed save leaves no
/// partial or temporary file and the old file, if any, intact). \throws std::invalid_argument
/// as encode_png does, File_error naming the path for encoding or file system failures.
void save_png(const std::filesystem::path& path, const Image& image,
              Png_compression compression = Png_compression::small, Sync sync = Sync::full);

/// Decodes a PNG held in memory into 8-bit RGB (grey, palette and 16-bit images are converted;
/// alpha is composited onto black). `name` stands for the file in messages. Images of more than
/// 2^28 pixels are refused. \throws File_error.
Image decode_png(std::span<const std::byte> bytes, const std::string& name = "<memory>");

/// Reads the PNG file at `path` as decode_png does. \throws File_error naming the path.
Image load_png(const std::filesystem::path& path);

} // namespace orbis::io
