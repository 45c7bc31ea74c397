// Matmul with a small K (KernelBench 7): C (m x n) = A (m x k) B (k x n) with
// k = 64, so writing C dominates.
#include <stark/stark.h>

#include <cstddef>
#include <stdexcept>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// The sizes, passed by value.
struct SmallKDims {
  int m, n, k;
};

// Naive: one block row of 256 threads per row of C (the row is blockIdx.y),
// one output per thread, the 64-long k-loop reading A's row (the same for the
// whole block) and B's column from global memory. Written for any element
// type, instantiated for float. rtol/atol accept another order of the 64-term
// sums, not TF32.
template <typename T>
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void small_k_matmul_kernel(SmallKDims d, const T* __restrict__ a, const T* __restrict__ b,
                                      T* __restrict__ c) {
  const int row = blockIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= d.n) return;
  const T* a_row = a + static_cast<size_t>(row) * d.k;
  T acc = T(0);
  for (int p = 0; p < d.k; ++p) acc += a_row[p] * b[static_cast<size_t>(p) * d.n + col];
  c[static_cast<size_t>(row) * d.n + col] = acc;
}

template __global__ void small_k_matmul_kernel<float>(SmallKDims, const float* __restrict__,
                                                      const float* __restrict__, float* __restrict__);

void kb_matmul_with_small_k_dimension(int m, int k, int n, const float* a, const float* b, float* c,
                                      cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  if (m > 65535) throw std::invalid_argument("bench::kb_matmul_with_small_k_dimension: m > 65535");
  const SmallKDims d{m, n, k};
  const dim3 grid((n + 255) / 256, m);
  small_k_matmul_kernel<float><<<grid, 256, 0, s>>>(d, a, b, c);
  detail::check_launch("kb_matmul_with_small_k_dimension");
}

}  // namespace bench::kb
