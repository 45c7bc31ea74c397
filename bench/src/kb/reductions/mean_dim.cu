// Mean over the middle dimension of a 3-D tensor (KernelBench 48: torch.mean(x, dim=1)).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output on a 2-D grid (x: the d2 columns, y: the
// batch) walks its column's d1 values and divides the sum by d1. Loads
// coalesce across a warp, but only b * d2 threads (32760, an eighth of an
// H200's) each run a 4096-step dependent loop.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void mean_dim_kernel(size_t d1, size_t d2, const float* __restrict__ x, float* __restrict__ out) {
  const size_t j = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t b = blockIdx.y;
  if (j >= d2) return;
  const float* column = x + b * d1 * d2 + j;
  float sum = 0.0f;
  for (size_t i = 0; i < d1; ++i) sum += column[i * d2];
  out[b * d2 + j] = sum / static_cast<float>(d1);
}

void kb_mean_reduction_over_a_dimension(int b, int d1, int d2, const float* x, float* out, cudaStream_t s) {
  if (b <= 0 || d1 <= 0 || d2 <= 0) return;
  if (b > 65535) detail::check_launch("kb::kb_mean_reduction_over_a_dimension", cudaErrorInvalidValue);
  dim3 grid((d2 + 255) / 256, b);
  mean_dim_kernel<<<grid, 256, 0, s>>>(d1, d2, x, out);
  detail::check_launch("kb::kb_mean_reduction_over_a_dimension");
}

}  // namespace bench::kb
