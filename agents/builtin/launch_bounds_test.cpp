// launch-bounds: __launch_bounds__ with the block size the launch fixes, so
// nvcc may budget registers for it (fixture nnops).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using LaunchBoundsStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

bool offers(const std::vector<std::string>& options, const std::string& label) {
  return std::find(options.begin(), options.end(), label) != options.end();
}

// The project's launch sets the block at run time: only a variant that fixes
// it (here block-size) can promise nvcc a maximum.
TEST_F(LaunchBoundsStrategy, FollowsAConstantBlock) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto original = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(original);
  for (const auto& l : *original) EXPECT_NE(l.rfind("launch-bounds", 0), 0u) << l;

  auto sized = code(team, k, "block-size(block=256)");
  ASSERT_TRUE(sized.value) << sized.value.error().message;
  auto after = team.options(k, sized.value->source, sized.value->launch, kH200);
  ASSERT_TRUE(after);
  EXPECT_TRUE(offers(*after, "launch-bounds(min_blocks=2,threads=256)")) << ::testing::PrintToString(*after);
  auto bounded = code(team, k, "launch-bounds(min_blocks=2,threads=256)", &*sized.value, "block-size(block=256)");
  ASSERT_TRUE(bounded.value) << bounded.value.error().message;
  EXPECT_NE(bounded.value->source.find("__global__ __launch_bounds__(256, 2)"), std::string::npos)
      << bounded.value->source;
  EXPECT_EQ(bounded.value->launch.block, sized.value->launch.block);
  std::string ptx = ptx_of(k, *bounded.value);
  EXPECT_NE(ptx.find(".maxntid 256"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".minnctapersm 2"), std::string::npos) << ptx;

  // Never twice, and never beside a register cap.
  auto again = team.options(k, bounded.value->source, bounded.value->launch, kH200);
  ASSERT_TRUE(again);
  for (const auto& l : *again) {
    EXPECT_NE(l.rfind("launch-bounds", 0), 0u) << l;
    EXPECT_NE(l.rfind("max-registers", 0), 0u) << l;
  }
}

}  // namespace
}  // namespace stark
