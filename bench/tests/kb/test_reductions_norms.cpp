// KernelBench reductions family, part 1: log-softmax and the norms (24, 33,
// 34, 35, 37, 38, 39). References in double on the CPU, every element checked.
#include <algorithm>
#include <cmath>
#include <vector>

#include "bench/kb/reductions.h"
#include "check.h"

namespace bench_test {
namespace {

namespace R = bench::kb::reductions;

using KbLogSoftmax = CudaTest;
using KbBatchNorm = CudaTest;
using KbInstanceNorm = CudaTest;
using KbGroupNorm = CudaTest;
using KbFrobeniusNorm = CudaTest;
using KbL1Norm = CudaTest;
using KbL2Norm = CudaTest;

constexpr float kEps = 1e-5f;  // the eps of nn.BatchNorm2d, nn.InstanceNorm2d and nn.GroupNorm

// Values in [lo, hi): torch.rand's [0, 1) at the benchmark shape; the odd
// shape's [-100, 100) overflows exp unless the kernel subtracts the row max.
void check_log_softmax(int rows, int cols, double lo, double hi, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(rows) * cols, lo, hi, seed);
  DeviceBuffer<float> dx(x), dy(x.size());
  bench::kb::kb_log_softmax(rows, cols, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> row_max(rows), log_sum(rows);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const float* in = &x[r * cols];
      double m = *std::max_element(in, in + cols), s = 0;
      for (int c = 0; c < cols; ++c) s += std::exp(in[c] - m);
      row_max[r] = m;
      log_sum[r] = std::log(s);
    }
  });
  auto ref = [&](size_t i) { return x[i] - row_max[i / cols] - log_sum[i / cols]; };
  // A float sum of 393216 exponentials is good to ~1e-5 relative: ~1e-5 absolute on log(sum).
  expect_all_close("log_softmax", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 1e-4 + 1e-5 * std::abs(ref(i)); });
}

TEST_F(KbLogSoftmax, BenchShape) { check_log_softmax(R::kLogSoftmaxRows, R::kLogSoftmaxCols, 0, 1, 2401); }
TEST_F(KbLogSoftmax, OddShape) { check_log_softmax(67, 1001, -100, 100, 2402); }

// Normalised outputs are O(1); float statistics over up to 2^18 values are
// good to ~1e-5, so 1e-4 * (|y| + 1) leaves margin and still rejects
// statistics computed in half precision.
double norm_tol(double ref) { return 1e-4 * (std::abs(ref) + 1); }

// A norm's weight and bias: 1 and 0 as a fresh module has them, or random
// ones (`affine`) so that the odd shapes check their use.
std::vector<float> weight(int c, bool affine, uint64_t seed) {
  return affine ? uniform<float>(c, 0.5, 1.5, seed) : std::vector<float>(c, 1.0f);
}
std::vector<float> bias(int c, bool affine, uint64_t seed) {
  return affine ? uniform<float>(c, -0.5, 0.5, seed) : std::vector<float>(c, 0.0f);
}

