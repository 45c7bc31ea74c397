// layer_norm and rms_norm.
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Norms = CudaTest;
namespace S = bench::shapes;

// Each sample has its own mean in [-0.5, 0.5) and spread in [0.5, 2).
void check_layer_norm(int rows, int features, uint64_t seed) {
  const float eps = 1e-5f;
  std::vector<float> x = uniform<float>(static_cast<size_t>(rows) * features, -1, 1, seed);
  for (int r = 0; r < rows; ++r) {
    float mu = static_cast<float>(unit(seed + 1, r) - 0.5), sigma = static_cast<float>(0.5 + 1.5 * unit(seed + 2, r));
    parallel_for(features, [&](size_t begin, size_t end) {
      for (size_t f = begin; f < end; ++f) x[r * size_t(features) + f] = mu + sigma * x[r * size_t(features) + f];
    });
  }
  std::vector<float> gamma = uniform<float>(features, 0.5, 1.5, seed + 3), beta = uniform<float>(features, -0.5, 0.5, seed + 4);
  DeviceBuffer<float> dx(x), dgamma(gamma), dbeta(beta), dy(x.size());
  bench::layer_norm(rows, features, eps, dx.get(), dgamma.get(), dbeta.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> mean(rows), inv_std(rows);
  for (int r = 0; r < rows; ++r) {
    double s = 0, q = 0;
    for (int f = 0; f < features; ++f) s += x[r * size_t(features) + f];
    mean[r] = s / features;
    for (int f = 0; f < features; ++f) q += (x[r * size_t(features) + f] - mean[r]) * (x[r * size_t(features) + f] - mean[r]);
    inv_std[r] = 1 / std::sqrt(q / features + eps);
  }
  auto ref = [&](size_t i) {
    size_t r = i / features, f = i % features;
    return (x[i] - mean[r]) * inv_std[r] * gamma[f] + beta[f];
  };
  // Float sums over 2^18 features drift by ~1e-5 relative: outputs are O(1).
  expect_all_close("layer_norm", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 5e-4 * (std::abs(ref(i)) + 1); });
}

void check_rms_norm(int batch, int features, int spatial, uint64_t seed) {
  const float eps = 1e-5f;
  std::vector<float> x = uniform<float>(static_cast<size_t>(batch) * features * spatial, -2, 2, seed);
  DeviceBuffer<float> dx(x), dy(x.size());
  bench::rms_norm(batch, features, spatial, eps, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  // 1 / rms per (sample, position), in double, once.
  std::vector<double> inv(static_cast<size_t>(batch) * spatial);
  parallel_for(inv.size(), [&](size_t begin, size_t end) {
    for (size_t o = begin; o < end; ++o) {
      size_t base = o / spatial * features * spatial + o % spatial;
      double q = 0;
      for (int f = 0; f < features; ++f) q += double(x[base + f * size_t(spatial)]) * x[base + f * size_t(spatial)];
      inv[o] = 1 / std::sqrt(q / features + eps);
    }
  });
  auto ref = [&](size_t i) { return x[i] * inv[i / (size_t(features) * spatial) * spatial + i % spatial]; };
  expect_all_close("rms_norm", y.size(), [&](size_t i) { return y[i]; }, ref,
                   [&](size_t i) { return 1e-5 * std::abs(ref(i)) + 1e-6; });
}

TEST_F(Norms, LayerNormBenchShape) { check_layer_norm(S::kLnBatch, S::kLnFeatures, 41); }
TEST_F(Norms, RmsNormBenchShape) { check_rms_norm(S::kRmsBatch, S::kRmsFeatures, S::kRmsSpatial, 42); }
TEST_F(Norms, LayerNormOddShape) { check_layer_norm(5, 3001, 43); }
TEST_F(Norms, RmsNormOddShape) { check_rms_norm(3, 7, 1001, 44); }

}  // namespace
}  // namespace bench_test
