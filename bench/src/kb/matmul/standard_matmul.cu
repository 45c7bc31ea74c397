// Standard matrix multiplication (KernelBench 2): C (m x n) = A (m x k) B (k x n).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: 32 x 8 thread blocks, one output per thread; each thread walks A's
// row and B's column straight from global memory (no tiles, no register
// blocking). rtol/atol accept another order of the 8192-term sums, not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void standard_matmul_kernel(int m, int n, int k, const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ c) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; ++p) sum += a[static_cast<size_t>(row) * k + p] * b[static_cast<size_t>(p) * n + col];
    c[static_cast<size_t>(row) * n + col] = sum;
  }
}

void kb_standard_matrix_multiplication(int m, int k, int n, const float* a, const float* b, float* c,
                                       cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
  standard_matmul_kernel<<<grid, block, 0, s>>>(m, n, k, a, b, c);
  detail::check_launch("kb_standard_matrix_multiplication");
}

}  // namespace bench::kb
