// block-size: another 1-D block size for a kernel with a bound check, the
// grid recomputed to cover the same elements (fixture nnops).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using BlockSizeStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(BlockSizeStrategy, SetsTheBlockAndCoversTheSameElements) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto v = code(team, k, "block-size(block=512)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_EQ(v.value->source, source(k)) << "the code stays as it is";
  EXPECT_EQ(v.value->launch.block, (std::vector<std::string>{"512"}));
  ASSERT_EQ(v.value->launch.grid.size(), 1u);
  EXPECT_EQ(v.value->launch.grid[0], "ceil_div(grid.x * block.x, 512)");
}

// A 2-D kernel (two thread indices) is no 1-D kernel with a bound check:
// a 1-D block would leave its y threads out.
TEST_F(BlockSizeStrategy, LeavesATwoDimensionalKernelAlone) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/transpose.cu:nnops::transpose_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options);
  for (const auto& l : *options) EXPECT_NE(l.rfind("block-size", 0), 0u) << l;
  EXPECT_FALSE(code(team, k, "block-size(block=512)").value);
}

}  // namespace
}  // namespace stark
