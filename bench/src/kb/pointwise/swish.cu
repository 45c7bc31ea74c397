// KernelBench 25: Swish, x * sigmoid(x).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: the grid's y walks the rows (looping when there are more rows than
// grid rows), its x covers a row's columns a thread each; expf and a true
// division per element.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void swish_kernel(int rows, int cols, const float* x, float* y) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  for (int row = blockIdx.y; row < rows; row += gridDim.y) {
    const size_t at = static_cast<size_t>(row) * cols + col;
    const float v = x[at];
    y[at] = v / (1.0f + expf(-v));
  }
}

void kb_swish(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  const dim3 grid(detail::blocks_for(cols), static_cast<unsigned>(std::min(rows, 65535)));
  swish_kernel<<<grid, detail::kBlock, 0, s>>>(rows, cols, x, y);
  detail::check_launch("kb_swish");
}

}  // namespace bench::kb
