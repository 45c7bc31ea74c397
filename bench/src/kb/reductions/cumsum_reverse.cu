// Reverse cumulative sum along each row (KernelBench 91:
// torch.cumsum(x.flip(1), dim=1).flip(1)): y[r][c] = x[r][c] + ... + x[r][cols-1].
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop over rows, one row per thread scanned from its
// last element back to its first. Neighbouring threads are a row (128 KB)
// apart and only `rows` threads work. A parallel scan adds in another order.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void cumsum_reverse_kernel(int64_t rows, int64_t cols, const float* x, float* y) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < rows; row += step) {
    float running = 0.0f;
    for (int64_t c = cols - 1; c >= 0; --c) {
      running += x[row * cols + c];
      y[row * cols + c] = running;
    }
  }
}

void kb_cumsum_reverse(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  cumsum_reverse_kernel<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, x, y);
  detail::check_launch("kb::kb_cumsum_reverse");
}

}  // namespace bench::kb
