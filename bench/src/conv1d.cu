// 1-D convolution, valid, stride 1, no bias (KernelBench 67).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive direct convolution: one thread per output element, the cin x k
// window and the weights read from global memory every time.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void conv1d_kernel(int n, int cin, int len, int cout, int k, const float* x, const float* wt, float* y) {
  int olen = len - k + 1;
  long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * cout * olen) return;
  int t = static_cast<int>(o % olen);
  int co = static_cast<int>(o / olen % cout);
  int img = static_cast<int>(o / (static_cast<long long>(olen) * cout));
  float acc = 0.0f;
  for (int ci = 0; ci < cin; ++ci)
    for (int d = 0; d < k; ++d)
      acc += x[(static_cast<size_t>(img) * cin + ci) * len + t + d] * wt[(static_cast<size_t>(co) * cin + ci) * k + d];
  y[o] = acc;
}

void conv1d(int n, int cin, int len, int cout, int k, const float* x, const float* wt, float* y, cudaStream_t s) {
  if (n <= 0 || cout <= 0 || len < k) return;
  long long outputs = static_cast<long long>(n) * cout * (len - k + 1);
  conv1d_kernel<<<detail::blocks_for(outputs), detail::kBlock, 0, s>>>(n, cin, len, cout, k, x, wt, y);
  detail::check_launch("conv1d");
}

}  // namespace bench
