// Matmul with a large K (KernelBench 6): C (m x n) = A (m x k) B (k x n) with
// k = 512 m, so every output is a 131072-term dot product and there are only
// 65536 of them.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// Naive: a 1-D grid-stride loop over the outputs, one output per iteration,
// its index split with / and %; the whole k-loop runs in one thread, so the
// 65536 outputs give 65536 threads. rtol/atol accept another order of the
// 131072-term sums (about 1e-5 of the output's rms), not TF32.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void large_k_matmul_kernel(size_t m, size_t n, size_t k, const float* a, const float* b, float* c) {
  const size_t total = m * n;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += stride) {
    const size_t i = o / n, j = o % n;
    const float* a_row = a + i * k;
    float acc = 0.0f;
    for (size_t p = 0; p < k; ++p) acc += a_row[p] * b[p * n + j];
    c[o] = acc;
  }
}

void kb_matmul_with_large_k_dimension(int m, int k, int n, const float* a, const float* b, float* c,
                                      cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  const long long total = static_cast<long long>(m) * n;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>((total + 255) / 256, 65535));
  large_k_matmul_kernel<<<blocks, 256, 0, s>>>(static_cast<size_t>(m), static_cast<size_t>(n),
                                                static_cast<size_t>(k < 0 ? 0 : k), a, b, c);
  detail::check_launch("kb_matmul_with_large_k_dimension");
}

}  // namespace bench::kb
