// SPDX-License-Identifier: MIT
// PNG images: bit-exact round trips, alpha removal, refusals, and saves that fail cleanly.
#include <orbis/io/file_error.hpp>
#include <orbis/io/png.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

#include <unistd.h>

namespace orbis::io {
namespace {

namespace fs = std::filesystem;

// A fresh folder for one test, removed with everything in it when the test ends.
struct Scratch_dir {
    fs::path path;
    explicit Scratch_dir(const std::string& name)
        : path(fs::temp_directory_path() /
               ("orbis_png_" + std::to_string(::getpid()) + "_" + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Scratch_dir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

std::size_t files_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}

Image noise(std::uint32_t width, std::uint32_t height, std::uint64_t seed) {
    Image image(width, height);
    std::mt19937_64 rng(seed);
    for (auto& byte : image.pixels)
        byte = static_cast<std::uint8_t>(rng());
    return image;
}

TEST(Png, RoundTripIsBitExact) {
    const Scratch_dir scratch("round_trip");
    const fs::path& dir = scratch.path;
    for (const auto& [w, h] : {std::pair{1u, 1u}, {3u, 5u}, {257u, 64u}, {640u, 320u}}) {
        const Image image = noise(w, h, w * 1000 + h);
        const fs::path p = dir / ("noise_" + std::to_string(w) + ".png");
        save_png(p, image);
        const Image back = load_png(p);
        EXPECT_EQ(back.width, w);
        EXPECT_EQ(back.height, h);
        EXPECT_TRUE(back == image) << w << " x " << h;
        const fs::path fast = dir / ("fast_" + std::to_string(w) + ".png");
        save_png(fast, image, Png_compression::fast, Sync::none);
        EXPECT_TRUE(load_png(fast) == image) << w << " x " << h;
    }
    EXPECT_EQ(files_in(dir), 8u); // no temporary files left
}

TEST(Png, ImageAccessorsAddressRowsFromTheTop) {
    Image image(4, 3, Srgb8(9, 8, 7));
    EXPECT_EQ(image.pixels.size(), 36u);
    EXPECT_EQ(image.at(3, 2), Srgb8(9, 8, 7));
    image.set(1, 2, Srgb8(1, 2, 3));
    EXPECT_EQ(image.pixels[3 * (2 * 4 + 1)], 1);
    EXPECT_EQ(image.pixels[3 * (2 * 4 + 1) + 2], 3);
    EXPECT_EQ(image.at(1, 2), Srgb8(1, 2, 3));
    const Image back = decode_png(encode_png(image));
    EXPECT_EQ(back.at(1, 2), Srgb8(1, 2, 3));
    EXPECT_EQ(back.at(0, 0), Srgb8(9, 8, 7));
}

TEST(Png, AlphaIsCompositedOntoBlack) {
    // 2 x 2 RGBA written by hand: opaque red, transparent blue / opaque green, opaque (10, 20, 30).
    const unsigned char file[] = {0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00,
                                  0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
                                  0x00, 0x02, 0x08, 0x06, 0x00, 0x00, 0x00, 0x72, 0xb6, 0x0d, 0x24,
                                  0x00, 0x00, 0x00, 0x14, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63,
                                  0xf8, 0xcf, 0xc0, 0x00, 0x41, 0x40, 0xfc, 0x9f, 0x4b, 0x44, 0xee,
                                  0x3f, 0x00, 0x37, 0x7b, 0x06, 0x37, 0xba, 0xd7, 0xbe, 0xb2, 0x00,
                                  0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
    const Image image = decode_png(std::as_bytes(std::span(file)));
    ASSERT_EQ(image.width, 2u);
    ASSERT_EQ(image.height, 2u);
    EXPECT_EQ(image.at(0, 0), Srgb8(255, 0, 0));
    EXPECT_EQ(image.at(1, 0), Srgb8(0, 0, 0));
    EXPECT_EQ(image.at(0, 1), Srgb8(0, 255, 0));
    EXPECT_EQ(image.at(1, 1), Srgb8(10, 20, 30));
}

TEST(Png, RefusesBrokenImagesAndFiles) {
    Image bad(4, 4);
    bad.pixels.pop_back();
    EXPECT_THROW(encode_png(bad), std::invalid_argument);
    EXPECT_THROW(encode_png(Image()), std::invalid_argument);
    const Scratch_dir scratch("refusals");
    const fs::path& dir = scratch.path;
    EXPECT_THROW(save_png(dir / "bad.png", bad), std::invalid_argument);
    EXPECT_EQ(files_in(dir), 0u);

    const std::string text = "not a png at all";
    try {
        decode_png(std::as_bytes(std::span(text.data(), text.size())), "junk.png");
        ADD_FAILURE() << "junk was decoded";
    } catch (const File_error& e) {
        EXPECT_EQ(e.path(), "junk.png");
    }
    std::vector<std::byte> truncated = encode_png(noise(64, 64, 1));
    truncated.resize(truncated.size() / 2);
    EXPECT_THROW(decode_png(truncated), File_error);
    EXPECT_THROW(load_png(dir / "missing.png"), File_error);
}

TEST(Png, AFailedSaveThrowsAndLeavesNoFile) {
    const Scratch_dir scratch("unwritable");
    const fs::path& dir = scratch.path;
    const Image image = noise(32, 16, 2);
    // A target that is a directory: the temporary file is written, the rename fails.
    fs::create_directory(dir / "taken.png");
    try {
        save_png(dir / "taken.png", image);
        ADD_FAILURE() << "saved over a directory";
    } catch (const File_error& e) {
        EXPECT_EQ(e.path(), dir / "taken.png");
    }
    // A target in a folder that does not exist.
    EXPECT_THROW(save_png(dir / "no_such_folder" / "map.png", image), File_error);
    ASSERT_EQ(files_in(dir), 1u);
    EXPECT_TRUE(fs::is_directory(dir / "taken.png"));
    EXPECT_EQ(files_in(dir / "taken.png"), 0u);
}

TEST(Png, AFailedSaveKeepsTheOldFile) {
    const Scratch_dir scratch("keep_old");
    const fs::path& dir = scratch.path;
    const Image old = noise(8, 8, 3);
    save_png(dir / "map.png", old);
    Image bad = noise(8, 8, 4);
    bad.width = 9; // pixels no longer match the size
    EXPECT_THROW(save_png(dir / "map.png", bad), std::invalid_argument);
    EXPECT_TRUE(load_png(dir / "map.png") == old);
    EXPECT_EQ(files_in(dir), 1u);
}

} // namespace
} // namespace orbis::io
