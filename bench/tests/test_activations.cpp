// relu, gelu, saxpy.
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Activations = CudaTest;
namespace S = bench::shapes;

void check_relu(int n, uint64_t seed) {
  std::vector<float> x = uniform<float>(n, -1, 1, seed);
  DeviceBuffer<float> dx(x), dy(n);
  bench::relu(n, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  expect_all_close("relu", n, [&](size_t i) { return y[i]; }, [&](size_t i) { return std::max(x[i], 0.0f); },
                   [](size_t) { return 0.0; });
}

void check_gelu(int n, uint64_t seed) {
  std::vector<float> x = uniform<float>(n, -6, 6, seed);
  DeviceBuffer<float> dx(x), dy(n);
  bench::gelu(n, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  auto ref = [&](size_t i) { return 0.5 * x[i] * (1 + std::erf(x[i] / std::sqrt(2.0))); };
  expect_all_close("gelu", n, [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 4e-6 * std::abs(ref(i)) + 5e-7; });
}

void check_saxpy(int n, uint64_t seed) {
  const float a = 1.75f;
  std::vector<float> x = uniform<float>(n, -1, 1, seed), y = uniform<float>(n, -1, 1, seed + 1);
  DeviceBuffer<float> dx(x), dy(y);
  bench::saxpy(n, a, dx.get(), dy.get());
  std::vector<float> got = dy.download();
  // Fused or unfused rounding: within a few ulp of the exact a*x + y.
  expect_all_close("saxpy", n, [&](size_t i) { return got[i]; }, [&](size_t i) { return double(a) * x[i] + y[i]; },
                   [&](size_t i) { return 1e-6 * (std::abs(double(a) * x[i]) + std::abs(y[i])); });
}

TEST_F(Activations, ReluBenchShape) { check_relu(S::kElt, 1); }
TEST_F(Activations, GeluBenchShape) { check_gelu(S::kElt, 2); }
TEST_F(Activations, SaxpyBenchShape) { check_saxpy(S::kElt, 3); }
// Not a multiple of a block or of a vector width.
TEST_F(Activations, ReluOddShape) { check_relu(1000003, 5); }
TEST_F(Activations, GeluOddShape) { check_gelu(1000003, 6); }
TEST_F(Activations, SaxpyOddShape) { check_saxpy(1000003, 7); }

}  // namespace
}  // namespace bench_test
