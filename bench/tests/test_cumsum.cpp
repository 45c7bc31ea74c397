// cumsum along rows.
#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Cumsum = CudaTest;
namespace S = bench::shapes;

// Values in [0, 1) (torch.rand): prefix sums grow, a relative tolerance of
// 1e-4 covers any float summation order at these lengths.
void check_cumsum(int rows, int cols, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(rows) * cols, 0, 1, seed);
  DeviceBuffer<float> dx(x), dy(x.size());
  bench::cumsum(rows, cols, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> ref(x.size());
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      double running = 0;
      for (int c = 0; c < cols; ++c) ref[r * cols + c] = running += x[r * cols + c];
    }
  });
  expect_all_close("cumsum", y.size(), [&](size_t i) { return y[i]; }, [&](size_t i) { return ref[i]; },
                   [&](size_t i) { return 1e-4 * ref[i] + 1e-6; });
}

TEST_F(Cumsum, BenchShape) { check_cumsum(S::kScanRows, S::kScanCols, 91); }
TEST_F(Cumsum, OddShape) { check_cumsum(999, 1237, 93); }

}  // namespace
}  // namespace bench_test
