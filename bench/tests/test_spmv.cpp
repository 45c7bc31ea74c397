// spmv_csr.
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Spmv = CudaTest;
namespace S = bench::shapes;

// A random CSR matrix: row r has min_row..max_row nonzeros at uniformly
// random columns (repeats allowed: they just add), some rows empty when
// min_row is 0.
void check_spmv(int rows, int cols, int min_row, int max_row, uint64_t seed) {
  std::vector<int> row_ptr(rows + 1, 0);
  for (int r = 0; r < rows; ++r)
    row_ptr[r + 1] = row_ptr[r] + min_row + static_cast<int>(unit(seed, r) * (max_row - min_row + 1));
  const size_t nnz = row_ptr[rows];
  std::vector<int> col_idx(nnz);
  parallel_for(nnz, [&](size_t begin, size_t end) {
    for (size_t e = begin; e < end; ++e) col_idx[e] = static_cast<int>(unit(seed + 1, e) * cols);
  });
  std::vector<float> vals = uniform<float>(nnz, -1, 1, seed + 2), x = uniform<float>(cols, -1, 1, seed + 3);
  DeviceBuffer<int> drow(row_ptr), dcol(col_idx);
  DeviceBuffer<float> dvals(vals), dx(x), dy(rows);
  bench::spmv_csr(rows, drow.get(), dcol.get(), dvals.get(), dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> dot(rows), magnitude(rows);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r)
      for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
        double t = double(vals[e]) * x[col_idx[e]];
        dot[r] += t;
        magnitude[r] += std::abs(t);
      }
  });
  expect_all_close("spmv", rows, [&](size_t r) { return y[r]; }, [&](size_t r) { return dot[r]; },
                   [&](size_t r) { return 2e-6 * magnitude[r] + 1e-6; });
}

TEST_F(Spmv, BenchShape) { check_spmv(S::kSpRows, S::kSpCols, S::kSpMinRow, S::kSpMaxRow, 111); }
TEST_F(Spmv, OddShapeWithEmptyRows) { check_spmv(10007, 3001, 0, 70, 113); }

}  // namespace
}  // namespace bench_test
