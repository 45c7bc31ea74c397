// KernelBench 30: Softsign, x / (1 + |x|).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// The matrix's extent, passed by value.
struct Extent {
  int rows;
  int cols;
};

// Naive: one element per thread on 16 x 16 blocks tiling the matrix
// (threadIdx.x along a row), a true division per element.
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-7")
__global__ void softsign_kernel(Extent e, const float* x, float* y) {
  const int c = blockIdx.x * 16 + threadIdx.x;
  const int r = blockIdx.y * 16 + threadIdx.y;
  if (r < e.rows && c < e.cols) {
    const size_t i = static_cast<size_t>(r) * e.cols + c;
    y[i] = x[i] / (1.0f + fabsf(x[i]));
  }
}

void kb_softsign(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  const Extent e{rows, cols};
  softsign_kernel<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16), 0, s>>>(e, x, y);
  detail::check_launch("kb_softsign");
}

}  // namespace bench::kb
