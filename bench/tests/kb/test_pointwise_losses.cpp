// KernelBench level 1, pointwise family: the losses (94, 95, 96, 98, 99,
// 100), each one scalar against a double-precision reference within 1e-4 of
// its value. The kernels sum rows (or columns, or chunks) in float and add
// the partial sums atomically, in no fixed order: about 1e-5 relative at
// these lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "bench/kb/pointwise.h"
#include "../check.h"

namespace bench_test {
namespace {

namespace P = bench::kb::pointwise;

// sum over i < n of term(i), in double, in parallel.
template <typename Term>
double parallel_sum(size_t n, Term term) {
  std::mutex mu;
  double total = 0;
  parallel_for(n, [&](size_t begin, size_t end) {
    double s = 0;
    for (size_t i = begin; i < end; ++i) s += term(i);
    std::lock_guard<std::mutex> lock(mu);
    total += s;
  });
  return total;
}

float download_scalar(const DeviceBuffer<float>& d) { return d.download()[0]; }

void expect_loss(const char* what, float got, double ref) {
  EXPECT_NEAR(got, ref, 1e-4 * std::abs(ref) + 1e-7) << what;
}

// KernelBench scales the predictions of 94, 96, 99 by torch.rand(()); a fixed value here.
constexpr double kInputScale = 0.6;

// --- 94: MSE ----------------------------------------------------------------
void check_mse(int rows, int cols, uint64_t seed) {
  const size_t n = size_t(rows) * cols;
  std::vector<float> p = uniform<float>(n, 0, kInputScale, seed), t = uniform<float>(n, 0, 1, seed + 1);
  DeviceBuffer<float> dp(p), dt(t), dl(1);
  bench::kb::kb_mse_loss(rows, cols, dp.get(), dt.get(), dl.get());
  double ref = parallel_sum(n, [&](size_t i) {
                 double d = double(p[i]) - t[i];
                 return d * d;
               }) /
               double(n);
  expect_loss("mse_loss", download_scalar(dl), ref);
}

using KbMseLoss = CudaTest;
TEST_F(KbMseLoss, BenchShape) { check_mse(P::kMseRows, P::kMseCols, 9401); }
TEST_F(KbMseLoss, OddShape) { check_mse(257, 1003, 9402); }

// --- 95: cross-entropy ------------------------------------------------------
// `offset`: a per-row shift in [-offset, offset) (exp overflows float unless
// the kernel subtracts the row maximum).
void check_cross_entropy(int rows, int classes, double offset, uint64_t seed) {
  std::vector<float> z = uniform<float>(size_t(rows) * classes, 0, 1, seed);
  if (offset > 0)
    parallel_for(rows, [&](size_t begin, size_t end) {
      for (size_t r = begin; r < end; ++r)
        for (int k = 0; k < classes; ++k)
          z[r * classes + k] = float(z[r * classes + k] * 16 - 8 + offset * (2 * unit(seed + 2, r) - 1));
    });
  std::vector<int64_t> target(rows);
  for (int r = 0; r < rows; ++r) target[r] = std::min<int64_t>(classes - 1, int64_t(unit(seed + 1, r) * classes));
  DeviceBuffer<float> dz(z), dl(1);
  DeviceBuffer<int64_t> dt(target);
  bench::kb::kb_cross_entropy_loss(rows, classes, dz.get(), dt.get(), dl.get());
  double ref = parallel_sum(rows, [&](size_t r) {
                 const float* row = &z[r * classes];
                 double m = *std::max_element(row, row + classes), s = 0;
                 for (int k = 0; k < classes; ++k) s += std::exp(row[k] - m);
                 return std::log(s) + m - row[target[r]];
               }) /
               rows;
  expect_loss("cross_entropy_loss", download_scalar(dl), ref);
}

using KbCrossEntropyLoss = CudaTest;
TEST_F(KbCrossEntropyLoss, BenchShape) { check_cross_entropy(P::kCeRows, P::kCeClasses, 0, 9501); }
TEST_F(KbCrossEntropyLoss, OddShape) { check_cross_entropy(1037, 1001, 100, 9502); }

// --- 96: Huber / smooth L1 ---------------------------------------------------
// KernelBench's data keeps |p - t| < 1 (the quadratic side only); the odd
// case spreads the predictions over [-2, 2) to reach the linear side too.
void check_huber(size_t n, double lo, double hi, uint64_t seed) {
  std::vector<float> p = uniform<float>(n, lo, hi, seed), t = uniform<float>(n, 0, 1, seed + 1);
  DeviceBuffer<float> dp(p), dt(t), dl(1);
  bench::kb::kb_huber_loss(n, dp.get(), dt.get(), P::kHuberBeta, dl.get());
  const double beta = P::kHuberBeta;
  double ref = parallel_sum(n, [&](size_t i) {
                 double d = std::abs(double(p[i]) - t[i]);
                 return d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
               }) /
               double(n);
  expect_loss("huber_loss", download_scalar(dl), ref);
}

using KbHuberLoss = CudaTest;
TEST_F(KbHuberLoss, BenchShape) { check_huber(size_t(P::kHuberRows) * P::kHuberCols, 0, kInputScale, 9601); }
TEST_F(KbHuberLoss, OddShape) { check_huber(1000003, -2, 2, 9602); }

// --- 98: KL divergence, batchmean -------------------------------------------
// Rows of softmax(rand * scale) and softmax(rand), as KernelBench's
// get_inputs; `zeros` sets every 7th target to 0 (its term is 0).
std::vector<float> softmax_rows(int rows, int cols, double scale, uint64_t seed) {
  std::vector<float> v = uniform<float>(size_t(rows) * cols, 0, scale, seed);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      float* row = &v[r * cols];
      double m = *std::max_element(row, row + cols), s = 0;
      for (int c = 0; c < cols; ++c) s += std::exp(row[c] - m);
      for (int c = 0; c < cols; ++c) row[c] = float(std::exp(row[c] - m) / s);
    }
  });
  return v;
}

