// block-reduce: a total built with atomics is reduced within the block
// first, over a grid-stride loop (fixture nnops).
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

using BlockReduceStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::count;
using testing::kH200;

TEST_F(BlockReduceStrategy, GridStrideLoopsKeepFourElementsInFlight) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/reduce.cu:nnops::reduce_sum_kernel");
  auto four = code(team, k, "block-reduce(block=256,blocks_per_sm=8,ilp=4)");
  ASSERT_TRUE(four.value) << four.value.error().message;
  // Four calls per pass and one in the tail loop.
  EXPECT_EQ(count(four.value->source, "stark_reduce_sum_kernel_element("), 5u) << four.value->source;
  std::string ptx = ptx_of(k, *four.value);
  EXPECT_GE(count(ptx, "ld.global"), 5u) << ptx;

  // A plan written before the knob existed still applies, as the plain loop.
  auto plain = code(team, k, "block-reduce(block=256,blocks_per_sm=8)");
  ASSERT_TRUE(plain.value) << plain.value.error().message;
  EXPECT_EQ(count(plain.value->source, "_element("), 0u) << plain.value->source;
  EXPECT_NE(plain.value->source.find("+= gridDim.x * blockDim.x"), std::string::npos) << plain.value->source;
}

}  // namespace
}  // namespace stark
