// KernelBench 62: nn.Conv2d(cin, cout, (kh, kw), bias=False) on a square
// input with a 5 x 9 kernel, valid, stride 1.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: blockIdx.y picks the output channel (a loop when there are more
// channels than gridDim.y), the flat x index covers batch x oh x ow, one
// output per thread, the window and the weights read from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv2d_5x9_kernel(const int n, const int cin, const int h, const int w, const int cout, const int kh,
                                  const int kw, const float* __restrict__ x, const float* __restrict__ wt,
                                  float* __restrict__ y) {
  const int oh = h - kh + 1, ow = w - kw + 1;
  const size_t plane = static_cast<size_t>(oh) * ow;
  const size_t p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= n * plane) return;
  const size_t b = p / plane;
  const int oy = static_cast<int>(p % plane / ow), ox = static_cast<int>(p % ow);
  for (int co = blockIdx.y; co < cout; co += gridDim.y) {
    const float* f = wt + static_cast<size_t>(co) * cin * kh * kw;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci) {
      const float* in = x + ((b * cin + ci) * h + oy) * w + ox;
      for (int ky = 0; ky < kh; ++ky)
        for (int kx = 0; kx < kw; ++kx) acc += in[ky * w + kx] * f[(ci * kh + ky) * kw + kx];
    }
    y[(b * cout + co) * plane + p % plane] = acc;
  }
}

void kb_conv_standard_2d_square_input_asymmetric_kernel(int n, int cin, int h, int w, int cout, int kh, int kw,
                                                        const float* x, const float* wt, float* y,
                                                        cudaStream_t s) {
  if (n <= 0 || cout <= 0 || h < kh || w < kw) return;
  const long long positions = static_cast<long long>(n) * (h - kh + 1) * (w - kw + 1);
  const dim3 grid(detail::blocks_for(positions), static_cast<unsigned>(std::min(cout, 65535)));
  conv2d_5x9_kernel<<<grid, detail::kBlock, 0, s>>>(n, cin, h, w, cout, kh, kw, x, wt, y);
  detail::check_launch("kb_conv_standard_2d_square_input_asymmetric_kernel");
}

}  // namespace bench::kb
