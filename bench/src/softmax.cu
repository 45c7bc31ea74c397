// Row-wise softmax (torch.softmax(x, dim=1)).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per row, three passes (max, sum of exp, normalise);
// neighbouring threads read 32 KB apart and only `rows` threads run.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-8")
__global__ void softmax_kernel(int rows, int cols, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<size_t>(row) * cols;
  float* out = y + static_cast<size_t>(row) * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += expf(in[c] - m);
  for (int c = 0; c < cols; ++c) out[c] = expf(in[c] - m) / sum;
}

void softmax(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  softmax_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, cols, x, y);
  detail::check_launch("softmax");
}

}  // namespace bench
