// Minimum over the middle dimension of a 3-D tensor (KernelBench 53: torch.min(x, dim=1)[0]).
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output, written over the element type and
// instantiated for float below; a pointer steps down the column d2 elements
// at a time. Coalesced across a warp, b * d2 threads each run a 4096-step
// dependent loop. A NaN (v != v) wins, as in torch.
template <typename T>
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void min_dim_kernel(int64_t b, int64_t d1, int64_t d2, const T* x, T* out) {
  const int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= b * d2) return;
  const int64_t batch = o / d2;
  const T* p = x + batch * d1 * d2 + (o - batch * d2);
  T best = *p;
  for (int64_t i = 1; i < d1; ++i) {
    p += d2;
    const T v = *p;
    if (v < best || v != v) best = v;
  }
  out[o] = best;
}

template __global__ void min_dim_kernel<float>(int64_t, int64_t, int64_t, const float*, float*);

void kb_min_reduction_over_a_dimension(int b, int d1, int d2, const float* x, float* out, cudaStream_t s) {
  if (b <= 0 || d1 <= 0 || d2 <= 0) return;
  const int64_t outputs = static_cast<int64_t>(b) * d2;
  min_dim_kernel<float><<<detail::blocks_for(outputs), detail::kBlock, 0, s>>>(b, d1, d2, x, out);
  detail::check_launch("kb::kb_min_reduction_over_a_dimension");
}

}  // namespace bench::kb
