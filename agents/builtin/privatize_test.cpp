// privatize: a histogram's atomics go to a per-block table in shared memory
// first (fixture nnops).
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

using PrivatizeStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

// A plan names the parameters, so they are checked: a shared table past what
// a block can hold (or none at all) is refused, not built into a launch that fails.
TEST_F(PrivatizeStrategy, APrivatisedTableOutsideSharedMemoryIsRefused) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/histogram.cu:nnops::histogram_kernel");
  ASSERT_TRUE(code(team, k, "privatize(block=512,blocks_per_sm=4,ilp=1,bins=1024)").value);
  for (const char* bins : {"100000000", "0", "-4"}) {
    auto reply = code(team, k, fmt::format("privatize(block=512,blocks_per_sm=4,ilp=1,bins={})", bins));
    ASSERT_FALSE(reply.value) << bins;
    EXPECT_NE(reply.value.error().message.find("is not from 1 to 12288"), std::string::npos)
        << reply.value.error().message;
  }
}

}  // namespace
}  // namespace stark
