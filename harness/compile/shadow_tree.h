// A shadow of the source root in which one file is patched: every other entry
// is a symbolic link to the original, and only the folders on the way to the
// patched file are real. Relative includes from the patched file, and from
// every file next to it, resolve exactly as they do in the original tree.
#ifndef STARK_HARNESS_COMPILE_SHADOW_TREE_H
#define STARK_HARNESS_COMPILE_SHADOW_TREE_H

#include <filesystem>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace stark::harness {

/// Owns a shadow tree on disk; removes it when destroyed.
class ShadowTree {
 public:
  /// Creates DIR (a fresh folder under `parent`) mirroring `source_root`,
  /// with `relative_file` replaced by `content`.
  static Expected<ShadowTree> create(const std::filesystem::path& parent, const std::filesystem::path& source_root,
                                     const std::filesystem::path& relative_file, std::string_view content);
  ShadowTree(ShadowTree&& other) noexcept;
  ShadowTree& operator=(ShadowTree&&) = delete;
  ~ShadowTree();

  const std::filesystem::path& root() const { return root_; }
  /// The patched file inside the shadow.
  std::filesystem::path patched_file() const { return root_ / relative_; }

 private:
  ShadowTree(std::filesystem::path root, std::filesystem::path relative)
      : root_(std::move(root)), relative_(std::move(relative)) {}
  std::filesystem::path root_;
  std::filesystem::path relative_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMPILE_SHADOW_TREE_H
