// KernelBench 27: SELU.
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one element per thread on 1024-thread blocks, 64-bit indices,
// expm1f on the negative side (torch's ELU family does the same).
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void selu_kernel(const float* const __restrict__ x, float* const __restrict__ y, const int64_t n) {
  constexpr float kAlpha = 1.6732632423543772848170429916717f;
  constexpr float kScale = 1.0507009873554804934193349852946f;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    y[i] = v > 0.0f ? kScale * v : kScale * kAlpha * expm1f(v);
  }
}

void kb_selu(int64_t n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  constexpr int64_t kThreads = 1024;
  selu_kernel<<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, s>>>(x, y, n);
  detail::check_launch("kb_selu");
}

}  // namespace bench::kb
