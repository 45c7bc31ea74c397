// block-shape: a 2-D kernel's block made wider along x (fixture nnops).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using BlockShapeStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(BlockShapeStrategy, TwoDimensionalKernelsGetWiderBlocks) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  const Kernel& k = kernel("src/transpose.cu:nnops::transpose_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options);
  EXPECT_NE(std::find(options->begin(), options->end(), "block-shape(x=32,y=8)"), options->end())
      << ::testing::PrintToString(*options);
  auto wide = code(team, k, "block-shape(x=64,y=4)");
  ASSERT_TRUE(wide.value) << wide.value.error().message;
  EXPECT_EQ(wide.value->launch.block, (std::vector<std::string>{"64", "4", "1"}));
  EXPECT_EQ(wide.value->launch.grid.at(0), "ceil_div(grid.x * block.x, 64)");
  EXPECT_EQ(wide.value->launch.grid.at(1), "ceil_div(grid.y * block.y, 4)");
  auto valid = validator.validate(k, *wide.value);
  EXPECT_TRUE(valid) << (valid ? "" : valid.error().message);

  // 1-D kernels keep their shape.
  for (const char* id : {"src/elementwise.cu:nnops::saxpy_kernel", "src/reduce.cu:nnops::reduce_sum_kernel"}) {
    const Kernel& other = kernel(id);
    auto theirs = team.options(other, source(other), {}, kH200);
    ASSERT_TRUE(theirs);
    for (const auto& l : *theirs) EXPECT_NE(l.rfind("block-shape", 0), 0u) << id << ": " << l;
  }
}

}  // namespace
}  // namespace stark
