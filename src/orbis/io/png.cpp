// SPDX-License-Identifier: MIT
// PNG through libpng's simplified API, which reports errors in a message instead of longjmp,
// so no C++ frame is ever jumped over.
#include "orbis/io/png.hpp"

#include "orbis/io/file_error.hpp"

#include <png.h>

#include <cstring>
#include <limits>
#include <stdexcept>

namespace orbis::io {

namespace {

// Large enough for any map image, small enough that width * height * 3 never overflows and a
// hostile header cannot make us allocate gigabytes.
constexpr std::uint64_t max_pixels = std::uint64_t{1} << 28;

png_image blank_image() {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    return image;
}

std::string libpng_message(const png_image& image, const char* fallback) {
    return image.message[0] != '\0' ? std::string(image.message) : std::string(fallback);
}

} // namespace

Image::Image(std::uint32_t w, std::uint32_t h, Srgb8 fill)
    : width(w)
    , height(h) {
    const std::uint64_t n = std::uint64_t{w} * h;
    if (n > std::numeric_limits<std::size_t>::max() / 3)
        throw std::length_error("Image: " + std::to_string(w) + " x " + std::to_string(h) +
                                " pixels do not fit in memory");
    pixels.resize(3 * static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < pixels.size(); i += 3) {
        pixels[i] = fill.r;
        pixels[i + 1] = fill.g;
        pixels[i + 2] = fill.b;
    }
}

std::vector<std::byte> encode_png(const Image& image, Png_compression compression) {
    if (image.width == 0 || image.height == 0)
        throw std::invalid_argument("encode_png: the image is empty (" +
                                    std::to_string(image.width) + " x " +
                                    std::to_string(image.height) + ")");
    if (image.pixels.size() != 3 * std::uint64_t{image.width} * image.height)
        throw std::invalid_argument("encode_png: " + std::to_string(image.pixels.size()) +
                                    " bytes of pixels for a " + std::to_string(image.width) +
                                    " x " + std::to_string(image.height) +
                                    " RGB image, which needs 3 bytes per pixel");
    if (image.width > PNG_UINT_31_MAX / 3 || image.height > PNG_UINT_31_MAX)
        throw std::invalid_argument("encode_png: " + std::to_string(image.width) + " x " +
                                    std::to_string(image.height) + " is too large for PNG");
    png_image png = blank_image();
    png.width = image.width;
    png.height = image.height;
    png.format = PNG_FORMAT_RGB;
    if (compression == Png_compression::fast) png.flags |= PNG_IMAGE_FLAG_FAST;
    const auto stride = static_cast<png_int_32>(3 * image.width);
    // The bound libpng guarantees, so that one pass suffices; the excess is trimmed after.
    png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(png);
    std::vector<std::byte> out(size);
    if (!png_image_write_to_memory(&png, out.data(), &size, 0, image.pixels.data(), stride,
                                   nullptr)) {
        const std::string why = libpng_message(png, "libpng failed to encode the image");
        png_image_free(&png);
        throw std::runtime_error("encode_png: " + why);
    }
    out.resize(size);
    return out;
}

void save_png(const std::filesystem::path& path, const Image& image, Png_compression compression,
              Sync sync) {
    std::vector<std::byte> bytes;
    try {
        bytes = encode_png(image, compression);
    } catch (const std::runtime_error& e) { // libpng's failures; invalid_argument passes
        throw File_error(path, "", e.what());
    }
    const std::span<const std::byte> pieces[] = {bytes};
    write_file_atomically(path, pieces, sync);
}

Image decode_png(std::span<const std::byte> bytes, const std::string& name) {
    png_image png = blank_image();
    if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
        const std::string why = libpng_message(png, "not a PNG file");
        png_image_free(&png);
        throw File_error(name, "", why);
    }
    if (std::uint64_t{png.width} * png.height > max_pixels) {
        const std::string size = std::to_string(png.width) + " x " + std::to_string(png.height);
        png_image_free(&png);
        throw File_error(name, "header", size + " pixels is more than the 2^28 accepted");
    }
    png.format = PNG_FORMAT_RGB;
    Image image(png.width, png.height);
    const png_color black{0, 0, 0};
    if (!png_image_finish_read(&png, &black, image.pixels.data(),
                               static_cast<png_int_32>(3 * image.width), nullptr)) {
        const std::string why = libpng_message(png, "libpng failed to decode the image");
        png_image_free(&png);
        throw File_error(name, "", why);
    }
    return image;
}

Image load_png(const std::filesystem::path& path) {
    const File_bytes bytes = read_file(path, std::size_t{1} << 31);
    try {
        return decode_png(bytes, path.string());
    } catch (const File_error& e) {
        throw File_error(path, e.part(), e.problem());
    }
}

} // namespace orbis::io
