// Matmul of triangular matrices: torch.triu(A @ B) for upper-triangular A, B
// (KernelBench 14) and torch.tril(A @ B) for lower-triangular ones
// (KernelBench 15), all n x n. Only the nonzero range of each dot product is
// summed: for upper A and B, A[i][p] B[p][j] vanishes unless i <= p <= j.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Upper (14). Naive: 16 x 16 blocks, one output per thread; a thread below the
// diagonal writes 0, one on or above it sums p = row..col from global memory
// (so the work per thread grows with col - row, and warps straddling the
// diagonal diverge). rtol/atol accept another order of the sums (up to 4096
// terms), not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void upper_triangular_matmul_kernel(int n, const float* __restrict__ a, const float* __restrict__ b,
                                               float* __restrict__ c) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  if (row <= col) {
    const float* a_row = a + static_cast<size_t>(row) * n;
    for (int p = row; p <= col; ++p) acc += a_row[p] * b[static_cast<size_t>(p) * n + col];
  }
  c[static_cast<size_t>(row) * n + col] = acc;
}

// Lower (15). Naive: a 1-D grid, one output per thread, the flat index split
// with / and %; above the diagonal the p-range j..i is empty and 0 is
// written. Same tolerances as the upper kernel.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void lower_triangular_matmul_kernel(size_t n, const float* a, const float* b, float* c) {
  const size_t o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= n * n) return;
  const size_t i = o / n, j = o % n;
  float acc = 0.0f;
  for (size_t p = j; p <= i; ++p) acc += a[i * n + p] * b[p * n + j];
  c[o] = acc;
}

void kb_matmul_for_upper_triangular_matrices(int n, const float* a, const float* b, float* c, cudaStream_t s) {
  if (n <= 0) return;
  const dim3 block(16, 16);
  const dim3 grid((n + 15) / 16, (n + 15) / 16);
  upper_triangular_matmul_kernel<<<grid, block, 0, s>>>(n, a, b, c);
  detail::check_launch("kb_matmul_for_upper_triangular_matrices");
}

void kb_matmul_for_lower_triangular_matrices(int n, const float* a, const float* b, float* c, cudaStream_t s) {
  if (n <= 0) return;
  const long long total = static_cast<long long>(n) * n;
  lower_triangular_matmul_kernel<<<detail::blocks_for(total), detail::kBlock, 0, s>>>(static_cast<size_t>(n), a, b,
                                                                                       c);
  detail::check_launch("kb_matmul_for_lower_triangular_matrices");
}

}  // namespace bench::kb
