// The expert on a kernel that already says how it wants to be compiled
// (tests/projects/wild, configured by the ctest fixture "wild"): a loop
// pragma is kept as written and unroll adds one only where none applies
// (stacking a second one is a variant clang and nvcc reject); no candidate
// launches more threads per block than __launch_bounds__ allows (the launch
// would fail).
#include <gtest/gtest.h>

#include "agents/builtin/scanned_kernels_test.h"
#include "agents/builtin/strategy.h"
#include "clang_tool/variant_check.h"

namespace stark {
namespace {

struct Wild {
  static constexpr const char* kBuild = "wild-build";
  static constexpr const char* kTarget = "wild";
};

using RespectsCode = testing::ScannedKernels<Wild>;
using testing::count;

TEST_F(RespectsCode, AnExistingPragmaAFewLinesAboveItsLoopIsKept) {
  const Kernel& k = kernel("src/pragmas.cu:wild::row_moments");
  BuiltinTeam team(manifest_->source_root, setup());
  auto v = code(team, k, "unroll(factor=4)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  const std::string& out = v.value->source;
  EXPECT_EQ(count(out, "#pragma unroll 2\n\n  // Two at a time"), 1u) << out;
  EXPECT_EQ(count(out, "#pragma unroll"), 2u) << out;
  EXPECT_EQ(count(out, "#pragma unroll 4\n  for (int c = 0; c < kCols; ++c) squares"), 1u) << out;
  EXPECT_NE(out.find("__launch_bounds__(256)"), std::string::npos);

  ClangVariantValidator validator(setup(), manifest_->source_root);
  auto checked = validator.validate(k, *v.value);
  EXPECT_TRUE(checked) << checked.error().message;
}

TEST_F(RespectsCode, NoCandidateOutgrowsTheAuthorsLaunchBounds) {
  const Kernel& k = kernel("src/pragmas.cu:wild::row_moments");
  BuiltinTeam team(manifest_->source_root, setup());
  auto options = team.options(k, source(k), {}, testing::kH200);
  ASSERT_TRUE(options) << options.error().message;
  int with_block = 0;
  for (const auto& label : *options) {
    auto v = code(team, k, label);
    if (!v.value) continue;
    int64_t block = builtin::constant_block(v.value->launch);
    EXPECT_LE(block, 256) << label;
    with_block += block > 0;
  }
  EXPECT_GT(with_block, 0) << "launch shapes within the bound are still offered: "
                           << ::testing::PrintToString(*options);
}

}  // namespace
}  // namespace stark
