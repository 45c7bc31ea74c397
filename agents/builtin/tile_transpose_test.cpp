// tile-transpose: a 2-D copy read along x and written along y goes through a
// 32x33 tile in shared memory, so both the reads and the writes are
// coalesced (fixture nnops).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using TileTransposeStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(TileTransposeStrategy, CopiesThroughAPaddedSharedTile) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/transpose.cu:nnops::transpose_kernel");
  auto v = code(team, k, "tile-transpose(rows_per_pass=8)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_NE(v.value->source.find("[32][33];"), std::string::npos) << "a padded tile: " << v.value->source;
  EXPECT_EQ(v.value->launch.block, (std::vector<std::string>{"32", "8", "1"}));
  std::string ptx = ptx_of(k, *v.value);
  EXPECT_NE(ptx.find("st.shared"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("ld.shared"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos) << ptx;
}

// A copy along the same axis (out[i] = in[i] on a 2-D grid) is no transpose.
TEST_F(TileTransposeStrategy, LeavesAStraightCopyAlone) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/matmul.cu:nnops::matmul_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options);
  for (const auto& l : *options) EXPECT_NE(l.rfind("tile-transpose", 0), 0u) << l;
  EXPECT_FALSE(code(team, k, "tile-transpose(rows_per_pass=8)").value);
}

}  // namespace
}  // namespace stark
