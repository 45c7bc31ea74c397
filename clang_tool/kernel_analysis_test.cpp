// The analysis of the example project's naive kernels (fixture nnops).
#include "clang_tool/kernel_analysis.h"

#include <gtest/gtest.h>

#include <map>

#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "core/file_io.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

class Analysis : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ScanOptions options;
    options.build_dir = fs::path(STARK_BINARY_DIR) / "tests/projects/nnops-build";
    options.target = "nnops";
    auto out = scan_build(options);
    ASSERT_TRUE(out) << out.error().message;
    manifest_ = new Manifest(out->manifest);
  }
  static void TearDownTestSuite() { delete manifest_; }

  /// The analysis of kernel `id`, or of `candidate` in its place.
  static KernelAnalysis analyze(const std::string& id, const std::string& candidate = "") {
    const Kernel* k = manifest_->find_kernel(id);
    EXPECT_TRUE(k) << id;
    auto text = read_file(fs::path(manifest_->source_root) / k->file);
    auto setup = locate_clang_setup();
    auto a =
        analyze_kernel(*k, candidate.empty() ? text->substr(k->range.begin, k->range.end - k->range.begin) : candidate,
                       *setup, manifest_->source_root);
    EXPECT_TRUE(a) << a.error().message;
    return a ? *a : KernelAnalysis{};
  }
  static Manifest* manifest_;
};
Manifest* Analysis::manifest_ = nullptr;

TEST_F(Analysis, AtomicReduction) {
  auto a = analyze("src/reduce.cu:nnops::reduce_sum_kernel");
  ASSERT_EQ(a.indices.size(), 1u);
  EXPECT_EQ(a.indices[0].axis, 'x');
  ASSERT_EQ(a.atomics.size(), 1u);
  EXPECT_EQ(a.atomics[0].function, "atomicAdd");
  EXPECT_TRUE(a.atomics[0].uniform_address) << a.atomics[0].address.text;
  ASSERT_FALSE(a.guards.empty());
  EXPECT_TRUE(a.body.text.front() == '{');
}

TEST_F(Analysis, Histogram) {
  auto a = analyze("src/histogram.cu:nnops::histogram_kernel");
  ASSERT_EQ(a.atomics.size(), 1u);
  EXPECT_FALSE(a.atomics[0].uniform_address);
  EXPECT_FALSE(a.atomics[0].base.empty());
  EXPECT_EQ(a.atomics[0].index.text, "v") << "the bin, from &bins[v]";
}

TEST_F(Analysis, RowKernels) {
  for (const char* id : {"src/softmax.cu:nnops::softmax_rows_kernel", "src/layernorm.cu:nnops::layer_norm_kernel"}) {
    auto a = analyze(id);
    EXPECT_EQ(a.indices.size(), 1u) << id;
    EXPECT_FALSE(a.guards.empty()) << id;
    int top = 0, reductions = 0;
    for (const auto& l : a.loops) {
      top += l.depth == 0;
      reductions += static_cast<int>(l.reductions.size());
    }
    EXPECT_GE(top, 2) << id;
    EXPECT_GE(reductions, 2) << id;
  }
}

// The accumulators as clang sees them: their type, and whether they start
// at zero (a sum may be split over threads only then; -INFINITY may seed a max).
TEST_F(Analysis, AccumulatorsKnowTheirTypeAndWhetherTheyStartAtZero) {
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel");
  std::map<std::string, const Reduction*> by_acc;
  for (const auto& l : a.loops)
    for (const auto& r : l.reductions) by_acc[r.acc] = &r;
  ASSERT_TRUE(by_acc.count("sum") && by_acc.count("max_value"));
  EXPECT_EQ(by_acc["sum"]->acc_type, "float");
  EXPECT_TRUE(by_acc["sum"]->starts_at_zero) << "float sum = 0.0f";
  EXPECT_FALSE(by_acc["max_value"]->starts_at_zero) << "float max_value = -INFINITY";
  EXPECT_LT(by_acc["sum"]->acc_declaration.begin, by_acc["sum"]->statement.begin);
}

