// The built-in expert recognises what a kernel computes, not how it is
// spelled: every style of one computation in tests/projects/styles
// (configured by the ctest fixture "styles"; 1-D and 2-D grids, grid-stride
// loops, sizes as parameters or struct fields, pointers stepped or indexed,
// templates) is offered the strategy family that computation calls for,
// from the clang analysis alone, and the variant it makes builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"
#include "agents/builtin/strategy.h"
#include "clang_tool/variant_check.h"
#include "harness/compile/compile_service.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

struct StylesProject {
  static constexpr const char* kBuild = "styles-build";
  static constexpr const char* kTarget = "styles";
};

class Styles : public testing::ScannedKernels<StylesProject> {
 protected:
  /// Expects `family` among the options of every style of one computation,
  /// and its first option's variant to pass the clang variant check and
  /// compile with nvcc for sm_90: an offer that cannot be built is no offer.
  static void expect_family_for_every_style(const std::string& family, const std::string& file,
                                            const std::vector<std::string>& kernels) {
    BuiltinTeam team(manifest_->source_root, setup());
    ClangVariantValidator validator(setup(), manifest_->source_root);
    harness::CompileService compiler({fs::temp_directory_path() / "stark_styles_test_cache", 0, STARK_NVCC_PATH});
    for (const auto& name : kernels) {
      const Kernel& k = kernel("src/" + file + ":styles::" + name);
      auto options = team.options(k, source(k), {}, testing::kH200);
      ASSERT_TRUE(options) << k.id << ": " << options.error().message;
      auto first = std::find_if(options->begin(), options->end(), [&](const std::string& label) {
        auto parsed = builtin::parse_label(label);
        return parsed && parsed->first == family;
      });
      EXPECT_NE(first, options->end()) << name << " is not offered " << family << "; offered "
                                       << ::testing::PrintToString(*options);
      if (first == options->end()) continue;
      auto reply = code(team, k, *first);
      ASSERT_TRUE(reply.value) << name << " " << *first << ": " << reply.value.error().message;
      auto valid = validator.validate(k, *reply.value);
      EXPECT_TRUE(valid) << name << " " << *first << ": " << valid.error().message << "\n" << reply.value->source;
      auto built = compiler.compile(
          {&k, manifest_->source_root, reply.value->source, "90", harness::CompileMode::Cubin, std::nullopt});
      ASSERT_TRUE(built) << built.error().message;
      EXPECT_TRUE(built->ok) << name << " " << *first << ":\n" << built->log << "\n" << reply.value->source;
    }
  }
};

// Each computation: the styles the expert recognises today, then (DISABLED_,
// run them with --gtest_also_run_disabled_tests) the styles it does not yet:
// pointers walked to an end, a flat index split by / and %, sizes in a
// struct on a 2-D grid. They are the expert's open work, kept here so that
// recognising one more is a test turned on, not a test written later.

TEST_F(Styles, AnElementwiseMapIsVectorised) {
  expect_family_for_every_style("vectorize", "scale_shift.cu",
                                {"scale_shift_indexed", "scale_shift_strided", "scale_shift_templated"});
}

TEST_F(Styles, AThreadPerRowSumGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_sum.cu", {"row_sum_indexed", "row_sum_strided"});
}
TEST_F(Styles, DISABLED_AThreadPerRowSumWalkingAPointerGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_sum.cu", {"row_sum_pointer"});
}

// A scan or a recurrence reads its running value inside the loop: splitting
// the row over a block's threads would be wrong (the verifier rejects it,
// but every such attempt is wasted).
TEST_F(Styles, ARowLoopThatReadsItsRunningValueGetsNoBlockPerRow) {
  BuiltinTeam team(manifest_->source_root, setup());
  for (const char* name : {"row_prefix_sum", "row_welford"}) {
    const Kernel& k = kernel(std::string("src/row_recurrence.cu:styles::") + name);
    auto options = team.options(k, source(k), {}, testing::kH200);
    ASSERT_TRUE(options) << name << ": " << options.error().message;
    for (const auto& label : *options) EXPECT_NE(label.rfind("block-per-row", 0), 0u) << name << " offered " << label;
  }
}

// Rows become blocks along x; a batch the kernel spread over the grid's y
// keeps its grid.y (with a 1-D grid, 3 of 4 matrices went unwritten).
TEST_F(Styles, ABatchOnTheGridsYKeepsItsYWhenRowsBecomeBlocks) {
  expect_family_for_every_style("block-per-row", "row_recurrence.cu", {"row_sum_batched"});
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/row_recurrence.cu:styles::row_sum_batched");
  auto reply = code(team, k, "block-per-row(block=256)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  EXPECT_EQ(reply.value->launch.grid, (std::vector<std::string>{"rows", "grid.y", "grid.z"}));
}

TEST_F(Styles, AnAtomicTotalIsReducedInTheBlockFirst) {
  expect_family_for_every_style("block-reduce", "total_sum.cu", {"total_sum_atomic", "total_sum_squares"});
}
TEST_F(Styles, APerThreadPartialTotalIsReducedInTheBlockFirst) {
  expect_family_for_every_style("block-reduce", "total_sum.cu", {"total_sum_strided"});
}

TEST_F(Styles, AHistogramIsPrivatised) {
  expect_family_for_every_style("privatize", "histogram.cu",
                                {"histogram_indexed", "histogram_bytes", "histogram_keys"});
}

TEST_F(Styles, ATransposeIsTiled) {
  expect_family_for_every_style("tile-transpose", "transpose.cu", {"transpose_2d", "transpose_struct"});
}
TEST_F(Styles, DISABLED_AFlatTransposeIsTiled) {
  expect_family_for_every_style("tile-transpose", "transpose.cu", {"transpose_flat"});
}

TEST_F(Styles, AMatmulIsTiled) { expect_family_for_every_style("tile-matmul", "matmul.cu", {"matmul_2d"}); }
TEST_F(Styles, DISABLED_AFlatOrPointerSteppingMatmulIsTiled) {
  expect_family_for_every_style("tile-matmul", "matmul.cu", {"matmul_flat", "matmul_templated"});
}

TEST_F(Styles, AStencilIsTiled) { expect_family_for_every_style("tile-stencil", "stencil.cu", {"stencil_2d"}); }
TEST_F(Styles, DISABLED_AFlatOrPitchedStencilIsTiled) {
  expect_family_for_every_style("tile-stencil", "stencil.cu", {"stencil_flat", "stencil_pitched"});
}

TEST_F(Styles, AThreadPerRowSoftmaxGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_softmax.cu",
                                {"row_softmax_indexed", "row_softmax_pointer", "row_softmax_strided"});
}

}  // namespace
}  // namespace stark
