// SPDX-License-Identifier: MIT
// The one error every file operation reports: which file, which part of it, what is wrong.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace orbis::io {

/// A file could not be read or written. what() is one line: "FILE: PART: PROBLEM" (PART is
/// left out when the problem concerns the whole file).
class File_error : public std::runtime_error {
public:
    /// An error about `part` (a section, element or line; may be empty) of `path`.
    File_error(const std::filesystem::path& path, const std::string& part,
               const std::string& problem);
    /// The file.
    const std::filesystem::path& path() const { return path_; }
    /// The section, element or line the problem is in; empty for the whole file.
    const std::string& part() const { return part_; }
    /// The problem alone, without file and part.
    const std::string& problem() const { return problem_; }

private:
    std::filesystem::path path_;
    std::string part_;
    std::string problem_;
};

} // namespace orbis::io
