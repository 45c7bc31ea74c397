// tile-matmul: a thread-per-output dot product becomes block tiles of A and
// B in shared memory with a register tile of outputs per thread (fixture
// nnops).
#include <gtest/gtest.h>

#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using TileMatmulStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(TileMatmulStrategy, TilesThroughSharedMemoryAndRegisters) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/matmul.cu:nnops::matmul_kernel");
  auto v = code(team, k, "tile-matmul(bk=8,bm=64,bn=64,tm=4,tn=4)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_NE(v.value->source.find("[8][64];"), std::string::npos) << v.value->source;
  // (64 / 4) x (64 / 4) threads, each with 4 x 4 outputs.
  ASSERT_FALSE(v.value->launch.block.empty());
  std::string ptx = ptx_of(k, *v.value);
  EXPECT_NE(ptx.find("ld.shared"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("fma.rn.f32"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find(".local"), std::string::npos) << "the register tile spilled";
}

// Tiles a block cannot hold are refused, not built into a failed launch.
TEST_F(TileMatmulStrategy, RefusesTilesThatDoNotDivide) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/matmul.cu:nnops::matmul_kernel");
  for (const char* wrong : {"tile-matmul(bk=8,bm=64,bn=64,tm=5,tn=4)", "tile-matmul(bk=8,bm=256,bn=256,tm=2,tn=2)"})
    EXPECT_FALSE(code(team, k, wrong).value) << wrong;
}

// A transpose has no dot product: not offered.
TEST_F(TileMatmulStrategy, LeavesAKernelWithoutADotProductAlone) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/transpose.cu:nnops::transpose_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options);
  for (const auto& l : *options) EXPECT_NE(l.rfind("tile-matmul", 0), 0u) << l;
}

}  // namespace
}  // namespace stark
