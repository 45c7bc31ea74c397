// Matmul with irregular shapes (KernelBench 8): C (m x n) = A (m x k) B (k x n)
// with m = 8205, k = 2949, n = 5921, none a multiple of a warp or a tile.
#include <stark/stark.h>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: 16 x 16 blocks, one output per thread, guarded on both edges; a
// pointer walks down B's column (a stride of n floats per step) while A's row
// is indexed. rtol/atol accept another order of the 2949-term sums, not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void irregular_matmul_kernel(const float* a, const float* b, float* c, int m, int k, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  const float* a_row = a + static_cast<long long>(row) * k;
  const float* b_col = b + col;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p, b_col += n) acc += a_row[p] * *b_col;
  c[static_cast<long long>(row) * n + col] = acc;
}

void kb_matmul_with_irregular_shapes(int m, int k, int n, const float* a, const float* b, float* c,
                                     cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  dim3 block(16, 16);
  dim3 grid((n + 15) / 16, (m + 15) / 16);
  irregular_matmul_kernel<<<grid, block, 0, s>>>(a, b, c, m, k, n);
  detail::check_launch("kb_matmul_with_irregular_shapes");
}

}  // namespace bench::kb
