// ldg: loads of read-only inputs through the read-only data path, once the
// pointers are __restrict__ (fixture nnops).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using LdgStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(LdgStrategy, ReadOnlyLoadsFollowRestrict) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto root = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(root);
  for (const auto& l : *root) EXPECT_NE(l, "ldg()") << "no __restrict__ yet: the read-only path could see a write";

  auto restricted = code(team, k, "restrict()");
  ASSERT_TRUE(restricted.value) << restricted.value.error().message;
  auto after = team.options(k, restricted.value->source, restricted.value->launch, kH200);
  ASSERT_TRUE(after);
  ASSERT_NE(std::find(after->begin(), after->end(), "ldg()"), after->end()) << ::testing::PrintToString(*after) << "\n"
                                                                            << restricted.value->source;
  auto loads = code(team, k, "ldg()", &*restricted.value, "restrict()");
  ASSERT_TRUE(loads.value) << loads.value.error().message;
  EXPECT_NE(loads.value->source.find("__ldg(&x["), std::string::npos) << loads.value->source;
  EXPECT_EQ(loads.value->source.find("__ldg(&y["), std::string::npos) << "y is written: " << loads.value->source;
  EXPECT_NE(ptx_of(k, *loads.value).find("ld.global.nc"), std::string::npos);
}

}  // namespace
}  // namespace stark
