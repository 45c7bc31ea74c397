// KernelBench 29: Softplus (torch's defaults: beta 1, threshold 20).
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop over at most 65535 blocks of 256 threads, so a
// thread handles one or a few elements; expf and log1pf per element.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void softplus_kernel(int64_t n, float beta, float threshold, const float* x, float* y) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float bx = beta * x[i];
    y[i] = bx > threshold ? x[i] : log1pf(expf(bx)) / beta;
  }
}

void kb_softplus(int64_t n, const float* x, float beta, float threshold, float* y, cudaStream_t s) {
  if (n <= 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((n + 255) / 256, 65535));
  softplus_kernel<<<blocks, 256, 0, s>>>(n, beta, threshold, x, y);
  detail::check_launch("kb_softplus");
}

}  // namespace bench::kb
