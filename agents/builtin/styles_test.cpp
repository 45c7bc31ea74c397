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

#include "agents/builtin/styled_kernels_test.h"
#include "clang_tool/kernel_analysis.h"

namespace stark {
namespace {

using Styles = testing::StyledKernels;

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

// A running sum or product written along the row (a scan): the block scans
// tiles of the row, whatever the direction, the write's place (inclusive,
// exclusive), the element type or the way sizes arrive.
TEST_F(Styles, ARunningValueWrittenAlongTheRowIsScannedByABlock) {
  expect_family_for_every_style("row-scan", "row_scan.cu",
                                {"scan_inclusive", "scan_exclusive", "scan_reverse", "scan_product", "scan_weighted"});
  expect_family_for_every_style("row-scan", "row_recurrence.cu", {"row_prefix_sum"});
}

// One output per thread, reduced over a dimension that is not contiguous (a
// column, the middle of three dimensions, the channels at a position): the
// loop is split over several threads of each output.
TEST_F(Styles, AReductionOverAStridedDimensionIsSplitAcrossThreads) {
  expect_family_for_every_style(
      "split-reduction", "column_reduce.cu",
      {"column_sum_indexed", "column_mean_batched", "column_max_strided", "column_min_templated", "channel_rms_norm",
       "channel_sum_nested", "column_max_nan", "column_argmax", "column_argmin_nan", "column_min_walked"});
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

// A row that is a nest of loops (a channel's planes over the samples, a
// sample's channels): the innermost loop is split over the block, the loops
// around it run in every thread alike.
TEST_F(Styles, ARowWalkedByANestOfLoopsGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "channel_norm.cu", {"channel_mean_var", "center_planes"});
}

// Welford's mean and second moment (Chan's combination joins the threads'
// parts), however the count and the new mean's deviation are written, over
// one loop or a nest.
TEST_F(Styles, AWelfordMeanAndVarianceGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_recurrence.cu", {"row_welford"});
  expect_family_for_every_style("block-per-row", "channel_norm.cu", {"plane_welford_norm", "channel_welford"});
}

// An argmax or argmin along the row: the block combines each thread's value
// with its place (of equal values the first; torch's first NaN).
TEST_F(Styles, AThreadPerRowArgmaxGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_argmax.cu", {"row_argmax_seeded", "row_argmin_nan"});
}

TEST_F(Styles, AThreadPerRowSoftmaxGetsABlockPerRow) {
  expect_family_for_every_style("block-per-row", "row_softmax.cu",
                                {"row_softmax_indexed", "row_softmax_pointer", "row_softmax_strided"});
}

}  // namespace
}  // namespace stark
