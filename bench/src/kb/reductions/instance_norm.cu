// InstanceNorm2d (KernelBench 34: nn.InstanceNorm2d(64), no affine
// parameters, no running statistics): each (sample, channel) plane is
// normalised by its own mean and biased variance.
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per plane on a 2-D grid (x: channels, y: samples), 256
// threads in all. Welford's update gives mean and variance in one pass, a
// second pass writes; each thread streams 1 MB alone and neighbours read
// 1 MB apart. The running mean's rounding over 2^18 steps: ~1e-5.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void instance_norm_kernel(int channels, int64_t plane, float eps, const float* x, float* y) {
  const int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= channels) return;
  const int64_t base = (static_cast<int64_t>(blockIdx.y) * channels + ch) * plane;
  float mean = 0.0f, m2 = 0.0f;
  for (int64_t i = 0; i < plane; ++i) {
    const float v = x[base + i];
    const float delta = v - mean;
    mean += delta / static_cast<float>(i + 1);
    m2 += delta * (v - mean);
  }
  const float inv_std = 1.0f / sqrtf(m2 / static_cast<float>(plane) + eps);
  for (int64_t i = 0; i < plane; ++i) y[base + i] = (x[base + i] - mean) * inv_std;
}

void kb_instance_norm(int n, int c, int h, int w, float eps, const float* x, float* y, cudaStream_t s) {
  if (n <= 0 || c <= 0 || h <= 0 || w <= 0) return;
  if (n > 65535) detail::check_launch("kb::kb_instance_norm", cudaErrorInvalidValue);  // one grid row per sample
  dim3 grid((c + 31) / 32, n);
  instance_norm_kernel<<<grid, 32, 0, s>>>(c, static_cast<int64_t>(h) * w, eps, x, y);
  detail::check_launch("kb::kb_instance_norm");
}

}  // namespace bench::kb
