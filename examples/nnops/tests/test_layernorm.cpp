// layer_norm.
#include <cmath>

#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

using LayerNorm = CudaTest;

void check_layer_norm(int rows, int cols, uint64_t seed) {
  const nnops::LayerNormShape shape{rows, cols, 1e-5f};
  // Each row has its own mean in [-1, 1) and spread in [0.5, 2).
  std::vector<float> x = uniform<float>(static_cast<size_t>(rows) * cols, -1, 1, seed);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      float mu = static_cast<float>(-1 + 2 * unit(seed + 1, r));
      float sigma = static_cast<float>(0.5 + 1.5 * unit(seed + 2, r));
      for (int c = 0; c < cols; ++c) x[r * cols + c] = mu + sigma * x[r * cols + c];
    }
  });
  std::vector<float> gamma = uniform<float>(cols, 0.5, 1.5, seed + 3);
  std::vector<float> beta = uniform<float>(cols, -0.5, 0.5, seed + 4);

  DeviceBuffer<float> dx(x), dgamma(gamma), dbeta(beta), dy(x.size());
  nnops::layer_norm(shape, dx.get(), dgamma.get(), dbeta.get(), dy.get());
  std::vector<float> y = dy.download();

  // Outputs are O(1): the tolerance is relative to |ref| + 1, so entries near
  // zero get the same absolute slack as typical ones.
  size_t first = 0;
  size_t bad = count_failures(
      rows,
      [&](size_t r) {
        const float* in = &x[r * cols];
        double mean = 0, var = 0;
        for (int c = 0; c < cols; ++c) mean += in[c];
        mean /= cols;
        for (int c = 0; c < cols; ++c) var += (in[c] - mean) * (in[c] - mean);
        double inv_std = 1 / std::sqrt(var / cols + shape.eps);
        for (int c = 0; c < cols; ++c) {
          double ref = (in[c] - mean) * inv_std * gamma[c] + beta[c];
          if (!(std::abs(y[r * cols + c] - ref) <= 1e-4 * (std::abs(ref) + 1))) return false;
        }
        return true;
      },
      &first);
  EXPECT_EQ(bad, 0u) << rows << "x" << cols << ": first bad row " << first;
}

TEST_F(LayerNorm, Rows16384x1024) { check_layer_norm(16384, 1024, 51); }  // 64 MB per buffer

// Columns not a multiple of a warp or a vector width.
TEST_F(LayerNorm, OddShape) { check_layer_norm(4097, 769, 57); }

}  // namespace
}  // namespace nnops_test
