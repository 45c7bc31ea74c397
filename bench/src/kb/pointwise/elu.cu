// KernelBench 31: ELU (alpha 1).
#include <stark/stark.h>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one element per thread on small 64-thread blocks, expm1f on the
// negative side.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void elu_kernel(int n, float alpha, const float* x, float* y) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  if (v > 0.0f)
    y[i] = v;
  else
    y[i] = alpha * expm1f(v);
}

void kb_elu(int n, const float* x, float alpha, float* y, cudaStream_t s) {
  if (n <= 0) return;
  elu_kernel<<<(n + 63) / 64, 64, 0, s>>>(n, alpha, x, y);
  detail::check_launch("kb_elu");
}

}  // namespace bench::kb
