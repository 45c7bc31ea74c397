#include "rewriter/variant_tree.h"

#include <fmt/format.h>

#include <set>

#include "core/file_io.h"
#include "core/paths.h"

namespace stark::rewriter {

namespace fs = std::filesystem;

namespace {

Expected<fs::path> checked_relative(const std::string& rel) {
  fs::path p = fs::path(rel).lexically_normal();
  if (p.empty() || p.is_absolute() || *p.begin() == "..")
    return Error{fmt::format("'{}' is not a path inside the source root", rel)};
  return p;
}

}  // namespace

void remove_variant_tree(const fs::path& root) {
  std::error_code ec;
  if (fs::exists(root / kTreeMarker, ec)) fs::remove_all(root, ec);  // does not follow links
}

Expected<void> create_variant_tree(const TreeSpec& spec) {
  const fs::path source = absolute_normal(spec.source_root);
  const fs::path root = absolute_normal(spec.root);
  std::error_code ec;
  if (!fs::is_directory(source, ec)) return Error{fmt::format("source root {} is not a folder", source.string())};
  if (is_within(source, root))
    return Error{fmt::format("the variant tree {} would contain the source root {}", root.string(), source.string())};
  if (fs::exists(root, ec)) {
    if (!fs::exists(root / kTreeMarker, ec))
      return Error{fmt::format("{} exists and is not a variant tree made by STARK; choose another output folder",
                               root.string())};
    fs::remove_all(root, ec);
    if (ec) return Error{fmt::format("cannot remove the old variant tree {}: {}", root.string(), ec.message())};
  }

  // Folders that must be real: parents of rewritten files, the requested ones.
  std::set<fs::path> real = {fs::path()};
  auto add_with_parents = [&](fs::path p) {
    for (; !p.empty(); p = p.parent_path()) real.insert(p);
  };
  std::set<fs::path> written;
  for (const auto& [rel, content] : spec.files) {
    auto p = checked_relative(rel);
    if (!p) return p.error();
    written.insert(*p);
    add_with_parents(p->parent_path());
  }
  for (const auto& rel : spec.real_folders) {
    auto p = checked_relative(rel);
    if (!p) return p.error();
    if (fs::is_directory(source / *p, ec)) add_with_parents(*p);
  }
  std::set<fs::path> excluded;
  for (const auto& e : spec.exclude) excluded.insert(absolute_normal(e));
  excluded.insert(root);

  fs::create_directories(root, ec);
  if (ec) return Error{fmt::format("cannot create {}: {}", root.string(), ec.message())};
  // The marker names the source root: a tool that meets a file of the tree
  // (a scan of a swapped build) can map it back to the original.
  if (auto ok = write_file_atomic(root / kTreeMarker,
                                  "made by stark apply; safe to delete\nsource_root=" + source.string() + "\n");
      !ok)
    return ok;
  for (const auto& dir : real) {
    fs::create_directories(root / dir, ec);
    if (ec) return Error{fmt::format("cannot create {}: {}", (root / dir).string(), ec.message())};
    for (const auto& entry : fs::directory_iterator(source / dir, ec)) {
      fs::path rel = (dir / entry.path().filename()).lexically_normal();
      fs::path target = absolute_normal(entry.path());
      // Never link the tree into itself (a build folder inside the source root).
      if (real.count(rel) || written.count(rel) || rel == ".git" || excluded.count(target) || is_within(root, target))
        continue;
      fs::create_symlink(entry.path(), root / rel, ec);
      if (ec)
        return Error{fmt::format("cannot link {} into the variant tree: {}", entry.path().string(), ec.message())};
    }
    if (ec) return Error{fmt::format("cannot list {}: {}", (source / dir).string(), ec.message())};
  }
  for (const auto& [rel, content] : spec.files)
    if (auto ok = write_file_atomic(root / fs::path(rel).lexically_normal(), content); !ok) return ok;
  return {};
}

}  // namespace stark::rewriter
