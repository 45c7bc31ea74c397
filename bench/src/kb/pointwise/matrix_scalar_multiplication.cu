// KernelBench 5: C = A * s, a matrix times a scalar.
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one element per thread on a 32 x 8 block, scalar loads and stores;
// rows beyond the grid's reach loop by the grid's height.
template <typename T>
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-7")
__global__ void matrix_scalar_kernel(const T* __restrict__ a, T s, T* __restrict__ c, int64_t rows, int64_t cols) {
  const int64_t col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  for (int64_t row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y; row < rows;
       row += static_cast<int64_t>(gridDim.y) * blockDim.y)
    c[row * cols + col] = a[row * cols + col] * s;
}

void kb_matrix_scalar_multiplication(int64_t rows, int64_t cols, const float* a, float scalar, float* c,
                                     cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid(static_cast<unsigned>((cols + block.x - 1) / block.x),
                  static_cast<unsigned>(std::min<int64_t>((rows + block.y - 1) / block.y, 65535)));
  matrix_scalar_kernel<float><<<grid, block, 0, s>>>(a, scalar, c, rows, cols);
  detail::check_launch("kb_matrix_scalar_multiplication");
}

}  // namespace bench::kb