TEST_F(Analysis, TwoDimensionalKernels) {
  for (const char* id : {"src/transpose.cu:nnops::transpose_kernel", "src/matmul.cu:nnops::matmul_kernel"}) {
    auto a = analyze(id);
    EXPECT_TRUE(a.index('x')) << id;
    EXPECT_TRUE(a.index('y')) << id;
    EXPECT_GE(a.guards.size(), 2u) << id;
  }
  auto mm = analyze("src/matmul.cu:nnops::matmul_kernel");
  ASSERT_EQ(mm.loops.size(), 1u);
  ASSERT_EQ(mm.loops[0].reductions.size(), 1u);
  EXPECT_EQ(mm.loops[0].reductions[0].op, ReduceOp::Sum);
}

// What the strategies read instead of the text: declared types as clang
// spells them, a loop's step and compared variable, pointee types, where
// each parameter's name is, the locals' initialisers, what the body assigns,
// and the kernel's own returns (a lambda's are not).
TEST_F(Analysis, TypesStepsNamesAssignmentsAndReturns) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* const x,
                                    float* y) {
  const size_t row = blockIdx.x * blockDim.x + threadIdx.x;
  auto twice = [](int v) { return 2 * v; };
  if (row >= rows) return;
  const float* in = x + row * cols;
  int limit = twice(cols);
  for (unsigned c = threadIdx.x; c < cols; c += blockDim.x) {
    if (in[c] < 0) continue;  /* return */
    y[c] = in[c];
  }
  for (int c = 0; c < limit; ++c) {
    if (y[c] > 1) break;
  }
  limit += 1;
  rows = limit;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  ASSERT_EQ(a.indices.size(), 1u);
  EXPECT_EQ(a.indices[0].type, "size_t");
  ASSERT_EQ(a.loops.size(), 2u);
  EXPECT_EQ(a.loops[0].var_type, "unsigned int");
  EXPECT_EQ(a.loops[0].compared, "c");
  EXPECT_EQ(a.loops[0].step.text, "blockDim.x");
  EXPECT_TRUE(a.loops[0].jumps);
  EXPECT_FALSE(a.loops[0].exits) << "continue stays in the loop";
  EXPECT_TRUE(a.loops[1].exits) << "break leaves it";
  EXPECT_FALSE(a.loops[1].step.valid()) << "++c has no step expression";
  for (const Access& acc : a.local_accesses) EXPECT_EQ(acc.pointee, "float") << acc.expr.text;
  ASSERT_EQ(a.param_names.size(), 4u);
  EXPECT_EQ(a.param_names[2].text, "x");
  EXPECT_EQ(candidate.substr(static_cast<size_t>(a.param_names[3].begin), 1), "y");
  std::map<std::string, std::string> inits;
  for (const auto& d : a.local_declarations) inits[d.name] = d.init.text;
  EXPECT_EQ(inits["in"], "x + row * cols");
  EXPECT_EQ(inits["limit"], "twice(cols)");
  EXPECT_EQ(a.assigned, (std::vector<std::string>{"c", "limit", "rows"})) << "initialisers are no assignment";
  ASSERT_EQ(a.kernel_returns.size(), 1u) << "the lambda's return is its own";
  EXPECT_EQ(a.kernel_returns[0].text, "return");
}

// `p += cols` steps a pointer down a column: a position, not a running sum
// (row-scan offered a scan of it to a min over a dimension).
TEST_F(Analysis, APointerWalkIsNoRunningSum) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* x, float* y) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  const float* p = x + j;
  float best = *p, total = 0.0f;
  for (int i = 1; i < rows; ++i) {
    p += cols;
    total += *p;
    if (*p < best) best = *p;
  }
  y[j] = best + total;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  ASSERT_EQ(a.loops.size(), 1u);
  ASSERT_EQ(a.loops[0].reductions.size(), 2u);
  EXPECT_EQ(a.loops[0].reductions[0].acc, "total");
  EXPECT_EQ(a.loops[0].reductions[1].acc, "best");
  EXPECT_EQ(a.loops[0].reductions[1].op, ReduceOp::Min) << "kept with an if";
}

