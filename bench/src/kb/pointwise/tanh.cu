// KernelBench 22: Tanh.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one element per thread on 512-thread blocks, walking the pointers
// to the thread's element; tanhf (full precision: rtol 1e-5 rejects
// tanh.approx, whose relative error is about 5e-4).
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void tanh_kernel(const float* x, float* y, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x += i;
  y += i;
  *y = tanhf(*x);
}

void kb_tanh(size_t n, const float* x, float* y, cudaStream_t s) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>((n + 511) / 512);
  tanh_kernel<<<blocks, 512, 0, s>>>(x, y, n);
  detail::check_launch("kb_tanh");
}

}  // namespace bench::kb
