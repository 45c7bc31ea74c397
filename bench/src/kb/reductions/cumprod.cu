// Inclusive product along each row (KernelBench 90: torch.cumprod(x, dim=1)).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row runs the sequential product, written over the
// element type and instantiated for float below. 2048 threads, each walking
// a 128 KB row alone with a read and a write pointer; neighbours are a row
// apart, so nothing coalesces. A parallel scan multiplies in another order.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-30")
__global__ void cumprod_kernel(int rows, int cols, const T* __restrict__ x, T* __restrict__ y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T* in = x + static_cast<size_t>(row) * cols;
  T* out = y + static_cast<size_t>(row) * cols;
  T running = T(1);
  for (const T* end = in + cols; in != end; ++in, ++out) {
    running *= *in;
    *out = running;
  }
}

template __global__ void cumprod_kernel<float>(int, int, const float* __restrict__, float* __restrict__);

void kb_cumprod(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  cumprod_kernel<float><<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, cols, x, y);
  detail::check_launch("kb::kb_cumprod");
}

}  // namespace bench::kb
