// block-per-row: a thread-per-row kernel becomes a block per row, its row
// loops split over the block's threads (fixture styles).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents/builtin/styled_kernels_test.h"

namespace stark {
namespace {

using BlockPerRowStrategy = testing::StyledKernels;

// A scan or a recurrence reads its running value inside the loop: splitting
// the row over a block's threads would be wrong (the verifier rejects it,
// but every such attempt is wasted).
TEST_F(BlockPerRowStrategy, ARowLoopThatReadsItsRunningValueGetsNoBlockPerRow) {
  BuiltinTeam team(manifest_->source_root, setup());
  for (const char* name : {"row_prefix_sum", "row_welford"}) {
    const Kernel& k = kernel(std::string("src/row_recurrence.cu:styles::") + name);
    auto options = team.options(k, source(k), {}, testing::kH200);
    ASSERT_TRUE(options) << name << ": " << options.error().message;
    for (const auto& label : *options) EXPECT_NE(label.rfind("block-per-row", 0), 0u) << name << " offered " << label;
  }
}

// Rows become blocks along x; a batch the kernel spread over the grid's y
// keeps its grid.y (with a 1-D grid, 3 of 4 matrices went unwritten).
TEST_F(BlockPerRowStrategy, ABatchOnTheGridsYKeepsItsYWhenRowsBecomeBlocks) {
  expect_family_for_every_style("block-per-row", "row_recurrence.cu", {"row_sum_batched"});
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/row_recurrence.cu:styles::row_sum_batched");
  auto reply = code(team, k, "block-per-row(block=256)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  EXPECT_EQ(reply.value->launch.grid, (std::vector<std::string>{"rows", "grid.y", "grid.z"}));
}

}  // namespace
}  // namespace stark
