// unroll: `#pragma unroll` before loops no pragma covers yet, on a line of
// its own with the loop's indentation (fixture nnops).
#include <gtest/gtest.h>

#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using UnrollStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(UnrollStrategy, PutsThePragmaBeforeTheLoop) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/matmul.cu:nnops::matmul_kernel");
  auto v = code(team, k, "unroll(factor=4)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_NE(v.value->source.find("  #pragma unroll 4\n  for (int p = 0; p < k; ++p)"), std::string::npos)
      << v.value->source;
  EXPECT_FALSE(ptx_of(k, *v.value).empty());
}

// The user's own pragma (with a comment between) wins: no second one.
TEST_F(UnrollStrategy, LeavesALoopTheUserAlreadyHinted) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/matmul.cu:nnops::matmul_kernel");
  std::string hinted = source(k);
  auto at = hinted.find("for (int p");
  ASSERT_NE(at, std::string::npos);
  hinted.insert(at, "#pragma unroll 2\n  // the k loop\n  ");
  auto options = team.options(k, hinted, {}, kH200);
  ASSERT_TRUE(options) << options.error().message;
  for (const auto& l : *options) EXPECT_NE(l.rfind("unroll", 0), 0u) << l;
}

}  // namespace
}  // namespace stark
