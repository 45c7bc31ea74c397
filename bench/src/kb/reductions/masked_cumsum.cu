// Masked cumulative sum along each row (KernelBench 93: torch.cumsum(x * mask, dim=1), mask bool).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row walks the flat index range of its row, adding
// x * mask element by element. Neighbouring threads are a row apart
// (128 KB of x, 32 KB of mask) and only `rows` threads work. A parallel scan
// adds in another order.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void masked_cumsum_kernel(size_t rows, size_t cols, const float* x, const bool* mask, float* y) {
  const size_t row = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float running = 0.0f;
  for (size_t i = row * cols, end = i + cols; i < end; ++i) {
    running += x[i] * static_cast<float>(mask[i]);  // x * mask, as torch promotes it
    y[i] = running;
  }
}

void kb_masked_cumsum(int rows, int cols, const float* x, const bool* mask, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  masked_cumsum_kernel<<<(rows + 63) / 64, 64, 0, s>>>(rows, cols, x, mask, y);
  detail::check_launch("kb::kb_masked_cumsum");
}

}  // namespace bench::kb
