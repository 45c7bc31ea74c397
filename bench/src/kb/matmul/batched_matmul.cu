// Batched matrix multiplication (KernelBench 3, torch.bmm): C[z] = A[z] B[z],
// A: batch x m x k, B: batch x k x n, C: batch x m x n.
#include <stark/stark.h>

#include <cstdint>
#include <stdexcept>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: the batch index in blockIdx.z, 16 x 16 blocks over each C[z], one
// output per thread, the k-loop reading A[z]'s row and B[z]'s column from
// global memory. 64-bit sizes; rtol/atol accept another order of the
// 1024-term sums, not TF32.
STARK_OPTIMIZE("rtol=5e-5", "atol=1e-5")
__global__ void batched_matmul_kernel(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  const int64_t z = blockIdx.z;
  const float* a_z = a + z * m * k;
  const float* b_z = b + z * k * n;
  float* c_z = c + z * m * n;
  const int64_t i = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  const int64_t j = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m || j >= n) return;
  float acc = 0.0f;
  for (int64_t p = 0; p < k; ++p) acc += a_z[i * k + p] * b_z[p * n + j];
  c_z[i * n + j] = acc;
}

void kb_batched_matrix_multiplication(int batch, int m, int k, int n, const float* a, const float* b, float* c,
                                      cudaStream_t s) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  if (batch > 65535) throw std::invalid_argument("bench::kb_batched_matrix_multiplication: batch > 65535");
  const dim3 block(16, 16);
  const dim3 grid((n + 15) / 16, (m + 15) / 16, batch);
  batched_matmul_kernel<<<grid, block, 0, s>>>(m, n, k, a, b, c);
  detail::check_launch("kb_batched_matrix_multiplication");
}

}  // namespace bench::kb
