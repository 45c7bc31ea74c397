// KernelBench level 1, pointwise family: the elementwise problems (5, 12,
// 20-22, 25, 27-32, 88) against double-precision references.
#include <algorithm>
#include <cmath>
#include <functional>

#include "bench/kb/pointwise.h"
#include "../check.h"

namespace bench_test {
namespace {

namespace P = bench::kb::pointwise;

// A map y = f(x) over n inputs uniform in [lo, hi): `launch(n, x, y)` runs
// the kernel, `ref` is the double-precision function, the tolerance is
// rel * |ref| + abs.
void check_map(const std::string& what, size_t n, double lo, double hi, uint64_t seed,
               const std::function<void(size_t, const float*, float*)>& launch, const std::function<double(double)>& ref,
               double rel, double abs) {
  std::vector<float> x = uniform<float>(n, lo, hi, seed);
  DeviceBuffer<float> dx(x), dy(n);
  launch(n, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  expect_all_close(what, n, [&](size_t i) { return y[i]; }, [&](size_t i) { return ref(x[i]); },
                   [&](size_t i) { return rel * std::abs(ref(x[i])) + abs; });
}

double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

// --- 5: A * s ---------------------------------------------------------------
void check_scale(int rows, int cols, uint64_t seed) {
  const size_t n = size_t(rows) * cols;
  std::vector<float> a = uniform<float>(n, 0, 1, seed);
  DeviceBuffer<float> da(a), dc(n);
  bench::kb::kb_matrix_scalar_multiplication(rows, cols, da.get(), P::kScaleValue, dc.get());
  std::vector<float> c = dc.download();
  auto ref = [&](size_t i) { return double(a[i]) * P::kScaleValue; };
  expect_all_close("matrix_scalar_multiplication", n, [&](size_t i) { return c[i]; }, ref,
                   [&](size_t i) { return 1e-7 * std::abs(ref(i)); });
}

using KbMatrixScalarMultiplication = CudaTest;
TEST_F(KbMatrixScalarMultiplication, BenchShape) { check_scale(P::kScaleRows, P::kScaleCols, 501); }
TEST_F(KbMatrixScalarMultiplication, OddShape) { check_scale(1037, 999, 502); }

// --- 12: diag(A) @ B ----------------------------------------------------------
void check_diag(int n, int m, uint64_t seed) {
  std::vector<float> a = uniform<float>(n, 0, 1, seed);
  std::vector<float> b = uniform<float>(size_t(n) * m, 0, 1, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(b.size());
  bench::kb::kb_matmul_with_diagonal_matrices(n, m, da.get(), db.get(), dc.get());
  std::vector<float> c = dc.download();
  auto ref = [&](size_t i) { return double(a[i / m]) * b[i]; };
  expect_all_close("matmul_with_diagonal_matrices", c.size(), [&](size_t i) { return c[i]; }, ref,
                   [&](size_t i) { return 1e-7 * std::abs(ref(i)); });
}

using KbMatmulWithDiagonalMatrices = CudaTest;
TEST_F(KbMatmulWithDiagonalMatrices, BenchShape) { check_diag(P::kDiagN, P::kDiagM, 1201); }
TEST_F(KbMatmulWithDiagonalMatrices, OddShape) { check_diag(1001, 1027, 1202); }

// --- the activations: inputs in [-5, 5) reach both sides of every branch ----
constexpr size_t kOdd = 1000003;  // no multiple of a warp, a block or a vector width

void check_leaky_relu(size_t n, uint64_t seed) {
  check_map(
      "leaky_relu", n, -5, 5, seed,
      [](size_t n, const float* x, float* y) { bench::kb::kb_leaky_relu(int(n), x, P::kLeakySlope, y); },
      [](double v) { return v > 0 ? v : v * double(P::kLeakySlope); }, 1e-7, 0);
}
using KbLeakyRelu = CudaTest;
TEST_F(KbLeakyRelu, BenchShape) { check_leaky_relu(P::kAct, 2001); }
TEST_F(KbLeakyRelu, OddShape) { check_leaky_relu(kOdd, 2002); }

void check_sigmoid(size_t n, uint64_t seed) {
  check_map(
      "sigmoid", n, -5, 5, seed, [](size_t n, const float* x, float* y) { bench::kb::kb_sigmoid(int(n), x, y); },
      sigmoid, 2e-6, 1e-7);
}
using KbSigmoid = CudaTest;
TEST_F(KbSigmoid, BenchShape) { check_sigmoid(P::kAct, 2101); }
TEST_F(KbSigmoid, OddShape) { check_sigmoid(kOdd, 2102); }

void check_tanh(size_t n, uint64_t seed) {
  check_map(
      "tanh", n, -5, 5, seed, [](size_t n, const float* x, float* y) { bench::kb::kb_tanh(n, x, y); },
      [](double v) { return std::tanh(v); }, 2e-6, 1e-7);
}
using KbTanh = CudaTest;
TEST_F(KbTanh, BenchShape) { check_tanh(P::kAct, 2201); }
TEST_F(KbTanh, OddShape) { check_tanh(kOdd, 2202); }

// Swish takes rows and columns: the odd case has both odd.
void check_swish(int rows, int cols, uint64_t seed) {
  check_map(
      "swish", size_t(rows) * cols, -5, 5, seed,
      [&](size_t, const float* x, float* y) { bench::kb::kb_swish(rows, cols, x, y); },
      [](double v) { return v * sigmoid(v); }, 4e-6, 5e-7);
}
using KbSwish = CudaTest;
TEST_F(KbSwish, BenchShape) { check_swish(P::kActRows, P::kActCols, 2501); }
TEST_F(KbSwish, OddShape) { check_swish(1031, 997, 2502); }

void check_selu(size_t n, uint64_t seed) {
  const double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
  check_map(
      "selu", n, -5, 5, seed, [](size_t n, const float* x, float* y) { bench::kb::kb_selu(int64_t(n), x, y); },
      [&](double v) { return v > 0 ? scale * v : scale * alpha * std::expm1(v); }, 4e-6, 5e-7);
}
using KbSelu = CudaTest;
TEST_F(KbSelu, BenchShape) { check_selu(P::kAct, 2701); }
TEST_F(KbSelu, OddShape) { check_selu(kOdd, 2702); }

void check_hard_sigmoid(size_t n, uint64_t seed) {
  check_map(
      "hard_sigmoid", n, -5, 5, seed,
      [](size_t n, const float* x, float* y) { bench::kb::kb_hard_sigmoid((long long)n, x, y); },
      [](double v) { return std::min(std::max(v + 3, 0.0), 6.0) / 6; }, 1e-6, 1e-7);
}
using KbHardSigmoid = CudaTest;
TEST_F(KbHardSigmoid, BenchShape) { check_hard_sigmoid(P::kAct, 2801); }
TEST_F(KbHardSigmoid, OddShape) { check_hard_sigmoid(kOdd, 2802); }

// Softplus: inputs in [-25, 25) so the threshold (x > 20: x itself) is crossed.
void check_softplus(size_t n, uint64_t seed) {
  check_map(
      "softplus", n, -25, 25, seed,
      [](size_t n, const float* x, float* y) {
        bench::kb::kb_softplus(int64_t(n), x, P::kSoftplusBeta, P::kSoftplusThreshold, y);
      },
      [](double v) { return v > P::kSoftplusThreshold ? v : std::log1p(std::exp(v)); }, 4e-6, 5e-7);
}
using KbSoftplus = CudaTest;
TEST_F(KbSoftplus, BenchShape) { check_softplus(P::kAct, 2901); }
TEST_F(KbSoftplus, OddShape) { check_softplus(kOdd, 2902); }

void check_softsign(int rows, int cols, uint64_t seed) {
  check_map(
      "softsign", size_t(rows) * cols, -5, 5, seed,
      [&](size_t, const float* x, float* y) { bench::kb::kb_softsign(rows, cols, x, y); },
      [](double v) { return v / (1 + std::abs(v)); }, 1e-6, 1e-7);
}
using KbSoftsign = CudaTest;
TEST_F(KbSoftsign, BenchShape) { check_softsign(P::kActRows, P::kActCols, 3001); }
TEST_F(KbSoftsign, OddShape) { check_softsign(1009, 1013, 3002); }

void check_elu(size_t n, uint64_t seed) {
  check_map(
      "elu", n, -5, 5, seed, [](size_t n, const float* x, float* y) { bench::kb::kb_elu(int(n), x, P::kEluAlpha, y); },
      [](double v) { return v > 0 ? v : double(P::kEluAlpha) * std::expm1(v); }, 4e-6, 5e-7);
}
using KbElu = CudaTest;
TEST_F(KbElu, BenchShape) { check_elu(P::kAct, 3101); }
TEST_F(KbElu, OddShape) { check_elu(kOdd, 3102); }

void check_hard_tanh(size_t n, uint64_t seed) {
  check_map(
      "hard_tanh", n, -5, 5, seed,
      [](size_t n, const float* x, float* y) {
        bench::kb::kb_hard_tanh(long(n), x, P::kHardTanhMin, P::kHardTanhMax, y);
      },
      [](double v) { return std::min(std::max(v, double(P::kHardTanhMin)), double(P::kHardTanhMax)); }, 0, 0);
}
using KbHardTanh = CudaTest;
TEST_F(KbHardTanh, BenchShape) { check_hard_tanh(P::kAct, 3201); }
TEST_F(KbHardTanh, OddShape) { check_hard_tanh(kOdd, 3202); }

// New GELU: 1 + tanh(.) cancels for x near -5 (float tanh rounds to -1
// there, as torch's does), hence the absolute 1e-6.
void check_new_gelu(int rows, int cols, uint64_t seed) {
  check_map(
      "min_gpt_new_gelu", size_t(rows) * cols, -5, 5, seed,
      [&](size_t, const float* x, float* y) { bench::kb::kb_min_gpt_new_gelu(rows, cols, x, y); },
      [](double v) {
        return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
      },
      4e-6, 1e-6);
}
using KbMinGptNewGelu = CudaTest;
TEST_F(KbMinGptNewGelu, BenchShape) { check_new_gelu(P::kNewGeluRows, P::kNewGeluCols, 8801); }
TEST_F(KbMinGptNewGelu, OddShape) { check_new_gelu(1021, 1003, 8802); }

}  // namespace
}  // namespace bench_test
