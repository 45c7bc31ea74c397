// KernelBench 32: HardTanh (min -1, max 1).
#include <stark/stark.h>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: a template over the element type, launched for float; each thread
// walks its pointers by the grid's width (one step at the launched size).
template <typename T>
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-7")
__global__ void hard_tanh_kernel(const T* in, T* out, long n, T lo, T hi) {
  const long first = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long step = static_cast<long>(gridDim.x) * blockDim.x;
  const T* end = in + n;
  in += first;
  out += first;
  for (; in < end; in += step, out += step) {
    const T v = *in;
    *out = v < lo ? lo : (v > hi ? hi : v);
  }
}

void kb_hard_tanh(long n, const float* x, float min_val, float max_val, float* y, cudaStream_t s) {
  if (n <= 0) return;
  hard_tanh_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(x, y, n, min_val, max_val);
  detail::check_launch("kb_hard_tanh");
}

}  // namespace bench::kb
