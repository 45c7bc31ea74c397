// The daily workflow's traps, run as a user runs the stark command: relative
// paths, typos, a value after an option that takes many, two runs into one
// folder. The example project (fixture nnops) without a GPU.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/folder_lock.h"
#include "core/process.h"
#include "core/result.h"
#include "tests/support/run_stark.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kProjects = fs::path(STARK_BINARY_DIR) / "tests/projects";
const char* kSaxpy = "src/elementwise.cu:nnops::saxpy_kernel";

ProcessResult stark(std::vector<std::string> args, const fs::path& cwd = {}) {
  return testing::run_stark(STARK_EXE, std::move(args), cwd);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Workflow, ARelativeBuildDirPutsTheResultInsideIt) {
  // The scan used to set the process's directory to the build's, so the
  // default --out (relative to -p) landed in build/build/stark/<target>.
  const fs::path result = kProjects / "nnops-build/stark/nnops";
  fs::remove_all(result);
  fs::remove_all(kProjects / "nnops-build/nnops-build");
  auto r =
      stark({"optimize", "-p", "nnops-build", "--target", "nnops", "--kernel", kSaxpy, "--budget", "1"}, kProjects);
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(kProjects / "nnops-build/nnops-build"));
  auto loaded = load_result(result.string());
  ASSERT_TRUE(loaded) << loaded.error().message << "\n" << r.output;
  ASSERT_EQ(loaded->kernels.size(), 1u);
  EXPECT_EQ(loaded->kernels[0].id, kSaxpy);
  fs::remove_all(result);
}

TEST(Workflow, DoubleDashEndsTheOptionsOfAManyValuedOption) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  auto r = stark({"optimize", "-p", (kProjects / "nnops-build").string(), "--kernel", kSaxpy, "--budget", "1", "--out",
                  out.string(), "--", "ctest", "--test-dir", (kProjects / "nnops-build").string()});
  EXPECT_EQ(r.status.code, 0) << r.output;
  EXPECT_FALSE(has(r.output, "not expected")) << r.output;
}

TEST(Workflow, ASecondRunIntoTheSameFolderIsRefused) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  auto first = FolderLock::acquire(out, "stark optimize");  // the run in progress
  ASSERT_TRUE(first) << first.error().message;
  auto r = stark({"optimize", "-p", (kProjects / "nnops-build").string(), "--budget", "1", "--out", out.string()});
  EXPECT_EQ(r.status.code, 1);
  EXPECT_TRUE(has(r.output, "stark: error: '" + out.string() + "' is in use by another run (pid ")) << r.output;
  EXPECT_TRUE(has(r.output, ": stark optimize since ")) << r.output;
  EXPECT_FALSE(fs::exists(out / "manifest.json")) << "the second run wrote into the first one's folder";
}

TEST(Workflow, TyposAreNamedWithTheNearestName) {
  auto command = stark({"scna", "-p", "build"});
  EXPECT_EQ(command.status.code, 2);
  EXPECT_TRUE(has(command.output, "stark: error: unknown command 'scna' for 'stark'; did you mean 'scan'?"))
      << command.output;

  auto nested = stark({"cache", "stat"});
  EXPECT_EQ(nested.status.code, 2);
  EXPECT_TRUE(has(nested.output, "unknown command 'stat' for 'stark cache'; did you mean 'stats'?")) << nested.output;

  auto top = stark({"--bogus"});
  EXPECT_EQ(top.status.code, 2);
  EXPECT_TRUE(has(top.output, "stark: error: unknown option '--bogus' for 'stark'")) << top.output;

  // Named before the missing required option CLI11 would report first.
  auto option = stark({"scan", "--buld-dir", "build"});
  EXPECT_EQ(option.status.code, 2);
  EXPECT_TRUE(has(option.output,
                  "stark: error: unknown option '--buld-dir' for 'stark scan'; did you mean "
                  "'--build-dir'?"))
      << option.output;
  EXPECT_TRUE(has(option.output, "Run 'stark scan --help' for usage.")) << option.output;
}

TEST(Workflow, VersionHelpAndNumbersAreShort) {
  auto version = stark({"version"});
  EXPECT_EQ(version.status.code, 0);
  EXPECT_EQ(version.output.rfind("stark 0.1.0 (clang 19.", 0), 0u) << version.output;
  auto help = stark({"help"});
  EXPECT_EQ(help.status.code, 0);
  EXPECT_TRUE(has(help.output, "stark optimize -p build -- ctest")) << help.output;

  for (const char* bad : {"x", "0", "-3", "99999999999999999999", "2.5"}) {
    auto r = stark({"optimize", "-p", "build", "--budget", bad});
    EXPECT_EQ(r.status.code, 2) << bad;
    EXPECT_LT(r.output.size(), 200u) << r.output;
    EXPECT_TRUE(has(r.output, "--budget")) << r.output;
    EXPECT_TRUE(has(r.output, "is not a whole number from 1 to")) << r.output;
  }
}

TEST(Workflow, ScanListsTheIdsThatKernelTakes) {
  auto r = stark({"scan", "-p", (kProjects / "nnops-build").string(), "--list"});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "KERNEL ")) << r.output;
  EXPECT_TRUE(has(r.output, "\nsrc/elementwise.cu:nnops::saxpy_kernel ")) << r.output;
  EXPECT_TRUE(has(r.output, "\n8 kernels, ")) << r.output;
  EXPECT_FALSE(has(r.output, "\"schema\"")) << r.output;

  // A kernel's bare name is not an id; the error offers the id.
  TempDir tmp;
  auto typo = stark({"optimize", "-p", (kProjects / "nnops-build").string(), "--kernel", "saxpy_kernel", "--out",
                     (tmp / "out").string()});
  EXPECT_EQ(typo.status.code, 1);
  EXPECT_TRUE(has(typo.output, "no kernel 'saxpy_kernel' in the manifest; did you mean '" + std::string(kSaxpy) + "'?"))
      << typo.output;
}

}  // namespace
}  // namespace stark
