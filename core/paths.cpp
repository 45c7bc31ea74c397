#include "core/paths.h"

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
