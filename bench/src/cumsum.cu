// Inclusive prefix sum along each row (KernelBench 89: torch.cumsum(x, dim=1)).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per row runs the sequential scan; neighbouring threads
// touch addresses `cols` floats apart and only `rows` threads run. A
// parallel scan adds in another order: rtol.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void cumsum_kernel(int rows, int cols, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float running = 0.0f;
  for (int c = 0; c < cols; ++c) {
    running += x[static_cast<size_t>(row) * cols + c];
    y[static_cast<size_t>(row) * cols + c] = running;
  }
}

void cumsum(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  cumsum_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, cols, x, y);
  detail::check_launch("cumsum");
}

}  // namespace bench
