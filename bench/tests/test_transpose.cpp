// transpose.
#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Transpose = CudaTest;
namespace S = bench::shapes;

void check_transpose(int rows, int cols, uint64_t seed) {
  std::vector<float> in = uniform<float>(static_cast<size_t>(rows) * cols, -1, 1, seed);
  DeviceBuffer<float> din(in), dout(in.size());
  bench::transpose(rows, cols, din.get(), dout.get());
  std::vector<float> out = dout.download();
  // out is cols x rows: out[c][r] == in[r][c], bit for bit.
  expect_all_close("transpose", out.size(), [&](size_t i) { return out[i]; },
                   [&](size_t i) { return in[(i % rows) * cols + i / rows]; }, [](size_t) { return 0.0; });
}

TEST_F(Transpose, BenchShape) { check_transpose(S::kTransRows, S::kTransCols, 51); }
TEST_F(Transpose, OddShape) { check_transpose(3001, 1999, 53); }

}  // namespace
}  // namespace bench_test
