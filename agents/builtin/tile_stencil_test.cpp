// tile-stencil on the benchmark suite's five-point stencil (a real clang
// parse of bench/src/stencil.cu): the rewrite passes the variant check,
// compiles with nvcc for sm_90 with the tile in shared memory, and leaves
// kernels that are not stencils alone.
#include <gtest/gtest.h>

#include <algorithm>

#include "agents/builtin/scanned_kernels_test.h"
#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/file_io.h"
#include "harness/compile/compile_service.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

using TileStencilTest = testing::ScannedKernels<testing::BenchProject>;
using testing::count;
using testing::kH200;

TEST_F(TileStencilTest, TheFivePointStencilReadsItsNeighboursFromASharedTile) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  harness::CompileService compiler({fs::temp_directory_path() / "stark_tile_stencil_test_cache", 0, STARK_NVCC_PATH});
  const Kernel& k = kernel("src/stencil.cu:bench::stencil5_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options) << options.error().message;
  ASSERT_FALSE(options->empty());
  EXPECT_EQ(options->front(), "tile-stencil(rows_per_thread=4,x=32,y=8)") << ::testing::PrintToString(*options);

  for (const char* label : {"tile-stencil(rows_per_thread=4,x=32,y=8)", "tile-stencil(rows_per_thread=1,x=32,y=8)"}) {
    auto v = code(team, k, label);
    ASSERT_TRUE(v.value) << label << ": " << v.value.error().message;
    const std::string& text = v.value->source;
    bool banded = std::string(label).find("rows_per_thread=4") != std::string::npos;
    // Six reads (the border copies its point), each from the tile; the
    // input is read only by the load.
    EXPECT_EQ(count(text, "stark_tile["), 1u + 1u + 6u) << text;  // declaration, load, reads
    EXPECT_EQ(count(text, "in["), 1u) << text;
    EXPECT_NE(text.find(banded ? "stark_tile[34][34]" : "stark_tile[10][34]"), std::string::npos) << text;
    // The load and its barrier come before the early return.
    EXPECT_LT(text.find("__syncthreads()"), text.find(banded ? "continue;" : "return;")) << text;
    EXPECT_EQ(count(text, "return;"), banded ? 0u : 1u) << text;
    EXPECT_EQ(v.value->launch.block, (std::vector<std::string>{"32", "8", "1"}));
    EXPECT_EQ(v.value->launch.grid.at(0), "ceil_div(cols, 32)");
    EXPECT_EQ(v.value->launch.grid.at(1), banded ? "ceil_div(rows, 32)" : "ceil_div(rows, 8)");

    auto valid = validator.validate(k, *v.value);
    EXPECT_TRUE(valid) << label << ": " << (valid ? "" : valid.error().message) << "\n" << text;
    auto built = compiler.compile({&k, manifest_->source_root, text, "90", harness::CompileMode::Ptx, std::nullopt});
    ASSERT_TRUE(built && built->ok) << label << ":\n" << (built ? built->log : built.error().message) << "\n" << text;
    auto ptx = read_file(built->output);
    ASSERT_TRUE(ptx);
    EXPECT_NE(ptx->find("ld.shared.f32"), std::string::npos) << label;
    EXPECT_NE(ptx->find("bar.sync"), std::string::npos) << label;
    // Every load of the input is issued before the first store to the tile:
    // a thread's loads are in flight together, not one latency after another.
    ASSERT_NE(ptx->find("st.shared"), std::string::npos) << label;
    EXPECT_LT(ptx->rfind("ld.global"), ptx->find("st.shared")) << label << "\n" << *ptx;
  }
}

TEST_F(TileStencilTest, KernelsThatAreNotStencilsAreLeftAlone) {
  BuiltinTeam team(manifest_->source_root, setup());
  // A transpose reads each element once; conv2d loops over its filter.
  for (const char* id : {"src/transpose.cu:bench::transpose_kernel", "src/conv2d.cu:bench::conv2d_kernel"}) {
    const Kernel& k = kernel(id);
    auto options = team.options(k, source(k), {}, kH200);
    ASSERT_TRUE(options) << id << ": " << options.error().message;
    for (const auto& l : *options) EXPECT_NE(l.rfind("tile-stencil", 0), 0u) << id << ": " << l;
  }
  auto refused =
      code(team, kernel("src/transpose.cu:bench::transpose_kernel"), "tile-stencil(rows_per_thread=1,x=32,y=8)");
  ASSERT_FALSE(refused.value);
  EXPECT_NE(refused.value.error().message.find("tile-stencil does not apply"), std::string::npos)
      << refused.value.error().message;
}

}  // namespace
}  // namespace stark
