// max-registers: a per-kernel register cap (__maxnreg__) nvcc honours, never
// beside __launch_bounds__, which caps registers its own way (fixture nnops).
#include <gtest/gtest.h>

#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using MaxRegistersStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(MaxRegistersStrategy, CapsTheKernelsRegisters) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto capped = code(team, k, "max-registers(registers=32)");
  ASSERT_TRUE(capped.value) << capped.value.error().message;
  EXPECT_NE(capped.value->source.find("__global__ __maxnreg__(32)"), std::string::npos) << capped.value->source;
  EXPECT_NE(ptx_of(k, *capped.value).find(".maxnreg 32"), std::string::npos);
}

TEST_F(MaxRegistersStrategy, IsNotOfferedBesideLaunchBounds) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  std::string bounded = source(k);
  auto at = bounded.find("__global__");
  ASSERT_NE(at, std::string::npos);
  bounded.insert(at + 10, " __launch_bounds__(256)");
  auto options = team.options(k, bounded, {}, kH200);
  ASSERT_TRUE(options) << options.error().message;
  for (const auto& l : *options) EXPECT_NE(l.rfind("max-registers", 0), 0u) << l;
}

}  // namespace
}  // namespace stark
