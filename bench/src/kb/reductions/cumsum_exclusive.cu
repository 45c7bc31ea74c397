// Exclusive cumulative sum along each row (KernelBench 92: zeros concatenated
// before torch.cumsum of x without its last column): y[r][0] = 0 and
// y[r][c] = x[r][0] + ... + x[r][c-1]. The output has x's shape.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// The matrix's sizes, passed by value.
struct ScanShape {
  int rows;
  int cols;
};

// Naive: one thread per row writes the running sum before adding the
// element in. Neighbouring threads are a row (128 KB) apart and only `rows`
// threads work. A parallel scan adds in another order.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void cumsum_exclusive_kernel(ScanShape shape, const float* __restrict__ x, float* __restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= shape.rows) return;
  const float* in = x + static_cast<size_t>(row) * shape.cols;
  float* out = y + static_cast<size_t>(row) * shape.cols;
  float before = 0.0f;
  for (int c = 0; c < shape.cols; ++c) {
    out[c] = before;
    before += in[c];
  }
}

void kb_cumsum_exclusive(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  const ScanShape shape{rows, cols};
  cumsum_exclusive_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(shape, x, y);
  detail::check_launch("kb::kb_cumsum_exclusive");
}

}  // namespace bench::kb
