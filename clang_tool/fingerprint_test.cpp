// Kernel fingerprints from real clang parses of tests/projects/incremental:
// each edit changes the fingerprints of exactly the kernels that depend on
// what was edited.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "tests/support/incremental_project.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return fs::path(STARK_BINARY_DIR) / "clang_tool/fingerprint-scratch" / name;
}

/// kernel id -> fingerprint.
using Prints = std::map<std::string, std::string>;

/// Each test edits its own copy of the project and compares its scan with
/// the scan of a pristine copy at another path, made once: fingerprints must
/// not depend on where the project is checked out (CI runners share caches).
class Incremental : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto setup = locate_clang_setup();
    ASSERT_TRUE(setup) << setup.error().message;
    setup_ = new ClangSetup(*setup);
    testing::IncrementalProject pristine(STARK_SOURCE_DIR, scratch("pristine"), STARK_NVCC_PATH);
    before_ = new Prints(scan(pristine));
  }
  static void TearDownTestSuite() {
    delete setup_;
    delete before_;
  }

  static Prints scan(const testing::IncrementalProject& project) {
    ScanOptions options;
    options.jobs = 2;
    ScanOutput out = scan_units(project.units(), *setup_, project.root(), options);
    for (const auto& d : out.manifest.diagnostics) ADD_FAILURE() << d.format();
    Prints prints;
    for (const auto& k : out.manifest.kernels) {
      EXPECT_TRUE(k.fingerprint) << k.id;
      if (k.fingerprint) prints[k.id] = *k.fingerprint;
    }
    return prints;
  }

  void edit(const std::string& file, const std::string& from, const std::string& to) { project_.edit(file, from, to); }

  /// The ids whose fingerprint differs from the pristine copy's (`base`).
  std::vector<std::string> changed() {
    auto after = scan(project_);
    std::vector<std::string> out;
    EXPECT_EQ(after.size(), base_.size());
    for (const auto& [id, print] : after)
      if (base_.count(id) && base_.at(id) != print) out.push_back(id);
    base_ = after;
    return out;
  }

  using Ids = std::vector<std::string>;
  static ClangSetup* setup_;
  static Prints* before_;
  Prints base_ = before_ ? *before_ : Prints{};
  testing::IncrementalProject project_{
      STARK_SOURCE_DIR, scratch(::testing::UnitTest::GetInstance()->current_test_info()->name()), STARK_NVCC_PATH};
};
ClangSetup* Incremental::setup_ = nullptr;
Prints* Incremental::before_ = nullptr;

TEST_F(Incremental, EveryKernelHasADistinctFingerprintThatDoesNotDependOnThePath) {
  ASSERT_EQ(base_.size(), 7u);
  std::set<std::string> distinct;
  for (const auto& [id, print] : base_) {
    EXPECT_EQ(print.rfind("xxh64:", 0), 0u) << id;
    distinct.insert(print);
  }
  EXPECT_EQ(distinct.size(), base_.size());
  EXPECT_EQ(changed(), Ids{}) << "the same project at another path";
}

TEST_F(Incremental, EditingAKernelChangesOnlyThatKernel) {
  edit("src/ops.cu", "if (i < n) y[i] = twice(y[i]);", "if (i < n) y[i] = twice(y[i]) + 0.0f;");
  EXPECT_EQ(changed(), Ids{"src/ops.cu:k_twice"});
}

TEST_F(Incremental, EditingAHelperChangesItsCallersTransitively) {
  edit("include/inc/common.cuh", "return x * x;", "return x * x * 1.0f;");
  EXPECT_EQ(changed(), Ids{"src/ops.cu:k_square"});  // k_square -> square_chain -> square
}

TEST_F(Incremental, EditingATypeOrMacroInAHeaderChangesItsUsers) {
  edit("include/inc/common.cuh", "  float b;\n", "  float b;\n  float c;\n");
  edit("include/inc/common.cuh", "#define TILE 128", "#define TILE 64");
  EXPECT_EQ(changed(), (Ids{"src/ops.cu:k_pair", "src/ops.cu:k_tile"}));
}

TEST_F(Incremental, EditingATemplateHelperOrAConstantChangesItsInstantiatingKernel) {
  edit("include/inc/common.cuh", "return x * by;", "return by * x;");
  EXPECT_EQ(changed(), Ids{"src/ops.cu:k_scaled"});
  edit("src/ops.cu", "kGain = 3.0f", "kGain = 4.0f");
  EXPECT_EQ(changed(), Ids{"src/ops.cu:k_scaled"});
}

TEST_F(Incremental, ACompileFlagChangesTheKernelsThatExpandIt) {
  project_.other_flags = {"-DOTHER_SCALE=3"};
  EXPECT_EQ(changed(), Ids{"src/other.cu:k_other"});
}

TEST_F(Incremental, TextTheHostParseSkipsFallsBackToTheWholeUnit) {
  edit("include/inc/arch.cuh", "#define DEVICE_GAIN 4.0f", "#define DEVICE_GAIN 5.0f");  // expanded on the device only
  EXPECT_EQ(changed(), Ids{"src/arch.cu:k_arch"});
  edit("src/arch.cu", "void run_arch(int n, float* y) {", "void run_arch(int n, float* y) {\n  (void)0;");
  EXPECT_EQ(changed(), Ids{"src/arch.cu:k_arch"}) << "any edit of its unit counts now";
}

TEST_F(Incremental, UnrelatedEditsChangeNothing) {
  edit("include/inc/common.cuh", "return x + 1.0f;", "return x + 2.0f;");                   // unused helper
  edit("include/inc/common.cuh", "#pragma once\n", "#pragma once\n#define NEW_MACRO 1\n");  // new macro
  edit("src/ops.cu", "__constant__ float kGain", "// moved down a line\n__constant__ float kGain");
  edit("src/other.cu", "void run_other(int n, float* y) {", "void run_other(int n, float* y) {\n  (void)0;");
  EXPECT_EQ(changed(), Ids{});
}

}  // namespace
}  // namespace stark
