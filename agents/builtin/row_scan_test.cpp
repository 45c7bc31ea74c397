// row-scan: a running sum or product written along a row (a scan) is
// scanned by a block, tile by tile (fixture styles).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents/builtin/styled_kernels_test.h"
#include "clang_tool/kernel_analysis.h"

namespace stark {
namespace {

using RowScanStrategy = testing::StyledKernels;

// What a row scan is recognised by: the loop's direction and end, what its
// body declares and changes, a product as a running value.
TEST_F(RowScanStrategy, TheAnalysisReadsALoopsDirectionAndWhatItsBodyChanges) {
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
TEST_F(RowScanStrategy, OnlyAnUnconditionalRunningSumOrProductIsScanned) {
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
TEST_F(RowScanStrategy, ARowScanRunsTheBodyOncePerElementWithTheValueBeforeIt) {
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

}  // namespace
}  // namespace stark
