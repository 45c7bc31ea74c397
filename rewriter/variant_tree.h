// A mirror of the source root in which some files are rewritten: the
// folders holding a rewritten file or a translation unit that compiles from
// the tree are real, every other entry is a symbolic link to the original.
// Compiled from the tree, a unit sees the rewritten copies through every
// kind of include (same folder, "../x.cuh", <lib/x.cuh> via a mapped -I),
// and the original sources are never written.
#ifndef STARK_REWRITER_VARIANT_TREE_H
#define STARK_REWRITER_VARIANT_TREE_H

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/expected.h"

namespace stark::rewriter {

/// What to mirror and what to replace.
struct TreeSpec {
  std::filesystem::path source_root;
  std::filesystem::path root;                  // the tree; replaced if it is an earlier STARK tree
  std::map<std::string, std::string> files;    // relative path -> content written in the tree
  std::vector<std::string> real_folders;       // relative folders made real (with their parents)
  std::vector<std::filesystem::path> exclude;  // absolute paths never linked (build trees, the tree itself)
};

/// Name of the marker file at the tree's root that says it is a tree STARK made
/// (and may replace); its line "source_root=<path>" names what it mirrors.
inline constexpr const char* kTreeMarker = ".stark-variant-tree";

/// Creates the tree. Refuses a root that exists and is not an earlier tree
/// (so a mistaken path never deletes a user's folder), or that contains the
/// source root.
Expected<void> create_variant_tree(const TreeSpec& spec);

/// Removes a tree made by create_variant_tree (links only, never what they point to).
void remove_variant_tree(const std::filesystem::path& root);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_VARIANT_TREE_H
