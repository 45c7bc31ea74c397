// matvec.
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Matvec = CudaTest;
namespace S = bench::shapes;

void check_matvec(int m, int k, uint64_t seed) {
  std::vector<float> a = uniform<float>(size_t(m) * k, -1, 1, seed), x = uniform<float>(k, -1, 1, seed + 1);
  DeviceBuffer<float> da(a), dx(x), dy(m);
  bench::matvec(m, k, da.get(), dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> dot(m), magnitude(m);
  parallel_for(m, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      for (int p = 0; p < k; ++p) {
        double t = double(a[i * k + p]) * x[p];
        dot[i] += t;
        magnitude[i] += std::abs(t);
      }
  });
  expect_all_close("matvec", m, [&](size_t i) { return y[i]; }, [&](size_t i) { return dot[i]; },
                   [&](size_t i) { return 2e-6 * magnitude[i] + 1e-6; });
}

TEST_F(Matvec, BenchShape) { check_matvec(S::kMvM, S::kMvK, 71); }
TEST_F(Matvec, OddShape) { check_matvec(1001, 3333, 73); }

}  // namespace
}  // namespace bench_test
