// GroupNorm (KernelBench 35: nn.GroupNorm(8, 64)): statistics over each group
// of channels / groups consecutive channels of one sample, then the
// per-channel weight and bias.
#include <stark/stark.h>

#include <cmath>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// The sizes the kernel needs, passed by value.
struct GroupNormShape {
  int samples;
  int channels;
  int groups;
  int spatial;  // h * w
};

// Naive: one thread per (sample, group) in a grid-stride loop: 896 threads
// each read their group (contiguous, 128 KB here) once for the sum and the
// sum of squares (accumulated in double, so E[x^2] - E[x]^2 does not
// cancel), then again to write, with neighbours 128 KB apart.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void group_norm_kernel(GroupNormShape shape, float eps, const float* __restrict__ x,
                                  const float* __restrict__ gamma, const float* __restrict__ beta,
                                  float* __restrict__ y) {
  const int per_group = shape.channels / shape.groups;
  const long long group_len = static_cast<long long>(per_group) * shape.spatial;
  const int total = shape.samples * shape.groups;
  for (int ng = blockIdx.x * blockDim.x + threadIdx.x; ng < total; ng += gridDim.x * blockDim.x) {
    const float* in = x + ng * group_len;
    float* out = y + ng * group_len;
    double sum = 0.0, sum_sq = 0.0;
    for (long long i = 0; i < group_len; ++i) {
      const double v = in[i];
      sum += v;
      sum_sq += v * v;
    }
    const double mean = sum / static_cast<double>(group_len);
    const double var = fmax(sum_sq / static_cast<double>(group_len) - mean * mean, 0.0);
    const float inv_std = static_cast<float>(1.0 / sqrt(var + eps));
    const float mean_f = static_cast<float>(mean);
    const int first = (ng % shape.groups) * per_group;
    for (int k = 0; k < per_group; ++k) {
      const float g = gamma[first + k], b = beta[first + k];
      const float* src = in + static_cast<long long>(k) * shape.spatial;
      float* dst = out + static_cast<long long>(k) * shape.spatial;
      for (int p = 0; p < shape.spatial; ++p) dst[p] = (src[p] - mean_f) * inv_std * g + b;
    }
  }
}

void kb_group_norm(int n, int c, int groups, int h, int w, float eps, const float* x, const float* gamma,
                   const float* beta, float* y, cudaStream_t s) {
  if (n <= 0 || c <= 0 || h <= 0 || w <= 0) return;
  if (groups <= 0 || c % groups != 0) detail::check_launch("kb::kb_group_norm", cudaErrorInvalidValue);
  const GroupNormShape shape{n, c, groups, h * w};
  const int pairs = n * groups;
  group_norm_kernel<<<(pairs + 127) / 128, 128, 0, s>>>(shape, eps, x, gamma, beta, y);
  detail::check_launch("kb::kb_group_norm");
}

}  // namespace bench::kb
