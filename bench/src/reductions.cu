// Sums over one dimension: the last one (row_sum) and the middle one of a
// 3-D tensor (dim_sum, torch.sum(x, dim=1)).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per row walking its row; neighbouring threads read
// addresses `cols` floats apart, so no load coalesces, and only `rows`
// threads run. Reordering the float sum changes rounding, hence rtol.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void row_sum_kernel(int rows, int cols, const float* x, float* out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += x[static_cast<size_t>(row) * cols + c];
  out[row] = sum;
}

// Naive: every element adds itself into its output with atomicAdd, the
// textbook first attempt at a reduction; d1 atomics meet on every address.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void dim_sum_kernel(int b, int d1, int d2, const float* x, float* out) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(b) * d1 * d2) return;
  int j = static_cast<int>(i % d2);
  int batch = static_cast<int>(i / (static_cast<long long>(d1) * d2));
  atomicAdd(&out[static_cast<size_t>(batch) * d2 + j], x[i]);
}

void row_sum(int rows, int cols, const float* x, float* out, cudaStream_t s) {
  if (rows <= 0) return;
  row_sum_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, cols, x, out);
  detail::check_launch("row_sum");
}

void dim_sum(int b, int d1, int d2, const float* x, float* out, cudaStream_t s) {
  if (b <= 0 || d2 <= 0) return;
  detail::check_launch("dim_sum", cudaMemsetAsync(out, 0, sizeof(float) * static_cast<size_t>(b) * d2, s));
  long long n = static_cast<long long>(b) * d1 * d2;
  if (n == 0) return;
  dim_sum_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(b, d1, d2, x, out);
  detail::check_launch("dim_sum");
}

}  // namespace bench
