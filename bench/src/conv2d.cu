// 2-D convolution, valid, stride 1, no bias (KernelBench 63).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive direct convolution: one thread per output element, the whole
// cin x k x k window read from global memory (no shared-memory tile, no
// reuse of the weights across outputs).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void conv2d_kernel(int n, int cin, int h, int w, int cout, int k, const float* x, const float* wt,
                              float* y) {
  int oh = h - k + 1, ow = w - k + 1;
  long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * cout * oh * ow) return;
  int col = static_cast<int>(o % ow), row = static_cast<int>(o / ow % oh);
  int co = static_cast<int>(o / (static_cast<long long>(ow) * oh) % cout);
  int img = static_cast<int>(o / (static_cast<long long>(ow) * oh * cout));
  float acc = 0.0f;
  for (int ci = 0; ci < cin; ++ci)
    for (int dy = 0; dy < k; ++dy)
      for (int dx = 0; dx < k; ++dx)
        acc += x[((static_cast<size_t>(img) * cin + ci) * h + row + dy) * w + col + dx] *
               wt[((static_cast<size_t>(co) * cin + ci) * k + dy) * k + dx];
  y[o] = acc;
}

void conv2d(int n, int cin, int h, int w, int cout, int k, const float* x, const float* wt, float* y,
            cudaStream_t s) {
  long long outputs = static_cast<long long>(n) * cout * (h - k + 1) * (w - k + 1);
  if (n <= 0 || cout <= 0 || h < k || w < k) return;
  conv2d_kernel<<<detail::blocks_for(outputs), detail::kBlock, 0, s>>>(n, cin, h, w, cout, k, x, wt, y);
  detail::check_launch("conv2d");
}

}  // namespace bench
