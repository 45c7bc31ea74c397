#include "core/paths.h"

#include <fmt/format.h>

#include <algorithm>

namespace stark {

namespace fs = std::filesystem;

fs::path absolute_normal(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  abs = abs.lexically_normal();
  // "dir/" normalises to "dir/" with an empty filename: drop it so that
  // comparisons and relative names do not depend on a trailing slash.
  if (!abs.has_filename() && abs.has_parent_path() && abs != abs.root_path()) abs = abs.parent_path();
  return abs;
}

bool is_within(const fs::path& p, const fs::path& root) {
  auto pi = p.begin(), ri = root.begin();
  for (; ri != root.end(); ++ri, ++pi) {
    if (ri->empty()) continue;
    if (pi == p.end() || *pi != *ri) return false;
  }
  return true;
}

std::string display_path(const fs::path& p, const fs::path& root) {
  fs::path abs = absolute_normal(p);
  if (!root.empty() && is_within(abs, absolute_normal(root)))
    return abs.lexically_relative(absolute_normal(root)).generic_string();
  return abs.generic_string();
}

Expected<fs::path> confine_path(const fs::path& root, std::string_view relative) {
  if (relative.empty()) return Error{"'' is not a path"};
  if (relative.find('\0') != std::string_view::npos)
    return Error{fmt::format("'{}\\0...' holds a NUL byte", relative.substr(0, relative.find('\0')))};
  const fs::path rel = fs::path(relative).lexically_normal();
  if (rel.has_root_path())
    return Error{fmt::format("'{}' is absolute; paths must be relative to the source root", relative)};
  if (rel.empty() || rel == "." || *rel.begin() == "..")
    return Error{fmt::format("'{}' is not a path inside the source root", relative)};
  std::error_code ec;
  const fs::path real_root = fs::weakly_canonical(absolute_normal(root), ec);
  if (ec) return Error{fmt::format("cannot resolve the source root {}: {}", root.string(), ec.message())};
  const fs::path real = fs::weakly_canonical(real_root / rel, ec);
  if (ec) return Error{fmt::format("cannot resolve '{}': {}", relative, ec.message())};
  if (!is_within(real, real_root) || real == real_root)
    return Error{
        fmt::format("'{}' leads outside the source root {} through a symbolic link", relative, real_root.string())};
  return real;
}

fs::path common_ancestor(const std::vector<fs::path>& paths) {
  if (paths.empty()) return {};
  fs::path common = absolute_normal(paths[0]).parent_path();
  for (const auto& raw : paths) {
    fs::path dir = absolute_normal(raw).parent_path();
    while (!is_within(dir, common)) {
      if (common == common.root_path()) return common;
      common = common.parent_path();
    }
  }
  return common;
}

std::optional<fs::path> git_toplevel(const fs::path& dir) {
  std::error_code ec;
  for (fs::path d = absolute_normal(dir); !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / ".git", ec)) return d;
    if (d == d.root_path()) break;
  }
  return std::nullopt;
}

fs::path executable_path() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec);
}

}  // namespace stark
