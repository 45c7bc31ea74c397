// Matmul with both operands transposed (KernelBench 18, torch.matmul(A.T, B.T)):
// A is stored k x m, B is stored n x k, C = A^T B^T is m x n.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// The sizes, passed by value.
struct TransposedDims {
  int m, n, k;
};

// Naive: 16 x 16 blocks, one output per thread, x over C's rows so that a
// warp reads 16 neighbouring elements of the stored A and 2 B elements per
// step; C[i][j] sums A[p][i] * B[j][p] over p from global memory, and each
// output is written 2 rows apart from its warp neighbours'. rtol/atol accept
// another order of the 8192-term sums, not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void transposed_both_matmul_kernel(TransposedDims d, const float* a, const float* b, float* c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= d.m || j >= d.n) return;
  const float* b_row = b + static_cast<size_t>(j) * d.k;
  float acc = 0.0f;
  for (int p = 0; p < d.k; ++p) acc += a[static_cast<size_t>(p) * d.m + i] * b_row[p];
  c[static_cast<size_t>(i) * d.n + j] = acc;
}

void kb_matmul_with_transposed_both(int m, int k, int n, const float* a, const float* b, float* c,
                                    cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  const TransposedDims d{m, n, k};
  transposed_both_matmul_kernel<<<dim3((m + 15) / 16, (n + 15) / 16), dim3(16, 16), 0, s>>>(d, a, b, c);
  detail::check_launch("kb_matmul_with_transposed_both");
}

}  // namespace bench::kb
