// The built-in expert recognises what a kernel computes, not how it is
// spelled: every style of one computation in tests/projects/styles
// (configured by the ctest fixture "styles"; 1-D and 2-D grids, grid-stride
// loops, sizes as parameters or struct fields, pointers stepped or indexed,
// templates) is offered the strategy family that computation calls for,
// from the clang analysis alone.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"
#include "agents/builtin/strategy.h"

namespace stark {
namespace {

struct StylesProject {
  static constexpr const char* kBuild = "styles-build";
  static constexpr const char* kTarget = "styles";
};

class Styles : public testing::ScannedKernels<StylesProject> {
 protected:
  /// The strategy families (labels without their parameters) offered to a kernel.
  static std::set<std::string> families(BuiltinTeam& team, const Kernel& k) {
    auto all = team.options(k, source(k), {}, testing::kH200);
    EXPECT_TRUE(all) << k.id << ": " << all.error().message;
    std::set<std::string> out;
    if (!all) return out;
    for (const auto& label : *all)
      if (auto parsed = builtin::parse_label(label)) out.insert(parsed->first);
    return out;
  }

  /// Expects `family` among the options of every style of one computation.
  static void expect_family_for_every_style(const std::string& family, const std::string& file,
                                            const std::vector<std::string>& kernels) {
    BuiltinTeam team(manifest_->source_root, setup());
    for (const auto& name : kernels) {
      std::set<std::string> offered = families(team, kernel("src/" + file + ":styles::" + name));
      EXPECT_TRUE(offered.count(family)) << name << " is not offered " << family << "; offered "
                                         << ::testing::PrintToString(offered);
    }
  }
};

// Each computation: the styles the expert recognises today, then (DISABLED_,
// run them with --gtest_also_run_disabled_tests) the styles it does not yet:
// pointers walked to an end, a per-thread partial sum before one atomic, a
// histogram bin computed from a loaded value, a flat index split by / and %,
// sizes in a struct on a 2-D grid. They are the expert's open work, kept here
// so that recognising one more is a test turned on, not a test written later.

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

TEST_F(Styles, AnAtomicTotalIsReducedInTheBlockFirst) {
  expect_family_for_every_style("block-reduce", "total_sum.cu", {"total_sum_atomic", "total_sum_squares"});
}
TEST_F(Styles, DISABLED_APerThreadPartialTotalIsReducedInTheBlockFirst) {
  expect_family_for_every_style("block-reduce", "total_sum.cu", {"total_sum_strided"});
}

TEST_F(Styles, DISABLED_AHistogramIsPrivatised) {
  expect_family_for_every_style("privatize", "histogram.cu", {"histogram_indexed", "histogram_bytes", "histogram_keys"});
}

TEST_F(Styles, ATransposeIsTiled) { expect_family_for_every_style("tile-transpose", "transpose.cu", {"transpose_2d"}); }
TEST_F(Styles, DISABLED_AFlatOrStructTransposeIsTiled) {
  expect_family_for_every_style("tile-transpose", "transpose.cu", {"transpose_flat", "transpose_struct"});
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
  expect_family_for_every_style("block-per-row", "row_softmax.cu", {"row_softmax_indexed"});
}
TEST_F(Styles, DISABLED_AThreadPerRowSoftmaxWalkingPointersOrGridStridingGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_softmax.cu", {"row_softmax_pointer", "row_softmax_strided"});
}

}  // namespace
}  // namespace stark
