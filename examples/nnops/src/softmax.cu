// Row-wise softmax.
#include <cstddef>

#include "cuda_check.h"
#include "nnops/nnops.h"

namespace nnops {

// Naive: one thread per row, three passes over the row (max, sum of exp,
// normalize). Only `rows` threads run, and neighbouring threads read
// addresses `cols` floats apart, so no load is coalesced.
[[stark::optimize("rtol=1e-4", "atol=1e-8")]] __global__ void softmax_rows_kernel(int rows, int cols, const float* x,
                                                                                   float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * cols;
  float* out = y + static_cast<size_t>(row) * cols;

  float max_value = -INFINITY;
  for (int c = 0; c < cols; ++c) max_value = fmaxf(max_value, in[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += expf(in[c] - max_value);
  for (int c = 0; c < cols; ++c) out[c] = expf(in[c] - max_value) / sum;
}

void softmax_rows(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  softmax_rows_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, cols, x, y);
  NNOPS_CHECK_LAUNCH();
}

}  // namespace nnops
