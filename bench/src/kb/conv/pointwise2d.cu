// KernelBench 87: pointwise nn.Conv2d(cin, cout, kernel_size=1, bias=False):
// a cout x cin matrix applied at every pixel.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output element; x runs over the pixels, blockIdx.y
// over output channels and blockIdx.z over the batch (loops where they pass
// the grid's limits). Each output walks the cin channels of its pixel, one
// global load of x and one of the weight per channel, no reuse across
// output channels.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void pointwise2d_kernel(int n, int cin, size_t pixels, int cout, const float* __restrict__ x,
                                   const float* __restrict__ wt, float* __restrict__ y) {
  const size_t px = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (px >= pixels) return;
  for (int b = blockIdx.z; b < n; b += gridDim.z)
    for (int co = blockIdx.y; co < cout; co += gridDim.y) {
      const float* in = x + static_cast<size_t>(b) * cin * pixels + px;
      const float* row = wt + static_cast<size_t>(co) * cin;
      float acc = 0.0f;
      for (int ci = 0; ci < cin; ++ci) acc += in[ci * pixels] * row[ci];
      y[(static_cast<size_t>(b) * cout + co) * pixels + px] = acc;
    }
}

void kb_conv_pointwise_2d(int n, int cin, int h, int w, int cout, const float* x, const float* wt, float* y,
                          cudaStream_t s) {
  if (n <= 0 || cout <= 0 || h <= 0 || w <= 0) return;
  const size_t pixels = static_cast<size_t>(h) * w;
  const dim3 grid(detail::blocks_for(static_cast<long long>(pixels)), std::min(cout, 65535), std::min(n, 65535));
  pointwise2d_kernel<<<grid, detail::kBlock, 0, s>>>(n, cin, pixels, cout, x, wt, y);
  detail::check_launch("kb_conv_pointwise_2d");
}

}  // namespace bench::kb
