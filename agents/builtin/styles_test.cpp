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
#include "clang_tool/kernel_analysis.h"
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

// A running sum or product written along the row (a scan): the block scans
// tiles of the row, whatever the direction, the write's place (inclusive,
// exclusive), the element type or the way sizes arrive.
TEST_F(Styles, ARunningValueWrittenAlongTheRowIsScannedByABlock) {
  expect_family_for_every_style("row-scan", "row_scan.cu",
                                {"scan_inclusive", "scan_exclusive", "scan_reverse", "scan_product", "scan_weighted"});
  expect_family_for_every_style("row-scan", "row_recurrence.cu", {"row_prefix_sum"});
}

// What a row scan is recognised by: the loop's direction and end, what its
// body declares and changes, a product as a running value.
TEST_F(Styles, TheAnalysisReadsALoopsDirectionAndWhatItsBodyChanges) {
  auto analyze = [](const std::string& id) {
    const Kernel& k = kernel(id);
    auto a = analyze_kernel(k, source(k), setup(), manifest_->source_root);
    EXPECT_TRUE(a) << a.error().message;
    return a ? *a : KernelAnalysis{};
  };
  auto reverse = analyze("src/row_scan.cu:styles::scan_reverse");
  ASSERT_EQ(reverse.loops.size(), 1u);
  const Loop& down = reverse.loops[0];
  EXPECT_TRUE(down.counts_down);
  EXPECT_FALSE(down.unit_step);
  EXPECT_EQ(down.floor.text, "0");
  EXPECT_EQ(down.init_statement.text.rfind("int64_t c = cols - 1", 0), 0u) << down.init_statement.text;
  EXPECT_EQ(down.assigned, std::vector<std::string>{"acc"});  // the header's --c is not the body's
  EXPECT_FALSE(down.jumps);

  auto product = analyze("src/row_scan.cu:styles::scan_product");
  ASSERT_EQ(product.loops.size(), 1u);
  const Loop& up = product.loops[0];
  EXPECT_TRUE(up.unit_step);
  ASSERT_EQ(up.reductions.size(), 1u);
  EXPECT_EQ(up.reductions[0].op, ReduceOp::Product);
  EXPECT_EQ(up.declared, std::vector<std::string>{"at"});
  ASSERT_EQ(up.declarations.size(), 1u);
  EXPECT_EQ(up.declarations[0].text.rfind("const size_t at =", 0), 0u) << up.declarations[0].text;

  auto softmax = analyze("src/row_softmax.cu:styles::row_softmax_indexed");
  for (const auto& l : softmax.loops) EXPECT_FALSE(l.counts_down);
}

// An update under a condition, a value made from the running value, and
// Welford's recurrence are no scans a block can split; a plain row sum is a
// reduction (block-per-row's).
TEST_F(Styles, OnlyAnUnconditionalRunningSumOrProductIsScanned) {
  BuiltinTeam team(manifest_->source_root, setup());
  for (const char* id : {"src/row_scan.cu:styles::scan_conditional", "src/row_scan.cu:styles::scan_feedback",
                         "src/row_recurrence.cu:styles::row_welford", "src/row_sum.cu:styles::row_sum_indexed"}) {
    const Kernel& k = kernel(id);
    auto options = team.options(k, source(k), {}, testing::kH200);
    ASSERT_TRUE(options) << id << ": " << options.error().message;
    for (const auto& label : *options) EXPECT_NE(label.rfind("row-scan", 0), 0u) << id << " offered " << label;
  }
}

// The scan's shape: rows become blocks (a grid-stride loop over rows steps
// by the grid), the body runs once per element with the running value
// before it, and the running value carries on as carry + the tile's total.
TEST_F(Styles, ARowScanRunsTheBodyOncePerElementWithTheValueBeforeIt) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/row_scan.cu:styles::scan_reverse");
  auto reply = code(team, k, "row-scan(block=256,k=2)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_EQ(reply.value->launch.grid, (std::vector<std::string>{"rows", "grid.y", "grid.z"}));
  EXPECT_EQ(reply.value->launch.block, (std::vector<std::string>{"256"}));
  EXPECT_NE(v.find("row = blockIdx.x; row < rows; row += gridDim.x"), std::string::npos) << v;
  EXPECT_NE(v.find("stark_first - static_cast<long long>(0) + 1"), std::string::npos)
      << v;  // c from cols - 1 down to 0
  EXPECT_NE(v.find("stark_value[stark_k] = (x[row * cols + c]);"), std::string::npos) << v;
  EXPECT_NE(v.find("float acc = stark_carry + stark_before;"), std::string::npos) << v;
  EXPECT_NE(v.find("acc = stark_carry + stark_total;"), std::string::npos) << v;
  // After the loop every thread holds the row's total: the write after it stays as it was.
  EXPECT_NE(v.find("    totals[row] = acc;"), std::string::npos) << v;
  // The product's identity is one, and the declaration its value needs runs ahead of it.
  const Kernel& product = kernel("src/row_scan.cu:styles::scan_product");
  auto p = code(team, product, "row-scan(block=512,k=4)");
  ASSERT_TRUE(p.value) << p.value.error().message;
  EXPECT_NE(p.value->source.find("static_cast<T>(1)"), std::string::npos) << p.value->source;
  EXPECT_NE(p.value->source.find("const size_t at = static_cast<size_t>(row) * cols + c;\n"), std::string::npos);
  EXPECT_NE(p.value->source.find("T product = stark_carry * stark_before;"), std::string::npos) << p.value->source;
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
