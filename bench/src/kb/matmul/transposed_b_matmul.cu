// Matmul with B transposed (KernelBench 17, torch.matmul(A, B.T)): A is m x k,
// B is stored n x k, C = A B^T is m x n.
#include <stark/stark.h>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: a 1-D grid, one output per thread, the flat index split with / and %
// into (i, j); C[i][j] is the dot product of A's row i and B's row j, each
// thread walking both rows, so a warp's B reads are k floats apart.
// rtol/atol accept another order of the 8192-term sums, not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void transposed_b_matmul_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(m) * n) return;
  const int i = static_cast<int>(o / n);
  const int j = static_cast<int>(o % n);
  const float* a_row = a + static_cast<long long>(i) * k;
  const float* b_row = b + static_cast<long long>(j) * k;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a_row[p] * b_row[p];
  c[o] = acc;
}

void kb_matmul_with_transposed_b(int m, int k, int n, const float* a, const float* b, float* c, cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  transposed_b_matmul_kernel<<<detail::blocks_for(static_cast<long long>(m) * n), detail::kBlock, 0, s>>>(m, n, k, a,
                                                                                                            b, c);
  detail::check_launch("kb_matmul_with_transposed_b");
}

}  // namespace bench::kb
