// The second example, examples/imgproc (fixture imgproc_built: configured
// against the installed package and built, as its users build it), through
// `stark scan` and `stark optimize` as a user runs them. Without a GPU every
// kernel ends untimed, each candidate compiled and, the library being built
// with separable compilation, device-linked with its other objects.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/file_io.h"
#include "core/manifest.h"
#include "core/result.h"
#include "tests/support/run_stark.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/imgproc-build";

ProcessResult stark(std::vector<std::string> args) { return testing::run_stark(STARK_EXE, std::move(args)); }

TEST(ImgprocCli, TheScanFindsEveryKernelAndSaysWhatItCannotRewrite) {
  TempDir tmp;
  const fs::path& out = tmp.path();
  auto r = stark({"scan", "-p", kBuild.string(), "--target", "imgproc", "-o", (out / "m.json").string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  auto m = load_manifest((out / "m.json").string());
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_FALSE(m->has_errors()) << r.output;
  std::vector<std::string> ids;
  for (const auto& k : m->kernels) ids.push_back(k.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"src/filters/convolve.cu:imgproc::detail::convolve_rows",
                                           "src/pointwise/tone.cu:imgproc::detail::tone_map_kernel",
                                           "src/resample/downsample.cu:imgproc::detail::downsample2x_kernel",
                                           "src/stats/stats.cu:imgproc::detail::block_moments"}));
  const Kernel* convolve = m->find_kernel(ids[0]);
  EXPECT_EQ(convolve->instantiations.size(), 8u);  // float/double x 128/256 x clamp or not
  EXPECT_NE(convolve->fixed_launch.find("used through a pointer at src/filters/convolve.cu:42"), std::string::npos)
      << convolve->fixed_launch;
  EXPECT_NE(m->find_kernel(ids[1])->fixed_launch.find("used through a pointer at src/pointwise/tone.cu:21"),
            std::string::npos);
  EXPECT_TRUE(m->find_kernel(ids[2])->fixed_launch.empty());
  EXPECT_TRUE(m->find_kernel(ids[3])->fixed_launch.empty());
  // The legacy host routine only clang rejects: warned, its unit's kernel read.
  EXPECT_NE(r.output.find("src/stats/stats.cu:62:3: warning: clang (which STARK parses with) rejects this"),
            std::string::npos)
      << r.output;
  // What the capture records: the taps convolve_rows reads from another
  // unit, nothing of cooperative groups for block_moments, and every
  // variable for tone_map_kernel, whose device functions live in another unit.
  EXPECT_EQ(convolve->module_variables, std::optional<std::vector<std::string>>({"_ZN7imgproc6detail6c_tapsE"}));
  EXPECT_EQ(m->find_kernel(ids[3])->module_variables,
            std::optional<std::vector<std::string>>(std::vector<std::string>{}));
  EXPECT_FALSE(m->find_kernel(ids[1])->module_variables);
  const auto& args = convolve->compile->arguments;
  EXPECT_NE(std::find(args.begin(), args.end(), "-rdc=true"), args.end());
}

TEST(ImgprocCli, EveryKernelIsSearchedWithItsCandidatesCompiledAndLinked) {
  TempDir tmp;
  fs::path out = tmp / "optimize";
  auto r = stark({"optimize", "-p", kBuild.string(), "--target", "imgproc", "--budget", "2", "--out", out.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->kernels.size(), 4u);
  for (const auto& k : result->kernels) {
    EXPECT_EQ(k.status, KernelStatus::Untimed) << k.id << "\n" << r.output;
    int compiled = 0;
    for (const auto& node : k.tree) compiled += node.parent && node.status == NodeStatus::Untimed;
    EXPECT_GE(compiled, 1) << k.id << "\n" << r.output;
  }
}

}  // namespace
}  // namespace stark
