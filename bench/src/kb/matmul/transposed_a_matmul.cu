// Matmul with A transposed (KernelBench 16, torch.matmul(A.T, B)): A is stored
// k x m, B is k x n, C = A^T B is m x n.
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: 32 x 32 blocks (1024 threads), one output per thread; C[i][j] sums
// A[p][i] * B[p][j] over p, both read from global memory (a warp reads one A
// element and 32 neighbouring B elements per step). rtol/atol accept another
// order of the 8192-term sums, not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void transposed_a_matmul_kernel(int m, int n, int k, const float* __restrict__ a,
                                           const float* __restrict__ b, float* __restrict__ c) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m || j >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[static_cast<int64_t>(p) * m + i] * b[static_cast<int64_t>(p) * n + j];
  c[static_cast<int64_t>(i) * n + j] = acc;
}

void kb_matmul_with_transposed_a(int m, int k, int n, const float* a, const float* b, float* c, cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  const dim3 block(32, 32);
  const dim3 grid((n + 31) / 32, (m + 31) / 32);
  transposed_a_matmul_kernel<<<grid, block, 0, s>>>(m, n, k, a, b, c);
  detail::check_launch("kb_matmul_with_transposed_a");
}

}  // namespace bench::kb
