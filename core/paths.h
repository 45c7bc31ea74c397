// Path helpers: how files are named in manifests (relative to the source root)
// and where STARK's own installed files are (relative to the executable).
#ifndef STARK_CORE_PATHS_H
#define STARK_CORE_PATHS_H

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark {

/// Lexically normal absolute path (no symlink resolution: names stay the user's).
std::filesystem::path absolute_normal(const std::filesystem::path& p);

/// True when p is root or lies below it (both absolute and normal).
bool is_within(const std::filesystem::path& p, const std::filesystem::path& root);

/// p relative to root in generic form when inside it, else p's absolute form.
std::string display_path(const std::filesystem::path& p, const std::filesystem::path& root);

/// Where `relative`, a path named by a file STARK did not write (a result, a
/// manifest, a cache entry), lies inside `root`, with symbolic links resolved:
/// what reading or writing it reaches. An Error for an empty or absolute path,
/// one that climbs out with "..", or one whose links lead outside the root;
/// its message starts with the path quoted, for "the manifest's path ...".
Expected<std::filesystem::path> confine_path(const std::filesystem::path& root, std::string_view relative);

/// The deepest folder containing every path (files count by their folder).
std::filesystem::path common_ancestor(const std::vector<std::filesystem::path>& paths);

/// The folder holding ".git" at or above dir, if any.
std::optional<std::filesystem::path> git_toplevel(const std::filesystem::path& dir);

/// This process's executable (/proc/self/exe).
std::filesystem::path executable_path();

}  // namespace stark

#endif  // STARK_CORE_PATHS_H
