// Sparse matrix times dense vector, CSR.
#include <stark/stark.h>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive "scalar CSR": one thread per row walks its nonzeros; neighbouring
// threads read different rows' runs of col_idx/vals, so loads rarely
// coalesce (a warp per row is the known fix).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void spmv_csr_kernel(int rows, const int* row_ptr, const int* col_idx, const float* vals, const float* x,
                                float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float acc = 0.0f;
  for (int e = row_ptr[row]; e < row_ptr[row + 1]; ++e) acc += vals[e] * x[col_idx[e]];
  y[row] = acc;
}

void spmv_csr(int rows, const int* row_ptr, const int* col_idx, const float* vals, const float* x, float* y,
              cudaStream_t s) {
  if (rows <= 0) return;
  spmv_csr_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, row_ptr, col_idx, vals, x, y);
  detail::check_launch("spmv_csr");
}

}  // namespace bench
