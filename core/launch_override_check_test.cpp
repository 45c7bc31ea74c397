#include "core/launch_override_check.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

Kernel kernel_with_params() {
  Kernel k;
  k.name = "scale";
  k.params = {{"n", "int", ParamKind::Scalar, "", false, false, 4, 4, {}},
              {"x", "float *", ParamKind::Pointer, "float", false, false, 8, 8, {}}};
  return k;
}

LaunchOverride blocks_of(const std::string& block) {
  LaunchOverride l;
  l.grid = {"ceil_div(n, " + block + ")"};
  l.block = {block};
  return l;
}

TEST(LaunchOverrideCheck, ParametersAndTheOriginalLaunchMayBeRead) {
  EXPECT_TRUE(check_launch_override(kernel_with_params(), blocks_of("256")));
  LaunchOverride l;
  l.grid = {"grid.x * 2"};
  EXPECT_TRUE(check_launch_override(kernel_with_params(), l));
}

TEST(LaunchOverrideCheck, APointerOrAnUnknownNameIsRefused) {
  auto bad = check_launch_override(kernel_with_params(), blocks_of("x"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("reads 'x'"), std::string::npos) << bad.error().message;
}

// The attack: a kernel launched through a pointer (or in a macro) keeps its
// launch whatever the result says, so a candidate that only works with
// another grid would be measured with one launch and shipped with another.
TEST(LaunchOverrideCheck, AKernelWhoseLaunchCannotBeRewrittenTakesNoOverride) {
  Kernel k = kernel_with_params();
  k.fixed_launch = "it is launched through a pointer (src/a.cu:40)";
  auto refused = check_launch_override(k, blocks_of("256"));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("launched through a pointer"), std::string::npos);
  EXPECT_TRUE(check_launch_override(k, LaunchOverride{})) << "a body-only candidate is still fine";
}

}  // namespace
}  // namespace stark
