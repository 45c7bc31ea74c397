// The CMake fragment `stark apply --mode variants` writes beside the variant
// tree: data only (no logic), read by stark_optimize_target() at configure
// time. It records each rewritten file's original content hash (SHA-256,
// which CMake computes itself, and the manifest's xxh64), so a swap whose
// original changed since is dropped with a warning.
#ifndef STARK_REWRITER_CMAKE_FRAGMENT_H
#define STARK_REWRITER_CMAKE_FRAGMENT_H

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark::rewriter {

/// Version of the fragment's variables; STARKVariants.cmake checks it.
inline constexpr int kFragmentVersion = 1;

struct FragmentFile {
  std::string path;  // relative to the source root
  std::string original_sha256;
  std::string original_hash;        // the manifest's "xxh64:..."
  std::filesystem::path rewritten;  // the rewritten copy
  int group = 0;
};

struct Fragment {
  std::filesystem::path result_file;  // DIR/result.json
  std::string result_sha256;          // of result.json when applied
  std::filesystem::path source_root;
  std::filesystem::path tree;
  std::vector<FragmentFile> files;
  std::vector<std::vector<std::string>> groups;     // kernel ids per group
  std::vector<std::filesystem::path> include_dirs;  // of the kernels' compile commands, inside the source root
  std::vector<std::string> targets;                 // CMake targets of the kernels
};

/// The fragment's text. Errors for paths CMake cannot hold in a list (';').
Expected<std::string> cmake_fragment(const Fragment& fragment);

/// A CMake quoted argument: "..." with \ " $ escaped.
std::string cmake_quote(std::string_view s);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_CMAKE_FRAGMENT_H
