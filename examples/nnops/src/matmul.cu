// Dense fp32 matrix multiplication.
#include <stark/stark.h>

#include <cstddef>

#include "cuda_check.h"
#include "nnops/nnops.h"

namespace nnops {

// Naive: one thread per output element, a 2-D grid of 16x16 blocks, every
// operand read straight from global memory (no tiling, no register
// blocking, no tensor cores). Reordering the k-sum changes rounding, hence
// rtol/atol; they are tight enough to reject TF32.
STARK_OPTIMIZE("budget=40", "rtol=1e-4", "atol=1e-5")
__global__ void matmul_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[static_cast<size_t>(row) * k + p] * b[static_cast<size_t>(p) * n + col];
  c[static_cast<size_t>(row) * n + col] = acc;
}

void matmul(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  dim3 block(16, 16);
  dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
  matmul_kernel<<<grid, block, 0, s>>>(m, n, k, a, b, c);
  NNOPS_CHECK_LAUNCH();
}

}  // namespace nnops