void check_batch_norm(int n, int c, int h, int w, bool affine, uint64_t seed) {
  const size_t hw = size_t(h) * w;
  std::vector<float> x = uniform<float>(size_t(n) * c * hw, 0, 1, seed);
  std::vector<float> gamma = weight(c, affine, seed + 1), beta = bias(c, affine, seed + 2);
  DeviceBuffer<float> dx(x), dg(gamma), db(beta), dy(x.size());
  bench::kb::kb_batch_norm(n, c, h, w, kEps, dx.get(), dg.get(), db.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> mean(c), inv_std(c);
  parallel_for(c, [&](size_t begin, size_t end) {
    for (size_t ch = begin; ch < end; ++ch) {
      double s = 0, q = 0;
      for (int b = 0; b < n; ++b)
        for (size_t p = 0; p < hw; ++p) s += x[(b * size_t(c) + ch) * hw + p];
      mean[ch] = s / (double(n) * hw);
      for (int b = 0; b < n; ++b)
        for (size_t p = 0; p < hw; ++p) q += std::pow(x[(b * size_t(c) + ch) * hw + p] - mean[ch], 2);
      inv_std[ch] = 1 / std::sqrt(q / (double(n) * hw) + kEps);  // biased variance, as in training mode
    }
  });
  auto ref = [&](size_t i) {
    size_t ch = i / hw % c;
    return (x[i] - mean[ch]) * inv_std[ch] * gamma[ch] + beta[ch];
  };
  expect_all_close("batch_norm", y.size(), [&](size_t i) { return y[i]; }, ref, [&](size_t i) { return norm_tol(ref(i)); });
}

TEST_F(KbBatchNorm, BenchShape) { check_batch_norm(R::kBnN, R::kBnC, R::kBnH, R::kBnW, false, 3301); }
TEST_F(KbBatchNorm, OddShape) { check_batch_norm(3, 37, 29, 31, true, 3302); }

void check_instance_norm(int n, int c, int h, int w, uint64_t seed) {
  const size_t hw = size_t(h) * w, planes = size_t(n) * c;
  std::vector<float> x = uniform<float>(planes * hw, 0, 1, seed);
  DeviceBuffer<float> dx(x), dy(x.size());
  bench::kb::kb_instance_norm(n, c, h, w, kEps, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> mean(planes), inv_std(planes);
  parallel_for(planes, [&](size_t begin, size_t end) {
    for (size_t pl = begin; pl < end; ++pl) {
      double s = 0, q = 0;
      for (size_t p = 0; p < hw; ++p) s += x[pl * hw + p];
      mean[pl] = s / hw;
      for (size_t p = 0; p < hw; ++p) q += std::pow(x[pl * hw + p] - mean[pl], 2);
      inv_std[pl] = 1 / std::sqrt(q / hw + kEps);
    }
  });
  auto ref = [&](size_t i) { return (x[i] - mean[i / hw]) * inv_std[i / hw]; };
  expect_all_close("instance_norm", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return norm_tol(ref(i)); });
}

TEST_F(KbInstanceNorm, BenchShape) { check_instance_norm(R::kInN, R::kInC, R::kInH, R::kInW, 3401); }
TEST_F(KbInstanceNorm, OddShape) { check_instance_norm(3, 37, 29, 31, 3402); }

void check_group_norm(int n, int c, int groups, int h, int w, bool affine, uint64_t seed) {
  const size_t hw = size_t(h) * w, group_len = size_t(c / groups) * hw, pairs = size_t(n) * groups;
  std::vector<float> x = uniform<float>(size_t(n) * c * hw, 0, 1, seed);
  std::vector<float> gamma = weight(c, affine, seed + 1), beta = bias(c, affine, seed + 2);
  DeviceBuffer<float> dx(x), dg(gamma), db(beta), dy(x.size());
  bench::kb::kb_group_norm(n, c, groups, h, w, kEps, dx.get(), dg.get(), db.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> mean(pairs), inv_std(pairs);
  parallel_for(pairs, [&](size_t begin, size_t end) {
    for (size_t g = begin; g < end; ++g) {
      double s = 0, q = 0;
      for (size_t i = 0; i < group_len; ++i) s += x[g * group_len + i];
      mean[g] = s / group_len;
      for (size_t i = 0; i < group_len; ++i) q += std::pow(x[g * group_len + i] - mean[g], 2);
      inv_std[g] = 1 / std::sqrt(q / group_len + kEps);
    }
  });
  auto ref = [&](size_t i) {
    size_t g = i / group_len, ch = i / hw % c;
    return (x[i] - mean[g]) * inv_std[g] * gamma[ch] + beta[ch];
  };
  expect_all_close("group_norm", y.size(), [&](size_t i) { return y[i]; }, ref, [&](size_t i) { return norm_tol(ref(i)); });
}

TEST_F(KbGroupNorm, BenchShape) { check_group_norm(R::kGnN, R::kGnC, R::kGnGroups, R::kGnH, R::kGnW, false, 3501); }
TEST_F(KbGroupNorm, OddShape) { check_group_norm(3, 35, 7, 29, 31, true, 3502); }

void check_frobenius_norm(int n, int c, int h, int w, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(n) * c * h * w, 0, 1, seed);
  DeviceBuffer<float> dx(x), dsum(1), dy(x.size());
  bench::kb::kb_frobenius_norm(n, c, h, w, dx.get(), dsum.get(), dy.get());
  std::vector<float> y = dy.download(), sum_sq = dsum.download();
  std::vector<double> partial(std::max<size_t>(1, x.size() / 65536 + 1));
  parallel_for(partial.size(), [&](size_t begin, size_t end) {
    for (size_t part = begin; part < end; ++part)
      for (size_t i = part * 65536; i < std::min(x.size(), (part + 1) * 65536); ++i) partial[part] += double(x[i]) * x[i];
  });
  double total = 0;
  for (double p : partial) total += p;
  // Row sums added by atomics in any order: ~1e-5 relative on the total.
  EXPECT_NEAR(sum_sq[0], total, 1e-4 * total) << "sum of squares";
  const double norm = std::sqrt(total);
  auto ref = [&](size_t i) { return x[i] / norm; };
  expect_all_close("frobenius_norm", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 1e-4 * std::abs(ref(i)) + 1e-12; });
}

TEST_F(KbFrobeniusNorm, BenchShape) { check_frobenius_norm(R::kFroN, R::kFroC, R::kFroH, R::kFroW, 3701); }
TEST_F(KbFrobeniusNorm, OddShape) { check_frobenius_norm(3, 5, 37, 1001, 3702); }

// L1 (p = 1: x / mean |x|) or L2 (p = 2: x / sqrt(sum x^2)) over each row.
// The odd shape takes signed values, so |x| matters.
void check_lp_norm(int p, int rows, int cols, double lo, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(rows) * cols, lo, 1, seed);
  DeviceBuffer<float> dx(x), dy(x.size());
  if (p == 1)
    bench::kb::kb_l1_norm(rows, cols, dx.get(), dy.get());
  else
    bench::kb::kb_l2_norm(rows, cols, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> denom(rows);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      double s = 0;
      for (int c = 0; c < cols; ++c) s += p == 1 ? std::abs(double(x[r * cols + c])) : double(x[r * cols + c]) * x[r * cols + c];
      denom[r] = p == 1 ? s / cols : std::sqrt(s);
    }
  });
  auto ref = [&](size_t i) { return x[i] / denom[i / cols]; };
  expect_all_close(p == 1 ? "l1_norm" : "l2_norm", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 1e-4 * std::abs(ref(i)) + 1e-9; });
}

TEST_F(KbL1Norm, BenchShape) { check_lp_norm(1, R::kLpRows, R::kLpCols, 0, 3801); }
TEST_F(KbL1Norm, OddShape) { check_lp_norm(1, 301, 4097, -1, 3802); }
TEST_F(KbL2Norm, BenchShape) { check_lp_norm(2, R::kLpRows, R::kLpCols, 0, 3901); }
TEST_F(KbL2Norm, OddShape) { check_lp_norm(2, 301, 4097, -1, 3902); }

}  // namespace
}  // namespace bench_test
