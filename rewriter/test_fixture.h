// Test data shared by the rewriter's tests: the manifest `stark scan` writes
// for tests/projects/edge (ctest fixture rewriter_edge), hand-written
// results over it, and scratch copies of the project for tests that write.
#ifndef STARK_REWRITER_TEST_FIXTURE_H
#define STARK_REWRITER_TEST_FIXTURE_H

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "core/file_io.h"
#include "core/manifest.h"
#include "core/result.h"

namespace stark::rewriter::testing {

namespace fs = std::filesystem;

/// The real manifest of tests/projects/edge (written by the fixture).
inline Manifest edge_manifest() {
  auto m = load_manifest(STARK_EDGE_MANIFEST);
  EXPECT_TRUE(m) << (m ? "" : m.error().message) << " (run through ctest: the fixture rewriter_edge scans the project)";
  return m ? *m : Manifest{};
}

inline const Kernel& kernel(const Manifest& m, const std::string& id) {
  const Kernel* k = m.find_kernel(id);
  EXPECT_TRUE(k) << id;
  static const Kernel none;
  return k ? *k : none;
}

inline std::string read(const fs::path& p) {
  auto t = read_file(p);
  EXPECT_TRUE(t) << p;
  return t ? *t : "";
}

/// A fresh scratch folder in the build tree (never shared with another build).
inline fs::path scratch(const std::string& name) {
  fs::path d = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / ("rewriter_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// One improved kernel of a hand-written result.
inline nlohmann::json improved(const std::string& id, const std::string& source, nlohmann::json launch = nullptr,
                               double speedup = 2.5) {
  nlohmann::json best = {{"source", source}};
  if (!launch.is_null()) best["launch"] = launch;
  return {{"id", id},         {"status", "improved"}, {"cache", "miss"},   {"baseline_us", 100.0 * speedup},
          {"best_us", 100.0}, {"speedup", speedup},   {"attempts", 7},     {"best", best},
          {"checks", nlohmann::json::array()},        {"strategies", {"launch shape"}},
          {"tree", {{{"id", 0}, {"parent", nullptr}, {"role", "root"}, {"status", "accepted"}}}}};
}

/// A result directory holding `kernels`, naming `manifest_path`.
inline fs::path write_result(const fs::path& dir, const fs::path& manifest_path, const Manifest& m,
                             const nlohmann::json& kernels) {
  nlohmann::json r = {{"schema", "stark.result/1"},
                      {"source_root", m.source_root},
                      {"build_dir", m.build_dir},
                      {"manifest", manifest_path.string()},
                      {"gpu", {{"name", "NVIDIA H200"}, {"sm", "90"}, {"driver", "580.65"}, {"cuda", "13.0"}}},
                      {"backend", {{"name", "builtin"}, {"model", ""}}},
                      {"seed", 1},
                      {"kernels", kernels}};
  EXPECT_TRUE(write_json_file(dir / "result.json", r));
  return dir;
}

/// A copy of tests/projects/edge and its manifest moved there (same bytes,
/// same hashes), for tests that edit sources.
inline std::pair<fs::path, Manifest> edge_copy(const std::string& name) {
  Manifest m = edge_manifest();
  fs::path root = scratch(name) / "edge";
  fs::copy(m.source_root, root, fs::copy_options::recursive);
  m.source_root = root.string();
  m.build_dir = (root / "build").string();
  return {root, m};
}

}  // namespace stark::rewriter::testing

#endif  // STARK_REWRITER_TEST_FIXTURE_H
