// Matmul of symmetric matrices (KernelBench 13): C = A B for n x n A and B
// that happen to be symmetric; the kernel computes the plain product.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: 2-D grid-stride loops over C (the grid is capped, so a thread may
// own several outputs), 16 x 16 blocks, the k-loop reading A's row and B's
// column from global memory. Written for any element type, instantiated for
// float. rtol/atol accept another order of the 4096-term sums, not TF32.
template <typename T>
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void symmetric_matmul_kernel(unsigned n, const T* a, const T* b, T* c) {
  for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < n; row += gridDim.y * blockDim.y) {
    for (unsigned col = blockIdx.x * blockDim.x + threadIdx.x; col < n; col += gridDim.x * blockDim.x) {
      T acc = T(0);
      for (unsigned p = 0; p < n; ++p) acc += a[static_cast<size_t>(row) * n + p] * b[static_cast<size_t>(p) * n + col];
      c[static_cast<size_t>(row) * n + col] = acc;
    }
  }
}

template __global__ void symmetric_matmul_kernel<float>(unsigned, const float*, const float*, float*);

void kb_matmul_for_symmetric_matrices(int n, const float* a, const float* b, float* c, cudaStream_t s) {
  if (n <= 0) return;
  const unsigned tiles = static_cast<unsigned>(std::min((n + 15) / 16, 128));
  symmetric_matmul_kernel<float><<<dim3(tiles, tiles), dim3(16, 16), 0, s>>>(static_cast<unsigned>(n), a, b, c);
  detail::check_launch("kb_matmul_for_symmetric_matrices");
}

}  // namespace bench::kb
