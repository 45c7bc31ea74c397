// Square fp32 matrix multiplication (KernelBench 1).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per output in 16x16 blocks, both operands straight from
// global memory, no tiling, no register blocking. rtol/atol allow another
// k-order but not TF32.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void matmul_kernel(int n, const float* a, const float* b, float* c) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < n; ++p) acc += a[static_cast<size_t>(row) * n + p] * b[static_cast<size_t>(p) * n + col];
  c[static_cast<size_t>(row) * n + col] = acc;
}

void matmul(int n, const float* a, const float* b, float* c, cudaStream_t s) {
  if (n <= 0) return;
  dim3 block(16, 16);
  dim3 grid((n + 15) / 16, (n + 15) / 16);
  matmul_kernel<<<grid, block, 0, s>>>(n, a, b, c);
  detail::check_launch("matmul");
}

}  // namespace bench
