// KernelBench 12: diag(A) @ B, i.e. every row i of B scaled by A[i].
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one output element per thread over the flattened n x m matrix; the
// row comes from a 64-bit division and its diagonal entry is loaded again by
// every thread of the row.
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-7")
__global__ void diag_scale_rows_kernel(size_t n, size_t m, const float* diag, const float* b, float* c) {
  const size_t idx = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= n * m) return;
  const size_t row = idx / m;
  c[idx] = diag[row] * b[idx];
}

void kb_matmul_with_diagonal_matrices(size_t n, size_t m, const float* diag, const float* b, float* c,
                                      cudaStream_t s) {
  if (n == 0 || m == 0) return;
  const size_t total = n * m;
  diag_scale_rows_kernel<<<static_cast<unsigned>((total + 255) / 256), 256, 0, s>>>(n, m, diag, b, c);
  detail::check_launch("kb_matmul_with_diagonal_matrices");
}

}  // namespace bench::kb
