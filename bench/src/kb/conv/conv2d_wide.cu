// KernelBench 55: nn.Conv2d(cin, cout, (k, k), bias=False) on a wide input
// (width twice the height), valid, stride 1.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output element, 16 x 16 blocks over the output
// plane, grid.z over (batch, output channel) pairs (several per thread when
// there are more pairs than gridDim.z). No tile: every tap of the
// cin x k x k window comes from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv2d_wide_kernel(int n, int cin, int h, int w, int cout, int k, const float* x, const float* wt,
                                   float* y) {
  int oh = h - k + 1, ow = w - k + 1;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= ow || row >= oh) return;
  for (int plane = blockIdx.z; plane < n * cout; plane += gridDim.z) {
    int img = plane / cout, co = plane % cout;
    float sum = 0.0f;
    for (int ci = 0; ci < cin; ++ci)
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
          sum += x[((static_cast<size_t>(img) * cin + ci) * h + row + i) * w + col + j] *
                 wt[((static_cast<size_t>(co) * cin + ci) * k + i) * k + j];
    y[(static_cast<size_t>(plane) * oh + row) * ow + col] = sum;
  }
}

void kb_conv_standard_2d_asymmetric_input_square_kernel(int n, int cin, int h, int w, int cout, int k,
                                                        const float* x, const float* wt, float* y, cudaStream_t s) {
  if (n <= 0 || cout <= 0 || h < k || w < k) return;
  dim3 block(16, 16);
  dim3 grid((w - k + 1 + 15) / 16, (h - k + 1 + 15) / 16, std::min(n * cout, 65535));
  conv2d_wide_kernel<<<grid, block, 0, s>>>(n, cin, h, w, cout, k, x, wt, y);
  detail::check_launch("kb_conv_standard_2d_asymmetric_input_square_kernel");
}

}  // namespace bench::kb
