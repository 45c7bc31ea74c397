// Base fixture of the built-in expert's tests: the kernels of a test project
// that a ctest fixture configured (tests/projects/<build>), scanned once per
// suite with real clang, and the code role run on them.
#ifndef STARK_AGENTS_BUILTIN_SCANNED_KERNELS_TEST_H
#define STARK_AGENTS_BUILTIN_SCANNED_KERNELS_TEST_H

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "agents/builtin/builtin_team.h"
#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/file_io.h"
#include "harness/compile/compile_service.h"

namespace stark::testing {

inline const std::optional<GpuInfo> kH200 = GpuInfo{"NVIDIA H200", "90", "", "13.0", 132, 4800};

/// How many times `what` occurs in `text` (overlaps included).
inline size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The example project (examples/nnops, fixture nnops).
struct Nnops {
  static constexpr const char* kBuild = "nnops-build";
  static constexpr const char* kTarget = "nnops";
};

/// The benchmark suite's kernels (bench/, fixture bench).
struct BenchProject {
  static constexpr const char* kBuild = "bench-build";
  static constexpr const char* kTarget = "bench_kernels";
};

/// Project: a type with `static constexpr const char* kBuild` (the folder
/// under tests/projects) and `kTarget` (the CMake target to scan).
template <typename Project>
class ScannedKernels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ScanOptions options;
    options.build_dir = std::filesystem::path(STARK_BINARY_DIR) / "tests/projects" / Project::kBuild;
    options.target = Project::kTarget;
    auto out = scan_build(options);
    ASSERT_TRUE(out) << out.error().message;
    manifest_ = new Manifest(out->manifest);
  }
  static void TearDownTestSuite() { delete manifest_; }

  static const Kernel& kernel(const std::string& id) {
    const Kernel* k = manifest_->find_kernel(id);
    EXPECT_TRUE(k) << id;
    return *k;
  }
  static std::string source(const Kernel& k) {
    auto text = read_file(std::filesystem::path(manifest_->source_root) / k.file);
    return text->substr(k.range.begin, k.range.end - k.range.begin);
  }
  static ClangSetup setup() { return *locate_clang_setup(); }
  /// The code role's variant of kernel k for a plan naming `label`, from the
  /// original, or from `parent` (made by the plan `parent_label`).
  static RoleReply<Variant> code(BuiltinTeam& team, const Kernel& k, const std::string& label,
                                 const Variant* parent = nullptr, const std::string& parent_label = "") {
    KernelBrief brief;
    brief.kernel = &k;
    brief.gpu = kH200;
    SearchNode root, node;
    root.variant = Variant{k.id, source(k), {}};
    if (parent) {
      node.id = 1;
      node.parent = 0;
      node.strategy = parent_label;
      node.variant = *parent;
    }
    return team.code(CodeInput{&brief, parent ? &node : &root, &root, {}, {}, Plan{label, "", {}}});
  }
#ifdef STARK_NVCC_PATH
  /// The PTX nvcc makes of variant v for sm_90, once the clang variant check
  /// passed it; empty, with the test failed, where either refuses it.
  static std::string ptx_of(const Kernel& k, const Variant& v) {
    ClangVariantValidator validator(setup(), manifest_->source_root);
    auto valid = validator.validate(k, v);
    EXPECT_TRUE(valid) << (valid ? "" : valid.error().message) << "\n" << v.source;
    if (!valid) return "";
    harness::CompileService compiler(
        {std::filesystem::temp_directory_path() / "stark_builtin_test_cache", 0, STARK_NVCC_PATH});
    auto built =
        compiler.compile({&k, manifest_->source_root, v.source, "90", harness::CompileMode::Ptx, std::nullopt});
    EXPECT_TRUE(built && built->ok) << (built ? built->log : built.error().message) << "\n" << v.source;
    if (!built || !built->ok) return "";
    auto ptx = read_file(built->output);
    return ptx ? *ptx : "";
  }
#endif
  static inline Manifest* manifest_ = nullptr;
};

}  // namespace stark::testing

#endif  // STARK_AGENTS_BUILTIN_SCANNED_KERNELS_TEST_H
