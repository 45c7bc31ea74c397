// row_sum (last dimension) and dim_sum (dim 1 of a 3-D tensor).
#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Reductions = CudaTest;
namespace S = bench::shapes;

// Values in [0, 1), as torch.rand: sums of positives, so a relative
// tolerance is meaningful; 1e-4 covers any summation order of <= 8192 floats.
void check_row_sum(int rows, int cols, uint64_t seed) {
  std::vector<float> x = uniform<float>(static_cast<size_t>(rows) * cols, 0, 1, seed);
  DeviceBuffer<float> dx(x), dout(rows);
  bench::row_sum(rows, cols, dx.get(), dout.get());
  std::vector<float> got = dout.download();
  auto ref = [&](size_t r) {
    double s = 0;
    for (int c = 0; c < cols; ++c) s += x[r * cols + c];
    return s;
  };
  expect_all_close("row_sum", rows, [&](size_t r) { return got[r]; }, ref,
                   [&](size_t r) { return 1e-4 * ref(r) + 1e-6; });
}

void check_dim_sum(int b, int d1, int d2, uint64_t seed) {
  std::vector<float> x = uniform<float>(static_cast<size_t>(b) * d1 * d2, 0, 1, seed);
  DeviceBuffer<float> dx(x), dout(static_cast<size_t>(b) * d2);
  bench::dim_sum(b, d1, d2, dx.get(), dout.get());
  std::vector<float> got = dout.download();
  auto ref = [&](size_t o) {
    size_t batch = o / d2, j = o % d2;
    double s = 0;
    for (int i = 0; i < d1; ++i) s += x[(batch * d1 + i) * d2 + j];
    return s;
  };
  expect_all_close("dim_sum", got.size(), [&](size_t o) { return got[o]; }, ref,
                   [&](size_t o) { return 1e-4 * ref(o) + 1e-6; });
}

TEST_F(Reductions, RowSumBenchShape) { check_row_sum(S::kRowSumRows, S::kRowSumCols, 11); }
TEST_F(Reductions, DimSumBenchShape) { check_dim_sum(S::kDimB, S::kDimD1, S::kDimD2, 12); }
TEST_F(Reductions, RowSumOddShape) { check_row_sum(1001, 777, 13); }
TEST_F(Reductions, DimSumOddShape) { check_dim_sum(3, 257, 131, 14); }

}  // namespace
}  // namespace bench_test
