// `stark scan` as a library: from a build tree to a manifest.
// The only header of clang_tool/ other stages need; no clang headers.
#ifndef STARK_CLANG_TOOL_SCAN_H
#define STARK_CLANG_TOOL_SCAN_H

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "clang_tool/nvcc_args.h"
#include "core/expected.h"
#include "core/manifest.h"

namespace stark {

struct ScanOptions {
  std::filesystem::path build_dir;
  std::string target;                 // empty = every target
  std::string config;                 // configuration of a multi-config build; empty = its first
  std::filesystem::path source_root;  // empty = File API source dir, git toplevel or common ancestor
  int jobs = 0;                       // parallel parses; 0 = one per core
  /// Called after each unit (from worker threads, serialised): file, done, total.
  std::function<void(const std::string&, size_t, size_t)> progress;
};

/// Time spent on one translation unit.
struct UnitTiming {
  std::string file;
  double seconds = 0;
};

struct ScanOutput {
  Manifest manifest;  // problems in user files are manifest.diagnostics
  std::vector<UnitTiming> timings;
  std::vector<std::string> cuda_wrappers;  // per unit: the wrapper folder clang read
};

/// Scans the build. An Error only when nothing can be scanned at all (no
/// build tree, no compile database, no clang resource directory).
Expected<ScanOutput> scan_build(const ScanOptions& options);

/// As scan_build, for given units and setup (used by tests and scan_build).
ScanOutput scan_units(const std::vector<CompileCommand>& units, const ClangSetup& setup,
                      const std::filesystem::path& source_root, const ScanOptions& options);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_SCAN_H
