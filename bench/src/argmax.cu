// Argmax over dim 1 of a 3-D tensor (torch.argmax(x, dim=1)).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per output walks all d1 entries of its column. Loads
// coalesce across threads, but only b * d2 threads (8190 on the benchmark
// shape, 3% of an H200's) each run a 4096-step dependent loop. Ties go to the
// first index, as in torch.
STARK_OPTIMIZE() __global__ void argmax_kernel(int b, int d1, int d2, const float* x, int* out) {
  int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= b * d2) return;
  int batch = o / d2, j = o % d2;
  const float* column = x + static_cast<size_t>(batch) * d1 * d2 + j;
  float best = column[0];
  int best_i = 0;
  for (int i = 1; i < d1; ++i) {
    float v = column[static_cast<size_t>(i) * d2];
    if (v > best) {
      best = v;
      best_i = i;
    }
  }
  out[o] = best_i;
}

void argmax(int b, int d1, int d2, const float* x, int* out, cudaStream_t s) {
  if (b <= 0 || d1 <= 0 || d2 <= 0) return;
  argmax_kernel<<<detail::blocks_for(static_cast<long long>(b) * d2), detail::kBlock, 0, s>>>(b, d1, d2, x, out);
  detail::check_launch("argmax");
}

}  // namespace bench
