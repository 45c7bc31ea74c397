// Five-point stencil (one Jacobi step of the 2-D Laplace equation).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: 16x16 blocks, one point per thread, all five neighbours loaded from
// global memory (the caches catch most reuse; shared-memory tiles and
// several points per thread are what is left).
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-6")
__global__ void stencil5_kernel(int rows, int cols, const float* in, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  size_t i = static_cast<size_t>(r) * cols + c;
  if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1) {
    out[i] = in[i];
  } else {
    out[i] = 0.2f * (in[i] + in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1]);
  }
}

void stencil5(int rows, int cols, const float* in, float* out, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  stencil5_kernel<<<grid, block, 0, s>>>(rows, cols, in, out);
  detail::check_launch("stencil5");
}

}  // namespace bench
