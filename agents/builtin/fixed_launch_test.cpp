// The expert on kernels whose launch a patch cannot rewrite
// (tests/projects/wild, configured by the ctest fixture "wild"): it offers
// only candidates that keep the launch, and still offers launch shapes for a
// kernel launched by name.
#include <gtest/gtest.h>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

struct Wild {
  static constexpr const char* kBuild = "wild-build";
  static constexpr const char* kTarget = "wild";
};

class FixedLaunch : public testing::ScannedKernels<Wild> {
 protected:
  /// How many of the expert's options for k change its launch.
  static std::pair<size_t, size_t> launch_changing_options(const Kernel& k) {
    BuiltinTeam team(manifest_->source_root, setup());
    auto options = team.options(k, source(k), {}, testing::kH200);
    EXPECT_TRUE(options) << options.error().message;
    size_t changing = 0;
    for (const auto& label : *options) {
      auto v = code(team, k, label);
      EXPECT_TRUE(v.value) << label << ": " << v.value.error().message;
      if (v.value && !v.value->launch.empty()) ++changing;
    }
    return {changing, options->size()};
  }
};

TEST_F(FixedLaunch, AKernelUsedThroughAPointerIsOfferedOnlyItsBody) {
  const Kernel& square = kernel("src/pointers.cu:wild::square");
  ASSERT_FALSE(square.fixed_launch.empty());
  auto [changing, all] = launch_changing_options(square);
  EXPECT_EQ(changing, 0u);
  EXPECT_GT(all, 0u) << "body-only candidates are still searched";
}

TEST_F(FixedLaunch, TheSameKernelLaunchedByNameIsOfferedLaunchShapes) {
  const Kernel& negate = kernel("src/pointers.cu:wild::negate");
  ASSERT_TRUE(negate.fixed_launch.empty()) << negate.fixed_launch;
  auto [changing, all] = launch_changing_options(negate);
  EXPECT_GT(changing, 0u) << all << " options";
}

}  // namespace
}  // namespace stark