// Stores the accesses do not show: through a dereference, an arrow, a
// reference or a computed pointer. Locals, local arrays, fields of a local
// struct and `p[i]` are not among them.
TEST_F(Analysis, StoresThroughAnythingButASubscriptAreIndirectWrites) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* x, float* y) {
  struct Pair { float a, b; } pair{0.0f, 0.0f};
  float buf[2];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  buf[0] = x[i];
  pair.a = buf[0];
  y[i] = pair.a;
  float* out = y + i;
  *out = 1.0f;
  (y + cols)[i] = 2.0f;
  float& r = y[2 * i];
  r += 3.0f;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  std::vector<std::string> targets;
  for (const auto& w : a.indirect_writes) targets.push_back(w.text);
  EXPECT_EQ(targets, (std::vector<std::string>{"*out", "(y + cols)[i]", "r"}));
}

// `if (v > best) best = v;` keeps the larger as much as the ?: spelling
// does; an else, a second statement or another comparison make it something
// else.
TEST_F(Analysis, AnIfThatKeepsTheLargerIsAMax) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* x, float* y) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  float best = x[j], least = x[j], other = 0.0f, last = 0.0f;
  for (int i = 1; i < rows; ++i) {
    const float v = x[i * cols + j];
    if (v > best) best = v;
    if (least > v) {
      least = v;
    }
    if (v > other) other = v; else other = 0.0f;
    if (v > last) { last = v; y[j] = v; }
  }
  y[j] = best + least + other + last;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  ASSERT_EQ(a.loops.size(), 1u);
  ASSERT_EQ(a.loops[0].reductions.size(), 2u);
  EXPECT_EQ(a.loops[0].reductions[0].acc, "best");
  EXPECT_EQ(a.loops[0].reductions[0].op, ReduceOp::Max);
  EXPECT_EQ(a.loops[0].reductions[0].value.text, "v");
  EXPECT_EQ(a.loops[0].reductions[0].statement.text, "if (v > best) best = v");
  EXPECT_EQ(a.loops[0].reductions[1].acc, "least");
  EXPECT_EQ(a.loops[0].reductions[1].op, ReduceOp::Min);
  EXPECT_FALSE(a.loops[0].reductions[0].nan_wins);
}

TEST_F(Analysis, AnIfThatAlsoKeepsThePlaceIsAnArgmax) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* x, float* y) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  float hi = x[j], lo = x[j], last = x[j];
  int hi_at = 0, last_at = 0;
  long long lo_at = 0;
  for (int i = 1; i < rows; ++i) {
    const float v = x[i * cols + j];
    if (v > hi) {
      hi = v;
      hi_at = i;
    }
    if (lo > v || (isnan(v) && !isnan(lo))) {
      lo_at = i;
      lo = v;
    }
    if (v >= last) {
      last = v;
      last_at = i;
    }
  }
  y[j] = hi_at + lo_at + last_at;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  ASSERT_EQ(a.loops.size(), 1u);
  // The third keeps the last of equal values: not an argmax whose partials combine by place.
  ASSERT_EQ(a.loops[0].reductions.size(), 2u);
  const Reduction& hi = a.loops[0].reductions[0];
  EXPECT_EQ(hi.acc, "hi");
  EXPECT_EQ(hi.op, ReduceOp::Max);
  EXPECT_FALSE(hi.nan_wins);
  EXPECT_EQ(hi.index_acc, "hi_at");
  EXPECT_EQ(hi.index_value.text, "i");
  EXPECT_EQ(hi.index_type, "int");
  const Reduction& lo = a.loops[0].reductions[1];
  EXPECT_EQ(lo.acc, "lo");
  EXPECT_EQ(lo.op, ReduceOp::Min);
  EXPECT_TRUE(lo.nan_wins);
  EXPECT_EQ(lo.index_acc, "lo_at");
  EXPECT_EQ(lo.index_type, "long long");
}

