// Matrix transpose.
#include <cstddef>

#include "cuda_check.h"
#include "nnops/nnops.h"

namespace nnops {

// Naive: a 2-D grid of 16x16 blocks, one element per thread, no shared
// memory. Reads are coalesced, but neighbouring threads write addresses
// `rows` floats apart.
[[stark::optimize]] __global__ void transpose_kernel(int rows, int cols, const float* in, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;  // column of `in`
  int r = blockIdx.y * blockDim.y + threadIdx.y;  // row of `in`
  if (r < rows && c < cols) out[static_cast<size_t>(c) * rows + r] = in[static_cast<size_t>(r) * cols + c];
}

void transpose(int rows, int cols, const float* in, float* out, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  dim3 block(16, 16);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_kernel<<<grid, block, 0, s>>>(rows, cols, in, out);
  NNOPS_CHECK_LAUNCH();
}

}  // namespace nnops
