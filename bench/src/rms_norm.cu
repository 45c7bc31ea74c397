// RMSNorm over dim 1 of a batch x features x spatial tensor (KernelBench 36:
// x / sqrt(mean(x^2, dim=1) + eps), no weight).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per (sample, position) reads its `features` values
// (strided by `spatial`, coalesced across threads) twice: once for the mean
// square, once to scale. Close to its bound already: a control case.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void rms_norm_kernel(int batch, int features, int spatial, float eps, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch * spatial) return;
  size_t base = static_cast<size_t>(i / spatial) * features * spatial + i % spatial;
  const float* in = x + base;
  float* out = y + base;
  float sq = 0.0f;
  for (int f = 0; f < features; ++f) sq += in[static_cast<size_t>(f) * spatial] * in[static_cast<size_t>(f) * spatial];
  float inv = rsqrtf(sq / features + eps);
  for (int f = 0; f < features; ++f) out[static_cast<size_t>(f) * spatial] = in[static_cast<size_t>(f) * spatial] * inv;
}

void rms_norm(int batch, int features, int spatial, float eps, const float* x, float* y, cudaStream_t s) {
  if (batch <= 0 || spatial <= 0) return;
  rms_norm_kernel<<<detail::blocks_for(static_cast<long long>(batch) * spatial), detail::kBlock, 0, s>>>(
      batch, features, spatial, eps, x, y);
  detail::check_launch("rms_norm");
}

}  // namespace bench