TEST_F(Analysis, AnIfThatAlsoTakesANanIsAMaxANanWins) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* x, float* y) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  float hi = x[j], lo = x[j], odd = x[j];
  for (int i = 1; i < rows; ++i) {
    const float v = x[i * cols + j];
    if (v > hi || isnan(v)) hi = v;
    if (v != v || lo > v) {
      lo = v;
    }
    if (v > odd || isnan(hi)) odd = v;
  }
  y[j] = hi + lo + odd;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  ASSERT_EQ(a.loops.size(), 1u);
  // The third tests another value for a NaN: no reduction.
  ASSERT_EQ(a.loops[0].reductions.size(), 2u);
  EXPECT_EQ(a.loops[0].reductions[0].acc, "hi");
  EXPECT_EQ(a.loops[0].reductions[0].op, ReduceOp::Max);
  EXPECT_TRUE(a.loops[0].reductions[0].nan_wins);
  EXPECT_EQ(a.loops[0].reductions[0].statement.text, "if (v > hi || isnan(v)) hi = v");
  EXPECT_EQ(a.loops[0].reductions[1].acc, "lo");
  EXPECT_EQ(a.loops[0].reductions[1].op, ReduceOp::Min);
  EXPECT_TRUE(a.loops[0].reductions[1].nan_wins);
}

// Welford's mean and second moment, spelled the ways normalisation layers
// spell them: the count as the loop's i + 1 under a cast or as a counter of
// its own, the new mean's deviation in place or as a second local, either
// factor first. Updates that are not Welford's are not taken for it.
TEST_F(Analysis, AMeanAndSecondMomentUpdatedTogetherIsWelford) {
  const std::string candidate = R"(__global__ void softmax_rows_kernel(int rows, int cols, const float* x, float* y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float mean = 0.0f, m2 = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const float v = x[r * cols + c];
    const float delta = v - mean;
    mean += delta / static_cast<float>(c + 1);
    m2 += delta * (v - mean);
  }
  double mu = 0.0, q = 0.0, n = 0.0;
  for (int c = 0; c < cols; c++) {
    n += 1.0;
    double d = x[r * cols + c] - mu;
    mu += d / n;
    double d2 = x[r * cols + c] - mu;
    q += d2 * d;
  }
  float a = 0.0f, b = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const float v = x[r * cols + c];
    const float delta = v - a;
    a += delta / c;
    b += delta * (v - a);
  }
  float e = 0.0f, f = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const float v = x[r * cols + c];
    const float delta = v - e;
    e += delta / (c + 1);
    f += delta * delta;
  }
  y[r] = mean + m2 + mu + q + a + b + e + f;
})";
  auto a = analyze("src/softmax.cu:nnops::softmax_rows_kernel", candidate);
  ASSERT_EQ(a.loops.size(), 4u);
  ASSERT_TRUE(a.loops[0].welford);
  EXPECT_EQ(a.loops[0].welford->mean, "mean");
  EXPECT_EQ(a.loops[0].welford->m2, "m2");
  EXPECT_EQ(a.loops[0].welford->type, "float");
  EXPECT_EQ(a.loops[0].welford->count.text, "c + 1");
  EXPECT_EQ(a.loops[0].welford->counter, "");
  EXPECT_EQ(a.loops[0].welford->statements.size(), 3u);
  ASSERT_TRUE(a.loops[1].welford);
  EXPECT_EQ(a.loops[1].welford->mean, "mu");
  EXPECT_EQ(a.loops[1].welford->m2, "q");
  EXPECT_EQ(a.loops[1].welford->type, "double");
  EXPECT_EQ(a.loops[1].welford->counter, "n");
  EXPECT_EQ(a.loops[1].welford->statements.size(), 5u);  // two deltas, two updates, the count's step
  // Divided by c (not the count of elements so far), and m2 from the old mean.
  EXPECT_FALSE(a.loops[2].welford);
  EXPECT_FALSE(a.loops[3].welford);
}

}  // namespace
}  // namespace stark
