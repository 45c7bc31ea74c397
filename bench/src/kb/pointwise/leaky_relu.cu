// KernelBench 20: LeakyReLU.
#include <stark/stark.h>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop launched with a thread per element, so each
// thread runs one iteration; scalar loads and stores.
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-7")
__global__ void leaky_relu_kernel(const float* x, float* y, float negative_slope, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = x[i];
    y[i] = v > 0.0f ? v : v * negative_slope;
  }
}

void kb_leaky_relu(int n, const float* x, float negative_slope, float* y, cudaStream_t s) {
  if (n <= 0) return;
  leaky_relu_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(x, y, negative_slope, n);
  detail::check_launch("kb_leaky_relu");
}

}  // namespace bench::kb
