#include "harness/compile/shadow_tree.h"

#include <string>
#include <fmt/format.h>
#include <stdlib.h>

#include <fstream>
#include <vector>

namespace stark::harness {

namespace fs = std::filesystem;

Expected<ShadowTree> ShadowTree::create(const fs::path& parent, const fs::path& source_root,
                                        const fs::path& relative_file, std::string_view content) {
  fs::path rel = relative_file.lexically_normal();
  if (rel.empty() || rel.is_absolute() || *rel.begin() == "..")
    return Error{fmt::format("{} is not inside the source root {}", relative_file.string(), source_root.string())};
  std::error_code ec;
  fs::create_directories(parent, ec);
  std::string pattern = (parent / "shadow-XXXXXX").string();
  if (!mkdtemp(pattern.data()))
    return Error{fmt::format("cannot create a folder under {} for the patched source", parent.string())};
  ShadowTree tree{fs::path(pattern), rel};

  // Walk down the path of the patched file: at each level, link every entry
  // except the next component, which becomes a real folder (or the file).
  fs::path original = source_root;
  fs::path shadow = tree.root_;
  std::vector<fs::path> parts(rel.begin(), rel.end());
  for (size_t level = 0; level < parts.size(); ++level) {
    const fs::path& next = parts[level];
    for (const auto& entry : fs::directory_iterator(original, ec)) {
      if (entry.path().filename() == next) continue;
      fs::create_symlink(entry.path(), shadow / entry.path().filename(), ec);
      if (ec) return Error{fmt::format("cannot link {} into the shadow tree: {}", entry.path().string(), ec.message())};
    }
    if (ec) return Error{fmt::format("cannot list {}: {}", original.string(), ec.message())};
    original /= next;
    shadow /= next;
    if (level + 1 < parts.size()) {
      fs::create_directory(shadow, ec);
      if (ec) return Error{fmt::format("cannot create {}: {}", shadow.string(), ec.message())};
    }
  }
  std::ofstream out(shadow, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) return Error{fmt::format("cannot write the patched file {}", shadow.string())};
  return tree;
}

ShadowTree::ShadowTree(ShadowTree&& other) noexcept
    : root_(std::move(other.root_)), relative_(std::move(other.relative_)) {
  other.root_.clear();
}

ShadowTree::~ShadowTree() {
  if (root_.empty()) return;
  std::error_code ec;
  fs::remove_all(root_, ec);  // removes the links, never what they point to
}

}  // namespace stark::harness
