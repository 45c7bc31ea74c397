// softmax over rows.
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Softmax = CudaTest;
namespace S = bench::shapes;

// Values in [-8, 8) plus a per-row offset in [-100, 100): exp overflows
// float unless the kernel subtracts the row maximum.
void check_softmax(int rows, int cols, uint64_t seed) {
  std::vector<float> x = uniform<float>(static_cast<size_t>(rows) * cols, -8, 8, seed);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r)
      for (int c = 0; c < cols; ++c) x[r * cols + c] += static_cast<float>(-100 + 200 * unit(seed + 1, r));
  });
  DeviceBuffer<float> dx(x), dy(x.size());
  bench::softmax(rows, cols, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  // Per-row max and sum of exp, in double, once.
  std::vector<double> row_max(rows), row_sum(rows);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      double m = x[r * cols], s = 0;
      for (int c = 0; c < cols; ++c) m = std::max<double>(m, x[r * cols + c]);
      for (int c = 0; c < cols; ++c) s += std::exp(x[r * cols + c] - m);
      row_max[r] = m;
      row_sum[r] = s;
    }
  });
  auto ref = [&](size_t i) { return std::exp(x[i] - row_max[i / cols]) / row_sum[i / cols]; };
  expect_all_close("softmax", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 1e-4 * ref(i) + 1e-9; });
}

TEST_F(Softmax, BenchShape) { check_softmax(S::kSoftmaxRows, S::kSoftmaxCols, 31); }
TEST_F(Softmax, OddShape) { check_softmax(1027, 1001, 33); }

}  // namespace
}  // namespace bench_test
