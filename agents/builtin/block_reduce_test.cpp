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
using testing::kH200;
namespace fs = std::filesystem;

TEST_F(BlockReduceStrategy, GridStrideLoopsKeepFourElementsInFlight) {
  BuiltinTeam team(manifest_->source_root, setup());
  harness::CompileService compiler({fs::temp_directory_path() / "stark_strategies_test_cache", 0, STARK_NVCC_PATH});
  const Kernel& k = kernel("src/reduce.cu:nnops::reduce_sum_kernel");
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  auto four = code(team, k, "block-reduce(block=256,blocks_per_sm=8,ilp=4)");
  ASSERT_TRUE(four.value) << four.value.error().message;
  // Four calls per pass and one in the tail loop.
  EXPECT_EQ(count(four.value->source, "stark_reduce_sum_kernel_element("), 5u) << four.value->source;
  auto built =
      compiler.compile({&k, manifest_->source_root, four.value->source, "90", harness::CompileMode::Ptx, std::nullopt});
  ASSERT_TRUE(built && built->ok) << (built ? built->log : built.error().message);
  auto ptx = read_file(built->output);
  ASSERT_TRUE(ptx);
  EXPECT_GE(count(*ptx, "ld.global"), 5u) << *ptx;

  // A plan written before the knob existed still applies, as the plain loop.
  auto plain = code(team, k, "block-reduce(block=256,blocks_per_sm=8)");
  ASSERT_TRUE(plain.value) << plain.value.error().message;
  EXPECT_EQ(count(plain.value->source, "_element("), 0u) << plain.value->source;
  EXPECT_NE(plain.value->source.find("+= gridDim.x * blockDim.x"), std::string::npos) << plain.value->source;
}

}  // namespace
}  // namespace stark
