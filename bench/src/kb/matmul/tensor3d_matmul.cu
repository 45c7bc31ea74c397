// 3-D tensor times matrix (KernelBench 10, torch.matmul(A, B)): A (nb x m x k)
// times B (k x l) gives C (nb x m x l); every batch shares B.
#include <stark/stark.h>

#include <cstddef>
#include <stdexcept>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: a 3-D grid (x over C's columns, y over its rows, z over the batch),
// 64 x 4 blocks, one output per thread, the k-loop reading A's row and B's
// column from global memory. Written for any element type; the launcher
// launches it with float. rtol/atol accept another order of the 2048-term
// sums, not TF32.
template <typename T>
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void tensor3d_matmul_kernel(int m, int k, int l, const T* a, const T* b, T* c) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= l) return;
  const size_t batch_row = static_cast<size_t>(blockIdx.z) * m + row;  // row of A and C seen as (nb*m) x k, x l
  T acc = 0;
  for (int p = 0; p < k; ++p) acc += a[batch_row * k + p] * b[static_cast<size_t>(p) * l + col];
  c[batch_row * l + col] = acc;
}

void kb_3d_tensor_matrix_multiplication(int nb, int m, int k, int l, const float* a, const float* b, float* c,
                                        cudaStream_t s) {
  if (nb <= 0 || m <= 0 || l <= 0) return;
  if (nb > 65535) throw std::invalid_argument("bench::kb_3d_tensor_matrix_multiplication: nb > 65535");
  const dim3 block(64, 4);
  const dim3 grid((l + 63) / 64, (m + 3) / 4, nb);
  tensor3d_matmul_kernel<float><<<grid, block, 0, s>>>(m, k, l, a, b, c);
  detail::check_launch("kb_3d_tensor_matrix_multiplication");
}

}  // namespace bench::kb
