// split-reduction: a thread per output walking a long loop alone becomes
// several threads per output along a free block axis, their partials
// combined in shared memory (fixture styles).
#include "agents/builtin/split_reduction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "agents/builtin/catalogue.h"
#include "agents/builtin/styled_kernels_test.h"
#include "clang_tool/kernel_analysis.h"

namespace stark {
namespace {

using SplitReductionStrategy = testing::StyledKernels;
using testing::count;

// The loop is dealt out along y, the partial sum combined once after it, the
// output stored by the first thread of each column; the block is 32 columns
// by `split` threads and the grid covers the columns 32 at a time, keeping
// the batch on the grid's y. nvcc makes the combine of it: two barriers, a
// store to and loads from shared memory.
TEST_F(SplitReductionStrategy, TheLoopIsDealtOutAndThePartialsCombinedOnce) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_mean_batched");
  auto reply = code(team, k, "split-reduction(split=16)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_NE(v.find("for (unsigned int r = threadIdx.y; r < rows; r += blockDim.y)"), std::string::npos) << v;
  EXPECT_NE(v.find("total = stark_column_mean_batched_split_sum_f32(total);"), std::string::npos) << v;
  EXPECT_NE(v.find("if (threadIdx.y == 0) dst[static_cast<size_t>(blockIdx.y) * cols + col] = total / rows;"),
            std::string::npos)
      << v;
  EXPECT_EQ(count(v, "threadIdx.y == 0"), 1u) << "one store, made once";
  EXPECT_EQ(reply.value->launch.block, (std::vector<std::string>{"32", "16", "block.z"}));
  EXPECT_EQ(reply.value->launch.grid, (std::vector<std::string>{"ceil_div(grid.x * block.x, 32)", "grid.y", "grid.z"}));
  std::string ptx = ptx_of(k, *reply.value);
  EXPECT_EQ(count(ptx, "bar.sync"), 2u) << ptx;
  EXPECT_GE(count(ptx, "st.shared.f32"), 1u) << ptx;
  EXPECT_GE(count(ptx, "ld.shared.f32"), 1u) << ptx;
}

// A kernel that already spreads its batches over threadIdx.y splits along z,
// with no more threads per block than 1024 whatever its block's y.
TEST_F(SplitReductionStrategy, AKernelUsingYSplitsAlongZ) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_min_templated");
  auto reply = code(team, k, "split-reduction(split=8)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_NE(v.find("for (int64_t r = (1) + threadIdx.z; r < rows; r += blockDim.z)"), std::string::npos) << v;
  EXPECT_NE(v.find("lowest = stark_column_min_templated_split_min_t(lowest);"), std::string::npos) << v;
  EXPECT_EQ(reply.value->launch.block,
            (std::vector<std::string>{"32", "block.y", "max(1, min(8, 1024 / (32 * (block.y))))"}));
  std::string ptx = ptx_of(k, *reply.value);
  EXPECT_EQ(count(ptx, "bar.sync"), 2u) << ptx;
}

// A maximum that a NaN takes over is combined so that a NaN on either side
// wins (`x != x` tests it in the template's own type), not with fmaxf,
// which would drop it.
TEST_F(SplitReductionStrategy, AMaxANanWinsKeepsTheNanWhenCombined) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_max_nan");
  auto reply = code(team, k, "split-reduction(split=8)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_NE(v.find("best = stark_column_max_nan_split_max_nan_t(best);"), std::string::npos) << v;
  EXPECT_NE(v.find("v = (v != v || v > other ? v : other);"), std::string::npos) << v;
  EXPECT_EQ(v.find("fmax"), std::string::npos) << v;
  std::string ptx = ptx_of(k, *reply.value);
  EXPECT_EQ(count(ptx, "bar.sync"), 2u) << ptx;
}

// An argmin combines its value and its place together: of equal values the
// first place, and the first NaN over any number.
TEST_F(SplitReductionStrategy, AnArgminCombinesTheValueWithItsPlace) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_argmin_nan");
  auto reply = code(team, k, "split-reduction(split=16)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_NE(v.find("stark_column_argmin_nan_split_argmin_nan_f32(least, at);"), std::string::npos) << v;
  EXPECT_NE(v.find("if (ov != ov ? (v == v || oi < i) : (v == v && (ov < v || (ov == v && oi < i)))) {"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("if (threadIdx.y == 0) out[o] = at;"), std::string::npos) << v;
  std::string ptx = ptx_of(k, *reply.value);
  EXPECT_EQ(count(ptx, "bar.sync"), 2u) << ptx;
  EXPECT_GE(count(ptx, "st.shared.u64"), 1u) << "the 64-bit places go through shared memory too\n" << ptx;
}

// A column walked by a pointer: each dealt-out iteration sets the pointer
// from the value it had before the loop and its own number, then steps it
// as the original does.
TEST_F(SplitReductionStrategy, AWalkedPointerIsSetFromTheIterationsNumber) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_min_walked");
  auto reply = code(team, k, "split-reduction(split=8)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_NE(v.find("const auto stark_p_start = p;\n  for (int64_t r = (1) + threadIdx.y; r < rows; r += blockDim.y) {\n"
                   "    p = stark_p_start + (r - (1)) * (cols);\n    p += cols;"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("least = stark_column_min_walked_split_min_nan_t(least);"), std::string::npos) << v;
  std::string ptx = ptx_of(k, *reply.value);
  EXPECT_EQ(count(ptx, "bar.sync"), 2u) << ptx;
}

// A reduction over the channels and the loop that writes every channel are
// both dealt out; only the reduction needs a combine.
TEST_F(SplitReductionStrategy, AWritingLoopIsDealtOutWithoutACombine) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::channel_rms_norm");
  auto reply = code(team, k, "split-reduction(split=4)");
  ASSERT_TRUE(reply.value) << reply.value.error().message;
  const std::string& v = reply.value->source;
  EXPECT_EQ(count(v, "for (int c = threadIdx.y; c < channels; c += blockDim.y)"), 2u) << v;
  EXPECT_EQ(count(v, "squares = stark_channel_rms_norm_split_sum_f32(squares);"), 1u) << v;
  EXPECT_EQ(count(v, "threadIdx.y == 0"), 0u) << "every store is in a dealt-out loop";
}

// A column mean is also a thread-per-row kernel to block-per-row (its column
// the row): each structural family's first set comes before any family's
// second, so the first attempts reach both (on the H100 the four
// block-per-row sets came first and were all slower than the original).
TEST_F(SplitReductionStrategy, EveryFamilysFirstSetComesBeforeAnyFamilysSecond) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_mean_batched");
  auto options = team.options(k, source(k), {}, testing::kH200);
  ASSERT_TRUE(options) << options.error().message;
  std::map<std::string, int> seen;  // family -> sets so far
  int rank = 0;
  for (const auto& label : *options) {
    auto parsed = builtin::parse_label(label);
    ASSERT_TRUE(parsed) << label;
    const builtin::Strategy* strategy = builtin::find_strategy(parsed->first);
    ASSERT_NE(strategy, nullptr) << label;
    if (!builtin::is_structural(*strategy)) break;
    int mine = seen[parsed->first]++;
    EXPECT_GE(mine, rank) << label << " comes after a family's set of rank " << rank << ": "
                          << ::testing::PrintToString(*options);
    rank = std::max(rank, mine);
  }
  EXPECT_GE(seen["block-per-row"], 2) << ::testing::PrintToString(*options);
  EXPECT_GE(seen["split-reduction"], 2) << ::testing::PrintToString(*options);
  EXPECT_EQ(options->at(1).rfind("split-reduction(", 0), 0u) << ::testing::PrintToString(*options);
}

// What threads cannot share, each with the reason the strategy gives: the
// running value read (a scan), a loop run only for some data (its barrier
// would not be reached by every thread), a product, a value carried from one
// iteration to the next, a store the analysis cannot see.
TEST_F(SplitReductionStrategy, RefusesWhatThreadsCannotShareAndSaysWhy) {
  const Kernel& k = kernel("src/column_reduce.cu:styles::column_sum_indexed");
  const std::string head =
      "__global__ void column_sum_indexed(int rows, int cols, const float* m, float* out) {\n"
      "  int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (c < cols) {\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"    float acc = 0.0f;\n"
       "    for (int r = 0; r < rows; ++r) { acc += m[r * cols + c]; out[r * cols + c] = acc; }\n",
       "running value of 'acc'"},
      {"    float acc = 0.0f;\n"
       "    if (m[c] > 0.0f) { for (int r = 0; r < rows; ++r) acc += m[r * cols + c]; }\n"
       "    out[c] = acc;\n",
       "runs only for some data"},
      {"    float acc = 1.0f;\n"
       "    for (int r = 0; r < rows; ++r) acc *= m[r * cols + c];\n"
       "    out[c] = acc;\n",
       "product 'acc'"},
      {"    float acc = 0.0f, prev = 0.0f;\n"
       "    for (int r = 0; r < rows; ++r) { acc += m[r * cols + c] - prev; prev = m[r * cols + c]; }\n"
       "    out[c] = acc;\n",
       "carries 'prev'"},
      {"    float acc = 0.0f;\n"
       "    for (int r = 0; r < rows; ++r) acc += m[r * cols + c];\n"
       "    *(out + c) = acc;\n",
       "stores through '*(out + c)'"},
  };
  for (const auto& [body, reason] : cases) {
    const std::string text = head + body + "  }\n}";
    auto a = analyze_kernel(k, text, setup(), manifest_->source_root);
    ASSERT_TRUE(a) << a.error().message << "\n" << text;
    builtin::Subject s{&k, text, {}, &*a, testing::kH200, {}, {}};
    builtin::SplitReduction strategy;
    EXPECT_TRUE(strategy.candidates(s).empty()) << text;
    auto v = strategy.apply(s, builtin::Params{{{"split", 8}}});
    ASSERT_FALSE(v) << text;
    EXPECT_NE(v.error().message.find(reason), std::string::npos) << v.error().message;
  }
}

}  // namespace
}  // namespace stark
