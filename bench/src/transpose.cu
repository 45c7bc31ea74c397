// Matrix transpose.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: 16x16 blocks, one element per thread, no shared-memory tile: reads
// coalesce, writes land `rows` floats apart.
[[stark::optimize]] __global__ void transpose_kernel(int rows, int cols, const float* in, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[static_cast<size_t>(c) * rows + r] = in[static_cast<size_t>(r) * cols + c];
}

void transpose(int rows, int cols, const float* in, float* out, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  transpose_kernel<<<grid, block, 0, s>>>(rows, cols, in, out);
  detail::check_launch("transpose");
}

}  // namespace bench
