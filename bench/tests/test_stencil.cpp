// stencil5.
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Stencil = CudaTest;
namespace S = bench::shapes;

void check_stencil(int rows, int cols, uint64_t seed) {
  std::vector<float> in = uniform<float>(size_t(rows) * cols, -1, 1, seed);
  DeviceBuffer<float> din(in), dout(in.size());
  bench::stencil5(rows, cols, din.get(), dout.get());
  std::vector<float> out = dout.download();
  auto ref = [&](size_t i) {
    size_t r = i / cols, c = i % cols;
    if (r == 0 || c == 0 || r + 1 == size_t(rows) || c + 1 == size_t(cols)) return double(in[i]);
    return 0.2 * (double(in[i]) + in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1]);
  };
  // Five terms of magnitude <= 1: a few float roundings.
  expect_all_close("stencil5", out.size(), [&](size_t i) { return out[i]; }, ref, [](size_t) { return 1e-6; });
}

TEST_F(Stencil, BenchShape) { check_stencil(S::kStRows, S::kStCols, 121); }
TEST_F(Stencil, OddShape) { check_stencil(1001, 333, 123); }

}  // namespace
}  // namespace bench_test
