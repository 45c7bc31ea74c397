// Host code nvcc compiles parses the same with clang: tests/projects/nvcc_host
// calls min and max from host functions, which clang's CUDA headers declare
// for device code only.
#include <gtest/gtest.h>

#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

TEST(NvccCompat, HostMinMaxParseAndTheKernelIsFound) {
  auto setup = locate_clang_setup();
  ASSERT_TRUE(setup) << setup.error().message;
  const fs::path root = fs::path(STARK_SOURCE_DIR) / "tests/projects/nvcc_host";
  const fs::path file = root / "src/clamp.cu";
  CompileCommand c{root.string(),
                   file.string(),
                   {STARK_NVCC_PATH, "-I" + (fs::path(STARK_SOURCE_DIR) / "include").string(), "-c", file.string()},
                   "",
                   {"90"}};
  auto scan = scan_units({c}, *setup, root, ScanOptions{});
  std::string diagnostics;
  for (const auto& d : scan.manifest.diagnostics) diagnostics += d.format() + "\n";
  EXPECT_FALSE(scan.manifest.has_errors()) << diagnostics;
  ASSERT_EQ(scan.manifest.kernels.size(), 1u) << diagnostics;
  EXPECT_EQ(scan.manifest.kernels[0].id, "src/clamp.cu:clamp_kernel");
  ASSERT_EQ(scan.manifest.kernels[0].launches.size(), 1u);
  EXPECT_EQ(scan.manifest.kernels[0].launches[0].grid, "blocks_for(n, 256)");
}

TEST(NvccCompat, TheSetupRefusesAStubFolderWithoutTheCompatHeader) {
  TempDir tmp;
  const fs::path& stubs = tmp.path();
  auto setup = locate_clang_setup();
  ASSERT_TRUE(setup);
  fs::copy_file(setup->stub_dir / "texture_fetch_functions.h", stubs / "texture_fetch_functions.h");
  ::setenv("STARK_STUB_DIR", stubs.c_str(), 1);
  auto without = locate_clang_setup();
  ::unsetenv("STARK_STUB_DIR");
  ASSERT_FALSE(without);
  EXPECT_NE(without.error().message.find("STARK_STUB_DIR"), std::string::npos) << without.error().message;
}

}  // namespace
}  // namespace stark
