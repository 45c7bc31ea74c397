// Tall-skinny times short-wide matmul (KernelBench 9): C = A (m x k) B (k x m)
// with k = 32, so writing the m x m output dominates.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: a 1-D grid, one thread per output element, index split with / and
// %, the k-loop reading A's row and B's column from global memory.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void matmul_tall_skinny_kernel(int m, int k, const float* a, const float* b, float* c) {
  long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(m) * m) return;
  int i = static_cast<int>(o / m), j = static_cast<int>(o % m);
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[static_cast<size_t>(i) * k + p] * b[static_cast<size_t>(p) * m + j];
  c[o] = acc;
}

void matmul_tall_skinny(int m, int k, const float* a, const float* b, float* c, cudaStream_t s) {
  if (m <= 0) return;
  matmul_tall_skinny_kernel<<<detail::blocks_for(static_cast<long long>(m) * m), detail::kBlock, 0, s>>>(m, k, a, b,
                                                                                                          c);
  detail::check_launch("matmul_tall_skinny");
}

}  // namespace bench
