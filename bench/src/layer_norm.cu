// LayerNorm over all but the first dimension (KernelBench 40 normalises each
// sample over its 64 x 256 x 256 features).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per sample, two statistics passes and a write pass over
// hundreds of thousands of features, with only `rows` (16) threads on the
// whole GPU. Float sums over 2^18 terms: the order matters at ~1e-5.
STARK_OPTIMIZE("rtol=1e-3", "atol=1e-3")
__global__ void layer_norm_kernel(int rows, int features, float eps, const float* x, const float* gamma,
                                  const float* beta, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * features;
  float* out = y + static_cast<size_t>(row) * features;
  float sum = 0.0f;
  for (int f = 0; f < features; ++f) sum += in[f];
  float mean = sum / features;
  float sq = 0.0f;
  for (int f = 0; f < features; ++f) sq += (in[f] - mean) * (in[f] - mean);
  float inv_std = rsqrtf(sq / features + eps);
  for (int f = 0; f < features; ++f) out[f] = (in[f] - mean) * inv_std * gamma[f] + beta[f];
}

void layer_norm(int rows, int features, float eps, const float* x, const float* gamma, const float* beta, float* y,
                cudaStream_t s) {
  if (rows <= 0 || features <= 0) return;
  layer_norm_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, features, eps, x, gamma, beta, y);
  detail::check_launch("layer_norm");
}

}  // namespace bench
