// Elementwise activations: ReLU and GELU, one element per thread.
#include <stark/stark.h>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one element per thread, scalar 4-byte loads and stores.
STARK_OPTIMIZE() __global__ void relu_kernel(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

// Naive: one element per thread; erff is accurate to 2 ulp, so a faster
// variant has a little room (rtol) but not the tanh approximation's 1e-3.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void gelu_kernel(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678f));
}

void relu(int n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  relu_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, x, y);
  detail::check_launch("relu");
}

void gelu(int n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  gelu_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, x, y);
  detail::check_launch("gelu");
}

}  // namespace bench
