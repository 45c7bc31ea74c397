// KernelBench reductions family, part 2: mean, max, argmin and min over dim 1
// of a b x d1 x d2 tensor (48, 49, 52, 53). Every output checked against a
// CPU reference.
#include <cmath>
#include <cstdint>
#include <vector>

#include "bench/kb/reductions.h"
#include "check.h"

namespace bench_test {
namespace {

namespace R = bench::kb::reductions;

using KbMeanReductionOverADimension = CudaTest;
using KbMaxReductionOverADimension = CudaTest;
using KbArgminOverADimension = CudaTest;
using KbMinReductionOverADimension = CudaTest;

enum class Op { kMean, kMax, kMin };

// Values from torch.rand's [0, 1). Max and min are exact; the mean's float
// sum of 4096 terms is good to ~1e-6 relative.
void check_reduce(Op op, int b, int d1, int d2, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(b) * d1 * d2, 0, 1, seed);
  DeviceBuffer<float> dx(x), dout(size_t(b) * d2);
  if (op == Op::kMean) bench::kb::kb_mean_reduction_over_a_dimension(b, d1, d2, dx.get(), dout.get());
  if (op == Op::kMax) bench::kb::kb_max_reduction_over_a_dimension(b, d1, d2, dx.get(), dout.get());
  if (op == Op::kMin) bench::kb::kb_min_reduction_over_a_dimension(b, d1, d2, dx.get(), dout.get());
  std::vector<float> got = dout.download();
  auto ref = [&](size_t o) {
    const float* column = &x[o / d2 * d1 * d2 + o % d2];
    double acc = op == Op::kMean ? 0.0 : column[0];
    for (int i = 0; i < d1; ++i) {
      double v = column[size_t(i) * d2];
      acc = op == Op::kMean ? acc + v : op == Op::kMax ? std::max(acc, v) : std::min(acc, v);
    }
    return op == Op::kMean ? acc / d1 : acc;
  };
  const double rtol = op == Op::kMean ? 1e-5 : 0;
  expect_all_close(op == Op::kMean ? "mean" : op == Op::kMax ? "max" : "min", got.size(),
                   [&](size_t o) { return got[o]; }, ref, [&](size_t o) { return rtol * std::abs(ref(o)); });
}

TEST_F(KbMeanReductionOverADimension, BenchShape) { check_reduce(Op::kMean, R::kDimB, R::kDimD1, R::kDimD2, 4801); }
TEST_F(KbMeanReductionOverADimension, OddShape) { check_reduce(Op::kMean, 3, 301, 129, 4802); }
TEST_F(KbMaxReductionOverADimension, BenchShape) { check_reduce(Op::kMax, R::kDimB, R::kDimD1, R::kDimD2, 4901); }
TEST_F(KbMaxReductionOverADimension, OddShape) { check_reduce(Op::kMax, 3, 301, 129, 4902); }
TEST_F(KbMinReductionOverADimension, BenchShape) { check_reduce(Op::kMin, R::kDimB, R::kDimD1, R::kDimD2, 5301); }
TEST_F(KbMinReductionOverADimension, OddShape) { check_reduce(Op::kMin, 3, 301, 129, 5302); }

// Values quantised to 1/1024 so that ties are common: the first minimal
// index must win, as in torch.argmin. Indices are int64, as torch returns.
void check_argmin(int b, int d1, int d2, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(b) * d1 * d2, 0, 1, seed);
  parallel_for(x.size(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) x[i] = std::floor(x[i] * 1024) / 1024;
  });
  DeviceBuffer<float> dx(x);
  DeviceBuffer<int64_t> dout(size_t(b) * d2);
  bench::kb::kb_argmin_over_a_dimension(b, d1, d2, dx.get(), dout.get());
  std::vector<int64_t> got = dout.download();
  auto ref = [&](size_t o) {
    const float* column = &x[o / d2 * d1 * d2 + o % d2];
    int best = 0;
    for (int i = 1; i < d1; ++i)
      if (column[size_t(i) * d2] < column[size_t(best) * d2]) best = i;
    return double(best);
  };
  expect_all_close("argmin", got.size(), [&](size_t o) { return got[o]; }, ref, [](size_t) { return 0.0; });
}

TEST_F(KbArgminOverADimension, BenchShape) { check_argmin(R::kDimB, R::kDimD1, R::kDimD2, 5201); }
TEST_F(KbArgminOverADimension, OddShape) { check_argmin(3, 301, 129, 5202); }

}  // namespace
}  // namespace bench_test
