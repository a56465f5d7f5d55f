// SPDX-License-Identifier: MIT
#include "orbis/io/file_error.hpp"

namespace orbis::io {

namespace {
std::string compose(const std::filesystem::path& path, const std::string& part,
                    const std::string& problem) {
    return path.string() + ": " + (part.empty() ? "" : part + ": ") + problem;
}
} // namespace

File_error::File_error(const std::filesystem::path& path, const std::string& part,
                       const std::string& problem)
    : std::runtime_error(compose(path, part, problem))
    , path_(path)
    , part_(part)
    , problem_(problem) {}

} // namespace orbis::io
