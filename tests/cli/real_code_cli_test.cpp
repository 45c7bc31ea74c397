// stark on kernels written and built as real projects do (tests/projects/wild,
// built by the ctest fixture "wild_built"), as a user runs it: a
// separable-compilation library searched end to end (candidates compiled as
// relocatable code and device-linked with the library's other objects), and
// kernels launched through pointers searched with their launch kept. Without
// a GPU every kernel ends untimed, with its candidates compiled.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/process.h"
#include "core/result.h"
#include "tests/support/run_stark.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/wild-build";

ProcessResult stark(std::vector<std::string> args) { return testing::run_stark(STARK_EXE, std::move(args)); }

/// Attempts whose candidate compiled (and, for relocatable code, linked).
int compiled_attempts(const KernelResult& k) {
  int n = 0;
  for (const auto& node : k.tree) n += node.parent && node.status == NodeStatus::Untimed;
  return n;
}

TEST(RealCodeCli, ASeparableCompilationLibraryIsSearchedEndToEnd) {
  TempDir tmp;
  fs::path out = tmp / "rdc";
  auto r = stark({"optimize", "-p", kBuild.string(), "--target", "wild_rdc", "--budget", "3", "--out", out.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->kernels.size(), 1u);
  const KernelResult& smooth = result->kernels[0];
  EXPECT_EQ(smooth.id, "src/rdc/filters.cu:wild::smooth");
  EXPECT_EQ(smooth.status, KernelStatus::Untimed) << r.output;
  EXPECT_EQ(smooth.attempts, 3);
  EXPECT_GE(compiled_attempts(smooth), 1) << r.output;
}

TEST(RealCodeCli, AKernelUsedThroughAPointerIsSearchedWithItsLaunchKept) {
  TempDir tmp;
  fs::path out = tmp / "pointer";
  auto r = stark({"optimize", "-p", kBuild.string(), "--target", "wild", "--kernel", "src/pointers.cu:wild::square",
                  "--budget", "3", "--out", out.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("src/pointers.cu:36:62: warning: kernel 'wild::square' is used through a pointer here"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("warning: kernel 'wild::offset_rows' is read although clang rejects other code of this "
                          "unit"),
            std::string::npos)
      << r.output;
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->kernels.size(), 1u);
  const KernelResult& square = result->kernels[0];
  EXPECT_EQ(square.status, KernelStatus::Untimed) << r.output;
  EXPECT_GE(compiled_attempts(square), 1) << r.output;
  for (const auto& node : square.tree) {
    if (node.variant) {
      EXPECT_TRUE(node.variant->launch.empty()) << "attempt " << node.id << ": " << node.strategy;
    }
  }
}

}  // namespace
}  // namespace stark
