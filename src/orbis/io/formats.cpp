// SPDX-License-Identifier: MIT
#include "orbis/io/formats.hpp"

#include "orbis/io/file_error.hpp"
#include "orbis/io/obj.hpp"
#include "orbis/io/ply.hpp"
#include "orbis/io/world_file.hpp"

#include <algorithm>
#include <cctype>

namespace orbis::io {

File_format format_of(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".orbis") return File_format::world;
    if (ext == ".ply") return File_format::ply;
    if (ext == ".obj") return File_format::obj;
    throw File_error(path, "", "unknown file type '" + ext + "' (known: .orbis, .ply, .obj)");
}

World load_any(const std::filesystem::path& path) {
    switch (format_of(path)) {
    case File_format::world:
        return load_world(path);
    case File_format::ply:
        return load_ply(path);
    case File_format::obj:
        return load_obj(path);
    }
    throw File_error(path, "", "unknown file type");
}

void save_any(const World& world, const std::filesystem::path& path,
              const Save_any_options& options) {
    switch (format_of(path)) {
    case File_format::world:
        return save_world(world, path,
                          {.compress = options.compress,
                           .level = 1,
                           .sync = options.sync,
                           .progress = options.progress});
    case File_format::ply:
        return save_ply(
            world, path,
            {.format = options.ascii ? Ply_format::ascii : Ply_format::binary_little_endian,
             .sync = options.sync});
    case File_format::obj:
        return save_obj(world, path, options.sync);
    }
}

} // namespace orbis::io
