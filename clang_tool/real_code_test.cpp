// Kernels as real projects write and launch them (tests/projects/wild): host
// code only clang rejects, launches through pointers and launch helpers,
// kernels the runtime queries, a separable-compilation library. The project
// is configured by the ctest fixture "wild"; the fixture "wild_built" builds
// it with nvcc, so what the scan tolerates is what a real build accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "clang_tool/kernel_analysis.h"
#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/file_io.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(STARK_SOURCE_DIR) / "tests/projects/wild";
const fs::path kBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/wild-build";

class WildProject : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto setup = locate_clang_setup();
    ASSERT_TRUE(setup) << setup.error().message;
    setup_ = new ClangSetup(*setup);
    ScanOptions options;
    options.build_dir = kBuild;
    auto out = scan_build(options);
    ASSERT_TRUE(out) << out.error().message;
    manifest_ = new Manifest(out->manifest);
  }
  static void TearDownTestSuite() {
    delete manifest_;
    delete setup_;
  }

  static const Kernel& kernel(const std::string& id) {
    const Kernel* k = manifest_->find_kernel(id);
    if (!k) ADD_FAILURE() << "no kernel " << id << "\n" << diagnostics();
    static const Kernel none;
    return k ? *k : none;
  }
  static std::string diagnostics() {
    std::string out;
    for (const auto& d : manifest_->diagnostics) out += d.format() + "\n";
    return out;
  }
  static size_t lines_containing(const std::string& part) {
    return std::count_if(manifest_->diagnostics.begin(), manifest_->diagnostics.end(),
                         [&](const Diagnostic& d) { return d.format().find(part) != std::string::npos; });
  }
  static std::string source(const Kernel& k) {
    auto text = read_file(kRoot / k.file);
    return text->substr(k.range.begin, k.range.end - k.range.begin);
  }

  static ClangSetup* setup_;
  static Manifest* manifest_;
};
ClangSetup* WildProject::setup_ = nullptr;
Manifest* WildProject::manifest_ = nullptr;

const char* kOffsetRows = "src/host_quirks.cu:wild::offset_rows";

TEST_F(WildProject, HostCodeOnlyClangRejectsLeavesTheKernelsItDoesNotTouch) {
  const Kernel& k = kernel(kOffsetRows);
  EXPECT_FALSE(manifest_->has_errors()) << diagnostics();
  ASSERT_EQ(k.launches.size(), 1u);
  EXPECT_EQ(k.launches[0].grid, "grid");
  EXPECT_TRUE(k.fixed_launch.empty()) << k.fixed_launch;
  // Each clang-only error is said, as a warning, where it is.
  EXPECT_EQ(lines_containing("src/host_quirks.cu:18:3: warning: clang (which STARK parses with) rejects this, though "
                             "the build compiles it: ISO C++17 does not allow 'register' storage class specifier"),
            1u)
      << diagnostics();
  EXPECT_EQ(lines_containing("src/host_quirks.cu:19:8: warning:"), 1u) << diagnostics();
  // The kernel read from that unit says so, naming the first error.
  EXPECT_EQ(lines_containing("src/host_quirks.cu:9:1: warning: kernel 'wild::offset_rows' is read although clang "
                             "rejects other code of this unit (first: host_quirks.cu:18:3: ISO C++17 does not allow"),
            1u)
      << diagnostics();
}

TEST_F(WildProject, CandidatesOfSuchAKernelAreJudgedOnlyByTheErrorsTheyBring) {
  const Kernel& k = kernel(kOffsetRows);
  ClangVariantValidator validator(*setup_, kRoot);
  std::string faster = source(k);
  faster.replace(faster.find("const float* in"), 15, "const float* __restrict__ in");
  auto ok = validator.validate(k, Variant{k.id, faster, {}});
  EXPECT_TRUE(ok) << ok.error().message;
  // Longer than the original: the unit's own errors after it move down and
  // must still be recognised as the unit's.
  auto longer = validator.validate(k, Variant{k.id, "// one more line\n// and another\n" + source(k), {}});
  EXPECT_TRUE(longer) << longer.error().message;

  std::string broken = source(k);
  broken.replace(broken.find("static_cast<float>(r)"), 21, "undeclared_offset");
  auto refused = validator.validate(k, Variant{k.id, broken, {}});
  ASSERT_FALSE(refused);
  const std::string& why = refused.error().message;
  EXPECT_EQ(why.rfind("the variant does not parse: variant line 5:", 0), 0u) << why;
  EXPECT_NE(why.find("use of undeclared identifier 'undeclared_offset'"), std::string::npos) << why;
  EXPECT_EQ(why.find("register"), std::string::npos) << "the unit's own errors are not the variant's: " << why;

  auto analysis = analyze_kernel(k, source(k), *setup_, kRoot);
  ASSERT_TRUE(analysis) << analysis.error().message;
  EXPECT_EQ(analysis->name, "offset_rows");
}