void check_kl_div(int rows, int cols, bool zeros, uint64_t seed) {
  std::vector<float> p = softmax_rows(rows, cols, kInputScale, seed), t = softmax_rows(rows, cols, 1, seed + 1);
  if (zeros)
    for (size_t i = 0; i < t.size(); i += 7) t[i] = 0;
  DeviceBuffer<float> dp(p), dt(t), dl(1);
  bench::kb::kb_kl_div_loss(rows, cols, dp.get(), dt.get(), dl.get());
  double ref = parallel_sum(t.size(), [&](size_t i) {
                 return t[i] > 0 ? double(t[i]) * (std::log(double(t[i])) - std::log(double(p[i]))) : 0.0;
               }) /
               rows;
  expect_loss("kl_div_loss", download_scalar(dl), ref);
}

using KbKlDivLoss = CudaTest;
TEST_F(KbKlDivLoss, BenchShape) { check_kl_div(P::kKlRows, P::kKlCols, false, 9801); }
TEST_F(KbKlDivLoss, OddShape) { check_kl_div(1031, 1001, true, 9802); }

// --- 99: triplet margin -----------------------------------------------------
// `far`: every third row's negative is drawn from [0, 3) instead of [0, 1),
// so its hinge is clamped to 0.
void check_triplet(int rows, int dim, bool far, uint64_t seed) {
  const size_t n = size_t(rows) * dim;
  std::vector<float> a = uniform<float>(n, 0, kInputScale, seed), p = uniform<float>(n, 0, 1, seed + 1),
                     ng = uniform<float>(n, 0, 1, seed + 2);
  if (far)
    for (size_t i = 0; i < n; ++i)
      if (i / dim % 3 == 0) ng[i] *= 3;
  DeviceBuffer<float> da(a), dp(p), dn(ng), dl(1);
  bench::kb::kb_triplet_margin_loss(rows, dim, da.get(), dp.get(), dn.get(), P::kTripletMargin, P::kTripletEps,
                                    dl.get());
  const double eps = P::kTripletEps;
  double ref = parallel_sum(rows, [&](size_t r) {
                 double ap = 0, an = 0;
                 for (size_t k = r * dim; k < (r + 1) * dim; ++k) {
                   double dp_ = double(a[k]) - p[k] + eps, dn_ = double(a[k]) - ng[k] + eps;
                   ap += dp_ * dp_;
                   an += dn_ * dn_;
                 }
                 return std::max(std::sqrt(ap) - std::sqrt(an) + P::kTripletMargin, 0.0);
               }) /
               rows;
  expect_loss("triplet_margin_loss", download_scalar(dl), ref);
}

using KbTripletMarginLoss = CudaTest;
TEST_F(KbTripletMarginLoss, BenchShape) { check_triplet(P::kTripletRows, P::kTripletDim, false, 9901); }
TEST_F(KbTripletMarginLoss, OddShape) { check_triplet(1031, 1001, true, 9902); }

// --- 100: hinge ---------------------------------------------------------------
// KernelBench's predictions are in [0, 1), so 1 - p t never goes below 0;
// the odd case draws them from [-3, 3) to reach the clamp.
void check_hinge(int rows, int cols, double lo, double hi, uint64_t seed) {
  const size_t n = size_t(rows) * cols;
  std::vector<float> p = uniform<float>(n, lo, hi, seed), t(cols);
  for (int c = 0; c < cols; ++c) t[c] = unit(seed + 1, c) < 0.5 ? -1.0f : 1.0f;
  DeviceBuffer<float> dp(p), dt(t), dl(1);
  bench::kb::kb_hinge_loss(rows, cols, dp.get(), dt.get(), dl.get());
  double ref =
      parallel_sum(n, [&](size_t i) { return std::max(0.0, 1 - double(p[i]) * t[i % cols]); }) / double(n);
  expect_loss("hinge_loss", download_scalar(dl), ref);
}

using KbHingeLoss = CudaTest;
TEST_F(KbHingeLoss, BenchShape) { check_hinge(P::kHingeRows, P::kHingeCols, 0, 1, 10001); }
TEST_F(KbHingeLoss, OddShape) { check_hinge(1031, 1001, -3, 3, 10002); }

}  // namespace
}  // namespace bench_test
