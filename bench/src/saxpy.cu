// saxpy: the bandwidth-bound control case, already close to its bound.
#include <stark/stark.h>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one element per thread, scalar loads.
[[stark::optimize]] __global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  saxpy_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, a, x, y);
  detail::check_launch("saxpy");
}

}  // namespace bench