TEST_F(WildProject, KernelsUsedThroughPointersKeepTheirLaunch) {
  const Kernel& scale = kernel("src/pointers.cu:wild::scale_into");
  EXPECT_EQ(scale.instantiations.size(), 2u);
  EXPECT_EQ(scale.fixed_launch,
            "it is used through a pointer at src/pointers.cu:20, so some launches are out of sight");
  EXPECT_EQ(kernel("src/pointers.cu:wild::square").fixed_launch,
            "it is used through a pointer at src/pointers.cu:36, so some launches are out of sight");
  EXPECT_EQ(kernel("src/pointers.cu:wild::halve").fixed_launch,
            "it is used through a pointer at src/pointers.cu:61, so some launches are out of sight");
  // Warned once per kernel, though scale_into's address is taken twice.
  EXPECT_EQ(lines_containing("kernel 'wild::scale_into' is used through a pointer here"), 1u) << diagnostics();
  EXPECT_EQ(lines_containing("src/pointers.cu:36:"), 1u) << diagnostics();
}

TEST_F(WildProject, WhatTheRuntimeReadsOfAKernelIsNotALaunch) {
  const Kernel& negate = kernel("src/pointers.cu:wild::negate");
  EXPECT_TRUE(negate.fixed_launch.empty()) << negate.fixed_launch;
  ASSERT_EQ(negate.launches.size(), 1u);
  EXPECT_EQ(negate.launches[0].block, "block");
  EXPECT_EQ(lines_containing("'wild::negate'"), 0u) << diagnostics();
}

// The attack: a candidate tuned to a launch that the patch cannot give it
// would be measured with one configuration and shipped with another.
TEST_F(WildProject, AVariantChangingALaunchThatCannotBeRewrittenIsRefused) {
  const Kernel& square = kernel("src/pointers.cu:wild::square");
  ClangVariantValidator validator(*setup_, kRoot);
  auto refused = validator.validate(square, Variant{square.id, source(square), {{"ceil_div(n, 256)"}, {"256"}, {}}});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("cannot be rewritten (it is used through a pointer at src/pointers.cu:36"),
            std::string::npos)
      << refused.error().message;
  auto body_only = validator.validate(square, Variant{square.id, source(square), {}});
  EXPECT_TRUE(body_only) << body_only.error().message;
}

// What the strategies read to leave cooperating threads alone: a
// cooperative-groups barrier is a barrier, and shared memory a template
// helper hands out is shared memory.
TEST_F(WildProject, CooperativeGroupsAndSharedMemoryFromAHelperAreSeen) {
  const Kernel& k = kernel("src/groups.cu:wild::scaled_block_sums");
  auto a = analyze_kernel(k, source(k), *setup_, kRoot);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_TRUE(a->uses_sync);
  EXPECT_TRUE(a->uses_shared_memory);
  const Kernel& plain = kernel("src/pointers.cu:wild::square");
  auto b = analyze_kernel(plain, source(plain), *setup_, kRoot);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_FALSE(b->uses_sync);
  EXPECT_FALSE(b->uses_shared_memory);
}

// The capture reads the module variables a kernel can reach and no other:
// cooperative groups' own variables never cost a kernel its captures. The
// names are the cubin's (nvcc -cubin of src/groups.cu lists exactly these).
TEST_F(WildProject, EachKernelNamesTheModuleVariablesItCanReach) {
  const Kernel& weighted = kernel("src/groups.cu:wild::weighted");
  ASSERT_TRUE(weighted.module_variables);
  EXPECT_EQ(*weighted.module_variables, (std::vector<std::string>{"_ZN4wild11blocks_seenE", "_ZN4wild9c_weightsE"}));
  const Kernel& sums = kernel("src/groups.cu:wild::scaled_block_sums");
  ASSERT_TRUE(sums.module_variables);
  EXPECT_TRUE(sums.module_variables->empty()) << ::testing::PrintToString(*sums.module_variables);
  // A template: the union over its instantiations.
  const Kernel& scale = kernel("src/pointers.cu:wild::scale_into");
  ASSERT_TRUE(scale.module_variables);
  EXPECT_TRUE(scale.module_variables->empty());
  // Calling a device function another unit defines: which variables it
  // reaches is not in this unit, so the capture records them all.
  EXPECT_FALSE(kernel("src/rdc/filters.cu:wild::smooth").module_variables);
}

TEST_F(WildProject, ASeparableCompilationTargetIsScannedLikeAnyOther) {
  const Kernel& smooth = kernel("src/rdc/filters.cu:wild::smooth");
  ASSERT_TRUE(smooth.compile);
  EXPECT_EQ(smooth.compile->target, "wild_rdc");
  const auto& args = smooth.compile->arguments;
  EXPECT_NE(std::find(args.begin(), args.end(), "-rdc=true"), args.end());
  EXPECT_TRUE(smooth.fixed_launch.empty()) << smooth.fixed_launch;
  ASSERT_EQ(smooth.launches.size(), 1u);
}

}  // namespace
}  // namespace stark
