// block-per-row: a thread-per-row kernel becomes a block per row, its row
// loops split over the block's threads (fixture styles).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents/builtin/styled_kernels_test.h"

namespace stark {
namespace {

class BlockPerRowStrategy : public testing::StyledKernels {
 protected:
  /// None of the file's kernels named is offered block-per-row.
  void expect_not_offered(const std::string& file, const std::vector<std::string>& names) {
    BuiltinTeam team(manifest_->source_root, setup());
    for (const auto& name : names) {
      const Kernel& k = kernel("src/" + file + ":styles::" + name);
      auto options = team.options(k, source(k), {}, testing::kH200);
      ASSERT_TRUE(options) << name << ": " << options.error().message;
      for (const auto& label : *options) EXPECT_NE(label.rfind("block-per-row", 0), 0u) << name << " offered " << label;
    }
  }
};

// A scan or a recurrence reads its running value inside the loop: splitting
// the row over a block's threads would be wrong (the verifier rejects it,
// but every such attempt is wasted). Welford's mean, read by its own
// update, is the exception block-per-row knows how to combine.
TEST_F(BlockPerRowStrategy, ARowLoopThatReadsItsRunningValueGetsNoBlockPerRow) {
  expect_not_offered("row_recurrence.cu", {"row_prefix_sum"});
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

// The row count is a local the kernel computes from its parameters: the
// launch computes it the same way.
TEST_F(BlockPerRowStrategy, ARowCountKeptInALocalBecomesTheGrid) {
  expect_family_for_every_style("block-per-row", "channel_norm.cu", {"plane_means"});
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/channel_norm.cu:styles::plane_means");
  auto reply = code(team, k, "block-per-row(block=256)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  EXPECT_EQ(reply.value->launch.grid, (std::vector<std::string>{"(shape.n * shape.c)", "grid.y", "grid.z"}));
}

// An accumulator carried through two loops would be combined twice (the
// second loop's parts added to a total every thread already holds); a write
// in a loop around the split loop would come from every thread.
TEST_F(BlockPerRowStrategy, ATotalCarriedThroughTwoLoopsOrWrittenAroundTheSplitLoopGetsNoBlockPerRow) {
  expect_not_offered("channel_norm.cu", {"row_sum_of_two", "plane_sums"});
}

// A value per iteration of the outer loop (a channel's total, declared inside
// the channel loop) is combined right after the split loop, inside the outer
// loop, before the next loop reads it; the plane loops are split, the
// channel loop is not.
TEST_F(BlockPerRowStrategy, AValuePerOuterIterationIsCombinedInsideTheOuterLoop) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/channel_norm.cu:styles::center_planes");
  auto reply = code(team, k, "block-per-row(block=256,inner=1)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& src = reply.value->source;
  EXPECT_NE(src.find("for (int k = 0; k < channels; ++k)"), std::string::npos) << src;
  EXPECT_NE(src.find("for (int p = threadIdx.x; p < plane; p += blockDim.x) total += src[p];"), std::string::npos)
      << src;
  const auto combined = src.find("total = ");
  ASSERT_NE(combined, std::string::npos) << src;
  EXPECT_LT(combined, src.find("const float mu")) << src;
  EXPECT_GT(combined, src.find("for (int k = 0;")) << src;
  // The outer-loops form splits the channel loop instead: the plane sum is
  // in a nested loop, so that form is not offered.
  auto options = team.options(k, source(k), {}, testing::kH200);
  ASSERT_TRUE(options) << options.error().message;
  for (const auto& label : *options) {
    if (label.rfind("block-per-row", 0) == 0) {
      EXPECT_NE(label.find("inner=1"), std::string::npos) << label;
    }
  }
}

}  // namespace
}  // namespace stark
