// BatchNorm2d in training mode (KernelBench 33: nn.BatchNorm2d(64) applied by
// a freshly built module): per-channel statistics over (n, h, w).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per channel (64 threads on the whole GPU, one warp per
// block) makes three passes over its n * h * w values: the mean, the biased
// variance, then the normalised output. A channel's values lie in n runs of
// h * w floats; neighbouring threads read h * w floats apart. Float sums
// over 2^18 terms: the order matters at ~1e-5 of the outputs' scale.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void batch_norm_kernel(int n, int c, int hw, float eps, const float* x, const float* gamma,
                                  const float* beta, float* y) {
  int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= c) return;
  const float count = static_cast<float>(n) * static_cast<float>(hw);
  float sum = 0.0f;
  for (int b = 0; b < n; ++b) {
    size_t base = (static_cast<size_t>(b) * c + ch) * hw;
    for (int p = 0; p < hw; ++p) sum += x[base + p];
  }
  float mean = sum / count;
  float sq = 0.0f;
  for (int b = 0; b < n; ++b) {
    size_t base = (static_cast<size_t>(b) * c + ch) * hw;
    for (int p = 0; p < hw; ++p) {
      float dev = x[base + p] - mean;
      sq += dev * dev;
    }
  }
  float inv_std = rsqrtf(sq / count + eps);
  float scale = gamma[ch], shift = beta[ch];
  for (int b = 0; b < n; ++b) {
    size_t base = (static_cast<size_t>(b) * c + ch) * hw;
    for (int p = 0; p < hw; ++p) y[base + p] = (x[base + p] - mean) * inv_std * scale + shift;
  }
}

void kb_batch_norm(int n, int c, int h, int w, float eps, const float* x, const float* gamma, const float* beta,
                   float* y, cudaStream_t s) {
  if (n <= 0 || c <= 0 || h <= 0 || w <= 0) return;
  batch_norm_kernel<<<(c + 31) / 32, 32, 0, s>>>(n, c, h * w, eps, x, gamma, beta, y);
  detail::check_launch("kb::kb_batch_norm");
}

}  // namespace bench::kb
