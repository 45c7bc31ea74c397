// Argmin over the middle dimension of a 3-D tensor (KernelBench 52:
// torch.argmin(x, dim=1), int64 indices).
#include <stark/stark.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: 32 x 8 thread blocks, x over the d2 columns and y over the batch,
// one thread per output walking its column. Coalesced across a warp, but
// each of the b * d2 threads runs a 4096-step dependent loop. The first
// minimum wins; a NaN counts as the minimum (torch's rule).
STARK_OPTIMIZE()
__global__ void argmin_dim_kernel(int b, int d1, int d2, const float* __restrict__ x, int64_t* __restrict__ out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int batch = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= d2 || batch >= b) return;
  const float* column = x + static_cast<size_t>(batch) * d1 * d2 + j;
  float best = column[0];
  int64_t best_i = 0;
  for (int i = 1; i < d1; ++i) {
    const float v = column[static_cast<size_t>(i) * d2];
    if (v < best || (isnan(v) && !isnan(best))) {
      best = v;
      best_i = i;
    }
  }
  out[static_cast<size_t>(batch) * d2 + j] = best_i;
}

void kb_argmin_over_a_dimension(int b, int d1, int d2, const float* x, int64_t* out, cudaStream_t s) {
  if (b <= 0 || d1 <= 0 || d2 <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((d2 + 31) / 32, (b + 7) / 8);
  argmin_dim_kernel<<<grid, block, 0, s>>>(b, d1, d2, x, out);
  detail::check_launch("kb::kb_argmin_over_a_dimension");
}

}  // namespace bench::kb
