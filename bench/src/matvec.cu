// Matrix-vector product (KernelBench 4).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: one thread per row (2048 threads in all) walks its 16384-long row;
// neighbouring threads read 64 KB apart.
STARK_OPTIMIZE("rtol=1e-4", "atol=5e-3")
__global__ void matvec_kernel(int m, int k, const float* a, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[static_cast<size_t>(row) * k + p] * x[p];
  y[row] = acc;
}

void matvec(int m, int k, const float* a, const float* x, float* y, cudaStream_t s) {
  if (m <= 0) return;
  matvec_kernel<<<detail::blocks_for(m), detail::kBlock, 0, s>>>(m, k, a, x, y);
  detail::check_launch("matvec");
}

}  // namespace bench
