// Test data shared by the rewriter's tests: the manifest `stark scan` writes
// for tests/projects/edge (ctest fixture rewriter_edge), hand-written
// results over it, and scratch copies of the project for tests that write.
#ifndef STARK_REWRITER_TEST_FIXTURE_H
#define STARK_REWRITER_TEST_FIXTURE_H

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "clang_tool/build_info.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/file_io.h"
#include "core/manifest.h"
#include "core/result.h"
#include "rewriter/apply.h"

namespace stark::rewriter::testing {

namespace fs = std::filesystem;

// Kernel ids of tests/projects/edge.
inline constexpr const char* kScale = "include/edge/scale.cuh:edge::detail::scale";
inline constexpr const char* kRowMean = "src/stats.cu:edge::row_mean";
inline constexpr const char* kAxpy = "src/apis.cu:axpy_c";
inline constexpr const char* kNegate = "src/apis.cu:api::negate";
inline constexpr const char* kClampF = "src/stats.cu:edge::clamp(int, float *)";
inline constexpr const char* kClampD = "src/stats.cu:edge::clamp(int, double *)";

/// The real manifest of tests/projects/edge (written by the fixture), as the
/// scan wrote it.
inline Manifest scanned_edge_manifest() {
  auto m = load_manifest(STARK_EDGE_MANIFEST);
  EXPECT_TRUE(m) << (m ? "" : m.error().message) << " (run through ctest: the fixture rewriter_edge scans the project)";
  return m ? *m : Manifest{};
}

/// The edge manifest without the scan's `fixed_launch` reasons: what a
/// manifest from an older scan, or one a result folder forged, looks like.
/// The rewriter's own refusals (a launch site it cannot write) must hold
/// there too; with the reasons, the variant check refuses first
/// (Apply.AFixedLaunchRefusesTheOverrideBeforeAnythingIsWritten).
inline Manifest edge_manifest() {
  Manifest m = scanned_edge_manifest();
  for (auto& k : m.kernels) k.fixed_launch.clear();
  return m;
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
  return {{"id", id},
          {"status", "improved"},
          {"cache", "miss"},
          {"baseline_us", 100.0 * speedup},
          {"best_us", 100.0},
          {"speedup", speedup},
          {"attempts", 7},
          {"best", best},
          {"checks", nlohmann::json::array()},
          {"strategies", {"launch shape"}},
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

/// A result directory over `m`, whose manifest copy lives beside it.
inline fs::path result_dir(const std::string& name, const Manifest& m, const nlohmann::json& kernels) {
  fs::path dir = scratch(name) / "result";
  fs::create_directories(dir);
  EXPECT_TRUE(write_json_file(dir / "manifest.json", nlohmann::json(m)));
  return write_result(dir, "manifest.json", m, kernels);  // relative: resolved against the result dir
}

/// The local build's compile database (of tests/projects/edge).
inline std::vector<CompileCommand> edge_database() {
  auto db = read_compile_commands(fs::path(edge_manifest().build_dir) / "compile_commands.json");
  EXPECT_TRUE(db) << db.error().message;
  return db ? *db : std::vector<CompileCommand>{};
}

/// The clang variant check over the edge project itself: the copies of
/// edge_copy() keep its compile commands, so their kernels parse there.
inline ValidatorFactory edge_validator() {
  auto setup = locate_clang_setup();
  EXPECT_TRUE(setup) << setup.error().message;
  return [setup = setup ? *setup : ClangSetup{}, root = edge_manifest().source_root](const Manifest&) {
    return std::make_unique<ClangVariantValidator>(setup, root);
  };
}

/// A request without the compile check, over the local build's database,
/// with the clang variant check.
inline ApplyRequest request(const fs::path& dir, ApplyMode mode) {
  ApplyRequest r;
  r.result_dir = dir;
  r.mode = mode;
  r.compile_check = false;
  r.database = edge_database();
  r.validator = edge_validator();
  return r;
}

}  // namespace stark::rewriter::testing

#endif  // STARK_REWRITER_TEST_FIXTURE_H
